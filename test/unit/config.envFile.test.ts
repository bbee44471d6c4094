// A project server's env file is part of what it launches: read with the configuration (names and
// salted digests of values, never a value), covered by the fingerprint, watched, and checked again at
// launch; the salt is per installation.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mergeLayers } from '../../src/core/config/merge';
import { envFilePath, withEnvFileVars, type EnvFileSupport } from '../../src/core/config/envFiles';
import { ConfigService, type ConfigSnapshot } from '../../src/core/config/service';
import { installDigest, loadInstallSalt, SALT_FILE } from '../../src/node/installSalt';
import { checkEnvFile, parseEnvFile, ServerEnvironment } from '../../src/node/process/environment';
import { delay, FakeFileSystem, parseText, scopeSpec } from './helpers/config';
import { TEST_DIGEST } from './helpers/digest';

const PROJECT = '/ws/app/.mcp.json';
const ENV = '/ws/app/repo.env';
const withFile = JSON.stringify({ mcpServers: { s: { command: 'node', args: ['server.js'], envFile: 'repo.env' } } });

function support(fake: FakeFileSystem): EnvFileSupport {
  return { read: (file, max) => fake.read(file, max), parse: parseEnvFile, digest: TEST_DIGEST.digest };
}

describe('env files of project servers', () => {
  it('records the names and salted digests of what the file defines, never a value', async () => {
    const fake = new FakeFileSystem();
    fake.set(ENV, 'NODE_OPTIONS=--require ./evil.js\nexport API_KEY="sk-live-123456"\n');
    const layer = await withEnvFileVars(parseText(withFile), support(fake));
    assert.deepEqual(layer.problems, []);
    const vars = layer.servers[0].launch.envFileVars ?? {};
    assert.deepEqual(Object.keys(vars).sort(), ['API_KEY', 'NODE_OPTIONS']);
    assert.equal(vars.API_KEY, TEST_DIGEST.digest('sk-live-123456'));
    assert.ok(!JSON.stringify(layer).includes('sk-live-123456') && !JSON.stringify(layer).includes('evil.js'), JSON.stringify(layer));
  });

  it('changes the fingerprint when the file changes, and not when it is saved unchanged', async () => {
    const fake = new FakeFileSystem();
    const fingerprintWith = async (text: string | undefined): Promise<string> => {
      if (text === undefined) fake.files.delete(ENV); else fake.set(ENV, text);
      return mergeLayers([await withEnvFileVars(parseText(withFile), support(fake))]).servers[0].fingerprint;
    };
    const first = await fingerprintWith('TOKEN=a\n');
    assert.equal(await fingerprintWith('# a comment\nTOKEN=a\n'), first);
    assert.notEqual(await fingerprintWith('TOKEN=b\n'), first);
    assert.notEqual(await fingerprintWith('TOKEN=a\nNODE_OPTIONS=--require x\n'), first);
    assert.notEqual(await fingerprintWith(''), first);
    assert.notEqual(await fingerprintWith(undefined), await fingerprintWith(''), 'a missing file is not an empty one');
  });

  it('reads only the project scope, and warns when a project env file cannot be read', async () => {
    const fake = new FakeFileSystem();
    const user = await withEnvFileVars(parseText(withFile, scopeSpec('user')), support(fake));
    assert.equal(user.servers[0].launch.envFileVars, undefined);
    assert.deepEqual(fake.reads, [], 'a user server\'s env file is the user\'s own: not read here');

    const missing = await withEnvFileVars(parseText(withFile), support(fake));
    assert.equal(missing.servers[0].launch.envFileVars, undefined);
    assert.equal(missing.problems.length, 1);
    assert.equal(missing.problems[0].code, 'env-file-unreadable');
    assert.match(missing.problems[0].message, /envFile of project server "s" was not read: \/ws\/app\/repo\.env does not exist\. The server cannot start/);

    const input = await withEnvFileVars(parseText(JSON.stringify({ mcpServers: { s: { command: 'node', envFile: '${input:file}' } } })), support(fake));
    assert.match(input.problems.at(-1)?.message ?? '', /uses \$\{input:…\}/);
    assert.equal(envFilePath({ folder: '/ws/app', launch: { type: 'stdio', args: [], env: {}, headers: {}, envFile: '/abs/x.env' } }, '/home/ada'), '/abs/x.env');
  });

  it('the config service watches the env file and publishes the new variables when it changes', async () => {
    const fake = new FakeFileSystem();
    fake.set(PROJECT, withFile);
    fake.set(ENV, 'TOKEN=a\n');
    const service = new ConfigService(fake, { throttleMs: 5, envFiles: { parse: parseEnvFile, digest: TEST_DIGEST.digest } });
    const events: ConfigSnapshot[] = [];
    service.onDidChange((snapshot) => events.push(snapshot));
    try {
      await service.setSpecs([scopeSpec('project')]);
      const before = service.current.servers[0];
      assert.deepEqual(Object.keys(before.launch.envFileVars ?? {}), ['TOKEN']);
      assert.ok(fake.watchers.has(ENV), 'the env file is watched');

      fake.write(ENV, 'TOKEN=a\nNODE_OPTIONS=--require ./x.js\n');
      await delay(60);
      assert.equal(events.length, 2);
      const after = service.current.servers[0];
      assert.deepEqual(Object.keys(after.launch.envFileVars ?? {}).sort(), ['NODE_OPTIONS', 'TOKEN']);
      assert.notEqual(after.fingerprint, before.fingerprint);

      // The entry no longer names it: the watcher goes.
      fake.write(PROJECT, JSON.stringify({ mcpServers: { s: { command: 'node' } } }));
      await delay(60);
      assert.equal(fake.watchers.get(ENV)?.size ?? 0, 0);
    } finally {
      service.dispose();
    }
    assert.equal(fake.watcherCount(), 0, 'dispose unwatches the env files too');
  });
});

describe('the env file at launch', () => {
  let dir: string;
  beforeEach(() => { dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-envfile-'))); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const environment = (): ServerEnvironment => new ServerEnvironment({ baseEnv: { PATH: '/usr/bin' }, homeDir: dir, platform: 'linux', envFileDigest: TEST_DIGEST.digest });

  it('starts a project server only with exactly the variables that were checked', async () => {
    fs.writeFileSync(path.join(dir, 'repo.env'), 'TOKEN=a\n');
    const checked = { TOKEN: TEST_DIGEST.digest('a') };
    const server = { scope: 'project' as const, folder: dir, launch: { env: {}, envFile: 'repo.env', envFileVars: checked } };
    assert.equal((await environment().resolve(server)).env.TOKEN, 'a');

    fs.writeFileSync(path.join(dir, 'repo.env'), 'TOKEN=b\nNODE_OPTIONS=--require ./x.js\n');
    await assert.rejects(environment().resolve(server), {
      message: `envFile ${path.join(dir, 'repo.env')} changed since its variables were checked (NODE_OPTIONS, TOKEN): the server starts with it only after you trust the new definition`,
    });
    await assert.rejects(environment().resolve({ ...server, launch: { env: {}, envFile: 'repo.env' } }), /was not readable when the configuration was read/);
  });

  it('never names a value, and lets a user server read its own file unchecked', async () => {
    fs.writeFileSync(path.join(dir, 'repo.env'), 'TOKEN=sk-secret-value\n');
    assert.throws(() => checkEnvFile('/x.env', { TOKEN: 'sk-secret-value' }, { TOKEN: TEST_DIGEST.digest('other') }, TEST_DIGEST.digest), (error: Error) => !error.message.includes('sk-secret-value'));
    assert.throws(() => checkEnvFile('/x.env', {}, {}, undefined), /cannot be checked/);
    const user = await environment().resolve({ scope: 'user', folder: dir, launch: { env: {}, envFile: 'repo.env' } });
    assert.equal(user.env.TOKEN, 'sk-secret-value');
    assert.deepEqual(user.fromEnvFile, { TOKEN: 'sk-secret-value' });
  });
});

describe('the installation salt', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-salt-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is made once (32 random bytes, mode 0600) and kept, next to the trust store', async () => {
    const store = path.join(dir, 'state');
    const first = await loadInstallSalt(store);
    assert.equal(first.length, 32);
    if (process.platform !== 'win32') assert.equal(fs.statSync(path.join(store, SALT_FILE)).mode & 0o777, 0o600);
    assert.deepEqual(await loadInstallSalt(store), first);
    const fresh = path.join(dir, 'fresh');
    const [x, y] = await Promise.all([loadInstallSalt(fresh), loadInstallSalt(fresh)]);
    assert.deepEqual(x, y, 'two processes starting at once end up with one salt');
    const [a, b] = await Promise.all([installDigest(store), installDigest(store)]);
    assert.equal(a.digest('x'), b.digest('x'));
    const other = await installDigest(path.join(dir, 'elsewhere'));
    assert.notEqual(other.digest('x'), a.digest('x'), 'another installation has another salt');
  });

  it('replaces a file that is not a salt, and says so', async () => {
    fs.writeFileSync(path.join(dir, SALT_FILE), 'not hex\n');
    const problems: string[] = [];
    const salt = await loadInstallSalt(dir, (message) => problems.push(message));
    assert.equal(salt.length, 32);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /does not hold a salt/);
    assert.deepEqual(await loadInstallSalt(dir), salt);
  });
});
