// keepProgressBeforeResponses against the real SDK Client, over a transport that delivers a server's
// messages synchronously, back to back, as the stdio transport does with one stdout chunk.
import * as assert from 'node:assert/strict';
import { keepProgressBeforeResponses } from '../../src/node/messageOrder';
import { Client, type JSONRPCMessage, type Transport } from '../../src/node/sdk';

/** Answers initialize; keeps every other request for the test to answer with `receive`. */
class ScriptedTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly requests: { id: number; method: string; params?: Record<string, unknown> }[] = [];

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message) || !('id' in message)) return;
    const request = { id: Number(message.id), method: message.method, params: message.params };
    if (request.method !== 'initialize') {
      this.requests.push(request);
      return;
    }
    const protocolVersion = (request.params as { protocolVersion: string }).protocolVersion;
    void Promise.resolve().then(() => this.receive({
      jsonrpc: '2.0',
      id: request.id,
      result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '1.0.0' } },
    }));
  }

  /** Delivers the messages one after the other, synchronously. */
  receive(...messages: JSONRPCMessage[]): void {
    for (const message of messages) this.onmessage?.(message);
  }
}

const progress = (progressToken: number, value: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken, progress: value, total: 3 },
});

async function connected(ordered: boolean) {
  const transport = new ScriptedTransport();
  const client = new Client({ name: 'message-order-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  if (ordered) keepProgressBeforeResponses(transport);
  return { transport, client, errors };
}

/** Calls a tool and answers it with three progress notifications and the result in one synchronous burst. */
async function callWithBurst(ordered: boolean) {
  const { transport, client, errors } = await connected(ordered);
  const seen: number[] = [];
  const call = client.callTool({ name: 'any', arguments: {} }, { onprogress: (p) => seen.push(p.progress) });
  await new Promise((resolve) => setImmediate(resolve));
  const request = transport.requests.find((r) => r.method === 'tools/call');
  assert.ok(request, 'tools/call was sent');
  const token = (request.params?._meta as { progressToken: number }).progressToken;
  transport.receive(
    progress(token, 1),
    progress(token, 2),
    progress(token, 3),
    { jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'done' }] } },
  );
  const result = await call;
  await client.close();
  return { seen, result, errors };
}

describe('keepProgressBeforeResponses', () => {
  it('the SDK Client alone drops progress read together with the response (what this guards against)', async () => {
    // If this starts failing after an SDK upgrade, the Client orders messages itself and
    // keepProgressBeforeResponses may no longer be needed.
    const { seen, errors } = await callWithBurst(false);
    assert.ok(seen.length < 3, `expected lost progress without the wrapper, saw ${JSON.stringify(seen)}`);
    assert.ok(errors.some((e) => /unknown token/.test(e.message)));
  });

  it('delivers every progress notification before the response it precedes', async () => {
    for (let round = 0; round < 20; round++) {
      const { seen, result, errors } = await callWithBurst(true);
      assert.deepEqual(seen, [1, 2, 3], `round ${round}`);
      assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
      assert.deepEqual(errors, []);
    }
  });

  it('keeps responses of concurrent requests with their own progress, and error responses too', async () => {
    const { transport, client, errors } = await connected(true);
    const seen = new Map<string, number[]>();
    const calls = ['a', 'b'].map((name) => {
      seen.set(name, []);
      return client.callTool({ name, arguments: {} }, { onprogress: (p) => seen.get(name)!.push(p.progress) });
    });
    await new Promise((resolve) => setImmediate(resolve));
    const [a, b] = transport.requests.filter((r) => r.method === 'tools/call');
    const tokenOf = (r: typeof a) => (r.params?._meta as { progressToken: number }).progressToken;
    transport.receive(
      progress(tokenOf(a), 1),
      progress(tokenOf(b), 1),
      progress(tokenOf(a), 2),
      { jsonrpc: '2.0', id: a.id, result: { content: [{ type: 'text', text: 'a done' }] } },
      progress(tokenOf(b), 2),
      { jsonrpc: '2.0', id: b.id, error: { code: -32000, message: 'b failed' } },
    );
    const [resultA, resultB] = await Promise.allSettled(calls);
    assert.deepEqual(resultA, { status: 'fulfilled', value: { content: [{ type: 'text', text: 'a done' }] } });
    assert.equal(resultB.status, 'rejected');
    assert.match(String((resultB as PromiseRejectedResult).reason), /b failed/);
    assert.deepEqual(Object.fromEntries(seen), { a: [1, 2], b: [1, 2] });
    assert.deepEqual(errors, []);
    await client.close();
  });

  it('hands a response that follows no pending notification to the Client at once', async () => {
    const order: string[] = [];
    const transport = new ScriptedTransport();
    transport.onmessage = (message) => order.push('id' in message ? `response ${String(message.id)}` : 'notification');
    keepProgressBeforeResponses(transport);
    const response = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });
    transport.receive(response(1));
    assert.deepEqual(order, ['response 1'], 'a lone response is not deferred');
    transport.receive(progress(1, 1), response(2));
    assert.deepEqual(order, ['response 1', 'notification'], 'a response behind a notification waits a microtask');
    await new Promise((resolve) => setImmediate(resolve));
    transport.receive(response(3));
    assert.deepEqual(order, ['response 1', 'notification', 'response 2', 'response 3'], 'once the notification was handled, responses go at once again');
  });
});
