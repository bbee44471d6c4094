// The measurements of `npm run bench:search`, over the project's own search (src/core/search): how well
// ToolIndex ranks the expected tools of each query, how fast, and what the tool definitions of a turn
// cost with and without deferred loading. Bundled by run.mjs, which feeds it the catalogs and queries.
import { planToolLoading, type AlwaysLoad, type LoadableServer, type ToolLoadingPlan } from '../../src/core/search/deferredLoading';
import { DEFAULT_RERANK_OPTIONS, SemanticToolIndex, ToolVectors, type RerankOptions } from '../../src/core/search/semantic';
import { DEFAULT_SENTENCE_RERANK, SentenceToolIndex, toolSentence, ToolSentenceVectors } from './sentenceRerank';
import { ToolIndex, type SearchableTool, type ToolHit } from '../../src/core/search/toolSearch';
import { wordVectorsFromWink, type WordVectors } from '../../src/core/search/wordVectors';

export { DEFAULT_RERANK_OPTIONS, DEFAULT_SENTENCE_RERANK, toolSentence, ToolSentenceVectors, wordVectorsFromWink };
export { codeModeTokens } from './codeMode';

/** What the bench ranks with: the lexical index alone, or reranked with word vectors. */
export interface Ranker {
  query(text: string, k: number): ToolHit[];
}

/**
 * Sentence vectors for the sentence rerank: the tools' (made by the encoder before the run) and each
 * query's, looked up by its text (the encoder is asynchronous; run.mjs encodes every query first and
 * times the encoder on its own).
 */
export interface SentenceInput {
  readonly tools: ToolSentenceVectors;
  readonly queryVector: (text: string) => ArrayLike<number> | undefined;
  readonly options?: RerankOptions;
}

/** The lexical index, or the same reranked by word vectors (given a table) or by sentence vectors. */
export function makeRanker(catalog: readonly SearchableTool[], table?: WordVectors, options: RerankOptions = DEFAULT_RERANK_OPTIONS, sentence?: SentenceInput): Ranker {
  const lexical = new ToolIndex(catalog);
  if (sentence !== undefined) {
    const index = new SentenceToolIndex(lexical, catalog, sentence.tools, sentence.options ?? DEFAULT_SENTENCE_RERANK);
    return { query: (text, k) => index.query(text, k, sentence.queryVector(text)) };
  }
  if (table === undefined) return lexical;
  return new SemanticToolIndex(lexical, catalog, ToolVectors.build(catalog), table, options);
}

export interface BenchQuery {
  readonly id: string;
  readonly query: string;
  /** `server/tool` of each acceptable answer. */
  readonly expected: readonly string[];
}

/** How deep each query's ranking is read: MRR counts a first expected tool up to this rank. */
export const RANK_DEPTH = 10;

export interface QueryOutcome {
  readonly id: string;
  readonly query: string;
  /** Rank (1-based) of the first expected tool within RANK_DEPTH; null when none is there. */
  readonly rank: number | null;
  readonly top: readonly string[];
  readonly expected: readonly string[];
}

export interface RankingReport {
  readonly tools: number;
  readonly servers: number;
  readonly queries: number;
  readonly recallAt1: number;
  readonly recallAt5: number;
  readonly mrr: number;
  readonly indexBuildMs: number;
  readonly latency: { readonly medianMs: number; readonly p95Ms: number; readonly maxMs: number; readonly samples: number };
  /**
   * The same queries' CPU time (user + system of this process): unlike wall time it does not count
   * waiting for a core, the steadier figure on a shared machine.
   */
  readonly cpu: { readonly medianMs: number; readonly p95Ms: number };
  readonly outcomes: readonly QueryOutcome[];
}

/**
 * Ranks every query against the catalog. A query counts as found at k when any of its expected tools
 * is among the first k results (recall@k over queries, each query with one or more acceptable tools);
 * MRR is the mean of 1/rank of the first expected tool (0 past RANK_DEPTH). Latency: one untimed pass,
 * then `rounds` timed passes over all queries, each query timed on its own.
 */
export function evaluateRanking(catalog: readonly SearchableTool[], queries: readonly BenchQuery[], rounds = 5, table?: WordVectors, options?: RerankOptions, sentence?: SentenceInput): RankingReport {
  const known = new Set(catalog.map((tool) => `${tool.server}/${tool.name}`));
  for (const query of queries) {
    const missing = query.expected.filter((ref) => !known.has(ref));
    if (missing.length > 0) throw new Error(`query ${query.id}: expected tools not in the catalog: ${missing.join(', ')}`);
  }
  const buildStarted = performance.now();
  const index = makeRanker(catalog, table, options, sentence);
  const indexBuildMs = performance.now() - buildStarted;

  const outcomes = queries.map((query): QueryOutcome => {
    const top = index.query(query.query, RANK_DEPTH).map((hit) => `${hit.server}/${hit.tool}`);
    const position = top.findIndex((ref) => query.expected.includes(ref));
    return { id: query.id, query: query.query, rank: position === -1 ? null : position + 1, top, expected: query.expected };
  });

  const samples: number[] = [];
  const cpuSamples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const cpuStarted = process.cpuUsage();
      const started = performance.now();
      index.query(query.query, 5);
      samples.push(performance.now() - started);
      const cpu = process.cpuUsage(cpuStarted);
      cpuSamples.push((cpu.user + cpu.system) / 1000);
    }
  }
  const found = (k: number): number => outcomes.filter((outcome) => outcome.rank !== null && outcome.rank <= k).length / Math.max(1, outcomes.length);
  return {
    tools: catalog.length,
    servers: new Set(catalog.map((tool) => tool.server)).size,
    queries: queries.length,
    recallAt1: found(1),
    recallAt5: found(5),
    mrr: outcomes.reduce((total, outcome) => total + (outcome.rank === null ? 0 : 1 / outcome.rank), 0) / Math.max(1, outcomes.length),
    indexBuildMs,
    latency: { medianMs: quantile(samples, 0.5), p95Ms: quantile(samples, 0.95), maxMs: Math.max(...samples), samples: samples.length },
    cpu: { medianMs: quantile(cpuSamples, 0.5), p95Ms: quantile(cpuSamples, 0.95) },
    outcomes,
  };
}

export interface TokenReport {
  /** Estimated tokens of every tool definition, sent with every request when nothing is deferred. */
  readonly allTokens: number;
  readonly allTools: number;
  /** What `auto` decides for this catalog, and the tokens it sends per request before anything is found. */
  readonly autoMode: ToolLoadingPlan['mode'];
  readonly autoReason: ToolLoadingPlan['reason'];
  readonly deferredTokens: number;
  readonly deferredTools: number;
  readonly searchToolTokens: number;
  /** Whether the search tool's description lists the deferred names (they fit the default budget). */
  readonly namesListed: boolean;
  /** The same first request with the names list turned off (budget 0). */
  readonly deferredTokensWithoutNames: number;
  /** Mean estimated tokens of the top-5 tools a search adds to the following requests, over the queries. */
  readonly foundTop5Tokens: number;
}

/**
 * Token cost of the tool definitions per request, with deferred loading (setting `auto`, default
 * thresholds) and without (every tool). `alwaysLoad` per server comes from `alwaysLoad`.
 */
export function tokenCosts(catalog: readonly SearchableTool[], queries: readonly BenchQuery[], alwaysLoad: Readonly<Record<string, AlwaysLoad>> = {}): TokenReport {
  const servers = loadableServers(catalog, alwaysLoad);
  const every = planToolLoading(servers, 'all');
  const auto = planToolLoading(servers, 'auto');
  const withoutNames = planToolLoading(servers, 'auto', undefined, 0);
  const tokensOf = new Map(every.sent.map((tool) => [`${tool.server}/${tool.tool}`, tool.tokens]));
  const index = new ToolIndex(catalog);
  const foundTokens = queries.map((query) => index.query(query.query, 5).reduce((total, hit) => total + (tokensOf.get(`${hit.server}/${hit.tool}`) ?? 0), 0));
  return {
    allTokens: every.sentTokens,
    allTools: every.sent.length,
    autoMode: auto.mode,
    autoReason: auto.reason,
    deferredTokens: auto.sentTokens,
    deferredTools: auto.sent.length,
    searchToolTokens: auto.searchTool ? auto.sentTokens - auto.sent.reduce((total, tool) => total + tool.tokens, 0) : 0,
    namesListed: auto.searchTool?.description.includes('The tools, by server:') ?? false,
    deferredTokensWithoutNames: withoutNames.sentTokens,
    foundTop5Tokens: foundTokens.reduce((total, value) => total + value, 0) / Math.max(1, foundTokens.length),
  };
}

/** The catalog grouped by server, as the chat participant gives it to planToolLoading. */
function loadableServers(catalog: readonly SearchableTool[], alwaysLoad: Readonly<Record<string, AlwaysLoad>>): LoadableServer[] {
  const byServer = new Map<string, SearchableTool[]>();
  for (const tool of catalog) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
  return [...byServer].map(([server, tools]) => ({
    server,
    ...(alwaysLoad[server] !== undefined ? { alwaysLoad: alwaysLoad[server] } : {}),
    tools: tools.map((tool) => ({ name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), ...(tool.inputSchema ? { inputSchema: tool.inputSchema } : {}) })),
  }));
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}
