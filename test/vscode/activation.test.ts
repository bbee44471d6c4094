// The extension is installed in the VS Code we test against, activates, and registers its commands.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { ensureNoLeakedDisposables } from './leakCheck';

const EXTENSION_ID = 'mcp-switchboard.mcp-switchboard';

describe('activation', () => {
  ensureNoLeakedDisposables();
  it('runs in VS Code 1.139', () => {
    console.log(`VS Code ${vscode.version} (${vscode.env.appName}, uiKind ${vscode.UIKind[vscode.env.uiKind]}, remote ${vscode.env.remoteName ?? 'none'})`);
    assert.match(vscode.version, /^1\.139\./, `expected VS Code 1.139.x, got ${vscode.version}`);
  });

  it(`finds ${EXTENSION_ID} and activates it`, async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not installed in this VS Code`);
    let activationMs: number | undefined;
    let how: string;
    if (!ext.isActive) {
      const t0 = Date.now();
      await ext.activate();
      activationMs = Date.now() - t0;
      how = 'measured around ext.activate()';
    } else {
      // Already activated by its activation events before the tests started: ask the extension.
      const api = ext.exports as { activationTimeMs?: unknown; activationMs?: unknown } | undefined;
      const reported = api?.activationTimeMs ?? api?.activationMs;
      activationMs = typeof reported === 'number' ? reported : undefined;
      how = activationMs === undefined ? 'was already active, its API reports no activation time' : 'reported by the extension API';
    }
    assert.strictEqual(ext.isActive, true, 'extension is active');
    console.log(`activation time: ${activationMs === undefined ? 'n/a' : `${activationMs} ms`} (${how})`);
  });

  it('registers the commands that open the three config files', async () => {
    const commands = new Set(await vscode.commands.getCommands(true));
    const expected = ['switchboard.openProjectServers', 'switchboard.openUserServers', 'switchboard.openLocalServers'];
    const missing = expected.filter((c) => !commands.has(c));
    assert.deepStrictEqual(missing, [], `commands not registered: ${missing.join(', ')}`);
  });

  it('opens the fixture workspace', () => {
    const expected = process.env.SWITCHBOARD_FIXTURE_WORKSPACE;
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.strictEqual(folders.length, 1, 'one workspace folder is open');
    if (expected) {
      assert.strictEqual(fs.realpathSync(folders[0].uri.fsPath), fs.realpathSync(expected), 'the open folder is the fixture workspace');
    }
  });
});
