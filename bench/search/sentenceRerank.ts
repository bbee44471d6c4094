// A second semantic signal for the tool search, measured by the search bench and not shipped: sentence
// embeddings. On the held servers it did not lift recall (README.md here), so the extension keeps the
// lexical ranking and the optional word vectors. A sentence encoder (a model shipped in a package) turns each tool's text and each query into
// one unit vector; the lexical top candidates plus the tools nearest the query's vector are reranked by a
// blend of the lexical score (scaled to the best candidate's) and the cosine of the two vectors. The
// encoder is asynchronous and slow next to the lexical index (tens of milliseconds a query on a CPU), so
// the query's vector is computed by the caller and handed in; without it the answer is the lexical one.
// Deterministic: ties broken by server, then tool.
import { catalogFingerprint, type RerankOptions } from '../../src/core/search/semantic';
import { splitWords } from '../../src/core/search/tokens';
import type { SearchableTool, ToolHit, ToolIndex } from '../../src/core/search/toolSearch';

/**
 * Chosen on the seen half of the servers only (bench/search, `--seen-only`): the weight moved recall
 * little between 0.6 and 0.7; past 0.8 the weaker encoder outvotes the lexical match.
 */
export const DEFAULT_SENTENCE_RERANK: RerankOptions = { lexicalCandidates: 40, semanticCandidates: 10, semanticWeight: 0.6 };

/**
 * What the encoder reads of a tool: the words of its name and the first sentence of its description,
 * lowercased. The rest of a description is mostly about options and output, which pulls the vector away
 * from what the tool does.
 */
export function toolSentence(tool: SearchableTool): string {
  const description = (tool.description ?? '').replace(/\s+/g, ' ').trim();
  const first = description.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? description;
  return `${splitWords(tool.name).join(' ')}. ${first}`.toLowerCase();
}

/** The sentence vectors of one catalog's tools (unit length, in the catalog's order), kept while it does not change. */
export class ToolSentenceVectors {
  private constructor(readonly fingerprint: string, readonly model: string, private readonly vectors: readonly Float32Array[]) {}

  /** The vectors an encoder made of `toolSentence` of each tool of `tools`, in order; each is normalized. */
  static fromEmbeddings(tools: readonly SearchableTool[], model: string, vectors: readonly ArrayLike<number>[]): ToolSentenceVectors {
    if (vectors.length !== tools.length) throw new Error(`sentence vectors: ${vectors.length} vectors for ${tools.length} tools`);
    const dimensions = vectors[0]?.length ?? 0;
    const unit = vectors.map((vector) => {
      if (vector.length !== dimensions) throw new Error('sentence vectors: vectors of different lengths');
      return normalize(Float32Array.from(vector));
    });
    return new ToolSentenceVectors(catalogFingerprint(tools), model, unit);
  }

  /** What a cache keeps: the fingerprint, the model's name and the vectors (rounded to 4 decimals). */
  toJSON(): { fingerprint: string; model: string; vectors: number[][] } {
    return { fingerprint: this.fingerprint, model: this.model, vectors: this.vectors.map((vector) => Array.from(vector, (x) => Math.round(x * 1e4) / 1e4)) };
  }

  /** A cached value, when it was made for this catalog by this model; undefined otherwise (the caller re-encodes). */
  static fromJSON(value: unknown, tools: readonly SearchableTool[], model: string): ToolSentenceVectors | undefined {
    const v = value as { fingerprint?: unknown; model?: unknown; vectors?: unknown } | null;
    if (!v || v.fingerprint !== catalogFingerprint(tools) || v.model !== model || !Array.isArray(v.vectors) || v.vectors.length !== tools.length) return undefined;
    if (!v.vectors.every((row): row is number[] => Array.isArray(row) && row.every((x) => typeof x === 'number'))) return undefined;
    try {
      return ToolSentenceVectors.fromEmbeddings(tools, model, v.vectors);
    } catch {
      return undefined;
    }
  }

  vectorOf(index: number): Float32Array {
    return this.vectors[index];
  }

  get size(): number {
    return this.vectors.length;
  }

  get dimensions(): number {
    return this.vectors[0]?.length ?? 0;
  }
}

/** Lexical search reranked with sentence vectors; the lexical answer when no query vector is given. */
export class SentenceToolIndex {
  private readonly indexOf: ReadonlyMap<string, number>;

  constructor(
    private readonly lexical: ToolIndex,
    private readonly tools: readonly SearchableTool[],
    private readonly toolVectors: ToolSentenceVectors,
    private readonly options: RerankOptions = DEFAULT_SENTENCE_RERANK,
  ) {
    if (toolVectors.size !== tools.length) throw new Error('sentence vectors were made for another catalog');
    this.indexOf = new Map(tools.map((tool, index) => [`${tool.server}\u0000${tool.name}`, index]));
  }

  /** The best `k` tools for a need in words, given the encoder's vector of the same words. */
  query(text: string, k = 5, queryVector?: ArrayLike<number>): ToolHit[] {
    const lexicalHits = this.lexical.query(text, Math.max(k, this.options.lexicalCandidates));
    if (queryVector === undefined || this.tools.length === 0) return lexicalHits.slice(0, k);
    if (queryVector.length !== this.toolVectors.dimensions) throw new Error(`sentence vectors: the query's vector has ${queryVector.length} dimensions, the tools' ${this.toolVectors.dimensions}`);
    const query = normalize(Float32Array.from(queryVector));

    const lexicalScore = new Map<number, number>();
    const coverageOf = new Map<number, number>();
    for (const hit of lexicalHits) {
      const index = this.indexOf.get(`${hit.server}\u0000${hit.tool}`);
      if (index === undefined) continue;
      lexicalScore.set(index, hit.score);
      coverageOf.set(index, hit.coverage ?? 0);
    }
    const best = Math.max(0, ...lexicalScore.values());
    const cosine = this.tools.map((_, index) => dot(query, this.toolVectors.vectorOf(index)));
    const candidates = new Set(lexicalScore.keys());
    cosine.map((score, index) => ({ score, index }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, this.options.semanticCandidates)
      .forEach(({ index }) => candidates.add(index));

    const w = this.options.semanticWeight;
    return [...candidates]
      .map((index) => ({ index, score: (1 - w) * (best > 0 ? (lexicalScore.get(index) ?? 0) / best : 0) + w * cosine[index] }))
      .sort((a, b) => b.score - a.score || compare(this.tools[a.index].server, this.tools[b.index].server) || compare(this.tools[a.index].name, this.tools[b.index].name))
      .slice(0, k)
      .map(({ index, score }) => ({ server: this.tools[index].server, tool: this.tools[index].name, score: Math.round(score * 1000) / 1000, coverage: coverageOf.get(index) ?? 0 }));
  }
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
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
