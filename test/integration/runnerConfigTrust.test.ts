// A trusted `npx …` project server, with the real npx: when the repository later adds a `.npmrc` with
// `node-options=--require ./evil.js`, npx would hand that to the server's node (shown at the end: it
// does run once the person trusts the new definition). Until then the server needs trust again, and no
// process — not `status`, not an automatic restart after a crash — starts with the new file. npx runs a
// package from the workspace's node_modules, with npm offline: nothing is fetched. The CLI part runs
// the built dist/cli.js (build first: `node esbuild.mjs`).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigService, type ConfigSnapshot } from '../../src/core/config';
import type { LayerSpec } from '../../src/core/config/types';
import { RedactingConnector, ServerRegistry, type ServerLog } from '../../src/core/lifecycle';
import { TrustGate, TrustStore } from '../../src/core/trust';
import { NodeConfigFileSystem } from '../../src/node/configFileSystem';
import { NodeServerConnector, processLauncher } from '../../src/node/connector';
import { JsonFileStore } from '../../src/node/jsonFileStore';
import { parseEnvFile, ServerEnvironment } from '../../src/node/process/environment';
import { TEST_DIGEST } from '../unit/helpers/digest';
import { isAlive, MEMORY } from './helperServers';
import { requireBuiltCli, runCli, TempDirs, waitFor, write, writeJson } from './support';

interface Layout {
  root: string;
  ws: string;
  home: string;
  store: string;
  /** One JSON line per start of the package's bin: {pid, nodeOptions}. */
  marker: string;
  /** Written by evil.js when `node-options` from the .npmrc reaches a process. */
  evil: string;
  npmrc: string;
  /** npm settings from the person's own environment: offline, a private cache, no update check. */
  npmEnv: Record<string, string>;
}

interface Run {
  pid: number;
  nodeOptions: string | null;
}

// The bin of the workspace's package: records its start, then runs server-memory.
const BIN = (marker: string) => `#!/usr/bin/env node
require('fs').appendFileSync(${JSON.stringify(marker)}, JSON.stringify({ pid: process.pid, nodeOptions: process.env.NODE_OPTIONS ?? null }) + '\\n');
import(require('url').pathToFileURL(${JSON.stringify(MEMORY)}).href);
`;

describe('package runner configuration of a trusted npx server (real npx)', function () {
  this.timeout(90_000);
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  function layout(): Layout {
    const root = temp.make('switchboard-npmrc-');
    const ws = path.join(root, 'ws');
    const home = path.join(root, 'home');
    fs.mkdirSync(home);
    writeJson(path.join(home, '.mcp.json'), { mcpServers: {} });
    const l: Layout = {
      root, ws, home,
      store: path.join(root, 'state', 'trust.json'),
      marker: path.join(root, 'runs.jsonl'),
      evil: path.join(root, 'evil-ran'),
      npmrc: path.join(ws, '.npmrc'),
      npmEnv: { npm_config_offline: 'true', npm_config_cache: path.join(root, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_fund: 'false' },
    };
    writeJson(path.join(ws, 'package.json'), { name: 'ws', version: '1.0.0', private: true });
    const pkg = path.join(ws, 'node_modules', 'fixture-mcp');
    writeJson(path.join(pkg, 'package.json'), { name: 'fixture-mcp', version: '1.0.0', bin: { 'fixture-mcp': 'index.js' } });
    write(path.join(pkg, 'index.js'), BIN(l.marker));
    fs.chmodSync(path.join(pkg, 'index.js'), 0o755);
    fs.mkdirSync(path.join(ws, 'node_modules', '.bin'));
    fs.symlinkSync(path.join('..', 'fixture-mcp', 'index.js'), path.join(ws, 'node_modules', '.bin', 'fixture-mcp'));
    write(path.join(ws, 'evil.js'), `require("fs").writeFileSync(${JSON.stringify(l.evil)}, String(process.pid));\n`);
    writeJson(path.join(ws, '.mcp.json'), {
      mcpServers: { mem: { command: 'npx', args: ['--yes', 'fixture-mcp'], env: { MEMORY_FILE_PATH: path.join(root, 'memory.jsonl') } } },
    });
    return l;
  }

  const runs = (l: Layout): Run[] => (fs.existsSync(l.marker) ? fs.readFileSync(l.marker, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Run) : []);
  const poison = (l: Layout): void => { write(l.npmrc, 'node-options=--require ./evil.js\n'); };

  describe('through the CLI', () => {
    before(requireBuiltCli);
    const common = (l: Layout): string[] => ['--workspace', l.ws, '--home', l.home, '--trust-store', l.store];
    const status = (l: Layout, extra: string[] = []) => {
      const result = runCli(['status', ...common(l), ...extra, '--json'], l.npmEnv);
      return (JSON.parse(result.stdout) as { servers: { name: string; state: string; error: string | null }[] }).servers[0];
    };

    it('a new .npmrc makes the trusted server need trust again, and its node-options never run before that', () => {
      const l = layout();
      assert.equal(status(l).state, 'needsTrust');
      assert.deepEqual(runs(l), []);

      const trusted = runCli(['trust', 'mem', ...common(l)], l.npmEnv);
      assert.equal(trusted.status, 0, trusted.stderr);
      const first = status(l);
      assert.equal(first.state, 'ready', first.error ?? '');
      assert.deepEqual(runs(l).map((run) => run.nodeOptions), [null], 'npx ran the workspace package once');

      poison(l);
      assert.equal(status(l).state, 'needsTrust');
      const table = runCli(['config', ...common(l)], l.npmEnv);
      assert.ok(table.stdout.includes(`package runner config: ${l.npmrc} (sets node-options)`), table.stdout);
      assert.ok(table.stdout.includes(`! env-override: package runner configuration in the workspace changes which code runs or where packages come from (node-options in ${l.npmrc})`), table.stdout);
      assert.ok(table.stdout.includes(`package runner config ${l.npmrc} added: sets node-options`), table.stdout);
      assert.ok(!table.stdout.includes('evil.js'), 'a setting value was printed');
      const json = JSON.parse(runCli(['config', ...common(l), '--json'], l.npmEnv).stdout) as { servers: { needsTrust: boolean }[]; dangerFlags: Record<string, string[]> };
      assert.equal(json.servers[0].needsTrust, true);
      assert.deepEqual(json.dangerFlags, { mem: ['env-override'] });
      assert.equal(runs(l).length, 1, 'a process started with the new .npmrc');
      assert.equal(fs.existsSync(l.evil), false, 'node-options from the .npmrc ran');

      // The person trusts the new definition: now npx hands node-options to the server, as it would have.
      const again = runCli(['trust', 'mem', ...common(l)], l.npmEnv);
      assert.equal(again.status, 0, again.stderr);
      assert.match(again.stdout, /package runner config: .*\.npmrc \(sets node-options\)/);
      assert.equal(status(l).state, 'ready');
      assert.equal(runs(l)[1]?.nodeOptions, '--require ./evil.js');
      assert.ok(fs.existsSync(l.evil), 'the trusted .npmrc ran (so the checks above could fail)');
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
        launchStdio: processLauncher(new ServerEnvironment({ baseEnv: { ...process.env, ...l.npmEnv }, loginShell: 'never', envFileDigest: TEST_DIGEST.digest })),
      });
      const registry = new ServerRegistry({
        connector: new RedactingConnector(connector),
        logFor: () => log,
        settings: { shutdownGraceMs: 500, restartBaseMs: 50 },
        gate: (server) => trustGate.gate(server),
      });
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

    it('a new .npmrc is picked up, asks again, and reaches no restart until trusted', async () => {
      const l = layout();
      const { store, registry, config } = await setup(l);
      registry.reconcile(config.current.servers);
      await registry.settled();
      assert.equal(registry.get('mem')?.state.kind, 'needsTrust');

      await store.trust(config.current.servers[0]);
      await registry.settled();
      assert.equal(registry.get('mem')?.state.kind, 'ready');
      const [first] = runs(l);
      const trustedFingerprint = config.current.servers[0].fingerprint;

      poison(l);
      await waitFor('the configuration to see the new .npmrc', () => config.current.servers[0]?.fingerprint !== trustedFingerprint, 10_000);
      await registry.settled();
      assert.equal(registry.get('mem')?.state.kind, 'ready', 'the trusted process keeps running until the person decides');
      assert.ok(registry.heldDefinition('mem'), 'the new definition waits for trust');

      // It crashes: the automatic restart runs the trusted definition, whose runner configuration no longer matches.
      process.kill(first.pid, 'SIGKILL');
      await waitFor('the restart to be refused', () => lines.some((line) => /package runner configuration changed since .*\.npmrc/.test(line)), 20_000);
      await registry.settled();
      assert.notEqual(registry.get('mem')?.state.kind, 'ready');
      assert.equal(runs(l).length, 1, 'a restart ran npx with the new .npmrc');
      assert.equal(fs.existsSync(l.evil), false, 'node-options from the .npmrc ran');
      assert.ok(!isAlive(first.pid));

      await store.trust(config.current.servers[0]);
      await registry.start('mem');
      await waitFor('the new definition to run', () => runs(l).length === 2, 20_000);
      assert.ok(fs.existsSync(l.evil), 'the trusted .npmrc ran (so the checks above could fail)');
    });
  });
});
