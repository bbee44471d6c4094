// The semantic signal of the tool search: a word-vector table (a fixture of a few hand-made vectors
// here, so the expectations are exact), its compact binary form, and the reranker's contract on a tiny
// catalog — what it adds to the lexical ranking, and what it leaves alone.
import * as assert from 'node:assert/strict';
import { catalogFingerprint, SemanticToolIndex, ToolVectors } from '../../src/core/search/semantic';
import { ToolIndex, type SearchableTool } from '../../src/core/search/toolSearch';
import { decodeWordVectors, encodeWordVectors, QuantizedWordVectors, wordVectorsFromWink } from '../../src/core/search/wordVectors';

const CATALOG: SearchableTool[] = [
  { server: 'maps', name: 'maps_elevation', description: 'Get elevation data for locations on the earth.' },
  { server: 'maps', name: 'maps_geocode', description: 'Convert an address into geographic coordinates.' },
  { server: 'files', name: 'list_directory_with_sizes', description: 'List the entries of a directory with their sizes.' },
  { server: 'files', name: 'read_file', description: 'Read the contents of a file.' },
  { server: 'memory', name: 'delete_entities', description: 'Delete entities and their relations from the knowledge graph.' },
  { server: 'memory', name: 'create_entities', description: 'Create entities in the knowledge graph.' },
];

/**
 * Four directions of meaning: height (x), place (y), removal (z), size (w). Words of one direction are
 * near each other (cosine > 0.9) and far from the others (< 0.2).
 */
const FIXTURE: [string, number[]][] = [
  ['elevation', [1, 0, 0, 0]], ['summit', [0.95, 0.1, 0, 0]], ['high', [0.9, 0.15, 0, 0.1]],
  ['address', [0, 1, 0, 0]], ['coordinates', [0.1, 0.95, 0, 0]], ['street', [0, 0.95, 0.05, 0]], ['locations', [0.1, 0.9, 0, 0]],
  ['delete', [0, 0, 1, 0]], ['discard', [0, 0, 0.95, 0.1]], ['remove', [0, 0.05, 0.95, 0]],
  ['sizes', [0, 0, 0, 1]], ['biggest', [0.15, 0, 0, 0.95]], ['disk', [0, 0.1, 0, 0.9]],
  ['create', [0, 0, -0.5, 0.2]], ['file', [0, 0.2, 0, 0.3]], ['entities', [0, 0.3, 0.2, 0]], ['read', [0.05, 0.1, 0, 0.1]],
];

const table = QuantizedWordVectors.fromFloat(4, FIXTURE);
const lexical = new ToolIndex(CATALOG);
const semantic = new SemanticToolIndex(lexical, CATALOG, ToolVectors.build(CATALOG), table);
const top = (index: { query(text: string, k: number): { server: string; tool: string }[] }, query: string, k = 3) => index.query(query, k).map((hit) => `${hit.server}/${hit.tool}`);

describe('word vectors', () => {
  it('keeps each word as a unit vector close to the float one (int8 with a scale per word)', () => {
    const elevation = table.vector('elevation')!;
    assert.equal(elevation.length, 4);
    assert.ok(Math.abs(elevation[0] - 1) < 1e-6);
    const summit = table.vector('summit')!;
    const norm = Math.hypot(0.95, 0.1);
    assert.ok(Math.abs(summit[0] - 0.95 / norm) < 0.01 && Math.abs(summit[1] - 0.1 / norm) < 0.01);
    assert.equal(table.vector('zebra'), undefined);
  });

  it('round-trips through the binary form, and refuses other bytes', () => {
    const decoded = decodeWordVectors(encodeWordVectors(table));
    assert.deepEqual(decoded.words, table.words);
    for (const word of table.words) assert.deepEqual(decoded.vector(word), table.vector(word));
    assert.throws(() => decodeWordVectors(new TextEncoder().encode('hello')), /not a word-vector file/);
    const bytes = encodeWordVectors(table);
    assert.throws(() => decodeWordVectors(bytes.subarray(0, bytes.length - 1)), /wrong size/);
  });

  it('reads the wink package JSON: lowercase words only, in its order, up to the limit', () => {
    const json = { dimensions: 2, words: ['the', 'Paris', 'run', '42', 'walk'], vectors: { the: [1, 0, 1, 0], Paris: [0, 1, 1, 1], run: [0, 2, 2, 2], '42': [1, 1, 1, 3], walk: [3, 4, 5, 4] } };
    assert.deepEqual(wordVectorsFromWink(json).words, ['the', 'run', 'walk']);
    assert.deepEqual(wordVectorsFromWink(json, 2).words, ['the', 'run']);
    assert.throws(() => wordVectorsFromWink({ words: [] }), /not the JSON of a wink embeddings package/);
  });
});

describe('SemanticToolIndex', () => {
  it('finds a tool through a word of the same meaning that no tool uses', () => {
    // "summit" and "high" are in no tool's text (nor in the synonym table): the lexical index has nothing to go on.
    assert.deepEqual(top(lexical, 'how high is the summit of Denver'), []);
    assert.deepEqual(top(semantic, 'how high is the summit of Denver', 1), ['maps/maps_elevation']);
  });

  it('reorders the lexical candidates by meaning', () => {
    // Lexically "entities" is in both memory tools, and "create"/"delete" are not in the query.
    assert.deepEqual(top(lexical, 'discard these entities', 2), ['memory/create_entities', 'memory/delete_entities']);
    assert.deepEqual(top(semantic, 'discard these entities', 2), ['memory/delete_entities', 'memory/create_entities']);
    assert.deepEqual(top(semantic, 'which folders take the most disk, biggest first', 1), ['files/list_directory_with_sizes']);
    assert.deepEqual(top(semantic, 'street address to coordinates', 1), ['maps/maps_geocode']);
  });

  it('leaves the lexical ranking as it is when no word of the query has a vector', () => {
    for (const query of ['contents of the directory', 'knowledge graph', 'zzqx']) assert.deepEqual(top(semantic, query, 6), top(lexical, query, 6), query);
  });

  it('is deterministic: the same answers, scores included, every time', () => {
    const again = new SemanticToolIndex(new ToolIndex(CATALOG), CATALOG, ToolVectors.build(CATALOG), decodeWordVectors(encodeWordVectors(table)));
    for (const query of ['summit', 'discard these entities', 'biggest disk']) assert.deepEqual(again.query(query, 6), semantic.query(query, 6));
  });

  it('keeps tool vectors for the catalog they were made for, and only for it', () => {
    const stored = JSON.parse(JSON.stringify(ToolVectors.build(CATALOG).toJSON())) as unknown;
    const restored = ToolVectors.fromJSON(stored, CATALOG);
    assert.ok(restored);
    assert.deepEqual(new SemanticToolIndex(lexical, CATALOG, restored, table).query('summit', 3), semantic.query('summit', 3));
    const changed = CATALOG.map((tool) => (tool.name === 'read_file' ? { ...tool, description: 'Read a file as text.' } : tool));
    assert.notEqual(catalogFingerprint(changed), catalogFingerprint(CATALOG));
    assert.equal(ToolVectors.fromJSON(stored, changed), undefined);
    assert.equal(ToolVectors.fromJSON({ fingerprint: 'x' }, CATALOG), undefined);
  });
});
