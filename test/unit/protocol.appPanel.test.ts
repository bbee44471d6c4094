// The app panel's messages as the extension reads them: rebuilt from what the page posted, with only
// the fields the protocol names; anything else is refused with a reason.
import * as assert from 'node:assert/strict';
import { isHostToAppPanel, parseAppPanelMessage } from '../../src/protocol/appPanel';

describe('parseAppPanelMessage', () => {
  it('takes ready and the three requests, dropping extra fields', () => {
    assert.deepEqual(parseAppPanelMessage({ type: 'ready', extra: 1 }), { ok: true, message: { type: 'ready' } });
    assert.deepEqual(parseAppPanelMessage({ type: 'request', id: 3, method: 'callTool', params: { name: 'get-time', arguments: { a: 1 }, caller: 'api' } }),
      { ok: true, message: { type: 'request', id: 3, method: 'callTool', params: { name: 'get-time', arguments: { a: 1 } } } });
    assert.deepEqual(parseAppPanelMessage({ type: 'request', id: 4, method: 'callTool', params: { name: 'x' } }),
      { ok: true, message: { type: 'request', id: 4, method: 'callTool', params: { name: 'x', arguments: {} } } });
    assert.deepEqual(parseAppPanelMessage({ type: 'request', id: 5, method: 'sendMessage', params: { text: 'hi' } }),
      { ok: true, message: { type: 'request', id: 5, method: 'sendMessage', params: { text: 'hi' } } });
    assert.deepEqual(parseAppPanelMessage({ type: 'request', id: 6, method: 'openLink', params: { url: 'https://x' } }),
      { ok: true, message: { type: 'request', id: 6, method: 'openLink', params: { url: 'https://x' } } });
  });

  it('refuses what is malformed, saying why', () => {
    assert.equal(parseAppPanelMessage('ready').ok, false);
    assert.deepEqual(parseAppPanelMessage({ type: 'request', id: 0, method: 'callTool', params: {} }), { ok: false, error: { code: 'invalidRequest', message: 'Request has no valid id.' } });
    assert.deepEqual(parseAppPanelMessage({ type: 'request', id: 1, method: 'callTool', params: { name: '' } }), { ok: false, id: 1, error: { code: 'invalidParams', message: 'callTool needs the tool\'s name.' } });
    assert.deepEqual(parseAppPanelMessage({ type: 'request', id: 1, method: 'callTool', params: { name: 'x', arguments: [1] } }), { ok: false, id: 1, error: { code: 'invalidParams', message: 'callTool\'s arguments are not an object.' } });
    assert.deepEqual(parseAppPanelMessage({ type: 'request', id: 2, method: 'readFile', params: {} }), { ok: false, id: 2, error: { code: 'unknownMethod', message: 'Unknown method: readFile.' } });
    assert.deepEqual(parseAppPanelMessage({ type: 'request', id: 2, method: 'sendMessage', params: { text: 7 } }), { ok: false, id: 2, error: { code: 'invalidParams', message: 'sendMessage needs a text.' } });
  });
});

describe('isHostToAppPanel', () => {
  it('knows the extension\'s messages and nothing else', () => {
    assert.equal(isHostToAppPanel({ type: 'load', app: { frameDocument: '<p>' } }), true);
    assert.equal(isHostToAppPanel({ type: 'response', id: 1, method: 'callTool', result: {} }), true);
    assert.equal(isHostToAppPanel({ type: 'error', id: 1, error: { code: 'failed', message: 'x' } }), true);
    assert.equal(isHostToAppPanel({ type: 'load', app: { frameDocument: 7 } }), false);
    assert.equal(isHostToAppPanel({ jsonrpc: '2.0', method: 'ui/initialize' }), false);
  });
});
