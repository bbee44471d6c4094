// The pure trust decision and the launch diff: what a person is asked, when, and what they are shown.
import * as assert from 'node:assert/strict';
import { mergeLayers } from '../../src/core/config/merge';
import type { EffectiveServer, LaunchDefinition } from '../../src/core/config/types';
import type { DangerFlag } from '../../src/core/trust/dangerFlags';
import { formatLaunchChange, launchDiff, withDigestedSecrets } from '../../src/core/trust/launchDiff';
import { needsTrust, type TrustDecisionOptions } from '../../src/core/trust/trustDecision';
import { TrustStore, type DocumentStorage } from '../../src/core/trust/trustStore';
import { parseText } from './helpers/config';
import { makeServer } from './helpers/lifecycle';

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

describe('needsTrust (the trust decision)', () => {
  it('allows servers of every scope but project, whatever the options say', async () => {
    const store = await TrustStore.load(new MemoryStorage());
    for (const scope of ['local', 'user', 'plugin'] as const) {
      const decision = needsTrust(makeServer('s', { scope }), store, { restricted: true, verified: false, dangerFlags: [SUDO] });
      assert.equal(decision.state, 'allowed', scope);
    }
  });

  it('a never-trusted project server needs trust; trusted, it is allowed', async () => {
    const store = await TrustStore.load(new MemoryStorage());
    const server = effective('{"mcpServers":{"db":{"command":"node","args":["db.js"]}}}');
    const before = needsTrust(server, store, plain);
    assert.equal(before.state, 'needsTrust');
    assert.equal(before.changedFrom, undefined);
    await store.trust(server);
    assert.equal(needsTrust(server, store, plain).state, 'allowed');
  });

  it('trusting then changing args needs trust again, with the trusted definition as changedFrom', async () => {
    const store = await TrustStore.load(new MemoryStorage());
    const trusted = effective('{"mcpServers":{"db":{"command":"node","args":["db.js"],"env":{"TOKEN":"s3cret-value"}}}}');
    await store.trust(trusted);
    const changed = effective('{"mcpServers":{"db":{"command":"node","args":["db.js","--evil"],"env":{"TOKEN":"s3cret-value"}}}}');
    const decision = needsTrust(changed, store, plain);
    assert.equal(decision.state, 'needsTrust');
    assert.match(decision.reason, /changed/);
    assert.ok(decision.changedFrom);
    assert.deepEqual(decision.changedFrom.args, ['db.js']);
    assert.deepEqual(launchDiff(decision.changedFrom, changed.launch), [{ field: 'args', kind: 'added', index: 1, new: '--evil' }],
      'the env value compares equal through its digest');
  });

  it('whitespace, comments and key order do not change the fingerprint: still trusted', async () => {
    const store = await TrustStore.load(new MemoryStorage());
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
    assert.equal(needsTrust(reformatted, store, plain).state, 'allowed');
  });

  it('a refusal is remembered until the definition changes', async () => {
    const store = await TrustStore.load(new MemoryStorage());
    const server = effective('{"mcpServers":{"db":{"command":"node","args":["db.js"]}}}');
    await store.refuse(server);
    assert.equal(needsTrust(server, store, plain).state, 'refused');
    assert.equal(needsTrust(server, store, { ...plain, verified: true }).state, 'refused', 'a verified repository does not undo a refusal');
    const changed = effective('{"mcpServers":{"db":{"command":"node","args":["db2.js"]}}}');
    assert.equal(needsTrust(changed, store, plain).state, 'needsTrust');
  });

  it('revoke: the next decision asks again', async () => {
    const store = await TrustStore.load(new MemoryStorage());
    const server = effective('{"mcpServers":{"db":{"command":"node"}}}');
    await store.trust(server);
    await store.revoke(server.folder!, server.name);
    const decision = needsTrust(server, store, plain);
    assert.equal(decision.state, 'needsTrust');
    assert.equal(decision.changedFrom, undefined);
  });

  it('Restricted Mode: restricted even when trusted or verified', async () => {
    const store = await TrustStore.load(new MemoryStorage());
    const server = effective('{"mcpServers":{"db":{"command":"node"}}}');
    await store.trust(server);
    assert.equal(needsTrust(server, store, { ...plain, restricted: true }).state, 'restricted');
    assert.equal(needsTrust(server, store, { restricted: true, verified: true, dangerFlags: [] }).state, 'restricted');
  });

  it('a verified repository skips the prompt unless the server is flagged', async () => {
    const store = await TrustStore.load(new MemoryStorage());
    const server = effective('{"mcpServers":{"db":{"command":"node"}}}');
    assert.equal(needsTrust(server, store, { ...plain, verified: true }).state, 'allowed');
    const flagged = needsTrust(server, store, { ...plain, verified: true, dangerFlags: [SUDO] });
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
    assert.deepEqual(launchDiff(base, { ...base, env: { KEEP: 'same', TOKEN: 'abc-secret' } }), []);
  });

  it('lists command, cwd and argument positions: added, removed, changed', () => {
    const next: LaunchDefinition = { ...base, command: 'bash', args: ['server.js', '--port', '2', '--verbose'], cwd: undefined };
    assert.deepEqual(launchDiff(base, next), [
      { field: 'command', kind: 'changed', old: 'node', new: 'bash' },
      { field: 'args', kind: 'changed', index: 2, old: '1', new: '2' },
      { field: 'args', kind: 'added', index: 3, new: '--verbose' },
      { field: 'cwd', kind: 'removed', old: '/ws' },
    ]);
    assert.deepEqual(launchDiff(base, { ...base, args: ['--port', '1'] }), [{ field: 'args', kind: 'removed', index: 0, old: 'server.js' }]);
    assert.deepEqual(launchDiff(base, { ...base, args: ['-e', 'x', 'server.js', '--port', '1'] }), [
      { field: 'args', kind: 'added', index: 0, new: '-e' },
      { field: 'args', kind: 'added', index: 1, new: 'x' },
    ], 'an insertion does not shift every later position into a change');
  });

  it('masks env and header values: names only, *** on both sides, never a value', () => {
    const old: LaunchDefinition = { type: 'http', url: 'https://user:pw-secret@example.com/mcp', args: [], env: {}, headers: { Authorization: 'Bearer old-token', 'X-Gone': 'gone-value' } };
    const next: LaunchDefinition = { ...old, url: 'https://example.com/v2', headers: { Authorization: 'Bearer new-token', 'X-New': 'new-value' } };
    const changes = launchDiff(old, next);
    assert.deepEqual(changes, [
      { field: 'url', kind: 'changed', old: 'https://***:***@example.com/mcp', new: 'https://example.com/v2' },
      { field: 'headers', kind: 'changed', key: 'Authorization', old: '***', new: '***' },
      { field: 'headers', kind: 'removed', key: 'X-Gone', old: '***' },
      { field: 'headers', kind: 'added', key: 'X-New', new: '***' },
    ]);
    const envChanges = launchDiff(base, { ...base, env: { TOKEN: 'other-secret', NEW_ONE: 'v' } });
    assert.deepEqual(envChanges.map(formatLaunchChange), ['env KEEP removed: ***', 'env NEW_ONE added: ***', 'env TOKEN changed: *** → ***']);
    const text = JSON.stringify([...changes, ...envChanges]);
    for (const secret of ['old-token', 'new-token', 'gone-value', 'new-value', 'pw-secret', 'abc-secret', 'other-secret']) {
      assert.ok(!text.includes(secret), `${secret} leaked`);
    }
  });

  it('compares a stored (digested) definition with a live one by value', () => {
    assert.deepEqual(launchDiff(withDigestedSecrets(base), base), []);
    assert.deepEqual(launchDiff(withDigestedSecrets(base), { ...base, env: { ...base.env, TOKEN: 'rotated' } }), [
      { field: 'env', kind: 'changed', key: 'TOKEN', old: '***', new: '***' },
    ]);
  });

  it('formats changes as lines', () => {
    assert.equal(formatLaunchChange({ field: 'args', kind: 'changed', index: 2, old: '1', new: '2' }), 'args[2] changed: "1" → "2"');
    assert.equal(formatLaunchChange({ field: 'type', kind: 'changed', old: 'stdio', new: 'http' }), 'type changed: "stdio" → "http"');
  });
});
