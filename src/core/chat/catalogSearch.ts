// The catalog search the model gets (DESIGN.md §5): a need in words → the best matching MCP tools, each
// with its model name, server and full input schema; and the tools one chat turn offers, chosen by the
// deferred-loading plan (src/core/search): every tool when the catalog is small, else the `alwaysLoad`
// ones and the search, with what the search found joining the later requests of the turn.
import type { ToolRef } from './toolNames';
import {
  definitionsForRequest, planToolLoading, SEARCH_TOOL_NAME, ToolIndex,
  type ToolLoadingPlan, type ToolLoadingSetting, type ToolLoadingThresholds,
} from '../search';
import { inputSchemaOf, toolSpecOf, type ChatServer, type ModelTool, type ModelToolCatalog, type ModelToolSpec } from './modelTools';

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

const indexes = new WeakMap<ModelToolCatalog, ToolIndex>();

/** The best `limit` tools of `catalog` for `query`; one index per catalog, built on first use. */
export function searchTools(catalog: ModelToolCatalog, query: string, limit = DEFAULT_SEARCH_LIMIT, instructions: (server: string) => string | undefined = () => undefined): ModelTool[] {
  let index = indexes.get(catalog);
  if (index === undefined) {
    index = new ToolIndex(catalog.tools.map((tool) => {
      const serverInstructions = instructions(tool.server);
      return {
        server: tool.server,
        name: tool.tool.name,
        ...(tool.tool.description !== undefined ? { description: tool.tool.description } : {}),
        inputSchema: tool.tool.inputSchema,
        ...(serverInstructions !== undefined ? { serverInstructions } : {}),
      };
    }));
    indexes.set(catalog, index);
  }
  const k = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(limit)));
  return index.query(query, k)
    .map((hit) => catalog.findByRef(hit.server, hit.tool))
    .filter((tool): tool is ModelTool => tool !== undefined);
}

/** A hit with what a model needs to call it. */
export function foundTool(tool: ModelTool): FoundTool {
  return { name: tool.qualifiedName, server: tool.server, tool: tool.tool.name, description: tool.tool.description ?? tool.tool.title ?? '', inputSchema: inputSchemaOf(tool.tool) };
}

export interface ToolOfferOptions {
  readonly setting?: ToolLoadingSetting;
  readonly thresholds?: ToolLoadingThresholds;
  /** A server's `instructions`, which the search also reads. */
  readonly instructions?: (server: string) => string | undefined;
}

/** The tools one @mcp turn offers the model, request by request. */
export class ToolOffer {
  readonly plan: ToolLoadingPlan;
  private readonly found: ToolRef[] = [];

  constructor(private readonly catalog: ModelToolCatalog, servers: readonly ChatServer[], private readonly options: ToolOfferOptions = {}) {
    const ready = servers.filter((server) => server.state.kind === 'ready');
    this.plan = planToolLoading(
      ready.map((server) => ({ server: server.id, alwaysLoad: server.catalog.alwaysLoad, tools: server.catalog.tools })),
      options.setting ?? 'auto',
      options.thresholds,
    );
  }

  /** The declarations for the next request, in a stable order: the plan's tools, the search, then what it found. */
  specs(): ModelToolSpec[] {
    return definitionsForRequest(this.plan, this.found).map((definition) => {
      if (definition.name === SEARCH_TOOL_NAME) return { name: definition.name, description: definition.description, inputSchema: { ...definition.inputSchema } };
      const tool = this.catalog.find(definition.name);
      return tool ? toolSpecOf(tool) : { name: definition.name, description: definition.description, inputSchema: { ...definition.inputSchema } };
    });
  }

  /** Whether `name` is the catalog search of this offer (offered only when some tools wait behind it). */
  isSearch(name: string): boolean {
    return name === SEARCH_TOOL_NAME && this.plan.searchTool !== undefined;
  }

  /** Runs the search the model asked for; what it finds is offered from the next request on. Returns the model's result text. */
  search(input: Readonly<Record<string, unknown>>): string {
    const query = typeof input.query === 'string' ? input.query : '';
    if (query.trim() === '') return 'Give a query: what the tool should do, in words.';
    const found = searchTools(this.catalog, query, typeof input.limit === 'number' ? input.limit : DEFAULT_SEARCH_LIMIT, this.options.instructions);
    for (const tool of found) this.found.push({ server: tool.server, tool: tool.tool.name });
    return found.length > 0 ? JSON.stringify(found.map(foundTool)) : `No MCP tool matches "${query}".`;
  }
}
