// The semantic signal of the tool search: word vectors (an embedding table no one here writes) rerank
// the lexical candidates, so a need phrased in other words than the tool's ("how high above sea level"
// → elevation) still finds it. Each tool becomes the word vectors of its name, description and
// parameter names, weighted by how rare each word is in the catalog; a query scores a tool by how close
// each of its words comes to the tool's nearest word (the mean over query words, rare words counting
// more). The lexical top CANDIDATES plus the tools whose mean vector is nearest the query's are
// reranked by a blend of the two scores. Deterministic: no randomness, ties broken by server and tool.
import { isStopWord, splitWords } from './tokens';
import type { SearchableTool, ToolHit, ToolIndex } from './toolSearch';
import type { WordVectors } from './wordVectors';

/** How the lexical and semantic scores are blended, and how many candidates each side brings. */
export interface RerankOptions {
  /** Lexical hits reranked (the top of ToolIndex's ranking). */
  readonly lexicalCandidates: number;
  /** Tools added for their mean vector's closeness to the query's, lexical match or not. */
  readonly semanticCandidates: number;
  /** Weight of the semantic score; the lexical score (scaled to the best candidate's) gets 1 - this. */
  readonly semanticWeight: number;
}

export const DEFAULT_RERANK_OPTIONS: RerankOptions = { lexicalCandidates: 40, semanticCandidates: 10, semanticWeight: 0.5 };

/** How much each field's words count in a tool's vectors. */
const FIELD_WEIGHT = { name: 3, server: 1, description: 1, params: 0.5 };
/** Words of a description past this many say more about options than about what the tool does. */
const DESCRIPTION_WORDS = 60;

/** The words of a text that can carry meaning: lowercased, letters only, not function words. */
export function meaningWords(text: string): string[] {
  return splitWords(text).map((word) => word.toLowerCase()).filter((word) => /^\p{L}{2,}$/u.test(word) && !isStopWord(word));
}

interface ToolWords {
  readonly words: readonly string[];
  readonly weights: readonly number[];
}

/** The weighted words of each tool, and the catalog's inverse document frequency of each word. */
function catalogWords(tools: readonly SearchableTool[]): { perTool: ToolWords[]; idf: Map<string, number>; maxIdf: number } {
  const raw = tools.map((tool) => {
    const weights = new Map<string, number>();
    const add = (words: readonly string[], weight: number): void => {
      for (const word of words) weights.set(word, Math.max(weights.get(word) ?? 0, weight));
    };
    add(meaningWords(tool.name), FIELD_WEIGHT.name);
    add(meaningWords(tool.server), FIELD_WEIGHT.server);
    add(meaningWords(tool.description ?? '').slice(0, DESCRIPTION_WORDS), FIELD_WEIGHT.description);
    const properties = tool.inputSchema && typeof tool.inputSchema.properties === 'object' && tool.inputSchema.properties !== null ? Object.keys(tool.inputSchema.properties) : [];
    add(properties.flatMap((name) => meaningWords(name)), FIELD_WEIGHT.params);
    return weights;
  });
  const df = new Map<string, number>();
  for (const weights of raw) for (const word of weights.keys()) df.set(word, (df.get(word) ?? 0) + 1);
  const n = Math.max(1, tools.length);
  const idf = new Map([...df].map(([word, count]) => [word, Math.log(1 + n / count)]));
  const maxIdf = Math.log(1 + n);
  const perTool = raw.map((weights) => {
    const words = [...weights.keys()].sort();
    return { words, weights: words.map((word) => weights.get(word)! * idf.get(word)!) };
  });
  return { perTool, idf, maxIdf };
}

/**
 * The vectors of one catalog's tools: built once per catalog (the words of each tool and its mean
 * vector), kept while the catalog does not change; `toJSON`/`fromJSON` carry it to and from storage.
 */
export class ToolVectors {
  private constructor(
    readonly fingerprint: string,
    private readonly perTool: readonly ToolWords[],
    private readonly idf: ReadonlyMap<string, number>,
    private readonly maxIdf: number,
  ) {}

  /** The words and weights of every tool of `tools` (in its order). */
  static build(tools: readonly SearchableTool[]): ToolVectors {
    const { perTool, idf, maxIdf } = catalogWords(tools);
    return new ToolVectors(catalogFingerprint(tools), perTool, idf, maxIdf);
  }

  /** What a cache keeps. */
  toJSON(): { fingerprint: string; maxIdf: number; idf: [string, number][]; tools: ToolWords[] } {
    return { fingerprint: this.fingerprint, maxIdf: this.maxIdf, idf: [...this.idf], tools: this.perTool.map((t) => ({ words: [...t.words], weights: [...t.weights] })) };
  }

  /** A cached value, when it was made for this catalog; undefined otherwise (the caller rebuilds). */
  static fromJSON(value: unknown, tools: readonly SearchableTool[]): ToolVectors | undefined {
    const v = value as { fingerprint?: unknown; maxIdf?: unknown; idf?: unknown; tools?: unknown } | null;
    if (!v || v.fingerprint !== catalogFingerprint(tools) || typeof v.maxIdf !== 'number' || !Array.isArray(v.idf) || !Array.isArray(v.tools) || v.tools.length !== tools.length) return undefined;
    return new ToolVectors(v.fingerprint, v.tools as ToolWords[], new Map(v.idf as [string, number][]), v.maxIdf);
  }

  /**
   * How rare a word is in this catalog. A word no tool uses gets the catalog's mean: often a name or a
   * value ("La Paz", "John"), it should not outweigh the words of the need.
   */
  weightOf(word: string): number {
    return this.idf.get(word) ?? this.meanIdf();
  }

  private meanIdfValue: number | undefined;

  /** The mean rarity of the catalog's words. */
  private meanIdf(): number {
    if (this.meanIdfValue === undefined) {
      const values = [...this.idf.values()];
      this.meanIdfValue = values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : this.maxIdf;
    }
    return this.meanIdfValue;
  }

  /** The weighted words of the tool at `index`. */
  wordsOf(index: number): ToolWords {
    return this.perTool[index];
  }

  get size(): number {
    return this.perTool.length;
  }
}

/** A fingerprint of what the vectors are made of: each tool's server, name, description and parameter names. */
export function catalogFingerprint(tools: readonly SearchableTool[]): string {
  let hash = 0x811c9dc5;
  const feed = (text: string): void => {
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
  };
  for (const tool of tools) {
    const properties = tool.inputSchema && typeof tool.inputSchema.properties === 'object' && tool.inputSchema.properties !== null ? Object.keys(tool.inputSchema.properties) : [];
    feed(`${tool.server}\u0000${tool.name}\u0000${tool.description ?? ''}\u0000${properties.join(',')}\u0001`);
  }
  return `${tools.length}:${hash.toString(16)}`;
}

/** A tool's vectors against a table: its words' unit vectors and its weighted mean. */
interface Embedded {
  readonly vectors: readonly Float32Array[];
  /** Each word's weight relative to the tool's heaviest word, to the power WORD_WEIGHT_EXPONENT. */
  readonly factors: readonly number[];
  readonly mean: Float32Array | undefined;
}

/** Below this cosine two words are taken as unrelated (GloVe puts any two common words near 0.2–0.3). */
const RELATED = 0.35;
/** How much a tool word's own weight (name over description, rare over common) scales its match. */
const WORD_WEIGHT_EXPONENT = 0.5;

/** Lexical search reranked with word vectors; the same answers as ToolIndex when the query has no known word. */
export class SemanticToolIndex {
  private readonly embedded: Embedded[];
  private readonly indexOf: ReadonlyMap<string, number>;

  constructor(
    private readonly lexical: ToolIndex,
    private readonly tools: readonly SearchableTool[],
    private readonly toolVectors: ToolVectors,
    private readonly table: WordVectors,
    private readonly options: RerankOptions = DEFAULT_RERANK_OPTIONS,
  ) {
    if (toolVectors.size !== tools.length) throw new Error('tool vectors were built for another catalog');
    this.embedded = tools.map((_, index) => this.embed(toolVectors.wordsOf(index)));
    this.indexOf = new Map(tools.map((tool, index) => [`${tool.server}\u0000${tool.name}`, index]));
  }

  private embed({ words, weights }: ToolWords): Embedded {
    const vectors: Float32Array[] = [];
    const own: number[] = [];
    const mean = new Float32Array(this.table.dimensions);
    words.forEach((word, i) => {
      const vector = this.table.vector(word);
      if (!vector) return;
      vectors.push(vector);
      own.push(weights[i]);
      for (let d = 0; d < mean.length; d++) mean[d] += vector[d] * weights[i];
    });
    const heaviest = Math.max(0, ...own);
    return { vectors, factors: own.map((weight) => (heaviest > 0 ? (weight / heaviest) ** WORD_WEIGHT_EXPONENT : 0)), mean: vectors.length > 0 ? normalize(mean) : undefined };
  }

  /** The best `k` tools for a need in words. */
  query(text: string, k = 5): ToolHit[] {
    const queryWords = [...new Set(meaningWords(text))];
    const known = queryWords.map((word) => ({ vector: this.table.vector(word), weight: this.toolVectors.weightOf(word) }))
      .filter((entry): entry is { vector: Float32Array; weight: number } => entry.vector !== undefined);
    const lexicalHits = this.lexical.query(text, Math.max(k, this.options.lexicalCandidates));
    if (known.length === 0) return lexicalHits.slice(0, k);
    const queryMean = normalize(known.reduce((sum, { vector, weight }) => {
      for (let d = 0; d < sum.length; d++) sum[d] += vector[d] * weight;
      return sum;
    }, new Float32Array(this.table.dimensions)));

    const lexicalScore = new Map<number, number>();
    const coverageOf = new Map<number, number>();
    for (const hit of lexicalHits) {
      const index = this.indexOf.get(`${hit.server}\u0000${hit.tool}`);
      if (index === undefined) continue;
      lexicalScore.set(index, hit.score);
      coverageOf.set(index, hit.coverage ?? 0);
    }
    const best = Math.max(0, ...lexicalScore.values());
    const candidates = new Set(lexicalScore.keys());
    this.nearestByMean(queryMean, this.options.semanticCandidates).forEach((index) => candidates.add(index));

    const totalWeight = known.reduce((total, entry) => total + entry.weight, 0);
    const w = this.options.semanticWeight;
    return [...candidates]
      .map((index) => {
        const semantic = known.reduce((total, { vector, weight }) => total + weight * nearest(vector, this.embedded[index]), 0) / totalWeight;
        const lexical = best > 0 ? (lexicalScore.get(index) ?? 0) / best : 0;
        return { index, score: (1 - w) * lexical + w * semantic };
      })
      .sort((a, b) => b.score - a.score || compare(this.tools[a.index].server, this.tools[b.index].server) || compare(this.tools[a.index].name, this.tools[b.index].name))
      .slice(0, k)
      .map(({ index, score }) => ({ server: this.tools[index].server, tool: this.tools[index].name, score: Math.round(score * 1000) / 1000, coverage: coverageOf.get(index) ?? 0 }));
  }

  /** The `n` tools whose mean vector is closest to `query`. */
  private nearestByMean(query: Float32Array, n: number): number[] {
    const scored: { index: number; score: number }[] = [];
    this.embedded.forEach(({ mean }, index) => { if (mean) scored.push({ index, score: dot(query, mean) }); });
    return scored.sort((a, b) => b.score - a.score || a.index - b.index).slice(0, n).map(({ index }) => index);
  }
}

/**
 * How close a query word comes to a tool: its best match among the tool's words, a cosine above
 * RELATED rescaled to 0–1, scaled by that word's relative weight in the tool.
 */
function nearest(vector: Float32Array, tool: Embedded): number {
  let best = 0;
  for (let i = 0; i < tool.vectors.length; i++) {
    const related = (dot(vector, tool.vectors[i]) - RELATED) / (1 - RELATED);
    if (related > 0 && related * tool.factors[i] > best) best = related * tool.factors[i];
  }
  return best;
}

function dot(a: Float32Array, b: Float32Array): number {
  let total = 0;
  for (let i = 0; i < a.length; i++) total += a[i] * b[i];
  return total;
}

function normalize(vector: Float32Array): Float32Array {
  const norm = Math.sqrt(dot(vector, vector));
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return vector;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
