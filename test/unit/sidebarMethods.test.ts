import * as assert from 'node:assert/strict';
import type { RequestMessage } from '../../src/protocol/rpc';
import type { CheckedSidebarRequest } from '../../src/protocol/sidebarMessages';
import { dispatchSidebarRequest, parseWebviewMessage } from '../../src/protocol/sidebarDispatch';
import { REJECT_REASON_LIMIT, type CheckedParams, type SidebarHandlers, type SidebarMethod } from '../../src/protocol/sidebarMethods';

/** Handlers that record what reached them; each method's params are typed by the table. */
function recordingHandlers(seen: { method: SidebarMethod; params: unknown }[]): SidebarHandlers {
  const record = <M extends SidebarMethod>(method: M) => (params: CheckedParams<M>): void => {
    seen.push({ method, params });
  };
  return {
    openSource: record('openSource'),
    runCommand: record('runCommand'),
    serverAction: record('serverAction'),
    answerApproval: (params) => {
      seen.push({ method: 'answerApproval', params });
      // Typed: an approve carries its args, a reject its reason.
      return params.answer.kind === 'approve' && Object.keys(params.answer.args).length === 0
        ? { problems: [{ path: '/path', message: 'is required' }] }
        : { problems: [] };
    },
    checkArguments: (params) => ({ problems: [{ path: '', message: `checked ${Object.keys(params.args).join(',')}` }] }),
    openDiff: record('openDiff'),
    revokeRule: record('revokeRule'),
    setApprovalMode: record('setApprovalMode'),
    exportHistory: record('exportHistory'),
    clearHistory: () => {
      throw new Error('Nothing to clear.');
    },
    checkElicitation: () => ({ problems: [] }),
    answerElicitation: () => ({ problems: [] }),
    answerSampling: record('answerSampling'),
    answerHeldOutput: record('answerHeldOutput'),
    cancelTask: record('cancelTask'),
    openTaskResult: record('openTaskResult'),
    clearTasks: record('clearTasks'),
    answerTrustCard: record('answerTrustCard'),
  };
}

function request(data: unknown): RequestMessage<CheckedSidebarRequest> {
  const parsed = parseWebviewMessage(data);
  if (!parsed.ok) throw new Error(`refused: ${parsed.error.message}`);
  if (parsed.message.type !== 'request') throw new Error('not a request');
  return parsed.message;
}

describe('the sidebar method table', () => {
  it('refuses a bad message with the method, the field and what was wrong', () => {
    const cases: [unknown, string][] = [
      [{ approvalId: 'a1', answer: { kind: 'maybe' } }, 'Invalid params for answerApproval: answer.kind: '],
      [{ approvalId: '', answer: { kind: 'reject' } }, 'Invalid params for answerApproval: approvalId: must not be empty.'],
      [{ approvalId: 'a1', answer: { kind: 'approve', args: [1, 2] } }, 'Invalid params for answerApproval: answer.args: '],
      [{ approvalId: 'a1', answer: { kind: 'approve', args: {}, remember: 'forever' } }, 'Invalid params for answerApproval: answer.remember: '],
      [undefined, 'Invalid params for answerApproval: '],
    ];
    for (const [params, reason] of cases) {
      const parsed = parseWebviewMessage({ type: 'request', id: 5, method: 'answerApproval', params });
      assert.equal(parsed.ok, false, JSON.stringify(params));
      if (parsed.ok) continue;
      assert.equal(parsed.id, 5);
      assert.equal(parsed.error.code, 'invalidParams');
      assert.ok(parsed.error.message.startsWith(reason), `${parsed.error.message} should start with ${reason}`);
    }
    const position = parseWebviewMessage({ type: 'request', id: 6, method: 'openSource', params: { target: 'location', file: '/ws/.mcp.json', line: 2, column: 0 } });
    assert.ok(!position.ok && /^Invalid params for openSource: column: .*>=1/.test(position.error.message), JSON.stringify(position));
  });

  it('refuses a method the table does not declare, even one every object has', () => {
    for (const method of ['toString', '__proto__', 'constructor', 'deleteEverything']) {
      const parsed = parseWebviewMessage({ type: 'request', id: 8, method, params: {} });
      assert.deepEqual(parsed, { ok: false, id: 8, error: { code: 'unknownMethod', message: `Unknown method: ${method}.` } });
    }
  });

  it('hands a good message to its handler, rebuilt without extra fields and with long reasons cut', async () => {
    const seen: { method: SidebarMethod; params: unknown }[] = [];
    const handlers = recordingHandlers(seen);
    const reply = await dispatchSidebarRequest(handlers, request({
      type: 'request', id: 11, method: 'answerApproval',
      params: { approvalId: 'a1', answer: { kind: 'reject', reason: 'x'.repeat(REJECT_REASON_LIMIT + 50), sneaky: true }, extra: 1 },
    }));
    assert.deepEqual(reply, { type: 'response', id: 11, method: 'answerApproval', result: { problems: [] } });
    assert.deepEqual(seen, [{ method: 'answerApproval', params: { approvalId: 'a1', answer: { kind: 'reject', reason: 'x'.repeat(REJECT_REASON_LIMIT) } } }]);

    const problems = await dispatchSidebarRequest(handlers, request({ type: 'request', id: 12, method: 'answerApproval', params: { approvalId: 'a1', answer: { kind: 'approve', args: {} } } }));
    assert.deepEqual(problems, { type: 'response', id: 12, method: 'answerApproval', result: { problems: [{ path: '/path', message: 'is required' }] } });

    // A method whose reply carries no data answers null, whatever its handler returned.
    const mode = await dispatchSidebarRequest(handlers, request({ type: 'request', id: 13, method: 'setApprovalMode', params: { mode: 'acceptEdits' } }));
    assert.deepEqual(mode, { type: 'response', id: 13, method: 'setApprovalMode', result: null });
    assert.deepEqual(seen.at(-1), { method: 'setApprovalMode', params: { mode: 'acceptEdits' } });
  });

  it('a trust card answer names its server, the definition it showed, and trust or refuse, nothing else', async () => {
    for (const params of [{ serverId: 'a', fingerprint: 'fp', answer: 'always' }, { serverId: 'a', answer: 'trust' }, { serverId: 'a', fingerprint: '', answer: 'trust' }]) {
      const parsed = parseWebviewMessage({ type: 'request', id: 21, method: 'answerTrustCard', params });
      assert.ok(!parsed.ok && parsed.error.message.startsWith('Invalid params for answerTrustCard: '), JSON.stringify(params));
    }
    const seen: { method: SidebarMethod; params: unknown }[] = [];
    await dispatchSidebarRequest(recordingHandlers(seen), request({ type: 'request', id: 22, method: 'answerTrustCard', params: { serverId: 'a', fingerprint: 'fp', answer: 'trust', extra: 1 } }));
    assert.deepEqual(seen, [{ method: 'answerTrustCard', params: { serverId: 'a', fingerprint: 'fp', answer: 'trust' } }]);
  });

  it('answers a handler that throws with its message', async () => {
    const reply = await dispatchSidebarRequest(recordingHandlers([]), request({ type: 'request', id: 14, method: 'clearHistory', params: {} }));
    assert.deepEqual(reply, { type: 'error', id: 14, error: { code: 'failed', message: 'Nothing to clear.' } });
  });

});
