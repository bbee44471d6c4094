// The tool search: tokens (name parts, stems, CJK characters and bigrams), and the ranking on a small
// fixed catalog with exact expectations, in English and Chinese, deterministic and fast.
import * as assert from 'node:assert/strict';
import { synonymsOf } from '../../src/core/search/synonyms';
import { splitWords, stem, tokenize } from '../../src/core/search/tokens';
import { ToolIndex, type SearchableTool } from '../../src/core/search/toolSearch';

const str = (description: string) => ({ type: 'string', description });

const CATALOG: SearchableTool[] = [
  { server: 'filesystem', name: 'read_text_file', description: 'Read the complete contents of a file from the file system as text.', inputSchema: { properties: { path: str('Path of the file') } } },
  { server: 'filesystem', name: 'write_file', description: 'Create a new file or completely overwrite an existing file with new content.', inputSchema: { properties: { path: str('Path'), content: str('The content') } } },
  { server: 'filesystem', name: 'list_directory', description: 'Get a detailed listing of all files and directories in a specified path.', inputSchema: { properties: { path: str('Directory path') } } },
  { server: 'filesystem', name: 'move_file', description: 'Move or rename files and directories.', inputSchema: { properties: { source: str('From'), destination: str('To') } } },
  { server: 'filesystem', name: 'search_files', description: 'Recursively search for files and directories matching a pattern.', inputSchema: { properties: { pattern: str('Glob pattern') } } },
  { server: 'memory', name: 'create_entities', description: 'Create multiple new entities in the knowledge graph.', inputSchema: { properties: { entities: { type: 'array' } } } },
  { server: 'memory', name: 'delete_entities', description: 'Delete multiple entities and their associated relations from the knowledge graph.' },
  { server: 'memory', name: 'read_graph', description: 'Read the entire knowledge graph.' },
  { server: 'github', name: 'createIssue', description: 'Open a new issue in a GitHub repository.', inputSchema: { properties: { repo: str('owner/name'), title: str('Issue title') } } },
  { server: 'github', name: 'listPullRequests', description: 'List pull requests of a repository.', inputSchema: { properties: { repo: str('owner/name'), state: str('open or closed') } } },
  { server: 'everything', name: 'echo', description: 'Echoes back the input string.', inputSchema: { properties: { message: str('Message to echo') } } },
  { server: 'everything', name: 'get-sum', description: 'Returns the sum of two numbers.', inputSchema: { properties: { a: { type: 'number' }, b: { type: 'number' } } } },
];

describe('search tokens', () => {
  it('splits names on _ - . / and camelCase', () => {
    assert.deepEqual(splitWords('listPullRequests'), ['list', 'Pull', 'Requests']);
    assert.deepEqual(splitWords('read_text_file'), ['read', 'text', 'file']);
    assert.deepEqual(splitWords('get-sum.v2/HTTPServer'), ['get', 'sum', 'v2', 'HTTP', 'Server']);
    assert.deepEqual(splitWords('open PRs and URLs'), ['open', 'PRs', 'and', 'URLs']);
  });

  it('stems lightly', () => {
    assert.deepEqual(['files', 'listing', 'entities', 'directories', 'matches', 'status', 'running', 'address', 'PRs'.toLowerCase()].map(stem),
      ['fil', 'list', 'entity', 'directory', 'match', 'status', 'run', 'address', 'pr']);
    for (const [a, b] of [['delete', 'deleted'], ['file', 'files'], ['move', 'moved'], ['create', 'creates'], ['write', 'writes'], ['remove', 'removing']]) {
      assert.equal(stem(a), stem(b), `${a} / ${b}`);
    }
  });

  it('gives Chinese text as characters and bigrams, keeping Latin words inside it', () => {
    assert.deepEqual(tokenize('删除文件'), ['删', '除', '文', '件', '删除', '除文', '文件']);
    assert.deepEqual(tokenize('读取README文件'), ['读', '取', '读取', 'readm', '文', '件', '文件']);
  });

  it('knows synonyms in both directions, Chinese included', () => {
    // The table holds stemmed terms, as the index does.
    assert.ok(synonymsOf(stem('remove')).includes(stem('delete')));
    assert.ok(synonymsOf(stem('delete')).includes(stem('remove')));
    assert.ok(synonymsOf('删除').includes(stem('delete')));
    assert.ok(synonymsOf(stem('folder')).includes(stem('directory')));
    assert.deepEqual(synonymsOf('zebra'), []);
  });
});

describe('ToolIndex', () => {
  const index = new ToolIndex(CATALOG);
  const top = (query: string, k = 3) => index.query(query, k).map((hit) => `${hit.server}/${hit.tool}`);

  const cases: [string, string][] = [
    ['read a file', 'filesystem/read_text_file'],
    ['overwrite the contents of a file', 'filesystem/write_file'],
    ['show me what is in this folder', 'filesystem/list_directory'],
    ['rename a file', 'filesystem/move_file'],
    ['find files matching *.ts', 'filesystem/search_files'],
    ['remove entities from memory', 'memory/delete_entities'],
    ['dump the whole knowledge graph', 'memory/read_graph'],
    ['open a bug on github', 'github/createIssue'],
    ['which PRs are open', 'github/listPullRequests'],
    ['add two numbers', 'everything/get-sum'],
    ['repeat my message back', 'everything/echo'],
    ['删除实体', 'memory/delete_entities'],
    ['读取文件', 'filesystem/read_text_file'],
    ['列出目录', 'filesystem/list_directory'],
  ];
  for (const [query, expected] of cases) {
    it(`"${query}" → ${expected}`, () => assert.equal(top(query, 1)[0], expected, JSON.stringify(index.query(query, 3))));
  }

  it('returns at most k hits, none for an empty or meaningless query', () => {
    assert.equal(index.query('file', 2).length, 2);
    assert.deepEqual(index.query('   '), []);
    assert.deepEqual(index.query('%%% ---'), []);
  });

  it('is deterministic: the same catalog and query give the same ranking, ties by server then tool', () => {
    const again = new ToolIndex([...CATALOG].reverse());
    assert.deepEqual(again.query('file', 5), index.query('file', 5));
  });

  it('answers in well under 5 ms on 1000 tools', () => {
    const big: SearchableTool[] = [];
    for (let i = 0; i < 1000; i++) {
      const base = CATALOG[i % CATALOG.length];
      big.push({ ...base, server: `${base.server}-${Math.floor(i / CATALOG.length)}`, description: `${base.description} Variant ${i}.` });
    }
    const bigIndex = new ToolIndex(big);
    const queries = cases.map(([query]) => query);
    for (const q of queries) bigIndex.query(q, 5);
    const started = performance.now();
    for (let round = 0; round < 5; round++) for (const q of queries) bigIndex.query(q, 5);
    const perQuery = (performance.now() - started) / (5 * queries.length);
    assert.ok(perQuery < 5, `${perQuery.toFixed(2)} ms per query`);
  });
});
