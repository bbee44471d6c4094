// `switchboard add`, `add-json` and `remove` as a user runs them: the built dist/cli.js writing real
// scope files in temp homes and workspaces, comments kept, existing names refused, and what
// `switchboard config` reads afterwards.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { requireBuiltCli, runCli, TempDirs, write } from './support';

interface ConfigServer { name: string; scope: string; type: string; command: string | null; args: string[]; env: Record<string, string>; url: string | null; headers: Record<string, string>; needsTrust: boolean }

describe('switchboard add / add-json / remove (built CLI)', function () {
  this.timeout(20000);
  const temp = new TempDirs();
  before(requireBuiltCli);
  afterEach(() => temp.cleanup());

  function layout(): { ws: string; home: string } {
    const root = temp.make();
    const ws = path.join(root, 'ws');
    const home = path.join(root, 'home');
    fs.mkdirSync(ws);
    fs.mkdirSync(home);
    return { ws, home };
  }

  function servers(ws: string, home: string): ConfigServer[] {
    const result = runCli(['config', '--workspace', ws, '--home', home, '--json']);
    assert.equal(result.status, 0, result.stderr);
    return (JSON.parse(result.stdout) as { servers: ConfigServer[] }).servers;
  }

  it('add writes a stdio server with its arguments (after --) and env into ~/.mcp.json, created when missing', () => {
    const { ws, home } = layout();
    const result = runCli(['add', 'memory', '--home', home, '--env', 'MEMORY_FILE=/tmp/m.json', '--env', 'DEBUG=1', '--', 'npx', '-y', '@modelcontextprotocol/server-memory', '--port', '3']);
    assert.equal(result.status, 0, result.stderr);
    const file = path.join(home, '.mcp.json');
    assert.equal(result.stdout, `Added "memory" to the user scope (${file}):\n  npx -y @modelcontextprotocol/server-memory --port 3; env MEMORY_FILE, DEBUG\n`);
    assert.equal(fs.readFileSync(file, 'utf8'), `{
  "mcpServers": {
    "memory": {
      "type": "stdio",
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-memory",
        "--port",
        "3"
      ],
      "env": {
        "MEMORY_FILE": "/tmp/m.json",
        "DEBUG": "1"
      }
    }
  }
}
`);
    const [server] = servers(ws, home);
    assert.deepEqual([server.name, server.scope, server.command, server.args, server.needsTrust], ['memory', 'user', 'npx', ['-y', '@modelcontextprotocol/server-memory', '--port', '3'], false]);
  });

  it('add into a project file keeps its comments, refuses an existing name unless --force, and the entry needs trust', () => {
    const { ws, home } = layout();
    const original = '{\n  // shared with the team\n  "mcpServers": {\n    "docs": { "type": "http", "url": "http://127.0.0.1:9/mcp" }, // remote\n  },\n}\n';
    const file = write(path.join(ws, '.mcp.json'), original);
    const added = runCli(['add', 'remote', 'https://mcp.example.com/mcp', '--transport', 'sse', '--header', 'Authorization: Bearer ${input:token}', '--scope', 'project', '--workspace', ws]);
    assert.equal(added.status, 0, added.stderr);
    assert.match(added.stdout, /Project servers need trust before they start/);
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.startsWith('{\n  // shared with the team\n  "mcpServers": {\n    "docs": { "type": "http", "url": "http://127.0.0.1:9/mcp" }, // remote\n    "remote": {\n'), text);
    const remote = servers(ws, home).find((s) => s.name === 'remote');
    assert.deepEqual([remote?.type, remote?.url, Object.keys(remote?.headers ?? {}), remote?.needsTrust], ['sse', 'https://mcp.example.com/mcp', ['Authorization'], true]);

    const again = runCli(['add', 'docs', '--scope', 'project', '--workspace', ws, '--', 'node', 'docs.js']);
    assert.equal(again.status, 1);
    assert.equal(again.stderr, `switchboard: ${file}: a server named "docs" already exists in "mcpServers" (line 4); --force replaces it\n`);
    assert.equal(fs.readFileSync(file, 'utf8'), text, 'nothing written');
    const forced = runCli(['add', 'docs', '--scope', 'project', '--workspace', ws, '--force', '--', 'node', 'docs.js']);
    assert.equal(forced.status, 0, forced.stderr);
    assert.equal(servers(ws, home).find((s) => s.name === 'docs')?.command, 'node');
    assert.ok(fs.readFileSync(file, 'utf8').includes('// shared with the team'));
  });

  it('add-json checks the definition the way the extension reads it before writing', () => {
    const { ws, home } = layout();
    const ok = runCli(['add-json', 'files', '{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","${userHome}"]}', '--home', home]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.deepEqual(servers(ws, home).map((s) => [s.name, s.command, s.args]), [['files', 'npx', ['-y', '@modelcontextprotocol/server-filesystem', home]]]);
    const before = fs.readFileSync(path.join(home, '.mcp.json'), 'utf8');
    const wrong = runCli(['add-json', 'bad', '{"type":"pigeon","url":"https://x"}', '--home', home]);
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, /would not read as a configuration \(.*Unknown server type "pigeon"/);
    assert.equal(fs.readFileSync(path.join(home, '.mcp.json'), 'utf8'), before);
    assert.equal(runCli(['add-json', 'bad', '{not json', '--home', home]).status, 2);
    assert.equal(runCli(['add-json', 'bad', '[1]', '--home', home]).status, 2);
  });

  it('usage errors exit 2 and write nothing', () => {
    const { home } = layout();
    for (const args of [
      ['add', 'x', 'https://example.com/mcp'],
      ['add', 'x', 'https://example.com/mcp', '--transport', 'http', '--env', 'A=1'],
      ['add', 'x', '--env', 'not a pair', '--', 'node'],
      ['add', 'x', '--transport', 'ftp', '--', 'node'],
      ['add', 'x', '--header', 'A: b', '--', 'node'],
      ['add', 'x'],
      ['add', 'a/b', '--', 'node'],
      ['add', 'x', '--scope', 'project', '--', 'node'],
      ['add', 'x', '--scope', 'team', '--', 'node'],
    ]) {
      const result = runCli([...args, '--home', home]);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    }
    assert.equal(fs.existsSync(path.join(home, '.mcp.json')), false);
  });

  it('never writes into a file that is not valid JSON', () => {
    const { home } = layout();
    const file = write(path.join(home, '.mcp.json'), '{ "mcpServers": { "a": } }');
    const result = runCli(['add', 'x', '--home', home, '--', 'node']);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /the file is not valid JSON \(ValueExpected at .*:1:24\); fix it first, nothing was written/);
    assert.equal(fs.readFileSync(file, 'utf8'), '{ "mcpServers": { "a": } }');
  });

  it('remove takes the entry out and nothing else; it finds the scope, or asks for --scope when two have it', () => {
    const { ws, home } = layout();
    const user = write(path.join(home, '.mcp.json'), '{\n  "mcpServers": {\n    "a": { "command": "x" }, // first\n    "b": { "command": "y" } // second\n  }\n}\n');
    write(path.join(ws, '.mcp.json'), '{ "mcpServers": { "b": { "command": "z" } } }\n');
    const removed = runCli(['remove', 'a', '--home', home, '--workspace', ws]);
    assert.equal(removed.status, 0, removed.stderr);
    assert.equal(removed.stdout, `Removed "a" from the user scope (${user}).\n`);
    assert.equal(fs.readFileSync(user, 'utf8'), '{\n  "mcpServers": {\n    "b": { "command": "y" } // second\n  }\n}\n');
    assert.equal(runCli(['remove', 'b', '--home', home, '--workspace', ws]).status, 2);
    assert.equal(runCli(['remove', 'b', '--home', home, '--workspace', ws, '--scope', 'project']).status, 0);
    assert.deepEqual(servers(ws, home).map((s) => [s.name, s.scope]), [['b', 'user']]);
    const missing = runCli(['remove', 'nope', '--home', home]);
    assert.equal(missing.status, 1);
    assert.equal(missing.stderr, 'switchboard: no server named "nope" in the user scope\n');
  });
});
