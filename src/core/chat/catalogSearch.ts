// The catalog search the model gets (DESIGN.md §5): a need in words → the best matching MCP tools, each
// with its model name, server and full input schema. One index per tool list, rebuilt only when the
// servers' catalogs change.
import { inputSchemaOf, toolSpecOf, type ModelTool, type ModelToolCatalog, type ModelToolSpec } from './modelTools';
import { ToolIndex } from '../search';

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

/**
 * The tools one @mcp turn offers the model: every tool when the catalog is small; otherwise the tools of
 * `alwaysLoad` servers, the catalog search, and whatever the search found so far in this turn.
 */
export class ToolOffer {
  private readonly full: readonly ModelTool[];
  private readonly deferred: readonly ModelTool[];
  private readonly discovered = new Map<string, ModelToolSpec>();

  constructor(private readonly catalog: ModelToolCatalog, maxFull?: number, private readonly instructions?: (server: string) => string | undefined) {
    ({ full: this.full, deferred: this.deferred } = catalog.partition(maxFull));
  }

  /** The declarations to send in the next round, in a stable order. */
  specs(): ModelToolSpec[] {
    return [...this.full.map(toolSpecOf), ...(this.deferred.length > 0 ? [SEARCH_TOOL_SPEC] : []), ...this.discovered.values()];
  }

  /** Whether `name` is the catalog search of this offer (offered only when some tools wait behind it). */
  isSearch(name: string): boolean {
    return name === SEARCH_TOOL_NAME && this.deferred.length > 0;
  }

  /** Runs the search the model asked for; what it finds is offered from the next round on. Returns the model's result text. */
  search(input: Readonly<Record<string, unknown>>): string {
    const query = typeof input.query === 'string' ? input.query : '';
    if (query.trim() === '') return 'Give a query: what the tool should do, in words.';
    const found = searchTools(this.catalog, query, typeof input.limit === 'number' ? input.limit : DEFAULT_SEARCH_LIMIT, this.instructions);
    for (const tool of found) if (!this.full.includes(tool)) this.discovered.set(tool.qualifiedName, toolSpecOf(tool));
    return found.length > 0 ? JSON.stringify(found.map(foundTool)) : `No MCP tool matches "${query}".`;
  }
}
