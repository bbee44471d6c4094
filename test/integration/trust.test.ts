// Trust with real processes: a project server whose command writes a marker file (then serves MCP)
// never runs before it is trusted, runs after, never runs once refused; and a definition that changes
// under a running, trusted server starts nothing new and stops nothing until the person decides. The
// CLI part runs the built dist/cli.js (build first: `node esbuild.mjs`); the registry part wires the
// extension's lifecycle core to the real connector and a trust store file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mergeLayers, parseLayer } from '../../src/core/config';
import type { EffectiveServer } from '../../src/core/config/types';
import { ServerRegistry, type ServerLog } from '../../src/core/lifecycle';
import { TrustGate, TrustStore } from '../../src/core/trust';
import { NodeServerConnector, processLauncher } from '../../src/node/connector';
import { JsonFileStore } from '../../src/node/jsonFileStore';
import { ServerEnvironment } from '../../src/node/process/environment';
import { isAlive, MEMORY } from './helperServers';
import { requireBuiltCli, runCli, TempDirs, waitFor, writeJson } from './support';
import { TEST_DIGEST } from '../unit/helpers/digest';

// Writes its pid to the marker file given as the first argument, then runs server-memory.
const MARKER_SCRIPT = 'require("fs").writeFileSync(process.argv[1], String(process.pid)); import(require("url").pathToFileURL(process.argv[2]).href)';

interface Layout {
  root: string;
  ws: string;
  home: string;
  store: string;
}

describe('trust (real processes)', function () {
  this.timeout(30000);
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  function layout(): Layout {
    const root = temp.make('switchboard-trust-');
    const ws = path.join(root, 'ws');
    const home = path.join(root, 'home');
    fs.mkdirSync(ws);
    fs.mkdirSync(home);
    writeJson(path.join(home, '.mcp.json'), { mcpServers: {} });
    // The store lives outside the workspace, as the extension's global storage does.
    return { root, ws, home, store: path.join(root, 'state', 'trust.json') };
  }

  /** Writes the project .mcp.json with one server `repo` that writes `marker` when it runs. */
  function writeProject(l: Layout, marker: string): void {
    writeJson(path.join(l.ws, '.mcp.json'), {
      mcpServers: {
        repo: { command: process.execPath, args: ['-e', MARKER_SCRIPT, marker, MEMORY], env: { MEMORY_FILE_PATH: path.join(l.root, 'memory.jsonl') } },
      },
    });
  }

  describe('through the CLI', () => {
    before(requireBuiltCli);

    const common = (l: Layout): string[] => ['--workspace', l.ws, '--home', l.home, '--trust-store', l.store];

    function status(l: Layout): { state: string; exit: number | null; stderr: string } {
      const result = runCli(['status', ...common(l), '--json']);
      const servers = (JSON.parse(result.stdout) as { servers: { name: string; state: string }[] }).servers;
      return { state: servers.find((server) => server.name === 'repo')!.state, exit: result.status, stderr: result.stderr };
    }

    it('the marker never appears before trust, and appears after', () => {
      const l = layout();
      const marker = path.join(l.root, 'marker');
      writeProject(l, marker);

      assert.equal(status(l).state, 'needsTrust');
      const call = runCli(['call', 'repo', 'read_graph', ...common(l)]);
      assert.equal(call.status, 2, call.stderr);
      assert.match(call.stderr, /not trusted .*switchboard trust repo/);
      assert.equal(fs.existsSync(marker), false, 'the project server ran before it was trusted');
      assert.equal(fs.existsSync(l.store), false, 'reading does not create the store');

      const trusted = runCli(['trust', 'repo', ...common(l)]);
      assert.equal(trusted.status, 0, trusted.stderr);
      assert.match(trusted.stdout, /^trusted repo: /);
      if (process.platform !== 'win32') assert.equal(fs.statSync(l.store).mode & 0o777, 0o600);

      const after = status(l);
      assert.equal(after.state, 'ready', after.stderr);
      assert.equal(after.exit, 0);
      assert.ok(fs.existsSync(marker), 'the trusted project server did not run');
      fs.rmSync(marker);
      const calledAfter = runCli(['call', 'repo', 'read_graph', ...common(l)]);
      assert.equal(calledAfter.status, 0, calledAfter.stderr);
      assert.ok(fs.existsSync(marker));

      const config = runCli(['config', ...common(l), '--json']);
      assert.equal((JSON.parse(config.stdout) as { servers: { needsTrust: boolean }[] }).servers[0].needsTrust, false);
    });

    it('a refused server never runs', () => {
      const l = layout();
      const marker = path.join(l.root, 'marker');
      writeProject(l, marker);
      const refused = runCli(['trust', 'repo', '--refuse', ...common(l)]);
      assert.equal(refused.status, 0, refused.stderr);
      assert.match(refused.stdout, /^refused repo: /);
      assert.equal(status(l).state, 'needsTrust');
      assert.equal(runCli(['call', 'repo', 'read_graph', ...common(l)]).status, 2);
      const table = runCli(['config', ...common(l)]);
      assert.match(table.stdout, /refused: you chose not to trust this definition/);
      assert.equal(fs.existsSync(marker), false);
    });

    it('a changed definition needs trust again: the new command does not run, and the table shows what changed', () => {
      const l = layout();
      const markerA = path.join(l.root, 'marker-a');
      const markerB = path.join(l.root, 'marker-b');
      writeProject(l, markerA);
      assert.equal(runCli(['trust', 'repo', ...common(l)]).status, 0);
      writeProject(l, markerB);
      assert.equal(status(l).state, 'needsTrust');
      assert.equal(fs.existsSync(markerB), false, 'the changed definition ran under the old trust');
      const table = runCli(['config', ...common(l)]);
      assert.ok(table.stdout.includes(`args[2] changed: ${JSON.stringify(markerA)} → ${JSON.stringify(markerB)}`), table.stdout);
      const retrust = runCli(['trust', 'repo', ...common(l)]);
      assert.match(retrust.stdout, /changed since the definition trusted before:/);
      assert.equal(status(l).state, 'ready');
      assert.ok(fs.existsSync(markerB));
    });

    it('revoke: the server needs trust again', () => {
      const l = layout();
      const marker = path.join(l.root, 'marker');
      writeProject(l, marker);
      assert.equal(runCli(['trust', 'repo', ...common(l)]).status, 0);
      const revoked = runCli(['trust', 'repo', '--revoke', ...common(l)]);
      assert.equal(revoked.status, 0, revoked.stderr);
      assert.equal(status(l).state, 'needsTrust');
      assert.equal(fs.existsSync(marker), false);
    });

    it('a corrupt store is one warning, read as empty; the command still works', () => {
      const l = layout();
      const marker = path.join(l.root, 'marker');
      writeProject(l, marker);
      fs.mkdirSync(path.dirname(l.store), { recursive: true });
      fs.writeFileSync(l.store, '{ not json');
      const result = status(l);
      assert.equal(result.state, 'needsTrust');
      assert.match(result.stderr, /^switchboard: warning: .*trust\.json is not valid JSON/m);
      assert.equal(fs.existsSync(marker), false);
    });
  });

  describe('in the registry (the extension\'s lifecycle core, real processes)', () => {
    const SILENT: ServerLog = { info: () => undefined, warn: () => undefined, error: () => undefined, stderr: () => undefined, serverMessage: () => undefined, trace: () => undefined };
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => { await cleanup?.(); cleanup = undefined; });

    /** The effective servers of the workspace, read as the extension reads its project file. */
    function readServers(l: Layout): EffectiveServer[] {
      const file = path.join(l.ws, '.mcp.json');
      const layer = parseLayer({ scope: 'project', file, folder: l.ws, vars: { env: process.env, userHome: l.home, workspaceFolder: l.ws } },
        { kind: 'text', text: fs.readFileSync(file, 'utf8') });
      return mergeLayers([layer]).servers;
    }

    async function setup(l: Layout) {
      const store = await TrustStore.load(new JsonFileStore(l.store), { digest: TEST_DIGEST });
      // The extension's gate over this store (no Restricted Mode, no verified repository, no danger flags).
      const trustGate = new TrustGate(store, { isRestricted: () => false, isVerified: () => false, dangerFlags: () => [] });
      const connector = new NodeServerConnector({
        clientVersion: '0.0.0-test',
        launchStdio: processLauncher(new ServerEnvironment({ baseEnv: process.env, loginShell: 'never' })),
      });
      const registry = new ServerRegistry({
        connector,
        logFor: () => SILENT,
        settings: { shutdownGraceMs: 500 },
        gate: (server) => trustGate.gate(server),
      });
      // The extension's wiring: a decision re-asks the gate.
      const subscription = store.onDidChange(() => registry.applyGate());
      cleanup = async () => {
        subscription.dispose();
        await registry.stopAll();
        registry.dispose();
        await connector.dispose();
        store.dispose();
      };
      return { store, registry };
    }

    const pidIn = (marker: string): number => Number(fs.readFileSync(marker, 'utf8'));

    it('keeps the process trusted as A running, and does not start B, until the person trusts B', async () => {
      const l = layout();
      const markerA = path.join(l.root, 'marker-a');
      const markerB = path.join(l.root, 'marker-b');
      writeProject(l, markerA);
      const { store, registry } = await setup(l);
      await store.trust(readServers(l)[0]);
      registry.reconcile(readServers(l));
      await registry.settled();
      assert.equal(registry.get('repo')?.state.kind, 'ready');
      const pidA = pidIn(markerA);
      assert.ok(isAlive(pidA));

      // Every start passes through "starting": none may follow the change (the registry tells, no sleep needed).
      const states: string[] = [];
      const watching = registry.onDidChangeState((change) => { if (change.id === 'repo') states.push(change.state.kind); });
      writeProject(l, markerB);
      registry.reconcile(readServers(l));
      await registry.settled();
      watching.dispose();
      assert.deepEqual(states.filter((kind) => kind !== 'ready'), [], 'the changed definition was started (or A stopped)');
      assert.equal(fs.existsSync(markerB), false, 'the changed definition was started');
      assert.ok(isAlive(pidA), 'the process running under the old trust was stopped before the person decided');
      assert.equal(registry.get('repo')?.state.kind, 'ready');
      assert.equal(registry.heldDefinition('repo')?.launch.args[2], markerB);

      await store.trust(readServers(l)[0]);
      await waitFor('B to start', () => fs.existsSync(markerB), 10_000);
      await registry.settled();
      assert.equal(registry.get('repo')?.state.kind, 'ready');
      await waitFor('A to be stopped', () => !isAlive(pidA), 5000);
    });

    it('refusing B stops A and starts nothing', async () => {
      const l = layout();
      const markerA = path.join(l.root, 'marker-a');
      const markerB = path.join(l.root, 'marker-b');
      writeProject(l, markerA);
      const { store, registry } = await setup(l);
      await store.trust(readServers(l)[0]);
      registry.reconcile(readServers(l));
      await registry.settled();
      const pidA = pidIn(markerA);

      writeProject(l, markerB);
      registry.reconcile(readServers(l));
      await registry.settled();
      assert.ok(isAlive(pidA));
      await store.refuse(readServers(l)[0]);
      await registry.settled();
      assert.equal(registry.get('repo')?.state.kind, 'needsTrust');
      await waitFor('A to be stopped', () => !isAlive(pidA), 5000);
      assert.equal(fs.existsSync(markerB), false, 'the refused definition was started');
    });
  });
});
