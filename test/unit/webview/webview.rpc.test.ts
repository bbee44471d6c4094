// The sidebar's requests to the extension: posted with fresh ids, settled by the reply with the same
// id, failures as RpcFailure with the host's reason.
import * as assert from 'node:assert/strict';
import type { WebviewToHostMessage } from '../../../src/protocol/sidebarMessages';
import { RpcClient, RpcFailure } from '../../../webview/rpc';

function client(): { rpc: RpcClient; posted: WebviewToHostMessage[] } {
  const posted: WebviewToHostMessage[] = [];
  return { rpc: new RpcClient((message) => posted.push(message)), posted };
}

describe('webview rpc', () => {
  it('posts each request with its own id, method and params', () => {
    const { rpc, posted } = client();
    void rpc.request('serverAction', { serverId: 'memory', action: 'stop' });
    void rpc.request('runCommand', { command: 'refresh' });
    assert.deepEqual(posted, [
      { type: 'request', id: 1, method: 'serverAction', params: { serverId: 'memory', action: 'stop' } },
      { type: 'request', id: 2, method: 'runCommand', params: { command: 'refresh' } },
    ]);
  });

  it('resolves a request with the reply of its id, whatever the order of replies', async () => {
    const { rpc } = client();
    const first = rpc.request('openSource', { target: 'server', serverId: 'a' });
    const second = rpc.request('runCommand', { command: 'refresh' });
    rpc.settle({ type: 'response', id: 2, method: 'runCommand', result: null });
    rpc.settle({ type: 'response', id: 1, method: 'openSource', result: null });
    assert.deepEqual(await Promise.all([first, second]), [null, null]);
  });

  it('rejects with the host\'s error, as an RpcFailure carrying its code', async () => {
    const { rpc } = client();
    const request = rpc.request('openSource', { target: 'location', file: '/etc/passwd', line: 1, column: 1 });
    rpc.settle({ type: 'error', id: 1, error: { code: 'invalidParams', message: '/etc/passwd is not a servers file of this workspace.' } });
    await assert.rejects(request, (error: unknown) => {
      assert.ok(error instanceof RpcFailure);
      assert.equal(error.error.code, 'invalidParams');
      assert.equal(error.message, '/etc/passwd is not a servers file of this workspace.');
      return true;
    });
  });

  it('rejects a reply that names another method than the request', async () => {
    const { rpc } = client();
    const request = rpc.request('serverAction', { serverId: 'a', action: 'restart' });
    rpc.settle({ type: 'response', id: 1, method: 'runCommand', result: null });
    await assert.rejects(request, /Reply for runCommand answered serverAction/);
  });

  it('ignores replies to unknown ids and a second reply to the same id', async () => {
    const { rpc } = client();
    const request = rpc.request('runCommand', { command: 'openUserServers' });
    // A reply meant for an earlier page (ids restart at 1 after a reload) must not settle anything else.
    rpc.settle({ type: 'response', id: 99, method: 'runCommand', result: null });
    let settled = false;
    void request.then(() => { settled = true; });
    await Promise.resolve();
    assert.equal(settled, false);
    rpc.settle({ type: 'response', id: 1, method: 'runCommand', result: null });
    rpc.settle({ type: 'error', id: 1, error: { code: 'failed', message: 'late' } });
    assert.equal(await request, null);
  });
});
