// What the sidebar rows say about trust: a refused server reads "not trusted", Restricted Mode and a
// changed definition say why, a running server whose change waits for trust says it runs the old
// definition, a server whose file is being edited waits for trust without a prompt, and a project
// server's danger flags are listed (display-safe); user servers get none.
import * as assert from 'node:assert/strict';
import type { ServerState } from '../../src/core/lifecycle/state';
import { HELD_REASON, toSidebarSnapshot, type ServerTrustStatus } from '../../src/core/sidebarSnapshot';
import type { DangerFlag } from '../../src/core/trust/dangerFlags';
import type { PromptHoldReason } from '../../src/core/trust/promptHold';
import type { TrustDecision } from '../../src/core/trust/trustDecision';
import { makeServer } from './helpers/lifecycle';

const project = makeServer('p', { scope: 'project', folder: '/ws' });
const user = makeServer('u');

function row(state: ServerState, decision: TrustDecision, flags: DangerFlag[] = [], waiting?: PromptHoldReason) {
  const trust: ServerTrustStatus = { decision, flags, ...(waiting ? { waiting } : {}) };
  const snapshot = toSidebarSnapshot({ servers: [project, user], shadowed: [], problems: [] }, {
    generatedAt: 0,
    stateOf: () => ({ state }),
    trustOf: () => trust,
  });
  return { p: snapshot.servers.find((r) => r.id === 'p')!, u: snapshot.servers.find((r) => r.id === 'u')! };
}

describe('sidebar snapshot: trust', () => {
  it('a server never trusted reads "needs trust" with its reason', () => {
    const { p } = row({ kind: 'needsTrust' }, { state: 'needsTrust', reason: 'a project server that was never trusted' });
    assert.equal(p.stateLabel, 'needs trust');
    assert.equal(p.stateReason, 'a project server that was never trusted');
  });

  it('a refused server reads "not trusted"', () => {
    const { p } = row({ kind: 'needsTrust' }, { state: 'refused', reason: 'you chose not to trust this definition' });
    assert.equal(p.state, 'needsTrust');
    assert.equal(p.stateLabel, 'not trusted');
    assert.equal(p.stateReason, 'you chose not to trust this definition');
  });

  it('Restricted Mode reads "needs trust" with the reason "Restricted Mode…"', () => {
    const { p } = row({ kind: 'needsTrust' }, { state: 'restricted', reason: 'Restricted Mode: no project server starts until the workspace is trusted' });
    assert.equal(p.stateLabel, 'needs trust');
    assert.match(p.stateReason ?? '', /^Restricted Mode/);
  });

  it('a running server whose changed definition waits for trust says the old definition runs', () => {
    const { p } = row({ kind: 'ready', since: 0, startMs: 5 }, { state: 'needsTrust', reason: 'changed', changedFrom: project.launch });
    assert.equal(p.stateLabel, 'ready');
    assert.equal(p.stateReason, HELD_REASON);
    const trusted = row({ kind: 'ready', since: 0, startMs: 5 }, { state: 'allowed', reason: 'trusted' }).p;
    assert.equal(trusted.stateReason, undefined);
  });

  it('a server whose file is being edited reads "changed — waiting for trust", also while the trusted definition runs', () => {
    const parked = row({ kind: 'needsTrust' }, { state: 'needsTrust', reason: 'never' }, [], 'unsaved').p;
    assert.equal(parked.stateLabel, 'changed — waiting for trust');
    assert.match(parked.stateReason ?? '', /unsaved changes/);
    const running = row({ kind: 'ready', since: 0, startMs: 5 }, { state: 'needsTrust', reason: 'changed', changedFrom: project.launch }, [], 'settling').p;
    assert.equal(running.stateLabel, 'changed — waiting for trust');
    assert.ok(running.stateReason?.includes(HELD_REASON), running.stateReason);
  });

  it('lists a project server\'s danger flags, hidden characters made visible; a user server has none', () => {
    const flags: DangerFlag[] = [{ id: 'sudo', reason: 'runs a command with elevated privileges', detail: 'sudo\u202Ex' }, { id: 'rm-rf', reason: 'deletes files recursively without asking' }];
    const { p, u } = row({ kind: 'needsTrust' }, { state: 'needsTrust', reason: 'never' }, flags);
    assert.deepEqual(p.dangerFlags, [
      { id: 'sudo', reason: 'runs a command with elevated privileges', detail: 'sudo\\u{202E}x' },
      { id: 'rm-rf', reason: 'deletes files recursively without asking' },
    ]);
    assert.equal(u.dangerFlags, undefined);
  });
});
