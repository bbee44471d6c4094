// A local or user server whose env file lies inside a workspace folder reads repository content: the
// file is read and digested like a project server's, the server needs trust for it (kept apart from
// project servers in the store), its flags are shown, and an edit asks again.
import * as assert from 'node:assert/strict';
import { mergeLayers } from '../../src/core/config/merge';
import { parseLayer } from '../../src/core/config/parse';
import type { EffectiveServer } from '../../src/core/config/types';
import { withWorkspaceReads } from '../../src/core/config/workspaceReads';
import { launchDangerFlags } from '../../src/core/trust/runnerConfigFlags';
import { decideTrust, trustKey } from '../../src/core/trust/trustDecision';
import { TrustGate } from '../../src/core/trust/trustGate';
import { TrustPrompts, type TrustPromptRequest } from '../../src/core/trust/trustPrompts';
import { TrustStore, type DocumentStorage } from '../../src/core/trust/trustStore';
import { parseEnvFile } from '../../src/node/process/environment';
import { FakeFileSystem, scopeSpec } from './helpers/config';
import { shellParser } from './helpers/bashParser';
import { TEST_DIGEST } from './helpers/digest';

class MemoryStorage implements DocumentStorage {
  document: unknown;
  read(): Promise<unknown> { return Promise.resolve(this.document); }
  write(document: unknown): Promise<void> { this.document = JSON.parse(JSON.stringify(document)); return Promise.resolve(); }
}

const plain = { restricted: false, verified: false, dangerFlags: [] };
const context = { workspaceFolders: ['/ws/app'], pathDirs: ['/usr/bin'], userHome: '/home/ada', shellParser };

async function userServer(fake: FakeFileSystem, envFile: string, scope: 'user' | 'local' = 'user'): Promise<EffectiveServer> {
  const text = JSON.stringify({ mcpServers: { db: { command: 'node', args: ['/opt/db/server.js'], envFile } } });
  const layer = await withWorkspaceReads(parseLayer(scopeSpec(scope), { kind: 'text', text }), {
    read: fake.read.bind(fake), parse: parseEnvFile, digest: TEST_DIGEST.digest, workspaceFolders: ['/ws/app'],
  });
  return mergeLayers([layer]).servers[0];
}

describe('servers of other scopes that read workspace files', () => {
  it('an env file inside a workspace folder is read like a project one, and the server needs trust', async () => {
    const fake = new FakeFileSystem();
    fake.set('/ws/app/db.env', 'DB_URL=postgres://secret@db\n');
    const server = await userServer(fake, '/ws/app/db.env');
    assert.deepEqual(Object.keys(server.launch.envFileVars ?? {}), ['DB_URL']);
    assert.ok(!JSON.stringify(server).includes('postgres://secret'));
    assert.equal(server.repositoryFolder, '/ws/app');
    assert.equal(server.needsTrust, true);
    const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
    assert.equal(decideTrust(server, store, plain).state, 'needsTrust');
    assert.match(decideTrust(server, store, plain).reason, /user server .* reads files of the workspace folder \/ws\/app/);
    assert.equal(decideTrust(server, store, { ...plain, restricted: true }).state, 'restricted');

    const local = await userServer(fake, 'db.env', 'local');
    assert.equal(local.repositoryFolder, '/ws/app', 'a relative env file of a local server is in its folder');
  });

  it('an env file outside every workspace folder is the person\'s own: nothing changes', async () => {
    const fake = new FakeFileSystem();
    fake.set('/home/ada/db.env', 'DB_URL=x\n');
    const server = await userServer(fake, '/home/ada/db.env');
    assert.equal(server.launch.envFileVars, undefined);
    assert.equal(server.repositoryFolder, undefined);
    assert.equal(server.needsTrust, false);
    const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
    assert.equal(decideTrust(server, store, plain).state, 'allowed');
  });

  it('trusting it is kept apart from project servers of the folder, and an edit of the file asks again', async () => {
    const fake = new FakeFileSystem();
    fake.set('/ws/app/db.env', 'DB_URL=a\n');
    const server = await userServer(fake, '/ws/app/db.env');
    assert.deepEqual(trustKey(server), { folder: 'user:/ws/app', name: 'db' });
    const storage = new MemoryStorage();
    const store = await TrustStore.load(storage, { digest: TEST_DIGEST });
    await store.trust(server);
    assert.equal(decideTrust(server, store, plain).state, 'allowed');
    assert.deepEqual(Object.keys((storage.document as { workspaces: Record<string, unknown> }).workspaces), ['user:/ws/app']);

    fake.set('/ws/app/db.env', 'DB_URL=a\nNODE_OPTIONS=--require ./evil.js\n');
    const edited = await userServer(fake, '/ws/app/db.env');
    const decision = decideTrust(edited, store, plain);
    assert.equal(decision.state, 'needsTrust');
    assert.ok(decision.changes?.some((change) => change.field === 'envFileVars' && change.key === 'NODE_OPTIONS'));
    assert.ok(launchDangerFlags(edited, context).some((flag) => flag.id === 'env-override' && /NODE_OPTIONS \(from envFile/.test(flag.detail ?? '')));
  });

  it('the gate flags it and the prompt asks about it', async () => {
    const fake = new FakeFileSystem();
    fake.set('/ws/app/db.env', 'NODE_OPTIONS=--require ./evil.js\n');
    const server = await userServer(fake, '/ws/app/db.env');
    const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
    const gate = new TrustGate(store, { isRestricted: () => false, isVerified: () => false, dangerFlags: (s) => launchDangerFlags(s, context) });
    assert.ok(gate.flags(server).some((flag) => flag.id === 'env-override'));
    assert.equal(gate.decide(server).state, 'needsTrust');
    const asked: TrustPromptRequest[] = [];
    const prompts = new TrustPrompts({
      config: () => ({ servers: [server], shadowed: [] }), gate, store,
      prompter: () => ({ ask: (request) => { asked.push(request); return Promise.resolve('trust'); } }),
      review: () => Promise.resolve(), onProblem: (message) => assert.fail(message),
    });
    await prompts.check();
    prompts.dispose();
    assert.equal(asked.length, 1);
    assert.match(asked[0].text.detail, /Env file: \/ws\/app\/db\.env \(defines NODE_OPTIONS=\*\*\*\)/);
    assert.equal(gate.decide(server).state, 'allowed');
  });
});
