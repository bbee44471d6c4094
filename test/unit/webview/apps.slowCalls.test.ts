// A tool call from an MCP App that waits longer than the app's request limit (an approval card left
// open): the real App of @modelcontextprotocol/ext-apps on one end of an in-memory pair, the panel's
// bridge on the other, the extension a relay that answers late. The bridge's progress keeps the App's
// request alive; an App that does not reset its limit on progress gives up, and then the panel is told
// how long it waited and gets the result the App will never see.
import * as assert from 'node:assert/strict';
import { App } from '@modelcontextprotocol/ext-apps';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { AppLoad, AppToolResult } from '../../../src/protocol/appPanel';
import { abandonedCallMessage, abandonedCallText } from '../../../webview/app/abandonedCall';
import { connectBridgeTo, type AbandonedCall, type Relay } from '../../../webview/app/bridge';

const LOAD: AppLoad = {
  serverId: 'clock', tool: 'get-time', uri: 'ui://clock/app.html', frameDocument: '<html></html>',
  refused: [], permissionsAsked: [], hostVersion: '0.0.0', theme: 'dark',
};
/** The App's own request limit in these tests (the SDK's default is 60 s). */
const APP_LIMIT_MS = 300;
/** When the relay answers: well past the App's limit. */
const ANSWER_AFTER_MS = 1200;

const LATE: AppToolResult = { content: [{ type: 'text', text: '2026-12-08T00:00:00.000Z' }] };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A relay whose callTool answers after ANSWER_AFTER_MS, with `answer` (a result, or an error to throw). */
function lateRelay(answer: AppToolResult | Error): Relay {
  return (async (method: string) => {
    assert.equal(method, 'callTool');
    await sleep(ANSWER_AFTER_MS);
    if (answer instanceof Error) throw answer;
    return answer;
  }) as Relay;
}

async function connect(relay: Relay, keepAliveMs: number): Promise<{ app: App; abandoned: AbandonedCall[]; close(): Promise<void> }> {
  const [appSide, hostSide] = InMemoryTransport.createLinkedPair();
  const abandoned: AbandonedCall[] = [];
  const bridge = connectBridgeTo(hostSide, LOAD, relay, { onSize: () => undefined, onAbandoned: (call) => abandoned.push(call) }, keepAliveMs);
  const app = new App({ name: 'clock', version: '1.0.0' }, {}, { autoResize: false });
  await app.connect(appSide);
  const host = await bridge;
  return { app, abandoned, close: async () => { await app.close(); await host.close(); } };
}

describe('MCP App panel: a tool call that waits past the app\'s limit', function () {
  this.timeout(10_000);

  it('keeps the App\'s request alive with progress: the late result reaches the App, nothing is reported abandoned', async () => {
    const { app, abandoned, close } = await connect(lateRelay(LATE), 100);
    try {
      const started = Date.now();
      const result = await app.callServerTool({ name: 'get-time', arguments: {} }, { timeout: APP_LIMIT_MS });
      assert.ok(Date.now() - started >= ANSWER_AFTER_MS - 50, 'the answer came before the relay gave it');
      assert.deepEqual(result.content, LATE.content);
      assert.equal(abandoned.length, 0);
    } finally {
      await close();
    }
  });

  it('an App that does not reset its limit on progress gives up; the panel is told after how long, and gets the result', async () => {
    const { app, abandoned, close } = await connect(lateRelay(LATE), 100);
    try {
      await assert.rejects(app.callServerTool({ name: 'get-time', arguments: {} }, { timeout: APP_LIMIT_MS, resetTimeoutOnProgress: false }), /timed out/i);
      assert.equal(abandoned.length, 0, 'reported before the call ended');
      await sleep(ANSWER_AFTER_MS);
      assert.equal(abandoned.length, 1);
      const [call] = abandoned;
      assert.equal(call.tool, 'get-time');
      assert.ok(call.waitedMs >= APP_LIMIT_MS - 20 && call.waitedMs < ANSWER_AFTER_MS, `waited ${call.waitedMs} ms`);
      assert.deepEqual(call.result, LATE);
    } finally {
      await close();
    }
  });

  it('reports a call the App gave up on that then failed, with the extension\'s error as its result', async () => {
    const { app, abandoned, close } = await connect(lateRelay(new Error('The person rejected the call.')), 100);
    try {
      await assert.rejects(app.callServerTool({ name: 'get-time', arguments: {} }, { timeout: APP_LIMIT_MS, resetTimeoutOnProgress: false }));
      await sleep(ANSWER_AFTER_MS);
      assert.equal(abandoned.length, 1);
      assert.equal(abandoned[0].result.isError, true);
      assert.equal(abandonedCallText(abandoned[0]), 'The person rejected the call.');
    } finally {
      await close();
    }
  });

  it('words the notice with the wait in seconds and how the call ended', () => {
    assert.equal(abandonedCallMessage({ tool: 'get-time', waitedMs: 60_012, result: LATE }), 'The app stopped waiting for get-time after 60 s; the call ran.');
    assert.equal(abandonedCallMessage({ tool: 'get-time', waitedMs: 300, result: { content: [], isError: true } }), 'The app stopped waiting for get-time after 1 s; the call ended with an error.');
    assert.equal(abandonedCallText({ tool: 't', waitedMs: 1, result: { content: [{ type: 'image' }], structuredContent: { a: 1 } } }), '{\n  "a": 1\n}');
  });
});
