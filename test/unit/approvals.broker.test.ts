// The approval broker: cards wait for an answer, cancellation removes them, and nothing is answered twice.
import * as assert from 'node:assert/strict';
import { ApprovalBroker, ApprovalCancelledError, type ApprovalRequest } from '../../src/core/approvals/approvalBroker';

function request(id: string): ApprovalRequest {
  return { id, serverId: 'fs', serverName: 'fs', tool: 'write_file', qualifiedName: 'mcp__fs__write_file', reason: 'it writes', args: { path: 'a' }, inputSchema: { type: 'object' }, createdAt: 1, caller: 'command' };
}

describe('ApprovalBroker', () => {
  it('keeps a card until it is answered, then resolves with the answer', async () => {
    const broker = new ApprovalBroker();
    let changes = 0;
    const asked: string[] = [];
    broker.onDidChange(() => changes++);
    broker.onDidAsk((r) => asked.push(r.id));
    const answer = broker.ask(request('a'));
    assert.deepEqual(broker.pending().map((r) => r.id), ['a']);
    assert.deepEqual(asked, ['a']);
    assert.equal(broker.answer('a', { kind: 'approve', args: { path: 'b' }, remember: 'session' }), true);
    assert.deepEqual(await answer, { kind: 'approve', args: { path: 'b' }, remember: 'session' });
    assert.deepEqual(broker.pending(), []);
    assert.equal(changes, 2);
    assert.equal(broker.answer('a', { kind: 'reject' }), false, 'answered once only');
  });

  it('passes a rejection with its reason', async () => {
    const broker = new ApprovalBroker();
    const answer = broker.ask(request('a'));
    broker.answer('a', { kind: 'reject', reason: 'wrong file' });
    assert.deepEqual(await answer, { kind: 'reject', reason: 'wrong file' });
  });

  it('removes the card when the caller cancels, and rejects the wait', async () => {
    const broker = new ApprovalBroker();
    const controller = new AbortController();
    const answer = broker.ask(request('a'), controller.signal);
    const other = broker.ask(request('b'));
    controller.abort();
    await assert.rejects(answer, ApprovalCancelledError);
    assert.deepEqual(broker.pending().map((r) => r.id), ['b']);
    assert.equal(broker.answer('a', { kind: 'reject' }), false);
    broker.answer('b', { kind: 'reject' });
    await other;
  });

  it('refuses an already cancelled caller and a duplicate id', async () => {
    const broker = new ApprovalBroker();
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(broker.ask(request('a'), controller.signal), ApprovalCancelledError);
    void broker.ask(request('b')).catch(() => undefined);
    await assert.rejects(broker.ask(request('b')), /already pending/);
    broker.dispose();
  });

  it('cancels every pending card when disposed', async () => {
    const broker = new ApprovalBroker();
    const a = broker.ask(request('a'));
    const b = broker.ask(request('b'));
    broker.dispose();
    await assert.rejects(a, /window closed/);
    await assert.rejects(b, ApprovalCancelledError);
    assert.deepEqual(broker.pending(), []);
  });
});
