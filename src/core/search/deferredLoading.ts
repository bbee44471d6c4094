// Deferred loading: which tool definitions a chat request carries. A large catalog costs tens of
// thousands of tokens before the person has typed a word, and models pick worse among many tools; so
// when the catalog is large (or the setting says so) the model gets only the tools marked
// `alwaysLoad` plus one search tool, and the tools it finds join the later requests of the turn.
// Pure: the chat participant gives it the offered catalogs and the setting, and sends what it says.
import { qualifiedToolName, qualifyToolNames, sanitizeNamePart, type ToolRef } from '../naming/toolNames';
import { toolPatternMatches } from '../config/toolFilter';

/** The setting: always every tool, decide by size, or always through search. */
export type ToolLoadingSetting = 'all' | 'auto' | 'search';

/**
 * A server entry's `alwaysLoad`: `true` for all its tools, or the names of the tools to always send
 * (`*` matches any run of characters, as in `allowedTools`).
 */
export type AlwaysLoad = boolean | readonly string[];

/** Past either limit, `auto` defers: more tools than `maxTools`, or more estimated tokens than `maxTokens`. */
export interface ToolLoadingThresholds {
  readonly maxTools: number;
  readonly maxTokens: number;
}

export const DEFAULT_TOOL_LOADING_THRESHOLDS: ToolLoadingThresholds = { maxTools: 40, maxTokens: 10_000 };

/**
 * The search tool's description lists the deferred tools' names when the list costs at most this
 * share of the estimated tokens of every tool definition: the model's own knowledge of tool names then
 * does the matching, and `select:` loads what it picks.
 */
export const DEFAULT_NAMES_BUDGET = 0.03;

/** A tool as a server listed it (the shape of the offered catalog's tools). */
export interface LoadableTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Readonly<Record<string, unknown>>;
}

/** One server's offered tools and its entry's `alwaysLoad` (the offered catalog carries both). */
export interface LoadableServer {
  readonly server: string;
  readonly alwaysLoad?: AlwaysLoad;
  readonly tools: readonly LoadableTool[];
}

/** A tool definition as the model receives it: the name models know it by, its description and input schema. */
export interface ModelToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** A catalog tool with the definition the model would get and its estimated cost. */
export interface PlannedTool extends ToolRef {
  readonly definition: ModelToolDefinition;
  readonly tokens: number;
  readonly alwaysLoad: boolean;
}

export type ToolLoadingReason =
  /** The setting says `all` or `search`. */
  | 'forced'
  /** `auto`, and the catalog is within both thresholds. */
  | 'within-thresholds'
  /** `auto`, and the catalog has more tools than `maxTools`. */
  | 'too-many-tools'
  /** `auto`, within `maxTools` but over `maxTokens`. */
  | 'too-many-tokens';

export interface ToolLoadingPlan {
  /** `all`: every tool is sent; `search`: only the always-loaded ones, and the search tool when anything is left to find. */
  readonly mode: 'all' | 'search';
  readonly reason: ToolLoadingReason;
  /** The tools whose definitions go with every request of the turn, sorted by server, then tool. */
  readonly sent: readonly PlannedTool[];
  /** The tools left out, reachable through the search tool (empty in `all` mode). */
  readonly deferred: readonly PlannedTool[];
  /** The search tool's definition; absent when nothing is deferred. */
  readonly searchTool?: ModelToolDefinition;
  /** The whole catalog: how many tools, and their estimated tokens when all are sent. */
  readonly totalTools: number;
  readonly totalTokens: number;
  /** Estimated tokens of what is sent: `sent` plus the search tool. */
  readonly sentTokens: number;
}

/** The name of the search tool, the same as the language-model tool that runs the same search. */
export const SEARCH_TOOL_NAME = 'switchboard_search_tools';

/**
 * Tokens of a tool definition, estimated as characters / 4 of its JSON (rounded up): the common rule of
 * thumb for English text and JSON with BPE tokenizers. An estimate, not a count.
 */
export function estimateTokens(definition: ModelToolDefinition): number {
  return Math.ceil(JSON.stringify(definition).length / 4);
}

/** Whether a server entry's `alwaysLoad` covers one of its tools. */
export function isAlwaysLoaded(alwaysLoad: AlwaysLoad | undefined, toolName: string): boolean {
  if (alwaysLoad === undefined || alwaysLoad === false) return false;
  if (alwaysLoad === true) return true;
  return alwaysLoad.some((pattern) => toolPatternMatches(pattern, toolName));
}

/** Every tool of the catalogs with its model definition, cost and `alwaysLoad`, sorted by server, then tool. */
export function planTools(servers: readonly LoadableServer[]): PlannedTool[] {
  const byRef = new Map<string, { tool: LoadableTool; alwaysLoad: boolean }>();
  for (const server of servers) {
    for (const tool of server.tools) {
      byRef.set(`${server.server}\u0000${tool.name}`, { tool, alwaysLoad: isAlwaysLoaded(server.alwaysLoad, tool.name) });
    }
  }
  const refs = [...byRef.keys()].map((key) => {
    const [server, tool] = key.split('\u0000');
    return { server, tool };
  });
  return qualifyToolNames(refs).map((ref) => {
    const entry = byRef.get(`${ref.server}\u0000${ref.tool}`)!;
    const definition: ModelToolDefinition = {
      name: ref.qualifiedName,
      description: entry.tool.description ?? '',
      inputSchema: entry.tool.inputSchema ?? { type: 'object', properties: {} },
    };
    return { server: ref.server, tool: ref.tool, definition, tokens: estimateTokens(definition), alwaysLoad: entry.alwaysLoad };
  });
}

/** Decides which tool definitions a turn starts with, and whether the model gets the search tool. */
export function planToolLoading(
  servers: readonly LoadableServer[],
  setting: ToolLoadingSetting,
  thresholds: ToolLoadingThresholds = DEFAULT_TOOL_LOADING_THRESHOLDS,
  namesBudget = DEFAULT_NAMES_BUDGET,
): ToolLoadingPlan {
  const tools = planTools(servers);
  const totalTokens = sum(tools.map((tool) => tool.tokens));
  const totals = { totalTools: tools.length, totalTokens };
  let reason: ToolLoadingReason;
  if (setting !== 'auto') reason = 'forced';
  else if (tools.length > thresholds.maxTools) reason = 'too-many-tools';
  else if (totalTokens > thresholds.maxTokens) reason = 'too-many-tokens';
  else reason = 'within-thresholds';
  const defer = setting === 'search' || reason === 'too-many-tools' || reason === 'too-many-tokens';
  if (!defer) return { mode: 'all', reason, sent: tools, deferred: [], ...totals, sentTokens: totalTokens };
  const sent = tools.filter((tool) => tool.alwaysLoad);
  const deferred = tools.filter((tool) => !tool.alwaysLoad);
  const sentTokens = sum(sent.map((tool) => tool.tokens));
  if (deferred.length === 0) return { mode: 'search', reason, sent, deferred, ...totals, sentTokens };
  const searchTool = searchToolDefinition(deferred, { namesBudgetTokens: Math.floor(totalTokens * namesBudget) });
  return { mode: 'search', reason, sent, deferred, searchTool, ...totals, sentTokens: sentTokens + estimateTokens(searchTool) };
}

/**
 * The definitions for one request of the turn: the plan's tools, the search tool, and the deferred
 * tools the model has found so far (in the order found, each once; unknown or already-sent refs are ignored).
 */
export function definitionsForRequest(plan: ToolLoadingPlan, found: readonly ToolRef[]): ModelToolDefinition[] {
  const definitions = plan.sent.map((tool) => tool.definition);
  if (plan.searchTool) definitions.push(plan.searchTool);
  const added = new Set<PlannedTool>();
  for (const ref of found) {
    const tool = plan.deferred.find((candidate) => candidate.server === ref.server && candidate.tool === ref.tool);
    if (tool && !added.has(tool)) {
      added.add(tool);
      definitions.push(tool.definition);
    }
  }
  return definitions;
}

/** A deferred tool as the names list shows it: its ref, and its model name when the caller has it. */
type ListedTool = ToolRef & { readonly definition?: { readonly name: string } };

/** What goes before `select:` names in the search query. */
export const SELECT_PREFIX = 'select:';

/**
 * The deferred tools' names grouped by server, one line per server: `server: tool, tool`, a tool shown
 * by its own name when its model name is exactly `mcp__<server>__<tool>`, else by its model name. Sorted.
 */
export function deferredNamesList(deferred: readonly ListedTool[]): string {
  const byServer = new Map<string, string[]>();
  for (const ref of deferred) {
    const modelName = ref.definition?.name ?? qualifiedToolName(ref);
    // The plain name only when the model name can be told from it: `mcp__<server>__<tool>`, nothing replaced.
    const plain = sanitizeNamePart(ref.server) === ref.server && sanitizeNamePart(ref.tool) === ref.tool && `mcp__${ref.server}__${ref.tool}` === modelName ? ref.tool : modelName;
    byServer.set(ref.server, [...(byServer.get(ref.server) ?? []), plain]);
  }
  return [...byServer].sort(([a], [b]) => compare(a, b))
    .map(([server, tools]) => `${server}: ${[...tools].sort(compare).join(', ')}`).join('\n');
}

/** Options of the search tool's description. */
export interface SearchToolOptions {
  /** Estimated tokens the names list may cost; 0 (the default) lists no names. */
  readonly namesBudgetTokens?: number;
}

/**
 * The search tool, describing what it can find: how many tools are deferred and on which servers, and
 * their names grouped by server when the list fits `namesBudgetTokens`, so the model knows when
 * searching is worth a call and can load a tool it recognises by name.
 */
export function searchToolDefinition(deferred: readonly ListedTool[], options: SearchToolOptions = {}): ModelToolDefinition {
  const perServer = new Map<string, number>();
  for (const ref of deferred) perServer.set(ref.server, (perServer.get(ref.server) ?? 0) + 1);
  const servers = [...perServer].sort(([a], [b]) => compare(a, b)).map(([server, count]) => `${server} (${count})`).join(', ');
  const list = deferredNamesList(deferred);
  const listed = Math.ceil(list.length / 4) <= (options.namesBudgetTokens ?? 0);
  const intro = `Search the MCP tools that are not loaded yet and load the best matches: their full definitions are available from your next request on. `
    + `${deferred.length} tool${deferred.length === 1 ? '' : 's'} can be found, on these servers: ${servers}. `
    + 'Describe what you need to do in plain words (a server or product name helps); search again with other words if nothing fits. '
    + `To load tools you know by name, give the query "${SELECT_PREFIX}mcp__<server>__<tool>,mcp__<server>__<tool>".`;
  return {
    name: SEARCH_TOOL_NAME,
    description: listed ? `${intro}\nThe tools, by server:\n${list}` : intro,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: `What the tool should do, e.g. "create an issue in GitHub" or "list files in a folder"; or ${SELECT_PREFIX} and model names, comma-separated.` },
        limit: { type: 'integer', minimum: 1, maximum: 10, description: 'How many tools to load (default 5).' },
      },
      required: ['query'],
    },
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
