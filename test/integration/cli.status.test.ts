// `switchboard status` and `switchboard call` as a user runs them: the built dist/cli.js in a child
// process, starting real MCP servers (server-everything, server-memory) from real config files in temp
// homes and workspaces. Every server gets a unique marker argument, so the process table tells whether
// anything outlived the command. Build first: `node esbuild.mjs`.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EVERYTHING, FIXTURE_SERVERS, MEMORY } from './helperServers';
import { requireBuiltCli, runCli, TempDirs, writeJson, type CliResult } from './support';

const STATUS_KEYS = ['name', 'scope', 'state', 'error', 'tools', 'resources', 'prompts', 'startMs', 'warnings', 'stderr', 'hint'];
const SECRET = 'sk-status-test-7c1f9e';

interface StatusServer {
  name: string; scope: string; state: string; error: string | null;
  tools: number; resources: number; prompts: number; startMs: number | null;
  warnings: string[]; stderr: string[]; hint: string | null;
}

/** A temp home (user scope) and workspace (project scope) with real and broken servers, all carrying `marker`. */
interface Layout {
  ws: string;
  home: string;
  /** Written by the project server when (and only when) it runs. */
  ranFile: string;
  marker: string;
}

/** The command lines of running processes that carry `marker`. */
function processesWith(marker: string): string[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  assert.equal(ps.status, 0, `ps failed: ${ps.stderr}`);
  return ps.stdout.split('\n').filter((line) => line.includes(marker));
}

function assertNoneLeft(marker: string): void {
  assert.deepEqual(processesWith(marker), [], 'a server process outlived the command');
}

describe('switchboard status and call (built CLI, real servers)', function () {
  this.timeout(30000);
  const temp = new TempDirs();
  const markers: string[] = [];
  before(requireBuiltCli);
  afterEach(() => {
    // Whatever a failed test left behind must not leak into the next one (or the machine).
    for (const marker of markers.splice(0)) {
      for (const line of processesWith(marker)) {
        try { process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL'); } catch { /* already gone */ }
      }
    }
    temp.cleanup();
  });

  function layout(userServers?: Record<string, unknown>): Layout {
    const root = temp.make('switchboard-status-');
    const ws = path.join(root, 'ws');
    const home = path.join(root, 'home');
    fs.mkdirSync(ws);
    fs.mkdirSync(home);
    const marker = `sb-marker-${randomUUID()}`;
    markers.push(marker);
    const ranFile = path.join(root, 'project-server-ran');
    const node = process.execPath;
    writeJson(path.join(home, '.mcp.json'), {
      mcpServers: userServers ?? {
        everything: { command: node, args: [EVERYTHING, 'stdio', marker] },
        memory: { command: node, args: [MEMORY, marker], env: { MEMORY_FILE_PATH: path.join(root, 'memory.jsonl'), API_TOKEN: SECRET } },
        broken: {
          command: node,
          args: ['-e', 'process.stderr.write("boom " + process.env.API_TOKEN + "\\n"); process.exit(3)', marker],
          env: { API_TOKEN: SECRET },
        },
        off: { command: node, args: ['-e', '', marker], disabled: true },
      },
    });
    // A project server that proves it ran by writing a file, then serves MCP (server-memory).
    const script = 'require("fs").writeFileSync(process.argv[1], "ran"); import(require("url").pathToFileURL(process.argv[2]).href)';
    writeJson(path.join(ws, '.mcp.json'), {
      mcpServers: { repo: { command: node, args: ['-e', script, ranFile, MEMORY, marker], env: { MEMORY_FILE_PATH: path.join(root, 'repo-memory.jsonl') } } },
    });
    return { ws, home, ranFile, marker };
  }

  function statusJson(l: Layout, extra: string[] = []): { result: CliResult; servers: Map<string, StatusServer> } {
    const result = runCli(['status', '--workspace', l.ws, '--home', l.home, '--json', ...extra]);
    let parsed: { servers: StatusServer[] };
    try {
      parsed = JSON.parse(result.stdout) as { servers: StatusServer[] };
    } catch {
      assert.fail(`stdout is not JSON (exit ${result.status}):\n${result.stdout}\nstderr:\n${result.stderr}`);
    }
    assert.equal(result.stdout, `${JSON.stringify(parsed, null, 2)}\n`);
    assert.deepEqual(Object.keys(parsed), ['servers']);
    for (const server of parsed.servers) assert.deepEqual(Object.keys(server), STATUS_KEYS, JSON.stringify(server));
    return { result, servers: new Map(parsed.servers.map((server) => [server.name, server])) };
  }

  function assertReady(server: StatusServer | undefined, name: string): void {
    assert.ok(server, `${name} missing`);
    assert.equal(server.state, 'ready', JSON.stringify(server));
    assert.equal(server.error, null);
    assert.ok(server.tools > 0, `${name} lists no tools`);
    assert.equal(typeof server.resources, 'number');
    assert.equal(typeof server.prompts, 'number');
    assert.equal(typeof server.startMs, 'number');
    assert.ok(server.startMs! > 0 && server.startMs! < 30000, `startMs ${server.startMs}`);
  }

  it('--json: ready servers with their counts, the failed one with its reason, the project one parked; exit 1; nothing left running', () => {
    const l = layout();
    const { result, servers } = statusJson(l);
    assert.equal(result.status, 1, result.stderr);
    assert.equal(result.stderr, '');
    assert.deepEqual([...servers.keys()].sort(), ['broken', 'everything', 'memory', 'off', 'repo']);

    assertReady(servers.get('everything'), 'everything');
    assertReady(servers.get('memory'), 'memory');
    const everything = servers.get('everything')!;
    assert.ok(everything.resources > 0 && everything.prompts > 0, JSON.stringify(everything));
    assert.deepEqual(servers.get('broken'), {
      name: 'broken', scope: 'user', state: 'failed', error: servers.get('broken')!.error,
      tools: 0, resources: 0, prompts: 0, startMs: null, warnings: [], stderr: ['boom ***'], hint: null,
    });
    assert.match(servers.get('broken')!.error ?? '', /exited with code 3/);
    assert.deepEqual(servers.get('repo'), {
      name: 'repo', scope: 'project', state: 'needsTrust', error: null, tools: 0, resources: 0, prompts: 0, startMs: null, warnings: [], stderr: [], hint: null,
    });
    assert.equal(servers.get('off')!.state, 'disabled');
    assert.ok(!result.stdout.includes(SECRET), 'a secret leaked into the output');

    assert.equal(fs.existsSync(l.ranFile), false, 'the project server ran without --allow-project');
    assertNoneLeft(l.marker);
  });

  it('--allow-project starts the project server too', () => {
    const l = layout();
    const { result, servers } = statusJson(l, ['--allow-project']);
    assert.equal(result.status, 1, result.stderr);
    assertReady(servers.get('repo'), 'repo');
    assert.equal(servers.get('repo')!.scope, 'project');
    assert.equal(fs.readFileSync(l.ranFile, 'utf8'), 'ran');
    assertNoneLeft(l.marker);
  });

  it('exits 0 when every started server is ready', () => {
    const l = layout();
    const user = { everything: { command: process.execPath, args: [EVERYTHING, 'stdio', l.marker] } };
    writeJson(path.join(l.home, '.mcp.json'), { mcpServers: user });
    const { result, servers } = statusJson(l);
    assert.equal(result.status, 0, result.stderr);
    assertReady(servers.get('everything'), 'everything');
    assert.equal(servers.get('repo')!.state, 'needsTrust');
    assert.equal(fs.existsSync(l.ranFile), false);
    assertNoneLeft(l.marker);
  });

  it('a server whose tools/list fails is ready with a warning naming the listing, in JSON and in the table', () => {
    const l = layout();
    const user = { flaky: { command: process.execPath, args: [path.join(FIXTURE_SERVERS, 'list-fails.mjs'), l.marker] } };
    writeJson(path.join(l.home, '.mcp.json'), { mcpServers: user });
    const { result, servers } = statusJson(l);
    assert.equal(result.status, 0, result.stderr);
    const flaky = servers.get('flaky');
    assert.ok(flaky, result.stdout);
    assert.equal(flaky.state, 'ready');
    assert.equal(flaky.tools, 0);
    assert.equal(flaky.prompts, 1, 'the listings that work are counted');
    assert.equal(flaky.warnings.length, 1, JSON.stringify(flaky));
    assert.match(flaky.warnings[0], /^tools\/list failed: .*the tool index is not built/);
    assert.deepEqual(servers.get('repo')!.warnings, []);

    const table = runCli(['status', '--workspace', l.ws, '--home', l.home]);
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /^ {4}warning: tools\/list failed: .*the tool index is not built$/m);
    assertNoneLeft(l.marker);
  });

  it('prints a table and, with --verbose, masked logs on stderr', () => {
    const l = layout();
    const result = runCli(['status', '--workspace', l.ws, '--home', l.home, '--verbose']);
    assert.equal(result.status, 1, result.stderr);
    const lines = result.stdout.split('\n');
    assert.match(lines[0], /^NAME\s+SCOPE\s+STATE\s+TOOLS\s+RESOURCES\s+PROMPTS\s+START$/);
    const stateColumn = lines[0].indexOf('STATE');
    const row = (name: string) => lines.find((line) => line.startsWith(`${name} `)) ?? assert.fail(`no row for ${name}:\n${result.stdout}`);
    assert.equal(row('everything').indexOf('ready'), stateColumn);
    assert.match(row('everything'), /\d+ ms$/);
    assert.equal(row('broken').indexOf('failed'), stateColumn);
    assert.equal(row('repo').indexOf('needsTrust'), stateColumn);
    assert.match(result.stdout, /exited with code 3/);
    assert.match(result.stdout, /stderr: boom \*\*\*/);
    assert.match(result.stdout, /--allow-project/);
    assert.match(result.stdout, /^MCP servers: 2 ready · 1 failed \(broken: .*\) · 1 needs trust · 1 disabled$/m);

    assert.match(result.stderr, /^\[everything\] ready in \d+ ms/m);
    assert.match(result.stderr, /^\[broken\] stderr: boom \*\*\*$/m);
    assert.match(result.stderr, /^\[memory\] starting \(stdio\): .*API_TOKEN=\*\*\*/m);
    for (const text of [result.stdout, result.stderr]) assert.ok(!text.includes(SECRET), `a secret leaked:\n${text}`);
    assertNoneLeft(l.marker);
  });

  it('--timeout fails a server that never answers, and stops it', () => {
    const l = layout();
    writeJson(path.join(l.home, '.mcp.json'), {
      mcpServers: { silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', l.marker] } },
    });
    const started = Date.now();
    const { result, servers } = statusJson(l, ['--timeout', '700']);
    assert.equal(result.status, 1);
    assert.equal(servers.get('silent')!.state, 'failed');
    assert.match(servers.get('silent')!.error ?? '', /700 ms/);
    assert.ok(Date.now() - started < 10000, `took ${Date.now() - started} ms`);
    assertNoneLeft(l.marker);
  });

  it('call prints the tool result and stops the server', () => {
    const l = layout();
    const result = runCli(['call', 'everything', 'echo', '{"message":"hi"}', '--workspace', l.ws, '--home', l.home]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.deepEqual(JSON.parse(result.stdout), { content: [{ type: 'text', text: 'Echo: hi' }] });
    assertNoneLeft(l.marker);
  });

  it('call runs a project server only with --allow-project', () => {
    const l = layout();
    const refused = runCli(['call', 'repo', 'read_graph', '--workspace', l.ws, '--home', l.home]);
    assert.equal(refused.status, 2, refused.stderr);
    assert.match(refused.stderr, /project server .*--allow-project/);
    assert.equal(fs.existsSync(l.ranFile), false);

    const allowed = runCli(['call', 'repo', 'read_graph', '--workspace', l.ws, '--home', l.home, '--allow-project']);
    assert.equal(allowed.status, 0, allowed.stderr);
    const output = JSON.parse(allowed.stdout) as { content: { type: string }[] };
    assert.ok(Array.isArray(output.content), allowed.stdout);
    assert.equal(fs.readFileSync(l.ranFile, 'utf8'), 'ran');
    assertNoneLeft(l.marker);
  });

  it('call exits 1 with a clear message when the server fails, the tool is unknown or reports an error', () => {
    const l = layout();
    const base = ['--workspace', l.ws, '--home', l.home];
    const failed = runCli(['call', 'broken', 'anything', ...base]);
    assert.equal(failed.status, 1);
    assert.match(failed.stderr, /server 'broken' did not start: .*exited with code 3/);
    assert.match(failed.stderr, /stderr: boom \*\*\*/);

    const unknownTool = runCli(['call', 'everything', 'no-such-tool', ...base]);
    assert.equal(unknownTool.status, 1);
    assert.match(unknownTool.stderr, /^switchboard: unknown tool 'no-such-tool' of server 'everything' \(it offers: .*echo/);
    const typo = runCli(['call', 'everything', 'echoo', ...base]);
    assert.equal(typo.status, 1);
    assert.equal(typo.stderr, "switchboard: unknown tool 'echoo' of server 'everything'; did you mean 'echo'?\n");

    const toolError = runCli(['call', 'everything', 'echo', '{}', ...base]);
    assert.equal(toolError.status, 1);
    assert.equal((JSON.parse(toolError.stdout) as { isError?: boolean }).isError, true);
    assert.match(toolError.stderr, /reported an error/);
    for (const text of [failed.stderr, unknownTool.stderr, toolError.stderr]) assert.ok(!text.includes(SECRET));
    assertNoneLeft(l.marker);
  });

  it('status counts only the tools allowedTools/disabledTools offer; call refuses a hidden one and names the file', () => {
    const l = layout();
    const node = process.execPath;
    const everything = (filter: Record<string, unknown>) => ({ command: node, args: [EVERYTHING, 'stdio', l.marker], ...filter });
    const userFile = path.join(l.home, '.mcp.json');
    writeJson(userFile, {
      mcpServers: {
        full: everything({}),
        noEcho: everything({ disabledTools: ['echo'] }),
        onlyEcho: everything({ allowedTools: ['echo', 'get-*'], disabledTools: ['get-*'] }),
        none: everything({ allowedTools: [] }),
      },
    });
    const { result, servers } = statusJson(l);
    assert.equal(result.status, 0, result.stderr);
    const full = servers.get('full')!;
    assertReady(full, 'full');
    assert.ok(full.tools > 2, JSON.stringify(full));
    assert.equal(servers.get('noEcho')!.tools, full.tools - 1);
    assert.equal(servers.get('onlyEcho')!.tools, 1, 'disabledTools wins over allowedTools');
    assert.equal(servers.get('none')!.tools, 0, 'an empty allowedTools offers nothing');
    assert.equal(servers.get('none')!.resources, full.resources, 'resources are not filtered');
    assertNoneLeft(l.marker);
    const table = runCli(['status', '--workspace', l.ws, '--home', l.home]);
    assert.match(table.stdout, /^noEcho .*\n {4}1 more tool is hidden by allowedTools\/disabledTools$/m);
    assert.doesNotMatch(table.stdout, /^full .*\n {4}\d+ more/m);

    const base = ['--workspace', l.ws, '--home', l.home];
    const hidden = runCli(['call', 'noEcho', 'echo', '{"message":"hi"}', ...base]);
    assert.equal(hidden.status, 1, hidden.stderr);
    assert.equal(hidden.stdout, '');
    assert.equal(hidden.stderr, `switchboard: tool 'echo' of server 'noEcho' is disabled by disabledTools in ${userFile}\n`);
    const notAllowed = runCli(['call', 'onlyEcho', 'get-sum', '{"a":1,"b":2}', ...base]);
    assert.equal(notAllowed.status, 1, notAllowed.stderr);
    assert.equal(notAllowed.stderr, `switchboard: tool 'get-sum' of server 'onlyEcho' is disabled by disabledTools in ${userFile} (pattern "get-*")\n`);
    const offered = runCli(['call', 'onlyEcho', 'echo', '{"message":"hi"}', ...base]);
    assert.equal(offered.status, 0, offered.stderr);
    assert.deepEqual(JSON.parse(offered.stdout), { content: [{ type: 'text', text: 'Echo: hi' }] });
    assertNoneLeft(l.marker);
  });

  describe('usage errors exit 2 with a one-line message and a hint, and start nothing', () => {
    const cases: [string, (l: Layout) => string[], RegExp][] = [
      ['status without --workspace', (l) => ['status', '--home', l.home], /missing --workspace/],
      ['status with a stray argument', (l) => ['status', '--workspace', l.ws, 'extra'], /unexpected argument 'extra'/],
      ['status with a bad --timeout', (l) => ['status', '--workspace', l.ws, '--timeout', 'soon'], /--timeout soon: expected a positive number/],
      ['status with an unknown option', (l) => ['status', '--workspace', l.ws, '--plugins', 'x'], /unknown option '--plugins'/],
      ['call without a tool', (l) => ['call', 'everything', '--workspace', l.ws, '--home', l.home], /missing TOOL/],
      ['call with JSON that is not an object', (l) => ['call', 'everything', 'echo', '[1]', '--workspace', l.ws, '--home', l.home], /must be a JSON object/],
      ['call with invalid JSON', (l) => ['call', 'everything', 'echo', '{message', '--workspace', l.ws, '--home', l.home], /not valid JSON/],
      ['call with an unknown server', (l) => ['call', 'nope', 'echo', '--workspace', l.ws, '--home', l.home], /unknown server 'nope' \(configured: .*everything/],
      ['call with too many arguments', (l) => ['call', 'a', 'b', '{}', 'd', '--workspace', l.ws], /unexpected argument 'd'/],
      ['conformance-client without a URL', () => ['conformance-client'], /missing URL/],
      ['conformance-client with a non-http URL', () => ['conformance-client', 'ftp://example.com'], /http:\/\/ or https:\/\//],
    ];
    for (const [what, argsOf, message] of cases) {
      it(what, () => {
        const l = layout();
        const result = runCli(argsOf(l), { MCP_CONFORMANCE_SCENARIO: 'initialize' });
        assert.equal(result.status, 2, `stdout: ${result.stdout} stderr: ${result.stderr}`);
        assert.equal(result.stdout, '');
        const lines = result.stderr.trimEnd().split('\n');
        assert.equal(lines.length, 2, result.stderr);
        assert.match(lines[0], /^switchboard: /);
        assert.match(lines[0], message);
        assert.match(lines[1], /--help/);
        assert.equal(fs.existsSync(l.ranFile), false);
        assertNoneLeft(l.marker);
      });
    }

    it('conformance-client without MCP_CONFORMANCE_SCENARIO', () => {
      const result = runCli(['conformance-client', 'http://127.0.0.1:9/mcp'], { MCP_CONFORMANCE_SCENARIO: undefined });
      assert.equal(result.status, 2);
      assert.match(result.stderr, /MCP_CONFORMANCE_SCENARIO is not set/);
    });
  });

  it('--help documents status, call and conformance-client', () => {
    const main = runCli(['--help']);
    for (const name of ['status', 'call', 'conformance-client']) assert.match(main.stdout, new RegExp(`^  ${name}\\s`, 'm'));
    const status = runCli(['status', '--help']);
    assert.equal(status.status, 0);
    for (const text of ['--allow-project', '--timeout MS', '--json', '--verbose', '"startMs"', 'needsTrust']) {
      assert.ok(status.stdout.includes(text), `${text} missing from:\n${status.stdout}`);
    }
    const call = runCli(['call', '--help']);
    assert.equal(call.status, 0);
    assert.match(call.stdout, /^Usage: switchboard call SERVER TOOL/);
    const conformance = runCli(['conformance-client', '--help']);
    assert.equal(conformance.status, 0);
    assert.match(conformance.stdout, /MCP_CONFORMANCE_SCENARIO/);
  });
});
