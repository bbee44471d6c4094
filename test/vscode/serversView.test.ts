// The Servers view lists the effective servers of the fixture's scopes, with the entries they shadow
// as children, and each row opens the definition it stands for.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import {
  closeAllEditors, FIXTURE_SERVERS, fixtureIsLoaded, PLUGIN_EXTENSION_ID, positionOf, projectFile, serverItems,
  serverRow, shadowedLabels, shadowedSummary, switchboardApi, userFile, waitFor,
} from './configTestSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

describe('servers view', () => {
  ensureNoLeakedDisposables();
  let api: SwitchboardApi;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
  });

  after(closeAllEditors);

  it('reports its activation time through the API', () => {
    assert.equal(typeof api.activationMs, 'number');
    assert.ok(api.activationMs >= 0 && api.activationMs < 10_000, `activationMs = ${api.activationMs}`);
  });

  it('merges the project, user and plugin scopes of the fixture', () => {
    const config = api.getConfig();
    const byId = new Map(config.servers.map((s) => [s.id, s]));
    assert.equal(byId.get('memory')?.scope, 'project');
    assert.equal(byId.get('filesystem')?.scope, 'project');
    assert.equal(byId.get('docs')?.scope, 'project');
    assert.equal(byId.get('everything')?.scope, 'user');
    assert.equal(byId.get('plugin-echo')?.scope, 'plugin');
    assert.equal(byId.get('docs')?.launch.type, 'http');
    assert.equal(byId.get('memory')?.needsTrust, true, 'project servers need trust');
    assert.equal(byId.get('everything')?.needsTrust, false, 'user servers do not');
    // ${workspaceFolder} is expanded to the opened folder.
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert.ok(byId.get('filesystem')?.launch.args.includes(folder), `filesystem args: ${byId.get('filesystem')?.launch.args.join(' ')}`);
    assert.deepEqual(shadowedSummary(config), [['memory', 'user', 'project'], ['everything', 'plugin', 'user']]);
  });

  it('shows one row per effective server with scope, transport and state', async () => {
    const items = await waitFor('everything to be ready and plugin-echo to have failed', async () => {
      const rows = await serverItems();
      return serverRow(rows, 'everything')?.state === 'ready' && serverRow(rows, 'plugin-echo')?.state === 'failed' && rows;
    }, 30_000, 100);
    const servers = items.filter((i) => i.kind === 'server');
    assert.deepEqual(servers.map((i) => i.label).sort(), FIXTURE_SERVERS);
    assert.equal(serverRow(items, 'memory')?.description, 'project · stdio · needs trust');
    assert.equal(serverRow(items, 'docs')?.description, 'project · http · needs trust');
    assert.equal(serverRow(items, 'everything')?.description, 'user · stdio · ready');
    assert.match(serverRow(items, 'plugin-echo')!.description, /^plugin · stdio · failed: /);
    assert.equal(items.some((i) => i.kind === 'problems'), false, 'no Problems node for a clean configuration');
  });

  it('puts the full launch definition, the file and the trust state in the tooltip', async () => {
    const items = await serverItems();
    const memory = serverRow(items, 'memory')!;
    assert.match(memory.tooltip, /node \S+\/@modelcontextprotocol\/server-memory\/dist\/index\.js/);
    assert.match(memory.tooltip, /needs trust/);
    assert.match(memory.tooltip, /MEMORY_FILE_PATH/, 'names of env vars are shown');
    const line = positionOf(fs.readFileSync(projectFile(), 'utf8'), '"memory": {').line + 1;
    assert.ok(memory.tooltip.includes(`${projectFile()}:${line}`), memory.tooltip);
    assert.match(memory.tooltip, /Fingerprint: [0-9a-f]{12}/);
    const docs = serverRow(items, 'docs')!;
    assert.match(docs.tooltip, /http:\/\/127\.0\.0\.1:9\/mcp/);
    const everything = serverRow(items, 'everything')!;
    assert.doesNotMatch(everything.tooltip, /needs trust/);
    assert.match(everything.contextValue, /scope-user/);
    assert.match(memory.contextValue, /needsTrust/);
  });

  it('shows the shadowed user entry under the project entry that wins', async () => {
    const items = await serverItems();
    const memory = serverRow(items, 'memory')!;
    assert.equal(memory.children.length, 1, 'a server waiting for trust has no catalog');
    const [shadowed] = memory.children;
    assert.equal(shadowed.kind, 'shadowed');
    assert.equal(shadowed.label, 'user · .mcp.json');
    assert.equal(shadowed.description, 'shadowed by project (.mcp.json)');
    assert.equal(shadowed.location?.file, userFile());
    for (const id of ['docs', 'filesystem', 'plugin-echo']) assert.deepEqual(shadowedLabels(serverRow(items, id)), [], `${id} shadows nothing`);
    // The user "everything" shadows the plugin extension's entry (its row: pluginScope.test.ts).
    assert.deepEqual(shadowedLabels(serverRow(items, 'everything')), [`plugin · ${PLUGIN_EXTENSION_ID}`]);
  });

  it('opens a server definition with the entry key selected', async () => {
    const items = await serverItems();
    const memory = serverRow(items, 'memory')!;
    await vscode.commands.executeCommand('switchboard.revealServerSource', memory.location);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'an editor is open');
    assert.equal(path.normalize(editor.document.uri.fsPath), path.normalize(projectFile()));
    // The fixture mentions "memory" in a comment first: the entry is the key followed by its object.
    const key = positionOf(editor.document.getText(), '"memory": {');
    assert.deepEqual([editor.selection.start.line, editor.selection.start.character], [key.line, key.character]);
    assert.equal(editor.document.languageId, 'mcp-json');
  });

  it('opens a shadowed definition in its own file', async () => {
    const shadowed = serverRow(await serverItems(), 'memory')!.children[0];
    await vscode.commands.executeCommand('switchboard.revealServerSource', shadowed.location);
    const editor = vscode.window.activeTextEditor!;
    assert.equal(path.normalize(editor.document.uri.fsPath), path.normalize(userFile()));
    const key = positionOf(editor.document.getText(), '"memory": {');
    assert.equal(editor.selection.start.line, key.line);
  });

  it('opens a definition by server id', async () => {
    await vscode.commands.executeCommand('switchboard.revealServerSource', 'everything');
    const editor = vscode.window.activeTextEditor!;
    assert.equal(path.normalize(editor.document.uri.fsPath), path.normalize(userFile()));
    assert.equal(editor.selection.start.line, positionOf(editor.document.getText(), '"everything": {').line);
  });
});
