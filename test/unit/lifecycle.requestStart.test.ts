// A person's Start and Restart through the registry (requestStart, requestRestart): the Start policy
// the host only supplies a trust prompt to.
import * as assert from 'node:assert/strict';
import type { EffectiveServer } from '../../src/core/config/types';
import { ServerRegistry, type ServerRegistryOptions } from '../../src/core/lifecycle/registry';
import type { GateAnswer } from '../../src/core/lifecycle/runDecision';
import { StartRefusedError } from '../../src/core/lifecycle/startRequest';
import { FakeClock, FakeConnector, makeServer, RecordingLog } from './helpers/lifecycle';

/** A gate as the trust store answers it, and a prompt that answers as the test says. */
class FakeTrust {
  readonly trusted = new Set<string>();
  readonly refused = new Set<string>();
  restricted = false;
  /** Ids the prompt was shown for. */
  readonly asked: string[] = [];
  /** What a person does in the prompt; by default, nothing (closes it). */
  answer: (server: EffectiveServer) => void = () => undefined;

  constructor(private readonly registry: () => ServerRegistry) {}

  gate = (server: EffectiveServer): GateAnswer => {
    if (server.scope !== 'project') return 'allowed';
    if (this.restricted) return 'restricted';
    if (this.trusted.has(server.fingerprint)) return 'allowed';
    return this.refused.has(server.fingerprint) ? 'refused' : 'undecided';
  };

  ask = async (id: string): Promise<void> => {
    this.asked.push(id);
    const registry = this.registry();
    const view = registry.get(id);
    if (view) this.answer(registry.heldDefinition(id) ?? view.server);
  };

  /** The person trusts the definition; the store's change re-asks the gate, as the extension wires it. */
  trust(server: EffectiveServer): void {
    this.trusted.add(server.fingerprint);
    this.registry().applyGate();
  }
}

function setup(options: Partial<ServerRegistryOptions> = {}) {
  const connector = new FakeConnector();
  const trust: FakeTrust = new FakeTrust(() => registry);
  const registry = new ServerRegistry({ connector, clock: new FakeClock(), logFor: () => new RecordingLog(), gate: trust.gate, ...options });
  const state = (id: string): string | undefined => registry.get(id)?.state.kind;
  const connects = (id: string): number => connector.requests.filter((request) => request.server.id === id).length;
  return { registry, trust, state, connects };
}

const project = (command = 'serve'): EffectiveServer => makeServer('p', { scope: 'project', folder: '/ws' }, { command });

describe('ServerRegistry.requestStart: a person\'s Start', () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => { cleanup?.(); cleanup = undefined; });

  it('starts a server the gate allows, without asking anyone', async () => {
    const { registry, trust, state } = setup();
    cleanup = () => registry.dispose();
    registry.reconcile([makeServer('u')]);
    await registry.stop('u');
    assert.equal(await registry.requestStart('u', trust.ask), 'started');
    assert.equal(state('u'), 'ready');
    assert.deepEqual(trust.asked, []);
  });

  it('asks about a server awaiting a decision, and starts it once trusted', async () => {
    const { registry, trust, state } = setup();
    cleanup = () => registry.dispose();
    registry.reconcile([project()]);
    assert.equal(state('p'), 'needsTrust');
    trust.answer = (server) => trust.trust(server);
    assert.equal(await registry.requestStart('p', trust.ask), 'started');
    assert.deepEqual(trust.asked, ['p']);
    assert.equal(state('p'), 'ready');
  });

  it('starts nothing when the person does not trust it', async () => {
    const { registry, trust, state, connects } = setup();
    cleanup = () => registry.dispose();
    registry.reconcile([project()]);
    assert.equal(await registry.requestStart('p', trust.ask), 'notTrusted');
    assert.deepEqual(trust.asked, ['p']);
    assert.equal(state('p'), 'needsTrust');
    assert.equal(connects('p'), 0);
  });

  it('asks again about a definition the person refused before (a Start never passes the gate silently)', async () => {
    const { registry, trust, connects } = setup();
    cleanup = () => registry.dispose();
    const p = project();
    trust.refused.add(p.fingerprint);
    registry.reconcile([p]);
    assert.equal(await registry.requestStart('p', trust.ask), 'notTrusted');
    assert.deepEqual(trust.asked, ['p']);
    assert.equal(connects('p'), 0);
  });

  it('starts only what was trusted: a definition that changed while the prompt was open is not started', async () => {
    const { registry, trust, connects } = setup();
    cleanup = () => registry.dispose();
    registry.reconcile([project('cmd-a')]);
    trust.answer = (server) => {
      trust.trusted.add(server.fingerprint);
      registry.reconcile([project('cmd-b')]);
    };
    assert.equal(await registry.requestStart('p', trust.ask), 'notTrusted');
    assert.equal(connects('p'), 0);
  });

  it('refuses in Restricted Mode without asking, and says why', async () => {
    const { registry, trust, connects } = setup();
    cleanup = () => registry.dispose();
    trust.restricted = true;
    registry.reconcile([project()]);
    await assert.rejects(registry.requestStart('p', trust.ask), (error: unknown) => {
      assert.ok(error instanceof StartRefusedError);
      assert.equal(error.refusal, 'restricted');
      assert.equal(error.message, '"p" is defined by this workspace, which is open in Restricted Mode: trust the workspace to start it.');
      return true;
    });
    assert.deepEqual(trust.asked, []);
    assert.equal(connects('p'), 0);
  });

  it('refuses a server its entry disables, and one held for another host, naming which', async () => {
    const { registry, trust, connects } = setup({ hostedElsewhere: (server) => (server.id === 'held' ? 'VS Code runs it' : undefined) });
    cleanup = () => registry.dispose();
    registry.reconcile([makeServer('off', { disabled: true }), makeServer('held')]);
    await assert.rejects(registry.requestStart('off', trust.ask), { name: 'StartRefusedError', refusal: 'disabled', message: '"off" is disabled in its configuration ("disabled": true). Remove that to start it.' });
    await assert.rejects(registry.requestStart('held', trust.ask), { name: 'StartRefusedError', refusal: 'hostedElsewhere', detail: 'VS Code runs it', message: '"held" is not started by Switchboard: VS Code runs it.' });
    assert.equal(connects('off') + connects('held'), 0);
    assert.deepEqual(trust.asked, []);
  });

  it('rejects an id it does not know', async () => {
    const { registry, trust } = setup();
    cleanup = () => registry.dispose();
    await assert.rejects(registry.requestStart('nope', trust.ask), /unknown MCP server: nope/);
  });
});

describe('ServerRegistry.requestRestart: a person\'s Restart', () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => { cleanup?.(); cleanup = undefined; });

  it('restarts a running server without asking', async () => {
    const { registry, trust, state, connects } = setup();
    cleanup = () => registry.dispose();
    registry.reconcile([makeServer('u')]);
    await registry.settled();
    assert.equal(await registry.requestRestart('u', trust.ask), 'started');
    assert.equal(connects('u'), 2);
    assert.equal(state('u'), 'ready');
    assert.deepEqual(trust.asked, []);
  });

  it('starts a parked server as a Start does: asking for trust first', async () => {
    const { registry, trust, connects } = setup();
    cleanup = () => registry.dispose();
    registry.reconcile([project()]);
    assert.equal(await registry.requestRestart('p', trust.ask), 'notTrusted');
    assert.deepEqual(trust.asked, ['p']);
    assert.equal(connects('p'), 0);
  });

  it('asks about the changed definition of a server still running its trusted one', async () => {
    const { registry, trust, connects } = setup();
    cleanup = () => registry.dispose();
    const a = project('cmd-a');
    trust.trusted.add(a.fingerprint);
    registry.reconcile([a]);
    await registry.settled();
    registry.reconcile([project('cmd-b')]);
    assert.ok(registry.heldDefinition('p'), 'the change waits for trust');
    assert.equal(await registry.requestRestart('p', trust.ask), 'notTrusted');
    assert.deepEqual(trust.asked, ['p']);
    assert.equal(connects('p'), 1, 'the trusted definition keeps running, not restarted');
  });
});
