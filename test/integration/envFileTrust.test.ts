// A project server's env file with real processes and real file watching: nothing from the env file
// runs before trust; once trusted, an edit to the file (here `NODE_OPTIONS=--require evil.cjs`) is
// picked up by the configuration, asks for trust again, and never reaches a process — not the running
// one, not a restart after a crash — until the person trusts the new definition. The CLI part runs the
// built dist/cli.js (build first: `node esbuild.mjs`).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigService, type ConfigSnapshot } from '../../src/core/config';
import type { LayerSpec } from '../../src/core/config/types';
import { RedactingConnector, ServerRegistry, type ServerLog } from '../../src/core/lifecycle';
import { TrustGate, TrustStore } from '../../src/core/trust';
import { NodeConfigFileSystem } from '../../src/node/configFileSystem';
import { NodeServerConnector, processLauncher } from '../../src/node/connector';
import { SALT_FILE } from '../../src/node/installSalt';
import { JsonFileStore } from '../../src/node/jsonFileStore';
import { parseEnvFile, ServerEnvironment } from '../../src/node/process/environment';
import { TEST_DIGEST } from '../unit/helpers/digest';
import { isAlive, MEMORY } from './helperServers';
import { requireBuiltCli, runCli, TempDirs, waitFor, write, writeJson } from './support';

// Appends {pid, stamp: $STAMP} to the marker file given as the first argument, then runs server-memory.
const MARKER_SCRIPT = 'require("fs").appendFileSync(process.argv[1], JSON.stringify({ pid: process.pid, stamp: process.env.STAMP ?? null }) + "\\n"); '
  + 'import(require("url").pathToFileURL(process.argv[2]).href)';

interface Layout {
  root: string;
  ws: string;
  home: string;
  store: string;
  marker: string;
  /** Written by evil.cjs when NODE_OPTIONS from the env file reaches a process. */
  evil: string;
  envFile: string;
}

interface Run {
  pid: number;
  stamp: string | null;
}

describe('env files of project servers (real processes)', function () {
  this.timeout(40_000);
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  function layout(): Layout {
    const root = temp.make('switchboard-envfile-');
    const ws = path.join(root, 'ws');
    const home = path.join(root, 'home');
    fs.mkdirSync(ws);
    fs.mkdirSync(home);
    writeJson(path.join(home, '.mcp.json'), { mcpServers: {} });
    const l: Layout = {
      root, ws, home,
      store: path.join(root, 'state', 'trust.json'),
      marker: path.join(root, 'runs.jsonl'),
      evil: path.join(root, 'evil-ran'),
      envFile: path.join(ws, 'repo.env'),
    };
    write(path.join(ws, 'evil.cjs'), `require("fs").writeFileSync(${JSON.stringify(l.evil)}, String(process.pid));\n`);
    writeJson(path.join(ws, '.mcp.json'), {
      mcpServers: {
        repo: {
          command: process.execPath,
          args: ['-e', MARKER_SCRIPT, l.marker, MEMORY],
          env: { MEMORY_FILE_PATH: path.join(root, 'memory.jsonl') },
          envFile: 'repo.env',
        },
      },
    });
    write(l.envFile, 'STAMP=first\n');
    return l;
  }

  const runs = (l: Layout): Run[] => (fs.existsSync(l.marker) ? fs.readFileSync(l.marker, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Run) : []);
  const poisoned = (l: Layout): string => `STAMP=second\nNODE_OPTIONS=--require ${path.join(l.ws, 'evil.cjs')}\n`;

  describe('through the CLI', () => {
    before(requireBuiltCli);
    const common = (l: Layout): string[] => ['--workspace', l.ws, '--home', l.home, '--trust-store', l.store];
    const stateOf = (l: Layout): string => {
      const result = runCli(['status', ...common(l), '--json']);
      return (JSON.parse(result.stdout) as { servers: { name: string; state: string }[] }).servers[0].state;
    };

    it('nothing from the env file runs before trust; an edited env file needs trust again', () => {
      const l = layout();
      assert.equal(stateOf(l), 'needsTrust');
      assert.deepEqual(runs(l), [], 'the project server ran before it was trusted');

      const trusted = runCli(['trust', 'repo', ...common(l)]);
      assert.equal(trusted.status, 0, trusted.stderr);
      assert.match(trusted.stdout, /^ {4}envFile: repo\.env \(defines STAMP\)$/m);
      assert.ok(fs.existsSync(path.join(path.dirname(l.store), SALT_FILE)), 'the salt lives next to the trust store');
      assert.ok(!fs.readFileSync(l.store, 'utf8').includes('first'), 'no env file value is stored');
      assert.equal(stateOf(l), 'ready');
      assert.deepEqual(runs(l).map((run) => run.stamp), ['first']);

      write(l.envFile, poisoned(l));
      assert.equal(stateOf(l), 'needsTrust');
      const table = runCli(['config', ...common(l)]);
      assert.match(table.stdout, /! env-override: .*\(NODE_OPTIONS \(from envFile repo\.env\)\)/);
      assert.match(table.stdout, /envFile variable NODE_OPTIONS added: \*\*\*/);
      assert.match(table.stdout, /envFile variable STAMP changed: \*\*\* → \*\*\*/);
      assert.ok(!table.stdout.includes('second'), table.stdout);
      assert.deepEqual(runs(l).map((run) => run.stamp), ['first'], 'a process started with the edited env file');
      assert.equal(fs.existsSync(l.evil), false, 'NODE_OPTIONS from the edited env file ran');
    });
  });

  describe('in the extension\'s config service and registry', () => {
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => { await cleanup?.(); cleanup = undefined; });
    const lines: string[] = [];
    const log: ServerLog = {
      info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m), stderr: (m) => lines.push(m),
      serverMessage: () => undefined, trace: () => undefined,
    };

    async function setup(l: Layout) {
      const store = await TrustStore.load(new JsonFileStore(l.store), { digest: TEST_DIGEST });
      const config = new ConfigService(new NodeConfigFileSystem(), { throttleMs: 20, envFiles: { parse: parseEnvFile, digest: TEST_DIGEST.digest } });
      // The extension's gate over this store (no Restricted Mode, no verified repository, no danger flags).
      const trustGate = new TrustGate(store, { isRestricted: () => false, isVerified: () => false, dangerFlags: () => [] });
      const connector = new NodeServerConnector({
        clientVersion: '0.0.0-test',
        launchStdio: processLauncher(new ServerEnvironment({ baseEnv: process.env, loginShell: 'never', envFileDigest: TEST_DIGEST.digest })),
      });
      const registry = new ServerRegistry({
        connector: new RedactingConnector(connector),
        logFor: () => log,
        settings: { shutdownGraceMs: 500, restartBaseMs: 50 },
        gate: (server) => trustGate.gate(server),
      });
      // The extension's wiring: a new configuration is reconciled, a decision re-asks the gate.
      const subscriptions = [config.onDidChange((snapshot: ConfigSnapshot) => registry.reconcile(snapshot.servers)), store.onDidChange(() => registry.applyGate())];
      const spec: LayerSpec = { scope: 'project', file: path.join(l.ws, '.mcp.json'), folder: l.ws, vars: { env: process.env, userHome: l.home, workspaceFolder: l.ws } };
      await config.setSpecs([spec]);
      cleanup = async () => {
        for (const subscription of subscriptions) subscription.dispose();
        config.dispose();
        await registry.stopAll();
        registry.dispose();
        await connector.dispose();
        store.dispose();
      };
      return { store, registry, config };
    }

    it('an edited env file is picked up, asks again, and reaches no process until trusted', async () => {
      const l = layout();
      const { store, registry, config } = await setup(l);
      registry.reconcile(config.current.servers);
      await registry.settled();
      assert.equal(registry.get('repo')?.state.kind, 'needsTrust');
      assert.deepEqual(runs(l), [], 'nothing runs before trust');

      await store.trust(config.current.servers[0]);
      await registry.settled();
      assert.equal(registry.get('repo')?.state.kind, 'ready');
      const [first] = runs(l);
      assert.equal(first.stamp, 'first');
      const trustedFingerprint = config.current.servers[0].fingerprint;

      // The repository changes the env file: the watcher re-reads the configuration.
      write(l.envFile, poisoned(l));
      const seenAfter = await waitFor('the configuration to see the edited env file', () => config.current.servers[0]?.fingerprint !== trustedFingerprint, 10_000);
      console.log(`      env file edited → new fingerprint: ${seenAfter} ms`);
      await registry.settled();
      assert.deepEqual(Object.keys(config.current.servers[0].launch.envFileVars ?? {}).sort(), ['NODE_OPTIONS', 'STAMP']);
      assert.equal(registry.get('repo')?.state.kind, 'ready', 'the trusted process keeps running until the person decides');
      assert.ok(registry.heldDefinition('repo'), 'the new definition waits for trust');
      assert.ok(isAlive(first.pid));
      assert.equal(runs(l).length, 1, 'nothing was restarted with the new variables');

      // It crashes: the automatic restart runs the trusted definition, whose env file no longer matches.
      process.kill(first.pid, 'SIGKILL');
      await waitFor('the restart to be refused', () => lines.some((line) => /envFile .*repo\.env changed since its variables were checked \(NODE_OPTIONS, STAMP\)/.test(line)), 10_000);
      await registry.settled();
      assert.notEqual(registry.get('repo')?.state.kind, 'ready');
      assert.equal(runs(l).length, 1, 'a restart used the edited env file');
      assert.equal(fs.existsSync(l.evil), false, 'NODE_OPTIONS from the edited env file ran');
      assert.ok(!lines.some((line) => line.includes('second')), 'an env file value reached the log');

      // The person trusts the new definition: now, and only now, it runs with the new variables.
      await store.trust(config.current.servers[0]);
      await registry.start('repo');
      await waitFor('the new definition to run', () => runs(l).length === 2, 10_000);
      assert.equal(runs(l)[1].stamp, 'second');
      assert.ok(fs.existsSync(l.evil), 'the trusted NODE_OPTIONS ran (so the check above could fail)');
    });
  });
});
