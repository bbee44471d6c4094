// Package runner configuration is part of the launch: the files npx, pnpm, yarn, bun and uv read from
// the working directory up to the workspace folder are recorded (digest and setting names, never a
// value), covered by the fingerprint, watched, flagged, shown, and checked again at launch.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mergeLayers } from '../../src/core/config/merge';
import { parseLayer } from '../../src/core/config/parse';
import { runnerConfigCandidates, runnersOf, settingNames } from '../../src/core/config/runnerConfig';
import { ConfigService } from '../../src/core/config/service';
import type { LaunchDefinition, RunnerConfigFile } from '../../src/core/config/types';
import { withWorkspaceReads } from '../../src/core/config/workspaceReads';
import { formatLaunchChange, launchDiff, storedLaunch } from '../../src/core/trust/launchDiff';
import { buildTrustPrompt } from '../../src/core/trust/promptText';
import { launchDangerFlags, riskySettings, runnerConfigFlags } from '../../src/core/trust/runnerConfigFlags';
import { parseTrustData } from '../../src/core/trust/trustStore';
import { checkRunnerConfig, parseEnvFile } from '../../src/node/process/environment';
import { FakeFileSystem, parseText, scopeSpec } from './helpers/config';
import { shellParser } from './helpers/bashParser';
import { TEST_DIGEST } from './helpers/digest';

const stdio = (command: string, args: string[] = []): LaunchDefinition => ({ type: 'stdio', command, args, env: {}, headers: {} });
const npx = JSON.stringify({ mcpServers: { mem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], cwd: 'tools' } } });
const support = (fake: FakeFileSystem) => ({ read: fake.read.bind(fake), parse: parseEnvFile, digest: TEST_DIGEST.digest, workspaceFolders: ['/ws/app'] });
const context = { workspaceFolders: ['/ws/app'], pathDirs: ['/usr/bin'], userHome: '/home/ada', shellParser };

async function read(fake: FakeFileSystem, text = npx, scope: 'project' | 'local' | 'user' = 'project') {
  const layer = await withWorkspaceReads(parseLayer(scopeSpec(scope), { kind: 'text', text }), support(fake));
  return mergeLayers([layer]).servers[0];
}

describe('package runner configuration', () => {
  it('knows the runners by program name, also behind a shell or a path, and nothing else', () => {
    const ids = (launch: LaunchDefinition) => runnersOf(launch).map((runner) => runner.id);
    assert.deepEqual(ids(stdio('npx', ['-y', 'pkg'])), ['npm']);
    assert.deepEqual(ids(stdio('/usr/local/bin/npx.cmd', ['pkg'])), ['npm']);
    assert.deepEqual(ids(stdio('npm', ['exec', 'pkg'])), ['npm']);
    assert.deepEqual(ids(stdio('pnpm', ['dlx', 'pkg'])), ['pnpm']);
    assert.deepEqual(ids(stdio('yarn', ['dlx', 'pkg'])), ['yarn']);
    assert.deepEqual(ids(stdio('bunx', ['pkg'])), ['bun']);
    assert.deepEqual(ids(stdio('uvx', ['mcp-server-git'])), ['uv']);
    assert.deepEqual(ids(stdio('pipx', ['run', 'pkg'])), ['pipx']);
    assert.deepEqual(ids(stdio('sh', ['-c', 'cd x && npx pkg'])), ['npm']);
    assert.deepEqual(ids(stdio('node', ['server.js'])), []);
  });

  it('looks from the working directory up to the workspace folder, never above it', () => {
    const files = runnerConfigCandidates(stdio('npx', ['pkg']), '/ws/app/tools/mcp', '/ws/app').map((entry) => entry.file);
    assert.deepEqual(files, ['/ws/app/tools/mcp/.npmrc', '/ws/app/tools/.npmrc', '/ws/app/.npmrc']);
    assert.deepEqual(runnerConfigCandidates(stdio('npx', ['pkg']), '/elsewhere', '/ws/app'), []);
    const fromHome = runnerConfigCandidates(stdio('npx', ['pkg']), '/home/ada/proj', '/home', '/home/ada').map((entry) => entry.file);
    assert.deepEqual(fromHome, ['/home/ada/proj/.npmrc', '/home/.npmrc'], "the home folder's own ~/.npmrc is the person's");
    assert.deepEqual(runnerConfigCandidates(stdio('pipx', ['run', 'pkg']), '/ws/app', '/ws/app'), [], 'pipx reads nothing per folder');
    const uv = runnerConfigCandidates(stdio('uvx', ['pkg']), '/ws/app', '/ws/app').map((entry) => entry.file);
    assert.deepEqual(uv, ['/ws/app/uv.toml', '/ws/app/pyproject.toml', '/ws/app/.python-version']);
  });

  it('records each file found by digest and setting names, never a value, and the fingerprint follows it', async () => {
    const fake = new FakeFileSystem();
    const plain = await read(fake);
    assert.equal(plain.launch.runnerConfig, undefined, 'no file, no entry');
    assert.equal(plain.runnerConfigRoot, '/ws/app');
    const withoutSupport = mergeLayers([parseText(npx)]).servers[0];
    assert.equal(plain.fingerprint, withoutSupport.fingerprint, 'a launch that reads no runner file keeps its fingerprint');

    fake.set('/ws/app/.npmrc', 'node-options=--require ./evil.js\n//registry.example.com/:_authToken=npm_secret_123456\n# comment\nsave-exact=true\n');
    const poisoned = await read(fake);
    const [entry] = poisoned.launch.runnerConfig ?? [];
    assert.equal(entry.file, '/ws/app/.npmrc');
    assert.deepEqual(entry.settings, ['node-options', '//registry.example.com/:_authToken', 'save-exact']);
    assert.match(entry.digest, /^hmac-sha256:[0-9a-f]{64}$/);
    assert.ok(!JSON.stringify(poisoned).includes('npm_secret_123456') && !JSON.stringify(poisoned).includes('evil.js'));
    assert.notEqual(poisoned.fingerprint, plain.fingerprint);

    fake.set('/ws/app/.npmrc', 'node-options=--require ./other.js\n//registry.example.com/:_authToken=npm_secret_123456\n# comment\nsave-exact=true\n');
    assert.notEqual((await read(fake)).fingerprint, poisoned.fingerprint, 'an edited value changes the fingerprint');
  });

  it('a local or user server that reads runner configuration of the workspace needs trust; one that reads none does not', async () => {
    const fake = new FakeFileSystem();
    const local = JSON.stringify({ mcpServers: { mem: { command: 'npx', args: ['-y', 'pkg'] } } });
    assert.equal((await read(fake, local, 'local')).needsTrust, false);
    fake.set('/ws/app/.npmrc', 'registry=https://registry.example.com/\n');
    const reading = await read(fake, local, 'local');
    assert.equal(reading.needsTrust, true);
    assert.equal(reading.repositoryFolder, '/ws/app');
    const user = JSON.stringify({ mcpServers: { mem: { command: 'npx', args: ['-y', 'pkg'] } } });
    assert.equal((await read(fake, user, 'user')).needsTrust, false, 'a user server runs in the home folder');
  });

  it('the config service watches every candidate, also those that do not exist yet, and re-reads on a change', async () => {
    const fake = new FakeFileSystem();
    fake.set('/ws/app/.mcp.json', npx);
    const service = new ConfigService(fake, { throttleMs: 1, envFiles: { parse: parseEnvFile, digest: TEST_DIGEST.digest } });
    try {
      await service.setSpecs([scopeSpec('project')]);
      const before = service.current.servers[0].fingerprint;
      assert.ok(fake.watchers.has('/ws/app/.npmrc') && fake.watchers.has('/ws/app/tools/.npmrc'), [...fake.watchers.keys()].join(' '));
      const changed = new Promise((resolve) => service.onDidChange(resolve));
      fake.write('/ws/app/.npmrc', 'script-shell=./evil.sh\n');
      await changed;
      assert.notEqual(service.current.servers[0].fingerprint, before);
      assert.deepEqual(service.current.servers[0].launch.runnerConfig?.map((entry) => entry.settings), [['script-shell']]);
    } finally {
      service.dispose();
    }
  });

  it('reads setting names from every format', () => {
    assert.deepEqual(settingNames('yaml', 'yarnPath: .yarn/releases/evil.cjs\nnpmScopes:\n  acme:\n    npmRegistryServer: x\n"nodeLinker": pnp\n'), ['yarnPath', 'npmScopes', 'nodeLinker']);
    assert.deepEqual(settingNames('toml', 'preload = ["./evil.ts"]\n[install]\nregistry = "https://x"\n[tool.uv]\nindex-url = "x"\n'), ['preload', '[install]', 'install.registry', '[tool.uv]', 'tool.uv.index-url']);
    assert.deepEqual(settingNames('ini', 'registry "https://x"\n; c\nyarn-path ./evil.js\n'), ['registry', 'yarn-path']);
    assert.deepEqual(settingNames('dotenv', 'export NODE_OPTIONS=--require x\nAPI_KEY=1\n'), ['NODE_OPTIONS', 'API_KEY']);
  });

  it('flags what is not known to be harmless, naming the file and the settings', () => {
    const entry = (file: string, settings: string[], extra: Partial<RunnerConfigFile> = {}): RunnerConfigFile => ({ file, digest: 'hmac-sha256:00', settings, ...extra });
    assert.deepEqual(riskySettings(entry('/ws/.npmrc', ['node-options', 'save-exact', 'registry', '@acme:registry', 'script-shell'])), ['node-options', 'registry', '@acme:registry', 'script-shell']);
    assert.deepEqual(riskySettings(entry('/ws/.npmrc', ['save-exact', 'engine-strict'])), []);
    assert.deepEqual(riskySettings(entry('/ws/.yarnrc.yml', ['nodeLinker', 'yarnPath'])), ['yarnPath']);
    assert.deepEqual(riskySettings(entry('/ws/.pnpmfile.cjs', [])), ['(runs as code)']);
    assert.deepEqual(riskySettings(entry('/ws/bunfig.toml', ['preload', '[install]', 'install.exact'])), ['preload']);
    assert.deepEqual(riskySettings(entry('/ws/pyproject.toml', ['[project]', 'project.name', 'tool.uv.index-url', 'tool.uv.managed'])), ['tool.uv.index-url']);
    assert.deepEqual(riskySettings(entry('/ws/.python-version', ['3.12'])), []);
    assert.deepEqual(riskySettings(entry('/ws/.python-version', ['./evil/python'])), ['./evil/python']);
    assert.deepEqual(riskySettings(entry('/ws/package.json', ['packageManager="yarn@4.1.0+sha512.abc123"'])), []);
    assert.deepEqual(riskySettings(entry('/ws/package.json', ['packageManager="yarn@https://evil.example/yarn.tgz"'])), ['packageManager="yarn@https://evil.example/yarn.tgz"']);
    assert.deepEqual(riskySettings(entry('/ws/.env', ['API_KEY', 'NODE_OPTIONS'])), ['NODE_OPTIONS']);
    assert.deepEqual(riskySettings(entry('/ws/.npmrc', [], { unreadable: true })), ['(could not be read)']);

    const launch = { ...stdio('npx', ['pkg']), env: { NODE_OPTIONS: '--inspect' }, runnerConfig: [entry('/ws/app/.npmrc', ['node-options'])] };
    assert.deepEqual(runnerConfigFlags(launch).map((flag) => flag.detail), ['node-options in /ws/app/.npmrc']);
    const flags = launchDangerFlags({ launch, folder: '/ws/app' }, context);
    assert.deepEqual(flags.map((flag) => flag.id), ['env-override'], 'one flag per id');
    assert.equal(flags[0].detail, 'NODE_OPTIONS; node-options in /ws/app/.npmrc');
  });

  it('the prompt shows each file and its settings; a new one shows as a change; the store keeps it without values', async () => {
    const fake = new FakeFileSystem();
    const trusted = await read(fake);
    fake.set('/ws/app/.npmrc', 'node-options=--require ./evil.js\n');
    const now = await read(fake);
    const stored = storedLaunch(trusted.launch, TEST_DIGEST);
    const changes = launchDiff(stored, now.launch, TEST_DIGEST).map(formatLaunchChange);
    assert.deepEqual(changes, ['package runner config /ws/app/.npmrc added: sets node-options']);
    const { detail } = buildTrustPrompt([{
      server: now, decision: { state: 'needsTrust', reason: 'changed', changedFrom: stored, changes: launchDiff(stored, now.launch, TEST_DIGEST) },
      flags: launchDangerFlags(now, context), shadows: [],
    }]);
    assert.match(detail, /^Package runner config: \/ws\/app\/\.npmrc \(sets node-options\)$/m);
    assert.match(detail, /^⚠ env-override: package runner configuration .*\(node-options in \/ws\/app\/\.npmrc\)$/m);
    assert.ok(!detail.includes('evil.js'));

    const document = { version: 1, workspaces: { '/ws/app': { mem: { trusted: { fingerprint: now.fingerprint, at: 'x', launch: storedLaunch(now.launch, TEST_DIGEST) } } } } };
    const parsed = parseTrustData(JSON.parse(JSON.stringify(document)));
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.data.workspaces['/ws/app'].mem.trusted?.launch.runnerConfig, now.launch.runnerConfig);
  });

  it('the launch refuses runner configuration that is not what was recorded', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-runner-'));
    try {
      fs.mkdirSync(path.join(root, 'tools'));
      const server = { folder: root, runnerConfigRoot: root, launch: { ...stdio('npx', ['pkg']), cwd: 'tools' } };
      const cwd = path.join(root, 'tools');
      await checkRunnerConfig(server, cwd, root, TEST_DIGEST.digest);
      fs.writeFileSync(path.join(root, '.npmrc'), 'node-options=--require ./evil.js\n');
      await assert.rejects(checkRunnerConfig(server, cwd, root, TEST_DIGEST.digest), /package runner configuration changed since .*\.npmrc/);
      const recorded = { ...server, launch: { ...server.launch, runnerConfig: [{ file: path.join(root, '.npmrc'), digest: TEST_DIGEST.digest('node-options=--require ./evil.js\n'), settings: ['node-options'] }] } };
      await checkRunnerConfig(recorded, cwd, root, TEST_DIGEST.digest);
      await assert.rejects(checkRunnerConfig(recorded, cwd, root, undefined), /cannot be checked/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
