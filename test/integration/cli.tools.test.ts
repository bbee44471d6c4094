// `switchboard tools` as a user runs it: the built CLI starts real servers (server-everything and
// server-memory, once under a name with a dot) and prints their tools under the names models get.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { EVERYTHING, MEMORY } from './helperServers';
import { requireBuiltCli, runCli, TempDirs, writeJson } from './support';

interface ToolRow { server: string; tool: string; qualifiedName: string; description: string | null }

describe('switchboard tools (built CLI, real servers)', function () {
  this.timeout(60_000);
  const temp = new TempDirs();
  before(requireBuiltCli);
  afterEach(() => temp.cleanup());

  function workspace(servers: Record<string, unknown>): { home: string; ws: string } {
    const root = temp.make();
    const home = path.join(root, 'home');
    const ws = path.join(root, 'ws');
    writeJson(path.join(home, '.mcp.json'), { mcpServers: servers });
    writeJson(path.join(ws, '.mcp.json'), { mcpServers: {} });
    return { home, ws };
  }

  it('lists every ready server\'s tools as mcp__<server>__<tool>, sorted, with descriptions, in the JSON contract', () => {
    const node = process.execPath;
    const memoryFile = path.join(temp.make(), 'memory.jsonl');
    const { home, ws } = workspace({
      everything: { command: node, args: [EVERYTHING, 'stdio'], disabledTools: ['get-env'] },
      'mem.store': { command: node, args: [MEMORY], env: { MEMORY_FILE_PATH: memoryFile } },
    });
    const result = runCli(['tools', '--workspace', ws, '--home', home, '--json']);
    assert.equal(result.status, 0, result.stderr);
    const rows = JSON.parse(result.stdout) as ToolRow[];
    for (const row of rows) assert.deepEqual(Object.keys(row), ['server', 'tool', 'qualifiedName', 'description']);
    const echo = rows.find((row) => row.tool === 'echo');
    assert.deepEqual(echo && { ...echo, description: typeof echo.description }, { server: 'everything', tool: 'echo', qualifiedName: 'mcp__everything__echo', description: 'string' });
    assert.ok(rows.some((row) => row.qualifiedName === 'mcp__mem_store__create_entities'), 'the dot in the server name became _');
    assert.equal(rows.find((row) => row.tool === 'get-env'), undefined, 'a disabled tool is not listed');
    const sorted = [...rows].sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
    assert.deepEqual(rows, sorted, 'sorted by server, then tool');
    for (const row of rows) assert.match(row.qualifiedName, /^[A-Za-z0-9_-]{1,64}$/);
    assert.equal(new Set(rows.map((row) => row.qualifiedName)).size, rows.length);
  });

  it('prints a table, and exits 1 naming a server that did not start', () => {
    const node = process.execPath;
    const { home, ws } = workspace({
      everything: { command: node, args: [EVERYTHING, 'stdio'] },
      broken: { command: node, args: ['-e', 'process.exit(3)'] },
    });
    const result = runCli(['tools', '--workspace', ws, '--home', home]);
    assert.equal(result.status, 1);
    assert.match(result.stdout, /^QUALIFIED NAME\s+SERVER\s+TOOL$/m);
    assert.match(result.stdout, /^mcp__everything__echo\s+everything\s+echo$/m);
    assert.match(result.stderr, /server 'broken' did not start/);
  });

  it('exits 2 on a usage error', () => {
    const result = runCli(['tools', '--bogus']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /unknown option '--bogus'/);
  });
});
