// decideRun() as a table: every row is one situation of the trust gate (a reconcile of a new or changed
// definition, or a person's Start) and the one answer it must give. The registry and the Start command
// both ask it; test/unit/lifecycle.trustGate.test.ts and test/integration/trust.test.ts show the same
// rules through the registry with fake and real processes.
import * as assert from 'node:assert/strict';
import { decideRun, type DefinitionFacts, type GateAnswer, type RunDecision, type RunQuestion, type RunningFacts } from '../../src/core/lifecycle/runDecision';

const def = (gate: GateAnswer, more: Partial<DefinitionFacts> = {}): DefinitionFacts => ({ disabled: false, gate, startedByPerson: false, ...more });
const running = (gate: GateAnswer, more: Partial<RunningFacts> = {}): RunningFacts => ({ ...def(gate), live: true, wanted: true, ...more });

const RUN: RunDecision = { kind: 'run' };
const KEEP: RunDecision = { kind: 'keepPrevious' };
const NEEDS_TRUST: RunDecision = { kind: 'park', state: 'needsTrust' };
const DISABLED: RunDecision = { kind: 'park', state: 'disabled' };
const ASK: RunDecision = { kind: 'askTrust' };

const reconcile = (next: DefinitionFacts, previous?: RunningFacts): RunQuestion => ({ trigger: 'reconcile', next, running: previous });
const start = (next: DefinitionFacts): RunQuestion => ({ trigger: 'start', next });

const TABLE: readonly [situation: string, question: RunQuestion, expected: RunDecision][] = [
  // ── reconcile: a server appears or its definition is re-read ──
  ['a user, local or plugin server (the gate allows it)', reconcile(def('allowed')), RUN],
  ['a trusted project definition', reconcile(def('allowed')), RUN],
  ['a project server never trusted', reconcile(def('undecided')), NEEDS_TRUST],
  ['a refused project definition', reconcile(def('refused')), NEEDS_TRUST],
  ['a project server in Restricted Mode', reconcile(def('restricted')), NEEDS_TRUST],
  ['a project definition a person started in this session', reconcile(def('undecided', { startedByPerson: true })), RUN],
  ['a disabled entry, even when allowed', reconcile(def('allowed', { disabled: true })), DISABLED],
  ['a disabled entry a person had started', reconcile(def('undecided', { disabled: true, startedByPerson: true })), DISABLED],
  // ── reconcile: the definition changed under a running server ──
  ['a change awaiting trust while the trusted definition runs', reconcile(def('undecided'), running('allowed')), KEEP],
  ['a change awaiting trust while a definition a person started runs', reconcile(def('undecided'), running('undecided', { startedByPerson: true })), KEEP],
  ['a change that is allowed at once restarts with it', reconcile(def('allowed'), running('allowed')), RUN],
  ['a change that was refused parks the server', reconcile(def('refused'), running('allowed')), NEEDS_TRUST],
  ['a change in Restricted Mode parks the server', reconcile(def('restricted'), running('allowed')), NEEDS_TRUST],
  ['a change awaiting trust, the running definition revoked meanwhile', reconcile(def('undecided'), running('undecided')), NEEDS_TRUST],
  ['a change awaiting trust, the server not running (stopped, failed)', reconcile(def('undecided'), running('allowed', { live: false })), NEEDS_TRUST],
  ['a change awaiting trust, the server parked', reconcile(def('undecided'), running('allowed', { wanted: false })), NEEDS_TRUST],
  ['a change to a disabled entry stops it', reconcile(def('undecided', { disabled: true }), running('allowed')), DISABLED],
  ['a change a person started (the same fingerprint) runs', reconcile(def('undecided', { startedByPerson: true }), running('allowed')), RUN],
  // ── a person presses Start ──
  ['Start on an allowed server', start(def('allowed')), RUN],
  ['Start on a never trusted project server asks', start(def('undecided')), ASK],
  ['Start on a refused definition asks again', start(def('refused')), ASK],
  ['Start on a definition started before still asks (never silently)', start(def('undecided', { startedByPerson: true })), ASK],
  ['Start in Restricted Mode is refused', start(def('restricted')), { kind: 'refuse', reason: 'restricted' }],
  ['Start on a disabled server is refused', start(def('allowed', { disabled: true })), { kind: 'refuse', reason: 'disabled' }],
  ['Start on a disabled server in Restricted Mode names the entry first', start(def('restricted', { disabled: true })), { kind: 'refuse', reason: 'disabled' }],
];

describe('decideRun: may this server run now?', () => {
  for (const [situation, question, expected] of TABLE) {
    it(`${situation} → ${expected.kind}${'state' in expected ? ` ${expected.state}` : ''}${'reason' in expected ? ` (${expected.reason})` : ''}`, () => {
      assert.deepEqual(decideRun(question), expected);
    });
  }

  it('the table covers every answer decideRun can give', () => {
    const kinds = new Set(TABLE.map(([, , expected]) => JSON.stringify(expected)));
    for (const answer of [RUN, KEEP, NEEDS_TRUST, DISABLED, ASK, { kind: 'refuse', reason: 'restricted' }, { kind: 'refuse', reason: 'disabled' }]) {
      assert.ok(kinds.has(JSON.stringify(answer)), `no row answers ${JSON.stringify(answer)}`);
    }
  });

  it('a reconcile never answers with a Start-only decision, whatever the facts', () => {
    const gates: GateAnswer[] = ['allowed', 'undecided', 'refused', 'restricted'];
    const bools = [false, true];
    for (const gate of gates) for (const disabled of bools) for (const startedByPerson of bools) {
      const next = def(gate, { disabled, startedByPerson });
      const previous: (RunningFacts | undefined)[] = [undefined];
      for (const runningGate of gates) for (const live of bools) for (const wanted of bools) for (const started of bools) {
        previous.push(running(runningGate, { live, wanted, startedByPerson: started }));
      }
      for (const prev of previous) {
        const decision = decideRun(reconcile(next, prev));
        assert.ok(decision.kind === 'run' || decision.kind === 'park' || decision.kind === 'keepPrevious', JSON.stringify({ next, prev, decision }));
        // Nothing the gate does not allow ever runs, unless a person started exactly this definition.
        if (decision.kind === 'run') assert.ok(!disabled && (gate === 'allowed' || startedByPerson), JSON.stringify({ next, prev }));
      }
    }
  });
});
