// The registry with a trust gate that can say "not decided yet": a running project server whose
// definition changes keeps its old process until the person decides, and nothing new starts before.
import * as assert from 'node:assert/strict';
import type { EffectiveServer } from '../../src/core/config/types';
import { ServerRegistry, type ServerRegistryOptions } from '../../src/core/lifecycle/registry';
import type { GateAnswer } from '../../src/core/lifecycle/runDecision';
import type { ServerStateChange } from '../../src/core/lifecycle/serverController';
import { FakeClock, FakeConnector, flush, makeServer, RecordingLog } from './helpers/lifecycle';

/** A gate as the trust store answers it: trusted and refused fingerprints, everything else undecided. */
class FakeTrust {
  readonly trusted = new Set<string>();
  readonly refused = new Set<string>();
  /** Each question the registry asked, by command: once per server and reconcile. */
  readonly asked: (string | undefined)[] = [];
  gate = (server: EffectiveServer): GateAnswer => {
    this.asked.push(server.launch.command);
    if (server.scope !== 'project' || this.trusted.has(server.fingerprint)) return 'allowed';
    return this.refused.has(server.fingerprint) ? 'refused' : 'undecided';
  };
}

function setup(trust: FakeTrust, options: Partial<ServerRegistryOptions> = {}) {
  const connector = new FakeConnector();
  const clock = new FakeClock();
  const registry = new ServerRegistry({
    connector,
    clock,
    logFor: () => new RecordingLog(),
    gate: trust.gate,
    ...options,
  });
  const changes: ServerStateChange[] = [];
  registry.onDidChangeState((change) => changes.push(change));
  const history = (id: string): string[] => changes.filter((change) => change.id === id).map((change) => change.state.kind);
  /** The definitions connect() was called with, by command. */
  const started = (id: string): (string | undefined)[] => connector.requests.filter((r) => r.server.id === id).map((r) => r.server.launch.command);
  return { clock, connector, registry, history, started };
}

const project = (command: string): EffectiveServer => makeServer('p', { scope: 'project', folder: '/ws' }, { command });

describe('ServerRegistry with a trust gate that can wait for a decision', () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => { cleanup?.(); cleanup = undefined; });

  it('keeps the old process running and starts nothing new while the changed definition awaits trust', async () => {
    const trust = new FakeTrust();
    const { registry, connector, history, started } = setup(trust);
    cleanup = () => registry.dispose();
    const a = project('cmd-a');
    trust.trusted.add(a.fingerprint);
    registry.reconcile([a]);
    await registry.settled();
    assert.equal(registry.get('p')?.state.kind, 'ready');

    const b = project('cmd-b');
    registry.reconcile([b]);
    await registry.settled();
    assert.equal(registry.get('p')?.state.kind, 'ready', 'the running server is not stopped');
    assert.equal(connector.last('p').closeCalls, 0);
    assert.deepEqual(started('p'), ['cmd-a'], 'the changed definition is not started');
    assert.equal(registry.get('p')?.server.fingerprint, a.fingerprint, 'the view shows what actually runs');
    assert.equal(registry.heldDefinition('p'), b);
    assert.deepEqual(history('p'), ['starting', 'ready']);

    // Asking the gate again without a decision changes nothing.
    registry.applyGate();
    await flush();
    assert.deepEqual(started('p'), ['cmd-a']);
    assert.equal(connector.last('p').closeCalls, 0);
  });

  it('once the new definition is trusted, restarts with it', async () => {
    const trust = new FakeTrust();
    const { registry, connector, started } = setup(trust);
    cleanup = () => registry.dispose();
    const a = project('cmd-a');
    trust.trusted.add(a.fingerprint);
    registry.reconcile([a]);
    await registry.settled();
    const b = project('cmd-b');
    registry.reconcile([b]);
    await flush();

    trust.trusted.add(b.fingerprint);
    registry.applyGate();
    await registry.settled();
    assert.deepEqual(started('p'), ['cmd-a', 'cmd-b']);
    assert.equal(connector.connections.get('p')?.[0].closeCalls, 1, 'the old process was stopped');
    assert.equal(registry.get('p')?.state.kind, 'ready');
    assert.equal(registry.get('p')?.server, b);
    assert.equal(registry.heldDefinition('p'), undefined);
  });

  it('once the new definition is refused, stops the old process and parks the server', async () => {
    const trust = new FakeTrust();
    const { registry, connector, started, history } = setup(trust);
    cleanup = () => registry.dispose();
    const a = project('cmd-a');
    trust.trusted.add(a.fingerprint);
    registry.reconcile([a]);
    await registry.settled();
    const b = project('cmd-b');
    registry.reconcile([b]);
    await flush();

    trust.refused.add(b.fingerprint);
    registry.applyGate();
    await registry.settled();
    assert.equal(registry.get('p')?.state.kind, 'needsTrust');
    assert.equal(connector.last('p').closeCalls, 1);
    assert.deepEqual(started('p'), ['cmd-a'], 'the refused definition never started');
    assert.deepEqual(history('p'), ['starting', 'ready', 'needsTrust']);
    assert.equal(registry.get('p')?.server, b);
  });

  it('stops the old process when its own trust is revoked while the change waits', async () => {
    const trust = new FakeTrust();
    const { registry, connector, started } = setup(trust);
    cleanup = () => registry.dispose();
    const a = project('cmd-a');
    trust.trusted.add(a.fingerprint);
    registry.reconcile([a]);
    await registry.settled();
    registry.reconcile([project('cmd-b')]);
    await flush();

    trust.trusted.delete(a.fingerprint);
    registry.applyGate();
    await registry.settled();
    assert.equal(registry.get('p')?.state.kind, 'needsTrust');
    assert.equal(connector.last('p').closeCalls, 1);
    assert.deepEqual(started('p'), ['cmd-a']);
  });

  it('a definition changed back to the running one just drops the held change', async () => {
    const trust = new FakeTrust();
    const { registry, connector, started } = setup(trust);
    cleanup = () => registry.dispose();
    const a = project('cmd-a');
    trust.trusted.add(a.fingerprint);
    registry.reconcile([a]);
    await registry.settled();
    registry.reconcile([project('cmd-b')]);
    await flush();
    registry.reconcile([project('cmd-a')]);
    await flush();
    assert.equal(registry.heldDefinition('p'), undefined);
    assert.equal(registry.get('p')?.state.kind, 'ready');
    assert.equal(connector.last('p').closeCalls, 0);
    assert.deepEqual(started('p'), ['cmd-a']);
  });

  it('a server that is not running when its definition changes is parked, not started', async () => {
    const trust = new FakeTrust();
    const { registry, connector, started } = setup(trust);
    cleanup = () => registry.dispose();
    const a = project('cmd-a');
    trust.trusted.add(a.fingerprint);
    registry.reconcile([a]);
    await registry.settled();
    await registry.stop('p');
    registry.reconcile([project('cmd-b')]);
    await registry.settled();
    assert.equal(registry.get('p')?.state.kind, 'needsTrust');
    assert.equal(registry.heldDefinition('p'), undefined);
    assert.deepEqual(started('p'), ['cmd-a']);
    assert.equal(connector.last('p').closeCalls, 1);
  });

  it('a crash while the change waits restarts the old, still trusted definition only', async () => {
    const trust = new FakeTrust();
    const { registry, connector, clock, started } = setup(trust);
    cleanup = () => registry.dispose();
    const a = project('cmd-a');
    trust.trusted.add(a.fingerprint);
    registry.reconcile([a]);
    await registry.settled();
    registry.reconcile([project('cmd-b')]);
    await flush();
    connector.last('p').crash();
    await flush();
    assert.equal(registry.get('p')?.state.kind, 'restarting');
    await clock.tick(1000); // the first automatic restart is due after restartBaseMs
    await registry.settled();
    assert.deepEqual(started('p'), ['cmd-a', 'cmd-a']);
    assert.equal(registry.get('p')?.state.kind, 'ready');
  });

  it('a gate whose "no" is final (never undecided) parks at once', async () => {
    const trust = new FakeTrust();
    const { registry, connector, started } = setup(trust, { gate: (server) => (trust.gate(server) === 'allowed' ? 'allowed' : 'refused') });
    cleanup = () => registry.dispose();
    const a = project('cmd-a');
    trust.trusted.add(a.fingerprint);
    registry.reconcile([a]);
    await registry.settled();
    registry.reconcile([project('cmd-b')]);
    await registry.settled();
    assert.equal(registry.get('p')?.state.kind, 'needsTrust');
    assert.equal(connector.last('p').closeCalls, 1);
    assert.deepEqual(started('p'), ['cmd-a']);
  });

  it('asks the gate once per server and reconcile (twice only while a changed definition may keep the old one running)', async () => {
    const trust = new FakeTrust();
    const { registry } = setup(trust);
    cleanup = () => registry.dispose();
    const a = project('cmd-a');
    trust.trusted.add(a.fingerprint);
    registry.reconcile([a, makeServer('u', {}, { command: 'u-1' })]);
    assert.deepEqual(trust.asked, ['cmd-a', 'u-1']);
    await registry.settled();
    trust.asked.length = 0;
    registry.reconcile([a, makeServer('u', {}, { command: 'u-1' })]);
    assert.deepEqual(trust.asked, ['cmd-a', 'u-1'], 'unchanged: one question each');
    trust.asked.length = 0;
    registry.reconcile([project('cmd-b'), makeServer('u', {}, { command: 'u-1' })]);
    assert.deepEqual(trust.asked, ['cmd-b', 'cmd-a', 'u-1'], 'the undecided change, then the running definition it may keep');
  });

  it('servers of other scopes still restart on a change', async () => {
    const trust = new FakeTrust();
    const { registry, started } = setup(trust);
    cleanup = () => registry.dispose();
    registry.reconcile([makeServer('u', {}, { command: 'u-1' })]);
    await registry.settled();
    registry.reconcile([makeServer('u', {}, { command: 'u-2' })]);
    await registry.settled();
    assert.deepEqual(started('u'), ['u-1', 'u-2']);
    assert.equal(registry.heldDefinition('u'), undefined);
  });
});
