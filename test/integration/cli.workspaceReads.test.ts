// The CLI contracts for what a launch reads besides its definition: a user server whose env file lies
// in the workspace needs trust for it (status, trust, config); values `${env:VAR}` brings into
// arguments, URLs and headers are masked in config (table and --json), status --verbose and trust, and
// trust.json on disk holds none of them. Runs the built dist/cli.js (build first: `node esbuild.mjs`).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MEMORY } from './helperServers';
import { requireBuiltCli, runCli, TempDirs, write, writeJson } from './support';

const SECRET = 'sb-secret-4f1c9e2a7d';

describe('CLI: what a launch reads from the workspace and the environment', function () {
  this.timeout(60_000);
  before(requireBuiltCli);
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  function dirs() {
    const root = temp.make('switchboard-reads-');
    const ws = path.join(root, 'ws');
    const home = path.join(root, 'home');
    fs.mkdirSync(ws);
    fs.mkdirSync(home);
    return { root, ws, home, store: path.join(root, 'state', 'trust.json') };
  }

  it('a user server whose env file is in the workspace waits for trust, and an edit asks again', () => {
    const { root, ws, home, store } = dirs();
    writeJson(path.join(ws, '.mcp.json'), { mcpServers: {} });
    writeJson(path.join(home, '.mcp.json'), {
      mcpServers: { notes: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: path.join(root, 'm.jsonl') }, envFile: path.join(ws, 'notes.env') } },
    });
    write(path.join(ws, 'notes.env'), 'NOTES_MODE=plain\n');
    const common = ['--workspace', ws, '--home', home, '--trust-store', store];
    const state = () => (JSON.parse(runCli(['status', ...common, '--json']).stdout) as { servers: { state: string }[] }).servers[0].state;

    assert.equal(state(), 'needsTrust');
    const config = JSON.parse(runCli(['config', ...common, '--json']).stdout) as { servers: { scope: string; needsTrust: boolean; envFileVariables: string[] | null }[] };
    assert.deepEqual(config.servers.map((server) => [server.scope, server.needsTrust, server.envFileVariables]), [['user', true, ['NOTES_MODE']]]);

    const trusted = runCli(['trust', 'notes', ...common]);
    assert.equal(trusted.status, 0, trusted.stderr);
    assert.match(trusted.stdout, /envFile: .*notes\.env \(defines NOTES_MODE\)/);
    assert.equal(state(), 'ready');
    assert.ok(!fs.readFileSync(store, 'utf8').includes('plain'), 'no env file value is stored');

    write(path.join(ws, 'notes.env'), 'NOTES_MODE=plain\nNODE_OPTIONS=--require ./evil.js\n');
    assert.equal(state(), 'needsTrust');
    const table = runCli(['config', ...common]).stdout;
    assert.match(table, /! env-override: .*NODE_OPTIONS \(from envFile /);
    assert.match(table, /envFile variable NODE_OPTIONS added: \*\*\*/);

    // The same server with its env file in the home folder is the person's own: it starts as before.
    writeJson(path.join(home, '.mcp.json'), {
      mcpServers: { notes: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: path.join(root, 'm.jsonl') }, envFile: path.join(home, 'notes.env') } },
    });
    write(path.join(home, 'notes.env'), 'NOTES_MODE=plain\n');
    assert.equal(state(), 'ready');
  });

  it('masks ${env:VAR} values in config, status --verbose and trust, and stores none in trust.json', () => {
    const { root, ws, home, store } = dirs();
    writeJson(path.join(ws, '.mcp.json'), {
      mcpServers: {
        tagged: { command: process.execPath, args: [MEMORY, 'label=${env:SB_TEST_SECRET}'], env: { MEMORY_FILE_PATH: path.join(root, 'm.jsonl') } },
        remote: { url: 'http://127.0.0.1:9/tenants/${SB_TEST_SECRET}/mcp', headers: { 'X-Tenant': '${env:SB_TEST_SECRET}' } },
      },
    });
    writeJson(path.join(home, '.mcp.json'), { mcpServers: {} });
    const env = { SB_TEST_SECRET: SECRET };
    const common = ['--workspace', ws, '--home', home, '--trust-store', store];

    const json = runCli(['config', ...common, '--json'], env);
    assert.equal(json.status, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { servers: { name: string; args: string[]; url: string | null; headers: Record<string, string> }[] };
    const byName = Object.fromEntries(parsed.servers.map((server) => [server.name, server]));
    assert.deepEqual(byName.tagged.args, [MEMORY, 'label=***']);
    assert.equal(byName.remote.url, 'http://127.0.0.1:9/tenants/***/mcp');
    assert.deepEqual(byName.remote.headers, { 'X-Tenant': '***' });
    assert.ok(!json.stdout.includes(SECRET));
    const table = runCli(['config', ...common], env);
    assert.ok(!table.stdout.includes(SECRET) && table.stdout.includes('label=***'), table.stdout);

    const trusted = runCli(['trust', 'tagged', 'remote', ...common], env);
    assert.equal(trusted.status, 0, trusted.stderr);
    assert.ok(!trusted.stdout.includes(SECRET), trusted.stdout);
    const onDisk = fs.readFileSync(store, 'utf8');
    assert.ok(!onDisk.includes(SECRET), onDisk);
    assert.match(onDisk, /label=\*\*\*/);
    assert.match(onDisk, /"maskedArgs": "hmac-sha256:[0-9a-f]{64}"/);

    const status = runCli(['status', ...common, '--verbose', '--timeout', '5000'], env);
    assert.match(status.stdout, /tagged\s+project\s+ready/);
    assert.match(status.stdout, /remote\s+project\s+failed/, 'the remote server was started (and its URL reported)');
    assert.ok(status.stderr.includes('127.0.0.1:9/tenants/***/mcp') || status.stdout.includes('127.0.0.1:9/tenants/***/mcp'), status.stdout + status.stderr);
    assert.ok(!status.stdout.includes(SECRET) && !status.stderr.includes(SECRET), status.stdout + status.stderr);

    // Another value behind the same *** is another definition: it needs trust again.
    const other = JSON.parse(runCli(['config', ...common, '--json'], { SB_TEST_SECRET: 'sb-other-value-1234' }).stdout) as { servers: { name: string; needsTrust: boolean }[] };
    assert.deepEqual(other.servers.map((server) => [server.name, server.needsTrust]), [['remote', true], ['tagged', true]]);
  });
});
