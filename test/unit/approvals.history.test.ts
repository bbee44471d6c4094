// The call history: newest first, bounded, filterable, and restored from storage without trusting it.
import * as assert from 'node:assert/strict';
import { CallHistory, type CallRecord } from '../../src/core/approvals/callHistory';

function call(id: string, partial: Partial<CallRecord> = {}): CallRecord {
  return { id, at: 1000, server: 'fs', tool: 'write_file', args: { path: `${id}.txt` }, decision: 'ask', ran: true, decidedBy: { kind: 'person', answer: 'approve' }, reason: 'asked', caller: 'command', ...partial };
}

describe('CallHistory', () => {
  it('lists newest first and keeps at most its limit', () => {
    const history = new CallHistory(3);
    for (const id of ['a', 'b', 'c', 'd']) history.record(call(id));
    assert.deepEqual(history.list().map((r) => r.id), ['d', 'c', 'b']);
  });

  it('keeps its limit over many more calls than it holds', () => {
    const history = new CallHistory(5);
    for (let i = 0; i < 500; i++) history.record(call(`c${i}`));
    assert.deepEqual(history.list().map((r) => r.id), ['c499', 'c498', 'c497', 'c496', 'c495']);
    assert.equal(history.toJSON().length, 5);
    history.record(call('c500', { durationMs: 1 }));
    assert.deepEqual(history.list().map((r) => [r.id, r.durationMs]), [['c500', 1], ['c499', undefined], ['c498', undefined], ['c497', undefined], ['c496', undefined]]);
  });

  it('filters by server, decision, errors and text (arguments included)', () => {
    const history = new CallHistory();
    history.record(call('a', { server: 'git', tool: 'commit', decision: 'allow' }));
    history.record(call('b', { decision: 'deny', ran: false, error: 'rejected: not now' }));
    history.record(call('c', { args: { path: 'src/Secret-Plan.md' } }));
    assert.deepEqual(history.list({ server: 'git' }).map((r) => r.id), ['a']);
    assert.deepEqual(history.list({ decision: 'deny' }).map((r) => r.id), ['b']);
    assert.deepEqual(history.list({ onlyErrors: true }).map((r) => r.id), ['b']);
    assert.deepEqual(history.list({ text: 'secret-plan' }).map((r) => r.id), ['c']);
    assert.deepEqual(history.list({ text: 'NOT NOW' }).map((r) => r.id), ['b']);
    assert.equal(history.list({ text: '  ' }).length, 3);
  });

  it('round-trips through JSON and skips damaged entries when restoring', () => {
    const history = new CallHistory();
    history.record(call('a'));
    history.record(call('b'));
    const stored = JSON.parse(JSON.stringify(history.toJSON())) as unknown[];
    const restored = new CallHistory();
    assert.equal(restored.restore([...stored, { id: 'x' }, 'junk', null]), 3);
    assert.deepEqual(restored.list().map((r) => r.id), ['b', 'a']);
    assert.equal(new CallHistory().restore({ not: 'a list' }), 0);
  });

  it('restores both durations, older records with their one total, and drops a duration that is not a number', () => {
    const restored = new CallHistory();
    const kept = [call('new', { durationMs: 900, waitedMs: 800, ranMs: 95 }), call('old', { durationMs: 900 })];
    assert.equal(restored.restore([...kept, { ...call('bad'), waitedMs: '800' }]), 1);
    assert.deepEqual(restored.list().map((r) => [r.id, r.waitedMs, r.ranMs, r.durationMs]), [['new', 800, 95, 900], ['old', undefined, undefined, 900]]);
  });

  it('clears', () => {
    const history = new CallHistory();
    history.record(call('a'));
    history.clear();
    assert.deepEqual(history.list(), []);
  });
});
