// Search over a catalog of tools: BM25 ranking (MiniSearch) over the tool's name parts, description,
// parameter names and descriptions, server name and server instructions, with light stemming, a small
// synonym table (Chinese included) and prefix matching for longer terms. Deterministic: equal scores
// are ordered by server, then tool.
import MiniSearch from 'minisearch';
import { synonymsOf } from './synonyms';
import { splitWords, tokenize } from './tokens';

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

/** An index over one catalog; build once, search many times. */
export class ToolIndex {
  private readonly search: MiniSearch<Doc>;
  private readonly docs: Doc[];

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
    this.search = new MiniSearch<Doc>({
      fields: ['name', 'description', 'params', 'paramDescriptions', 'serverName', 'instructions'],
      storeFields: [],
      tokenize: (text) => tokenize(text),
      processTerm: (term) => term,
    });
    this.search.addAll(this.docs);
  }

  /** The best `k` tools for a need in words; none for an empty query. */
  query(text: string, k = 5): ToolHit[] {
    const terms = [...new Set(tokenize(text))];
    if (terms.length === 0) return [];
    const scores = new Map<number, number>();
    const add = (results: { id: number; score: number }[], weight: number): void => {
      for (const r of results) scores.set(r.id, (scores.get(r.id) ?? 0) + r.score * weight);
    };
    add(this.search.search({ combineWith: 'OR', queries: terms }, {
      boost: BOOST,
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
    }), 1);
    const synonyms = [...new Set(terms.flatMap((term) => synonymsOf(term)))].filter((s) => !terms.includes(s));
    if (synonyms.length > 0) add(this.search.search({ combineWith: 'OR', queries: synonyms }, { boost: BOOST }), SYNONYM_WEIGHT);
    return [...scores]
      .map(([id, score]) => ({ doc: this.docs[id], score }))
      .sort((a, b) => b.score - a.score || compare(a.doc.server, b.doc.server) || compare(a.doc.tool, b.doc.tool))
      .slice(0, k)
      .map(({ doc, score }) => ({ server: doc.server, tool: doc.tool, score: Math.round(score * 1000) / 1000 }));
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
