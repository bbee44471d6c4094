// The pure trust decision and the launch diff: what a person is asked, when, and what they are shown.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mergeLayers } from '../../src/core/config/merge';
import type { EffectiveServer, LaunchDefinition } from '../../src/core/config/types';
import type { DangerFlag } from '../../src/core/trust/dangerFlags';
import { formatLaunchChange, launchDiff, storedLaunch } from '../../src/core/trust/launchDiff';
import { saltedDigest } from '../../src/core/trust/secretDigest';
import { decideTrust, type TrustDecisionOptions } from '../../src/core/trust/trustDecision';
import { TrustStore, type DocumentStorage } from '../../src/core/trust/trustStore';
import { parseText } from './helpers/config';
import { makeServer } from './helpers/lifecycle';
import { TEST_DIGEST } from './helpers/digest';

class MemoryStorage implements DocumentStorage {
  private document: unknown;
  read(): Promise<unknown> { return Promise.resolve(this.document); }
  write(document: unknown): Promise<void> { this.document = JSON.parse(JSON.stringify(document)); return Promise.resolve(); }
}

const plain: TrustDecisionOptions = { restricted: false, verified: false, dangerFlags: [] };
const SUDO: DangerFlag = { id: 'sudo', reason: 'runs with sudo' };

/** The one server of a project .mcp.json text, as the extension sees it after merging. */
function effective(text: string): EffectiveServer {
  const merged = mergeLayers([parseText(text)]);
  assert.deepEqual(merged.problems, []);
  assert.equal(merged.servers.length, 1);
  return merged.servers[0];
}

describe('decideTrust (the trust decision)', () => {
  it('allows servers of every scope but project, whatever the options say', async () => {
    const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
    for (const scope of ['local', 'user', 'plugin'] as const) {
      const decision = decideTrust(makeServer('s', { scope }), store, { restricted: true, verified: false, dangerFlags: [SUDO] });
      assert.equal(decision.state, 'allowed', scope);
    }
  });

  it('a never-trusted project server needs trust; trusted, it is allowed', async () => {
    const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
    const server = effective('{"mcpServers":{"db":{"command":"node","args":["db.js"]}}}');
    const before = decideTrust(server, store, plain);
    assert.equal(before.state, 'needsTrust');
    assert.equal(before.changedFrom, undefined);
    await store.trust(server);
    assert.equal(decideTrust(server, store, plain).state, 'allowed');
  });

  it('trusting then changing args needs trust again, with the trusted definition as changedFrom', async () => {
    const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
    const trusted = effective('{"mcpServers":{"db":{"command":"node","args":["db.js"],"env":{"TOKEN":"s3cret-value"}}}}');
    await store.trust(trusted);
    const changed = effective('{"mcpServers":{"db":{"command":"node","args":["db.js","--evil"],"env":{"TOKEN":"s3cret-value"}}}}');
    const decision = decideTrust(changed, store, plain);
    assert.equal(decision.state, 'needsTrust');
    assert.match(decision.reason, /changed/);
    assert.ok(decision.changedFrom);
    assert.deepEqual(decision.changedFrom.args, ['db.js']);
    assert.deepEqual(launchDiff(decision.changedFrom, changed.launch, TEST_DIGEST), [{ field: 'args', kind: 'added', index: 1, new: '--evil' }],
      'the env value compares equal through its digest');
    assert.deepEqual(decision.changes, [{ field: 'args', kind: 'added', index: 1, new: '--evil' }], 'the decision carries the changes');
  });

  it('whitespace, comments and key order do not change the fingerprint: still trusted', async () => {
    const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
    await store.trust(effective('{"mcpServers":{"db":{"command":"node","args":["db.js"],"env":{"A":"1","B":"2"}}}}'));
    const reformatted = effective(`{
  // reformatted by a colleague
  "mcpServers": {
    "db": {
      "env": { "B": "2", /* order */ "A": "1" },
      "args": [ "db.js" ],
      "command": "node",
    },
  },
}`);
    assert.equal(decideTrust(reformatted, store, plain).state, 'allowed');
  });

  it('a refusal is remembered until the definition changes', async () => {
    const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
    const server = effective('{"mcpServers":{"db":{"command":"node","args":["db.js"]}}}');
    await store.refuse(server);
    assert.equal(decideTrust(server, store, plain).state, 'refused');
    assert.equal(decideTrust(server, store, { ...plain, verified: true }).state, 'refused', 'a verified repository does not undo a refusal');
    const changed = effective('{"mcpServers":{"db":{"command":"node","args":["db2.js"]}}}');
    assert.equal(decideTrust(changed, store, plain).state, 'needsTrust');
  });

  it('revoke: the next decision asks again', async () => {
    const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
    const server = effective('{"mcpServers":{"db":{"command":"node"}}}');
    await store.trust(server);
    await store.revoke(server.folder!, server.name);
    const decision = decideTrust(server, store, plain);
    assert.equal(decision.state, 'needsTrust');
    assert.equal(decision.changedFrom, undefined);
  });

  it('Restricted Mode: restricted even when trusted or verified', async () => {
    const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
    const server = effective('{"mcpServers":{"db":{"command":"node"}}}');
    await store.trust(server);
    assert.equal(decideTrust(server, store, { ...plain, restricted: true }).state, 'restricted');
    assert.equal(decideTrust(server, store, { restricted: true, verified: true, dangerFlags: [] }).state, 'restricted');
  });

  it('a verified repository skips the prompt unless the server is flagged', async () => {
    const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
    const server = effective('{"mcpServers":{"db":{"command":"node"}}}');
    assert.equal(decideTrust(server, store, { ...plain, verified: true }).state, 'allowed');
    const flagged = decideTrust(server, store, { ...plain, verified: true, dangerFlags: [SUDO] });
    assert.equal(flagged.state, 'needsTrust');
    assert.match(flagged.reason, /sudo/);
  });
});

describe('launchDiff', () => {
  const base: LaunchDefinition = {
    type: 'stdio', command: 'node', args: ['server.js', '--port', '1'], env: { TOKEN: 'abc-secret', KEEP: 'same' },
    cwd: '/ws', headers: {},
  };

  it('is empty for the same definition', () => {
    assert.deepEqual(launchDiff(base, { ...base, env: { KEEP: 'same', TOKEN: 'abc-secret' } }, TEST_DIGEST), []);
  });

  it('lists command, cwd and argument positions: added, removed, changed', () => {
    const next: LaunchDefinition = { ...base, command: 'bash', args: ['server.js', '--port', '2', '--verbose'], cwd: undefined };
    assert.deepEqual(launchDiff(base, next, TEST_DIGEST), [
      { field: 'command', kind: 'changed', old: 'node', new: 'bash' },
      { field: 'args', kind: 'changed', index: 2, old: '1', new: '2' },
      { field: 'args', kind: 'added', index: 3, new: '--verbose' },
      { field: 'cwd', kind: 'removed', old: '/ws' },
    ]);
    assert.deepEqual(launchDiff(base, { ...base, args: ['--port', '1'] }, TEST_DIGEST), [{ field: 'args', kind: 'removed', index: 0, old: 'server.js' }]);
    assert.deepEqual(launchDiff(base, { ...base, args: ['-e', 'x', 'server.js', '--port', '1'] }, TEST_DIGEST), [
      { field: 'args', kind: 'added', index: 0, new: '-e' },
      { field: 'args', kind: 'added', index: 1, new: 'x' },
    ], 'an insertion does not shift every later position into a change');
  });

  it('masks env and header values: names only, *** on both sides, never a value', () => {
    const old: LaunchDefinition = { type: 'http', url: 'https://user:pw-secret@example.com/mcp', args: [], env: {}, headers: { Authorization: 'Bearer old-token', 'X-Gone': 'gone-value' } };
    const next: LaunchDefinition = { ...old, url: 'https://example.com/v2', headers: { Authorization: 'Bearer new-token', 'X-New': 'new-value' } };
    const changes = launchDiff(old, next, TEST_DIGEST);
    assert.deepEqual(changes, [
      { field: 'url', kind: 'changed', old: 'https://***:***@example.com/mcp', new: 'https://example.com/v2' },
      { field: 'headers', kind: 'changed', key: 'Authorization', old: '***', new: '***' },
      { field: 'headers', kind: 'removed', key: 'X-Gone', old: '***' },
      { field: 'headers', kind: 'added', key: 'X-New', new: '***' },
    ]);
    const envChanges = launchDiff(base, { ...base, env: { TOKEN: 'other-secret', NEW_ONE: 'v' } }, TEST_DIGEST);
    assert.deepEqual(envChanges.map(formatLaunchChange), ['env KEEP removed: ***', 'env NEW_ONE added: ***', 'env TOKEN changed: *** → ***']);
    const text = JSON.stringify([...changes, ...envChanges]);
    for (const secret of ['old-token', 'new-token', 'gone-value', 'new-value', 'pw-secret', 'abc-secret', 'other-secret']) {
      assert.ok(!text.includes(secret), `${secret} leaked`);
    }
  });

  it('compares a stored (digested) definition with a live one by value', () => {
    assert.deepEqual(launchDiff(storedLaunch(base, TEST_DIGEST), base, TEST_DIGEST), []);
    assert.deepEqual(launchDiff(storedLaunch(base, TEST_DIGEST), { ...base, env: { ...base.env, TOKEN: 'rotated' } }, TEST_DIGEST), [
      { field: 'env', kind: 'changed', key: 'TOKEN', old: '***', new: '***' },
    ]);
  });

  it('shows a changed env file: its path, and each variable by name, added, removed or changed', () => {
    const withFile: LaunchDefinition = { ...base, envFile: 'app.env', envFileVars: { TOKEN: TEST_DIGEST.digest('a'), MODE: TEST_DIGEST.digest('dev') } };
    const edited: LaunchDefinition = { ...withFile, envFileVars: { TOKEN: TEST_DIGEST.digest('b'), NODE_OPTIONS: TEST_DIGEST.digest('--require ./x.js') } };
    assert.deepEqual(launchDiff(base, withFile, TEST_DIGEST).map(formatLaunchChange), [
      'envFile added: "app.env"',
      'envFile variable MODE added: ***',
      'envFile variable TOKEN added: ***',
    ]);
    assert.deepEqual(launchDiff(storedLaunch(withFile, TEST_DIGEST), edited, TEST_DIGEST).map(formatLaunchChange), [
      'envFile variable MODE removed: ***',
      'envFile variable NODE_OPTIONS added: ***',
      'envFile variable TOKEN changed: *** → ***',
    ]);
    assert.deepEqual(launchDiff(withFile, { ...withFile, envFile: 'other.env' }, TEST_DIGEST).map(formatLaunchChange), ['envFile changed: "app.env" → "other.env"']);
  });

  it('stores arguments as a person saw them after redaction, and still sees a changed secret behind ***', () => {
    const launch: LaunchDefinition = { ...base, args: ['server.js', '--api-key=sk-live-123456', '--token', 'ghp_abcdef123456'], url: undefined };
    const stored = storedLaunch(launch, TEST_DIGEST);
    assert.deepEqual(stored.args, ['server.js', '--api-key=***', '--token', '***']);
    assert.match(stored.maskedArgs ?? '', /^hmac-sha256:[0-9a-f]{64}$/);
    assert.ok(!JSON.stringify(stored).includes('sk-live-123456') && !JSON.stringify(stored).includes('ghp_abcdef123456'), JSON.stringify(stored));
    assert.deepEqual(storedLaunch(stored, TEST_DIGEST), stored, 'storing a stored launch changes nothing');
    assert.deepEqual(launchDiff(stored, launch, TEST_DIGEST), []);
    const rotated = { ...launch, args: ['server.js', '--api-key=sk-live-999999', '--token', 'ghp_abcdef123456'] };
    assert.deepEqual(launchDiff(stored, rotated, TEST_DIGEST).map(formatLaunchChange), ['args: a masked value changed (*** → ***)']);
  });

  it('compares values kept by an older version as unsalted sha256 digests', () => {
    const legacy = { ...base, env: { TOKEN: `sha256:${createHash('sha256').update('abc-secret').digest('hex')}`, KEEP: `sha256:${createHash('sha256').update('same').digest('hex')}` } };
    assert.deepEqual(launchDiff(legacy, base, TEST_DIGEST), []);
    assert.deepEqual(launchDiff(legacy, { ...base, env: { ...base.env, TOKEN: 'rotated' } }, TEST_DIGEST).map(formatLaunchChange), ['env TOKEN changed: *** → ***']);
  });

  it('salts every digest it keeps: another installation\'s salt gives other digests', () => {
    const mine = storedLaunch(base, TEST_DIGEST);
    const theirs = storedLaunch(base, saltedDigest(Buffer.alloc(32, 9)));
    assert.match(mine.env.TOKEN, /^hmac-sha256:[0-9a-f]{64}$/);
    assert.notEqual(mine.env.TOKEN, theirs.env.TOKEN);
    assert.notEqual(mine.env.TOKEN, `sha256:${createHash('sha256').update('abc-secret').digest('hex')}`);
    assert.throws(() => saltedDigest(Buffer.alloc(8)), /at least 16 random bytes/);
  });

  it('formats changes as lines', () => {
    assert.equal(formatLaunchChange({ field: 'args', kind: 'changed', index: 2, old: '1', new: '2' }), 'args[2] changed: "1" → "2"');
    assert.equal(formatLaunchChange({ field: 'type', kind: 'changed', old: 'stdio', new: 'http' }), 'type changed: "stdio" → "http"');
  });
});
