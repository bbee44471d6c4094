// "Call Tool…" in a real VS Code: a call given its server, tool and arguments runs through the one call
// path and its result opens in a read-only JSON editor; a refused call says why and opens nothing.
import * as assert from 'assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { FileRestorer, fixtureIsLoaded, switchboardApi, userFile, waitFor } from './configTestSupport';
import { waitForStates } from './lifecycleTestSupport';
import { addUserServers, fixtureServer } from './userServersSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const ID = 'callable';

interface Outcome { uri?: string; result?: { content: { type: string; text?: string }[] }; error?: string }

describe('Call Tool…', function () {
  ensureNoLeakedDisposables();
  this.timeout(60_000);
  let api: SwitchboardApi;
  const restorer = new FileRestorer();

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    addUserServers(restorer, { [ID]: { ...fixtureServer('mutating-tool.mjs'), disabledTools: ['calc'] } });
    await waitFor('the callable server', () => api.getServerStates().some((s) => s.id === ID), 10_000);
    await waitForStates(api, [ID], 'ready');
    await waitFor('its tools', () => (api.getCatalog(ID)?.tools.length ?? 0) > 0, 10_000);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    restorer.restore();
    await fixtureIsLoaded(api, 10_000);
  });

  it('is a palette command', async () => {
    assert.ok((await vscode.commands.getCommands(true)).includes('switchboard.callTool'));
  });

  it('runs the call and shows the result in a read-only JSON editor', async () => {
    const outcome = await vscode.commands.executeCommand<Outcome>('switchboard.callTool', { serverId: ID, tool: 'weather', arguments: { city: 'Oslo' } });
    assert.equal(outcome?.error, undefined);
    assert.deepEqual(outcome?.result?.content, [{ type: 'text', text: 'sunny in Oslo' }]);
    const editor = await waitFor('the result editor', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === outcome?.uri), 10_000);
    assert.equal(editor.document.uri.scheme, 'switchboard-call');
    assert.equal(editor.document.languageId, 'json');
    const shown = JSON.parse(editor.document.getText()) as { server: string; tool: string; arguments: unknown; content: unknown };
    assert.equal(shown.server, ID);
    assert.equal(shown.tool, 'weather');
    assert.deepEqual(shown.arguments, { city: 'Oslo' });
    assert.deepEqual(shown.content, [{ type: 'text', text: 'sunny in Oslo' }]);
  });

  it('goes through the call gate: a disabled tool is refused with the file to edit, and nothing opens', async () => {
    const editors = vscode.window.visibleTextEditors.length;
    const outcome = await vscode.commands.executeCommand<Outcome>('switchboard.callTool', { serverId: ID, tool: 'calc', arguments: { a: 1, b: 2 } });
    assert.equal(outcome?.error, `tool 'calc' of server '${ID}' is disabled by disabledTools in ${userFile()}`);
    assert.equal(outcome?.result, undefined);
    assert.equal(vscode.window.visibleTextEditors.length, editors);
  });
});
