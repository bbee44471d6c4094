import * as assert from 'node:assert/strict';
import { isHostToWebviewMessage } from '../../src/protocol/sidebarMessages';
import { parseWebviewMessage } from '../../src/protocol/sidebarDispatch';

describe('parseWebviewMessage', () => {
  it('accepts the ready handshake', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { ok: true, message: { type: 'ready' } });
  });

  it('accepts both forms of openSource and rebuilds them without extra fields', () => {
    assert.deepEqual(
      parseWebviewMessage({ type: 'request', id: 1, method: 'openSource', params: { target: 'server', serverId: 'github', extra: 'x' } }),
      { ok: true, message: { type: 'request', id: 1, method: 'openSource', params: { target: 'server', serverId: 'github' } } },
    );
    assert.deepEqual(
      parseWebviewMessage({ type: 'request', id: 2, method: 'openSource', params: { target: 'location', file: '/ws/.mcp.json', line: 3, column: 5 } }),
      { ok: true, message: { type: 'request', id: 2, method: 'openSource', params: { target: 'location', file: '/ws/.mcp.json', line: 3, column: 5 } } },
    );
  });

  it('accepts an answer to a held tool result, rebuilt without extra fields, and refuses a malformed one', () => {
    assert.deepEqual(
      parseWebviewMessage({ type: 'request', id: 7, method: 'answerHeldOutput', params: { heldId: 'h1', release: false, reason: 'no', extra: 1 } }),
      { ok: true, message: { type: 'request', id: 7, method: 'answerHeldOutput', params: { heldId: 'h1', release: false, reason: 'no' } } },
    );
    const bad = parseWebviewMessage({ type: 'request', id: 8, method: 'answerHeldOutput', params: { heldId: 'h1', release: 'yes' } });
    assert.equal(bad.ok, false);
  });

  it('accepts a narrowed "always allow" only with a scope and a known narrowing', () => {
    const answer = (value: unknown) => parseWebviewMessage({ type: 'request', id: 7, method: 'answerApproval', params: { approvalId: 'c1', answer: value } });
    assert.deepEqual(answer({ kind: 'approve', args: { path: 'a' }, remember: 'workspace', narrow: { kind: 'folder', extra: 1 } }),
      { ok: true, message: { type: 'request', id: 7, method: 'answerApproval', params: { approvalId: 'c1', answer: { kind: 'approve', args: { path: 'a' }, remember: 'workspace', narrow: { kind: 'folder' } } } } });
    assert.deepEqual(answer({ kind: 'approve', args: {}, remember: 'session', narrow: { kind: 'value', argument: 'mode' } }).ok, true);
    for (const bad of [
      { kind: 'approve', args: {}, narrow: { kind: 'file' } },
      { kind: 'approve', args: {}, remember: 'global', narrow: { kind: 'everything' } },
      { kind: 'approve', args: {}, remember: 'global', narrow: { kind: 'value' } },
      { kind: 'approve', args: {}, remember: 'global', narrow: 'file' },
    ]) assert.equal(answer(bad).ok, false, JSON.stringify(bad));
  });

  it('accepts only the declared commands', () => {
    assert.deepEqual(
      parseWebviewMessage({ type: 'request', id: 3, method: 'runCommand', params: { command: 'refresh' } }),
      { ok: true, message: { type: 'request', id: 3, method: 'runCommand', params: { command: 'refresh' } } },
    );
    assert.deepEqual(
      parseWebviewMessage({ type: 'request', id: 4, method: 'runCommand', params: { command: 'workbench.action.terminal.new' } }),
      { ok: false, id: 4, error: { code: 'invalidParams', message: 'Invalid params for runCommand: command: Invalid option: expected one of "openProjectServers"|"openUserServers"|"openLocalServers"|"refresh".' } },
    );
  });

  it('rejects bad positions and empty ids with the request id, so the page can be answered', () => {
    for (const params of [
      { target: 'location', file: '/ws/.mcp.json', line: 0, column: 1 },
      { target: 'location', file: '/ws/.mcp.json', line: 1.5, column: 1 },
      { target: 'location', file: '', line: 1, column: 1 },
      { target: 'server', serverId: '' },
      { target: 'elsewhere' },
    ]) {
      const parsed = parseWebviewMessage({ type: 'request', id: 7, method: 'openSource', params });
      assert.equal(parsed.ok, false, JSON.stringify(params));
      assert.equal(!parsed.ok && parsed.id, 7);
      assert.equal(!parsed.ok && parsed.error.code, 'invalidParams');
    }
  });

  it('reports unknown methods and malformed envelopes', () => {
    assert.deepEqual(
      parseWebviewMessage({ type: 'request', id: 9, method: 'deleteEverything', params: {} }),
      { ok: false, id: 9, error: { code: 'unknownMethod', message: 'Unknown method: deleteEverything.' } },
    );
    for (const data of [null, 'ready', [], { type: 'snapshot' }, { type: 'request', id: 0, method: 'openSource', params: {} }, { type: 'request', id: '1', method: 'runCommand', params: {} }]) {
      const parsed = parseWebviewMessage(data);
      assert.equal(parsed.ok, false, JSON.stringify(data));
      assert.equal(!parsed.ok && parsed.id, undefined);
      assert.equal(!parsed.ok && parsed.error.code, 'invalidRequest');
    }
  });
});

describe('isHostToWebviewMessage', () => {
  it('recognises snapshots, responses and errors, and nothing else', () => {
    const approvals = { mode: 'askBeforeEdits', pending: [], rules: [], history: [] };
    assert.equal(isHostToWebviewMessage({ type: 'snapshot', snapshot: { servers: [], shadowed: [], problems: [], approvals, elicitations: [], sampling: [], generatedAt: 1 } }), true);
    assert.equal(isHostToWebviewMessage({ type: 'snapshot', snapshot: { servers: [], shadowed: [], problems: [], generatedAt: 1 } }), false, 'a snapshot without its approvals');
    assert.equal(isHostToWebviewMessage({ type: 'response', id: 1, method: 'openSource', result: null }), true);
    assert.equal(isHostToWebviewMessage({ type: 'error', id: 1, error: { code: 'failed', message: 'No.' } }), true);
    assert.equal(isHostToWebviewMessage({ type: 'snapshot', snapshot: { servers: [] } }), false);
    assert.equal(isHostToWebviewMessage({ type: 'ready' }), false);
    assert.equal(isHostToWebviewMessage(undefined), false);
  });
});
