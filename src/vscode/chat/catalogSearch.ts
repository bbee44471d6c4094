// The catalog search the model gets (DESIGN.md §5): a need in words → the best matching MCP tools, each
// with its model name, server and full input schema. One index per tool list, rebuilt only when the
// servers' catalogs change.
import { inputSchemaOf, type ModelTool, type ModelToolCatalog, type ModelToolSpec } from '../../core/chat';
import { ToolIndex } from '../../core/search';

export const SEARCH_TOOL_NAME = 'switchboard_search_tools';
/** How many tools a search returns unless asked for another number. */
export const DEFAULT_SEARCH_LIMIT = 5;
const MAX_SEARCH_LIMIT = 20;

/** A search hit as the model reads it. */
export interface FoundTool {
  readonly name: string;
  readonly server: string;
  readonly tool: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

const indexes = new WeakMap<ModelToolCatalog, { index: ToolIndex; tools: readonly ModelTool[] }>();

/** The best `limit` tools of `catalog` for `query` (only among `among` when given). */
export function searchTools(catalog: ModelToolCatalog, query: string, limit = DEFAULT_SEARCH_LIMIT, instructions: (server: string) => string | undefined = () => undefined): ModelTool[] {
  let entry = indexes.get(catalog);
  if (entry === undefined) {
    const tools = catalog.tools;
    entry = {
      tools,
      index: new ToolIndex(tools.map((tool) => ({
        server: tool.server,
        name: tool.tool.name,
        ...(tool.tool.description !== undefined ? { description: tool.tool.description } : {}),
        inputSchema: tool.tool.inputSchema,
        ...(instructions(tool.server) !== undefined ? { serverInstructions: instructions(tool.server) } : {}),
      }))),
    };
    indexes.set(catalog, entry);
  }
  const k = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(limit)));
  return entry.index.query(query, k)
    .map((hit) => catalog.findByRef(hit.server, hit.tool))
    .filter((tool): tool is ModelTool => tool !== undefined);
}

/** A hit with what a model needs to call it. */
export function foundTool(tool: ModelTool): FoundTool {
  return { name: tool.qualifiedName, server: tool.server, tool: tool.tool.name, description: tool.tool.description ?? tool.tool.title ?? '', inputSchema: inputSchemaOf(tool.tool) };
}

/** The declaration of the search tool the @mcp participant gives a model when the catalog is too large to send whole. */
export const SEARCH_TOOL_SPEC: ModelToolSpec = {
  name: SEARCH_TOOL_NAME,
  description: 'Search the MCP tools of this workspace by what you need, in words. Returns the best matching tools with their full input schemas; they become callable by name right after.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What the tool should do, e.g. "read a file" or "create a GitHub issue".' },
      limit: { type: 'number', description: `How many tools to return (default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT}).` },
    },
    required: ['query'],
  },
};
