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
    // CPU time of this process, not wall time: on a shared machine the wall clock also counts the
    // time spent waiting for a core, which says nothing about the search.
    const started = process.cpuUsage();
    for (let round = 0; round < 5; round++) for (const q of queries) bigIndex.query(q, 5);
    const used = process.cpuUsage(started);
    const perQuery = (used.user + used.system) / 1000 / (5 * queries.length);
    assert.ok(perQuery < 5, `${perQuery.toFixed(2)} ms of CPU per query`);
  });
});

describe('ToolIndex: what the ranking does beyond BM25', () => {
  const catalog: SearchableTool[] = [
    { server: 'slack', name: 'slack_post_message', description: 'Post a new message to a Slack channel.', inputSchema: { properties: { channel_id: str('The channel'), text: str('Message text') } } },
    { server: 'slack', name: 'slack_get_users', description: 'Get a list of all users in the workspace.' },
    { server: 'kubernetes', name: 'ping', description: 'Verify that the counterpart is still responsive.' },
    { server: 'kubernetes', name: 'kubectl_logs', description: 'Get logs from resources like pods or jobs.' },
    { server: 'docker', name: 'fetch_container_logs', description: 'Fetch the logs of a container.' },
    { server: 'notion', name: 'API-retrieve-a-page', description: 'Notion | Retrieve a page' },
    { server: 'browser', name: 'wait_for', description: 'Wait for text to appear on the page.' },
    { server: 'browser', name: 'navigate', description: 'Navigate to a URL.', inputSchema: { properties: { url: str('The URL to open') } } },
    { server: 'filesystem', name: 'read_text_file', description: 'Read the complete contents of a file as text.', inputSchema: { properties: { path: str('Path of the file') } } },
    { server: 'filesystem', name: 'get_info', description: 'Retrieve metadata about a path.' },
    { server: 'github', name: 'list_pull_requests', description: 'List and filter repository pull requests.', inputSchema: { properties: { state: str('open, closed or all') } } },
    { server: 'github', name: 'create_issue', description: 'Create a new issue in a GitHub repository.' },
    { server: 'github', name: 'search_issues', description: 'Search for issues and pull requests across repositories.' },
    { server: 'firecrawl', name: 'firecrawl_search_github', description: 'Search GitHub issues and pull requests for programming questions.' },
  ];
  const index = new ToolIndex(catalog);
  const first = (query: string) => { const [hit] = index.query(query, 1); return hit && `${hit.server}/${hit.tool}`; };

  it('ignores function words, which would otherwise weigh a lot in short names', () => {
    assert.deepEqual(index.query('the a for', 3), []);
    assert.equal(first('wait for the page to load'), 'browser/wait_for');
  });

  it('prefers the tools of a server the query names, by name or alias', () => {
    // firecrawl's tool has "github" in its name, rarer than in a server name shared by every GitHub tool.
    assert.equal(first('search for bugs on github'), 'github/search_issues');
    assert.equal(first('open a bug on github'), 'github/create_issue');
    assert.equal(first('kubectl logs of the api pod'), 'kubernetes/kubectl_logs');
    assert.equal(first('logs of the container'), 'docker/fetch_container_logs');
  });

  it('reads hints from the shape of words: a file name, a #channel, a host and port', () => {
    assert.equal(first('cat package.json'), 'filesystem/read_text_file');
    assert.equal(first('ping #general that the deploy is done'), 'slack/slack_post_message');
    assert.equal(first('go to localhost:3000'), 'browser/navigate');
  });

  it('expands abbreviations: PRs are pull requests', () => {
    assert.equal(first('what PRs are open'), 'github/list_pull_requests');
  });

  it('prefers a tool that matches more of the query', () => {
    // "users" alone would favour the user list; the message and channel words are two of three.
    assert.equal(first('send a message to users in the channel'), 'slack/slack_post_message');
  });
});
