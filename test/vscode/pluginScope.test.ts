// The plugin scope as another extension makes it: the fixture's declarative extension
// (test/fixtures/vscode/plugin-extension, a development extension beside the one under test) contributes
// `contributes.mcpServers` in its package.json. Its servers are read from that file with
// `${extensionPath}` expanded to the extension's folder, lose to every other scope, and need no trust.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import {
  closeAllEditors, fixtureIsLoaded, PLUGIN_EXTENSION_ID, pluginExtensionFolder, positionOf, serverItems, serverRow,
  switchboardApi, userFile,
} from './configTestSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

/** The same file, however it is spelled (the runner links the extension in; temp dirs may be links too). */
function sameFile(a: string, b: string): boolean {
  return fs.realpathSync(a) === fs.realpathSync(b);
}

describe('plugin scope', () => {
  ensureNoLeakedDisposables();
  let api: SwitchboardApi;
  let plugin: vscode.Extension<unknown>;
  let manifest: string;
  let manifestText: string;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    const found = vscode.extensions.getExtension(PLUGIN_EXTENSION_ID);
    assert.ok(found, `${PLUGIN_EXTENSION_ID} (the fixture's plugin extension) is not loaded`);
    plugin = found;
    manifest = path.join(plugin.extensionPath, 'package.json');
    manifestText = fs.readFileSync(manifest, 'utf8');
  });

  after(closeAllEditors);

  it('loads the fixture extension from the copied fixture', () => {
    assert.equal(plugin.extensionUri.scheme, 'file');
    assert.ok(sameFile(plugin.extensionPath, pluginExtensionFolder()), `${plugin.extensionPath} is not ${pluginExtensionFolder()}`);
    const contributes = (plugin.packageJSON as { contributes?: { mcpServers?: Record<string, unknown> } }).contributes;
    assert.deepEqual(Object.keys(contributes?.mcpServers ?? {}), ['plugin-echo', 'everything']);
  });

  it('serves plugin-echo from the extension\'s package.json, at its key', () => {
    const config = api.getConfig();
    const echo = config.servers.find((s) => s.id === 'plugin-echo');
    assert.ok(echo, `plugin-echo is not effective: ${config.servers.map((s) => s.id).join(', ')}`);
    assert.equal(echo.scope, 'plugin');
    assert.equal(echo.folder, undefined, 'plugin servers belong to no workspace folder');
    assert.equal(echo.source.file, manifest);
    assert.ok(sameFile(echo.source.file, path.join(pluginExtensionFolder(), 'package.json')));
    const key = positionOf(manifestText, '"plugin-echo"');
    assert.deepEqual([echo.source.line, echo.source.column], [key.line + 1, key.character + 1],
      `expected ${key.line + 1}:${key.character + 1}, got ${echo.source.line}:${echo.source.column}`);
    assert.equal(echo.source.length, '"plugin-echo"'.length);
    assert.equal(manifestText.slice(echo.source.offset, echo.source.offset + echo.source.length), '"plugin-echo"');
  });

  it('expands ${extensionPath} to the extension\'s folder and needs no trust', () => {
    const echo = api.getConfig().servers.find((s) => s.id === 'plugin-echo')!;
    assert.equal(echo.launch.type, 'stdio');
    assert.equal(echo.launch.command, 'node');
    assert.deepEqual(echo.launch.args, [`${plugin.extensionPath}/server.js`]);
    assert.ok(sameFile(path.dirname(echo.launch.args[0]), pluginExtensionFolder()), echo.launch.args[0]);
    assert.deepEqual(echo.needsInput, []);
    assert.equal(echo.needsTrust, false, 'an installed extension is trusted like the user scope');
    assert.deepEqual(api.getConfig().problems.filter((p) => p.file === manifest), [], 'the manifest has no problems');
  });

  it('lists the plugin\'s "everything" as shadowed by the user scope', () => {
    const config = api.getConfig();
    assert.equal(config.servers.find((s) => s.id === 'everything')?.scope, 'user', 'the user entry wins');
    const shadowed = config.shadowed.filter((s) => s.name === 'everything');
    assert.equal(shadowed.length, 1, JSON.stringify(shadowed));
    const [entry] = shadowed;
    assert.equal(entry.scope, 'plugin');
    assert.equal(entry.source.file, manifest);
    const key = positionOf(manifestText, '"everything"');
    assert.deepEqual([entry.source.line, entry.source.column], [key.line + 1, key.character + 1]);
    assert.deepEqual(entry.shadowedBy, { id: 'everything', scope: 'user', file: userFile() });
  });

  it('shows plugin-echo in the Servers view, and the shadowed entry under the user row', async () => {
    const items = await serverItems();
    const echo = serverRow(items, 'plugin-echo');
    assert.ok(echo, 'a row for plugin-echo');
    assert.ok(echo.description.startsWith('plugin · stdio'), echo.description);
    assert.match(echo.contextValue, /scope-plugin/);
    assert.doesNotMatch(echo.contextValue, /needsTrust|virtual/);
    assert.ok(echo.tooltip.includes(`Scope: plugin (${PLUGIN_EXTENSION_ID})`), echo.tooltip);
    assert.equal(echo.location?.file, manifest);
    assert.deepEqual(echo.children, []);

    const everything = serverRow(items, 'everything')!;
    const shadowed = everything.children.filter((c) => c.kind === 'shadowed');
    assert.deepEqual(shadowed.map((c) => [c.kind, c.label, c.description]),
      [['shadowed', `plugin · ${PLUGIN_EXTENSION_ID}`, 'shadowed by user (.mcp.json)']]);
    assert.equal(shadowed[0].location?.file, manifest);
  });

  it('opens the definition in the extension\'s package.json with the key selected', async () => {
    await vscode.commands.executeCommand('switchboard.revealServerSource', 'plugin-echo');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'an editor is open');
    assert.ok(sameFile(editor.document.uri.fsPath, manifest), editor.document.uri.fsPath);
    const key = positionOf(editor.document.getText(), '"plugin-echo"');
    assert.deepEqual([editor.selection.start.line, editor.selection.start.character], [key.line, key.character]);
  });
});
