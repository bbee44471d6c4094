// The catalog search the model gets (DESIGN.md §5): a need in words → the best matching MCP tools, each
// with its model name, server and full input schema; and the tools one chat turn offers, chosen by the
// deferred-loading plan (src/core/search): every tool when the catalog is small, else the `alwaysLoad`
// ones and the search, with what the search found joining the later requests of the turn.
import { closestNames } from '../naming/suggestions';
import type { ToolRef } from '../naming/toolNames';
import {
  definitionsForRequest, planToolLoading, SEARCH_TOOL_NAME, SELECT_PREFIX, SemanticToolIndex, ToolIndex, ToolVectors,
  type SearchableTool, type ToolHit, type ToolLoadingPlan, type ToolLoadingSetting, type ToolLoadingThresholds, type WordVectors,
} from '../search';
import { inputSchemaOf, toolSpecOf, type ChatServer, type ModelTool, type ModelToolCatalog, type ModelToolSpec } from './modelTools';

/** How many tools a search returns unless asked for another number. */
export const DEFAULT_SEARCH_LIMIT = 5;
const MAX_SEARCH_LIMIT = 20;
/** Below this share of the query's words matched by the best hit, the answer also suggests names. */
const WEAK_COVERAGE = 0.5;
const SUGGESTIONS = 5;
const SUMMARY_LENGTH = 140;

/** A search hit as the model reads it. */
export interface FoundTool {
  readonly name: string;
  readonly server: string;
  readonly tool: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

/** What the search may use beyond the catalog: the servers' instructions, word vectors and their cache. */
export interface SearchContext {
  /** A server's `instructions`, which the search also reads and summarises. */
  readonly instructions?: (server: string) => string | undefined;
  /** The optional word vectors; without them the ranking is the lexical one. */
  readonly vectors?: WordVectors;
  /** Where tool vectors are kept between sessions (keyed by the catalog's fingerprint). */
  readonly vectorCache?: ToolVectorCache;
}

/** A store for the tool vectors of a catalog, so they are computed once per catalog change. */
export interface ToolVectorCache {
  get(): unknown;
  set(value: unknown): void;
}

interface Ranker { query(text: string, k: number): ToolHit[] }
const indexes = new WeakMap<ModelToolCatalog, { lexical: ToolIndex; semantic?: { table: WordVectors; index: SemanticToolIndex } }>();

function searchableOf(catalog: ModelToolCatalog, instructions: (server: string) => string | undefined): SearchableTool[] {
  return catalog.tools.map((tool) => {
    const serverInstructions = instructions(tool.server);
    return {
      server: tool.server,
      name: tool.tool.name,
      ...(tool.tool.description !== undefined ? { description: tool.tool.description } : {}),
      inputSchema: tool.tool.inputSchema,
      ...(serverInstructions !== undefined ? { serverInstructions } : {}),
    };
  });
}

/** The ranker of a catalog: built on first use, reranked with word vectors when the context has them. */
function rankerOf(catalog: ModelToolCatalog, context: SearchContext): Ranker {
  const instructions = context.instructions ?? (() => undefined);
  let entry = indexes.get(catalog);
  if (entry === undefined) {
    entry = { lexical: new ToolIndex(searchableOf(catalog, instructions)) };
    indexes.set(catalog, entry);
  }
  if (context.vectors === undefined) return entry.lexical;
  if (entry.semantic?.table !== context.vectors) {
    const tools = searchableOf(catalog, instructions);
    let vectors = context.vectorCache ? ToolVectors.fromJSON(context.vectorCache.get(), tools) : undefined;
    if (vectors === undefined) {
      vectors = ToolVectors.build(tools);
      context.vectorCache?.set(vectors.toJSON());
    }
    entry.semantic = { table: context.vectors, index: new SemanticToolIndex(entry.lexical, tools, vectors, context.vectors) };
  }
  return entry.semantic.index;
}

function rankedTools(catalog: ModelToolCatalog, query: string, limit: number, context: SearchContext): { tools: ModelTool[]; hits: ToolHit[] } {
  const k = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(limit)));
  const hits = rankerOf(catalog, context).query(query, k);
  const tools = hits.map((hit) => catalog.findByRef(hit.server, hit.tool)).filter((tool): tool is ModelTool => tool !== undefined);
  return { tools, hits };
}

/** A hit with what a model needs to call it. */
export function foundTool(tool: ModelTool): FoundTool {
  return { name: tool.qualifiedName, server: tool.server, tool: tool.tool.name, description: tool.tool.description ?? tool.tool.title ?? '', inputSchema: inputSchemaOf(tool.tool) };
}

/** What one call of the search tool answers: the tools it loads and the text the model reads. */
export interface SearchOutcome {
  readonly found: readonly ModelTool[];
  readonly text: string;
}

/**
 * Runs the search tool: `select:name,name` loads those tools by model name (unknown names come back
 * with the closest known ones); any other query ranks the catalog. The answer carries the tools, a
 * one-line summary of each of their servers, and, when the best match covers less than half of the
 * query's words or nothing matched, the names of the tools nearest the query's words.
 */
export function runToolSearch(catalog: ModelToolCatalog, query: string, limit = DEFAULT_SEARCH_LIMIT, context: SearchContext = {}): SearchOutcome {
  const trimmed = query.trim();
  if (trimmed.toLowerCase().startsWith(SELECT_PREFIX)) return selectTools(catalog, trimmed.slice(SELECT_PREFIX.length), context);
  const { tools, hits } = rankedTools(catalog, trimmed, limit, context);
  const weak = hits.length === 0 || (hits[0].coverage ?? 1) < WEAK_COVERAGE;
  const suggestions = weak ? nearestNames(catalog, trimmed, new Set(tools.map((tool) => tool.qualifiedName))) : [];
  if (tools.length === 0) {
    return { found: [], text: `No MCP tool matches "${trimmed}".${suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}? Load one with "${SELECT_PREFIX}<name>" or search with other words.` : ''}` };
  }
  return { found: tools, text: JSON.stringify({ tools: tools.map(foundTool), servers: summaries(catalog, tools, context), ...(suggestions.length > 0 ? { didYouMean: suggestions } : {}) }) };
}

/** `select:` names, comma- or space-separated: each a model name, or `server/tool`. */
function selectTools(catalog: ModelToolCatalog, names: string, context: SearchContext): SearchOutcome {
  const wanted = [...new Set(names.split(/[\s,]+/).filter((name) => name !== ''))];
  if (wanted.length === 0) return { found: [], text: `Give the tools' names after "${SELECT_PREFIX}", comma-separated (mcp__<server>__<tool>).` };
  const found: ModelTool[] = [];
  const unknown: { name: string; didYouMean: string[] }[] = [];
  for (const name of wanted) {
    const slash = name.indexOf('/');
    const tool = catalog.find(name) ?? (slash > 0 ? catalog.findByRef(name.slice(0, slash), name.slice(slash + 1)) : undefined);
    if (tool) {
      if (!found.includes(tool)) found.push(tool);
    } else unknown.push({ name, didYouMean: closestNames(name, catalog.names()) });
  }
  return { found, text: JSON.stringify({ tools: found.map(foundTool), servers: summaries(catalog, found, context), ...(unknown.length > 0 ? { unknown } : {}) }) };
}

/** One line per server of `tools`: its instructions' first sentence, else how many tools it has and a few names. */
function summaries(catalog: ModelToolCatalog, tools: readonly ModelTool[], context: SearchContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const server of [...new Set(tools.map((tool) => tool.server))].sort()) {
    const own = catalog.tools.filter((tool) => tool.server === server);
    const first = (context.instructions?.(server) ?? '').replace(/\s+/g, ' ').trim().match(/^.*?[.!?](\s|$)/)?.[0].trim();
    const names = own.slice(0, 4).map((tool) => tool.tool.name).join(', ');
    const line = first && first.length > 0 ? first : `${own.length} tool${own.length === 1 ? '' : 's'}: ${names}${own.length > 4 ? ', …' : ''}`;
    out[server] = line.length > SUMMARY_LENGTH ? `${line.slice(0, SUMMARY_LENGTH - 1)}…` : line;
  }
  return out;
}

/**
 * The model names whose words come nearest the query's: each query word scores its closest name word
 * (the same word, a prefix of three letters or more, or a word within a third of its length in edits).
 */
function nearestNames(catalog: ModelToolCatalog, query: string, exclude: ReadonlySet<string>): string[] {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 3);
  if (words.length === 0) return [];
  const scored = catalog.tools.filter((tool) => !exclude.has(tool.qualifiedName)).map((tool) => {
    const parts = `${tool.server} ${tool.tool.name}`.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((part) => part !== '');
    const score = words.reduce((total, word) => total + Math.max(0, ...parts.map((part) => wordCloseness(word, part))), 0);
    return { name: tool.qualifiedName, score };
  }).filter((entry) => entry.score > 0);
  scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, SUGGESTIONS).map((entry) => entry.name);
}

function wordCloseness(word: string, part: string): number {
  if (word === part) return 1;
  if (part.length >= 3 && (word.startsWith(part) || part.startsWith(word))) return 0.8;
  return closestNames(word, [part]).length > 0 ? 0.5 : 0;
}

export interface ToolOfferOptions extends SearchContext {
  readonly setting?: ToolLoadingSetting;
  readonly thresholds?: ToolLoadingThresholds;
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
    const { found, text } = runToolSearch(this.catalog, query, typeof input.limit === 'number' ? input.limit : DEFAULT_SEARCH_LIMIT, this.options);
    for (const tool of found) this.found.push({ server: tool.server, tool: tool.tool.name });
    return text;
  }
}
