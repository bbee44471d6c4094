// Server text never becomes a link or a command, in a real VS Code: a server whose initialize error is
// a `[label](command:…)` link gets a failure notification that shows it as text (no link VS Code would
// render), and a command given a path to write to still shows the save dialog, writing nothing when
// the person cancels.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { FileRestorer, fixtureIsLoaded, switchboardApi, waitFor } from './configTestSupport';
import { waitForStates } from './lifecycleTestSupport';
import { addUserServers, fixtureServer } from './userServersSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const ID = 'hostile-text';

/** The links VS Code 1.139 renders in a notification string (its parseLinkedText pattern, newlines made spaces). */
function vscodeLinks(text: string): string[] {
  const pattern = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
  return [...text.replace(/(\r\n|\n|\r)/gm, ' ').matchAll(pattern)].map((m) => m[2] ?? '');
}

describe('server text in notifications', function () {
  ensureNoLeakedDisposables();
  this.timeout(60_000);
  let api: SwitchboardApi;
  const restorer = new FileRestorer();

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
  });

  after(async () => {
    await vscode.commands.executeCommand('_switchboard.test.scriptDialogs', null);
    restorer.restore();
  });

  it('a hostile initialize error is shown as text: no command link in the notification', async () => {
    const hostile = '[Sign in again](command:switchboard.exportCallHistory';
    assert.ok(vscodeLinks(`${hostile}?%5B%5D "https://login.example.com")`).length === 1, 'the check recognises the link');
    addUserServers(restorer, { [ID]: fixtureServer('hostile-initialize.mjs') });
    await waitFor('the hostile server', () => api.getServerStates().some((s) => s.id === ID), 10_000);
    await waitForStates(api, [ID], 'failed');
    const shown = await waitFor('the failure notification', async () =>
      (await vscode.commands.executeCommand<string[]>('_switchboard.test.notifications')).find((text) => text.includes(`"${ID}" failed`)), 15_000, 50);
    assert.ok(shown.includes('[Sign in again] (command:switchboard.exportCallHistory'), `the server's text is there, as text: ${shown}`);
    assert.deepEqual(vscodeLinks(shown), [], shown);
    assert.ok(shown.includes('\\$(key)'), 'an icon is shown as its name');
  });

  it('export with a path argument asks with the save dialog, and writes nothing when cancelled', async () => {
    const given = path.join(os.tmpdir(), `switchboard-hostile-export-${process.pid}.json`);
    await vscode.commands.executeCommand('_switchboard.test.scriptDialogs', { save: null });
    await vscode.commands.executeCommand('switchboard.exportCallHistory', vscode.Uri.file(given));
    const asked = await vscode.commands.executeCommand<{ kind: string; defaultPath?: string }[]>('_switchboard.test.dialogsAsked');
    assert.deepEqual(asked.at(-1), { kind: 'save', message: 'Export Call History', defaultPath: given });
    assert.equal(fs.existsSync(given), false);
  });
});
