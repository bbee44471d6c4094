// Search over a catalog of tools: BM25 ranking (MiniSearch) over the tool's name parts, description,
// parameter names and descriptions, server name and server instructions, with light stemming, English
// function words left out, a small synonym table (Chinese included), hints from the shape of the query's
// words (`package.json` → file), prefix matching for longer terms, a preference for tools that match
// more of the query, and for the tools of a server the query names. Deterministic: equal scores are
// ordered by server, then tool. Measured by `npm run bench:search` (bench/search).
import MiniSearch from 'minisearch';
import { queryHints } from './queryHints';
import { aliasesOf, expansionsOf, synonymsOf } from './synonyms';
import { searchTerms, splitWords } from './tokens';

/** A tool as the search sees it (the `search-tools` catalog format). */
export interface SearchableTool {
  readonly server: string;
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** The server's `instructions` from initialize. */
  readonly serverInstructions?: string;
}

export interface ToolHit {
  readonly server: string;
  readonly tool: string;
  readonly score: number;
  /** The share of the query's terms the tool matched (as written or through a synonym), 0–1. */
  readonly coverage?: number;
}

interface Doc {
  id: number;
  server: string;
  tool: string;
  name: string;
  description: string;
  params: string;
  paramDescriptions: string;
  serverName: string;
  instructions: string;
}

/** How much a match in each field counts. */
const BOOST = { name: 4, params: 1.5, serverName: 1.5, description: 1, paramDescriptions: 0.6, instructions: 0.3 };
/** How much a synonym of a query term counts against the term itself. */
const SYNONYM_WEIGHT = 0.5;
/**
 * A query that names a server ("…on github", "my notion workspace", "kubectl …") means that server's
 * tools: their score is multiplied by this. Per field, BM25 cannot say it: a server's name is in all of
 * its tools, so it weighs less than one rare word in another tool's name.
 */
const NAMED_SERVER_FACTOR = 2;
/**
 * A tool that matches more of the query's terms (as written or through a synonym) is the better answer:
 * BM25 sums per-term scores, so one rare term can outweigh three common ones. The score is scaled by
 * FLOOR + (1 - FLOOR) × the share of query terms matched.
 */
const COVERAGE_FLOOR = 0.5;

/** An index over one catalog; build once, search many times. */
export class ToolIndex {
  private readonly search: MiniSearch<Doc>;
  private readonly docs: Doc[];
  /** The search terms of each doc's server name. */
  private readonly serverTerms: ReadonlyMap<string, readonly string[]>;

  constructor(tools: readonly SearchableTool[]) {
    this.docs = tools.map((tool, id) => {
      const { names, descriptions } = parameterText(tool.inputSchema);
      return {
        id,
        server: tool.server,
        tool: tool.name,
        name: splitWords(tool.name).join(' '),
        description: tool.description ?? '',
        params: names,
        paramDescriptions: descriptions,
        serverName: splitWords(tool.server).join(' '),
        instructions: tool.serverInstructions ?? '',
      };
    });
    this.serverTerms = new Map(this.docs.map((doc) => [doc.server, searchTerms(doc.server)]));
    this.search = new MiniSearch<Doc>({
      fields: ['name', 'description', 'params', 'paramDescriptions', 'serverName', 'instructions'],
      storeFields: [],
      tokenize: (text) => searchTerms(text),
      processTerm: (term) => term,
    });
    this.search.addAll(this.docs);
  }

  /** The best `k` tools for a need in words; none for an empty query. */
  query(text: string, k = 5): ToolHit[] {
    const terms = [...new Set(searchTerms(text))];
    if (terms.length === 0) return [];
    // The words as written, and what their abbreviations stand for, count in full.
    const expanded = [...new Set(terms.flatMap((term) => expansionsOf(term)))].filter((term) => !terms.includes(term));
    const direct = [...terms, ...expanded];
    const withExpansions = (term: string): readonly string[] => [term, ...expansionsOf(term)];
    const scores = new Map<number, number>();
    /** Which of the query's terms each doc matched, as written or through an expansion or synonym. */
    const covered = new Map<number, Set<string>>();
    const add = (results: { id: number; score: number; queryTerms: string[] }[], weight: number, sources: (term: string) => readonly string[]): void => {
      for (const r of results) {
        scores.set(r.id, (scores.get(r.id) ?? 0) + r.score * weight);
        const set = covered.get(r.id) ?? new Set<string>();
        for (const term of r.queryTerms) for (const source of sources(term)) set.add(source);
        covered.set(r.id, set);
      }
    };
    add(this.search.search({ combineWith: 'OR', queries: direct }, {
      boost: BOOST,
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
    }), 1, (term) => terms.filter((source) => withExpansions(source).includes(term)));
    // Synonyms and the hints of the query's shape count less than the words as written.
    const related = [...new Set([...direct.flatMap((term) => synonymsOf(term)), ...queryHints(text)])].filter((term) => !direct.includes(term));
    const sourcesOf = (synonym: string): string[] => terms.filter((source) => withExpansions(source).some((term) => synonymsOf(term).includes(synonym)));
    // Only in names and descriptions: a synonym that meets a rare parameter name (`view`, `open`) says little.
    if (related.length > 0) add(this.search.search({ combineWith: 'OR', queries: related }, { boost: BOOST, fields: ['name', 'description'] }), SYNONYM_WEIGHT, sourcesOf);
    const coverage = (id: number): number => (covered.get(id)?.size ?? 0) / terms.length;
    // A server is named when every word of its name is in the query, as written or as an alias
    // ("google maps" names google-maps, "google" alone does not; "kubectl" names kubernetes).
    const named = new Set([...terms, ...terms.flatMap((term) => aliasesOf(term))]);
    const namesServer = (server: string): boolean => {
      const words = this.serverTerms.get(server) ?? [];
      return words.length > 0 && words.every((word) => named.has(word));
    };
    return [...scores]
      .map(([id, score]) => ({ doc: this.docs[id], score: score * (COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * coverage(id)) * (namesServer(this.docs[id].server) ? NAMED_SERVER_FACTOR : 1) }))
      .sort((a, b) => b.score - a.score || compare(a.doc.server, b.doc.server) || compare(a.doc.tool, b.doc.tool))
      .slice(0, k)
      .map(({ doc, score }) => ({ server: doc.server, tool: doc.tool, score: Math.round(score * 1000) / 1000, coverage: coverage(doc.id) }));
  }
}

/** The schema's top-level parameter names (split like tool names) and their descriptions. */
function parameterText(schema: Readonly<Record<string, unknown>> | undefined): { names: string; descriptions: string } {
  const properties = schema && typeof schema.properties === 'object' && schema.properties !== null ? schema.properties as Record<string, unknown> : {};
  const names: string[] = [];
  const descriptions: string[] = [];
  for (const [name, value] of Object.entries(properties)) {
    names.push(splitWords(name).join(' '));
    const description = (value as { description?: unknown } | null)?.description;
    if (typeof description === 'string') descriptions.push(description);
  }
  return { names: names.join(' '), descriptions: descriptions.join(' ') };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
