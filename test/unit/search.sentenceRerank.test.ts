// The sentence-embedding rerank of the tool search, on a tiny catalog with a fixture of hand-made
// vectors (one per tool, one per query) standing in for an encoder, so every expected order is exact.
import * as assert from 'node:assert/strict';
import { SentenceToolIndex, toolSentence, ToolSentenceVectors } from '../../bench/search/sentenceRerank';
import { ToolIndex, type SearchableTool } from '../../src/core/search/toolSearch';

const CATALOG: SearchableTool[] = [
  { server: 'maps', name: 'maps_elevation', description: 'Get elevation data for locations on the earth. Takes a list of points.' },
  { server: 'maps', name: 'maps_geocode', description: 'Convert an address into geographic coordinates.' },
  { server: 'files', name: 'list_directory_with_sizes', description: 'List the entries of a directory with their sizes.' },
  { server: 'files', name: 'read_file', description: 'Read the contents of a file.' },
  { server: 'memory', name: 'delete_entities', description: 'Delete entities and their relations from the knowledge graph.' },
  { server: 'memory', name: 'create_entities', description: 'Create entities in the knowledge graph.' },
];

/** Four directions of meaning: height, place, removal, size; each tool's vector in the catalog's order. */
const TOOL_VECTORS = [
  [1, 0.1, 0, 0],
  [0.1, 1, 0, 0],
  [0, 0, 0, 1],
  [0, 0.3, 0, 0.4],
  [0, 0, 1, 0],
  [0, 0.2, 0.1, 0.1],
];

/** What the encoder would say of each query. */
const QUERY_VECTORS: Record<string, number[]> = {
  'how high above sea level is la paz': [0.9, 0.3, 0, 0],
  'these entities are obsolete': [0, 0, 0.9, 0.1],
  'which folders take the most disk': [0, 0.1, 0, 0.9],
  'read the knowledge graph': [0, 0.3, 0, 0.4],
};

const vectors = ToolSentenceVectors.fromEmbeddings(CATALOG, 'fixture', TOOL_VECTORS);
const lexical = new ToolIndex(CATALOG);
const sentence = new SentenceToolIndex(lexical, CATALOG, vectors);
const refs = (hits: readonly { server: string; tool: string }[]) => hits.map((hit) => `${hit.server}/${hit.tool}`);
const ranked = (query: string, k = 3) => refs(sentence.query(query, k, QUERY_VECTORS[query]));

describe('sentence rerank', () => {
  it('gives the encoder the words of the name and the first sentence of the description, lowercased', () => {
    assert.equal(toolSentence(CATALOG[0]), 'maps elevation. get elevation data for locations on the earth.');
    assert.equal(toolSentence({ server: 's', name: 'listIssues' }), 'list issues. ');
    assert.equal(toolSentence({ server: 's', name: 'x', description: 'No full stop here' }), 'x. no full stop here');
  });

  it('finds by meaning a tool no word of the query names', () => {
    assert.deepEqual(refs(lexical.query('how high above sea level is la paz', 3)), []);
    assert.deepEqual(ranked('how high above sea level is la paz'), ['maps/maps_elevation', 'maps/maps_geocode', 'memory/create_entities']);
    assert.deepEqual(ranked('which folders take the most disk', 2), ['files/list_directory_with_sizes', 'files/read_file']);
  });

  it('reorders the lexical candidates by meaning', () => {
    assert.deepEqual(refs(lexical.query('these entities are obsolete', 2)), ['memory/create_entities', 'memory/delete_entities']);
    assert.deepEqual(ranked('these entities are obsolete', 2), ['memory/delete_entities', 'memory/create_entities']);
  });

  it('blends the two scores: (1 - weight) × lexical / best lexical + weight × cosine', () => {
    const hits = sentence.query('read the knowledge graph', 6, QUERY_VECTORS['read the knowledge graph']);
    // The query's vector is read_file's own (cosine 1), which is also the best lexical match: 0.4 + 0.6.
    // The size tool has no lexical match but cosine 0.8 (0.48): above delete_entities, a lexical match
    // orthogonal to the query's meaning.
    assert.deepEqual(refs(hits), ['files/read_file', 'memory/create_entities', 'files/list_directory_with_sizes', 'maps/maps_geocode', 'memory/delete_entities', 'maps/maps_elevation']);
    const lexicalHits = lexical.query('read the knowledge graph', 40);
    const best = lexicalHits[0].score;
    const unit = (v: number[]) => v.map((x) => x / Math.hypot(...v));
    const q = unit(QUERY_VECTORS['read the knowledge graph']);
    for (const hit of hits) {
      const index = CATALOG.findIndex((tool) => tool.server === hit.server && tool.name === hit.tool);
      const cosine = unit(TOOL_VECTORS[index]).reduce((total, x, d) => total + x * q[d], 0);
      const lexicalPart = (lexicalHits.find((h) => h.server === hit.server && h.tool === hit.tool)?.score ?? 0) / best;
      assert.ok(Math.abs(hit.score - (0.4 * lexicalPart + 0.6 * cosine)) < 0.001, `${hit.tool}: ${hit.score}`);
    }
    assert.equal(hits[0].score, 1);
  });

  it('is the lexical ranking when no query vector is given', () => {
    for (const query of Object.keys(QUERY_VECTORS)) assert.deepEqual(sentence.query(query, 6), lexical.query(query, 6), query);
  });

  it('is deterministic, scores included', () => {
    const again = new SentenceToolIndex(new ToolIndex(CATALOG), CATALOG, ToolSentenceVectors.fromEmbeddings(CATALOG, 'fixture', TOOL_VECTORS));
    for (const [query, vector] of Object.entries(QUERY_VECTORS)) assert.deepEqual(again.query(query, 6, vector), sentence.query(query, 6, vector));
  });

  it('keeps tool vectors for the catalog and the model they were made for, and only for those', () => {
    const stored = JSON.parse(JSON.stringify(vectors.toJSON())) as unknown;
    const restored = ToolSentenceVectors.fromJSON(stored, CATALOG, 'fixture');
    assert.ok(restored);
    for (const [query, vector] of Object.entries(QUERY_VECTORS)) {
      assert.deepEqual(refs(new SentenceToolIndex(lexical, CATALOG, restored).query(query, 6, vector)), refs(sentence.query(query, 6, vector)));
    }
    assert.equal(ToolSentenceVectors.fromJSON(stored, CATALOG, 'another model'), undefined);
    const changed = CATALOG.map((tool) => (tool.name === 'read_file' ? { ...tool, description: 'Read a file as text.' } : tool));
    assert.equal(ToolSentenceVectors.fromJSON(stored, changed, 'fixture'), undefined);
    assert.equal(ToolSentenceVectors.fromJSON({ ...(stored as object), vectors: [[1, 'x']] }, CATALOG, 'fixture'), undefined);
  });

  it('refuses vectors that do not fit the catalog or each other', () => {
    assert.throws(() => ToolSentenceVectors.fromEmbeddings(CATALOG, 'fixture', TOOL_VECTORS.slice(1)), /5 vectors for 6 tools/);
    assert.throws(() => ToolSentenceVectors.fromEmbeddings(CATALOG, 'fixture', [...TOOL_VECTORS.slice(1), [1, 0]]), /different lengths/);
    assert.throws(() => sentence.query('disk', 3, [1, 0]), /2 dimensions, the tools' 4/);
  });
});
