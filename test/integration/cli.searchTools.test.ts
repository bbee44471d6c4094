// `switchboard search-tools` as an evaluation script runs it: the built CLI on a catalog file and a
// queries file, one JSON line per query in the contract's shape.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { requireBuiltCli, runCli, TempDirs, write, writeJson } from './support';

describe('switchboard search-tools (built CLI)', function () {
  this.timeout(20000);
  const temp = new TempDirs();
  before(requireBuiltCli);
  afterEach(() => temp.cleanup());

  const catalog = [
    { server: 'fs', name: 'read_text_file', description: 'Read a file as text.', inputSchema: { properties: { path: { type: 'string' } } }, annotations: { readOnlyHint: true } },
    { server: 'fs', name: 'write_file', description: 'Write a file.', inputSchema: {}, annotations: {} },
    { server: 'memory', name: 'delete_entities', description: 'Delete entities from the knowledge graph.', inputSchema: {}, annotations: {} },
  ];

  it('prints one JSON line per query, in order, with the top k results and the time', () => {
    const dir = temp.make();
    const catalogFile = writeJson(path.join(dir, 'catalog.json'), catalog);
    const queriesFile = write(path.join(dir, 'queries.jsonl'), `${JSON.stringify({ id: 'q1', query: 'read a file' })}\n\n${JSON.stringify({ id: 2, query: '删除实体' })}\n`);
    const result = runCli(['search-tools', '--catalog', catalogFile, '--queries', queriesFile, '--k', '2']);
    assert.equal(result.status, 0, result.stderr);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: unknown; results: { server: string; tool: string }[]; ms: number });
    assert.equal(lines.length, 2);
    for (const line of lines) {
      assert.deepEqual(Object.keys(line), ['id', 'results', 'ms']);
      assert.ok(line.results.length <= 2);
      for (const hit of line.results) assert.deepEqual(Object.keys(hit), ['server', 'tool']);
      assert.equal(typeof line.ms, 'number');
    }
    assert.deepEqual([lines[0].id, lines[0].results[0]], ['q1', { server: 'fs', tool: 'read_text_file' }]);
    assert.deepEqual([lines[1].id, lines[1].results[0]], [2, { server: 'memory', tool: 'delete_entities' }]);
  });

  for (const [name, argv, message] of [
    ['a missing catalog', ['--queries', 'Q'], /missing --catalog/],
    ['a catalog that is not an array', ['--catalog', 'OBJ', '--queries', 'Q'], /expected a JSON array of tools/],
    ['a bad query line', ['--catalog', 'C', '--queries', 'BADQ'], /queries\.bad\.jsonl:2: expected \{ "id", "query" \}/],
    ['a bad k', ['--catalog', 'C', '--queries', 'Q', '--k', '0'], /--k 0: expected a whole number of at least 1/],
  ] as const) {
    it(`exits 2 on ${name}`, () => {
      const dir = temp.make();
      const files: Record<string, string> = {
        C: writeJson(path.join(dir, 'catalog.json'), catalog),
        OBJ: writeJson(path.join(dir, 'obj.json'), { tools: [] }),
        Q: write(path.join(dir, 'queries.jsonl'), '{"id":1,"query":"x"}\n'),
        BADQ: write(path.join(dir, 'queries.bad.jsonl'), '{"id":1,"query":"x"}\n{"id":2}\n'),
      };
      const result = runCli(['search-tools', ...argv.map((a) => files[a] ?? a)]);
      assert.equal(result.status, 2);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
    });
  }
});
