// The gate while its host cannot tell a definition's danger flags yet (the bash parser still loading):
// a verified repository's server waits undecided instead of starting, nothing is cached, and once the
// flags are known (after clearFlags) it is decided on them.
import * as assert from 'node:assert/strict';
import type { DangerFlag } from '../../src/core/trust/dangerFlags';
import { TrustGate } from '../../src/core/trust/trustGate';
import { TrustStore, type DocumentStorage } from '../../src/core/trust/trustStore';
import { TEST_DIGEST } from './helpers/digest';
import { makeServer } from './helpers/lifecycle';

class MemoryStorage implements DocumentStorage {
  private document: unknown;
  read(): Promise<unknown> { return Promise.resolve(this.document); }
  write(document: unknown): Promise<void> { this.document = JSON.parse(JSON.stringify(document)); return Promise.resolve(); }
}

const server = makeServer('docs', { scope: 'project', folder: '/ws' });

async function gateWith(flags: () => DangerFlag[] | undefined, verified: boolean) {
  const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
  let asked = 0;
  const gate = new TrustGate(store, { isRestricted: () => false, isVerified: () => verified, dangerFlags: () => { asked++; return flags(); } });
  return { gate, store, asked: () => asked };
}

describe('TrustGate while the danger flags are not known yet', () => {
  it('keeps a verified repository\'s server waiting, then allows it once its flags are known and none', async () => {
    const host: { known?: DangerFlag[] } = {};
    const { gate, asked } = await gateWith(() => host.known, true);
    const waiting = gate.decide(server);
    assert.equal(waiting.state, 'needsTrust');
    assert.match(waiting.reason, /being checked/);
    assert.equal(gate.gate(server), 'undecided');
    assert.deepEqual(gate.flags(server), []);
    // Not cached: the host is asked again on every decision until it can tell.
    const before = asked();
    gate.decide(server);
    assert.equal(asked(), before + 1);

    host.known = [];
    gate.clearFlags();
    assert.equal(gate.decide(server).state, 'allowed');
  });

  it('asks about a flagged definition in a verified repository once the flags are known', async () => {
    const host: { known?: DangerFlag[] } = {};
    const { gate } = await gateWith(() => host.known, true);
    assert.equal(gate.decide(server).state, 'needsTrust');
    host.known = [{ id: 'pipe-to-shell', reason: 'downloads and runs a script', detail: 'curl … | sh' }];
    gate.clearFlags();
    const decision = gate.decide(server);
    assert.equal(decision.state, 'needsTrust');
    assert.match(decision.reason, /flagged \(pipe-to-shell\)/);
  });

  it('decides a trusted definition without the flags', async () => {
    const { gate, store } = await gateWith(() => undefined, false);
    await store.trust(server);
    assert.equal(gate.decide(server).state, 'allowed');
  });
});
