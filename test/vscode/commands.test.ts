// The commands that open (and create) each scope's file, and servers registered by another extension
// through the API.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import {
  closeAllEditors, FileRestorer, fixtureIsLoaded, PLUGIN_EXTENSION_ID, projectFile, serverItems, serverRow, shadowedLabels,
  shadowedSummary, switchboardApi, userFile, waitFor, waitForConfig,
} from './configTestSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

describe('commands', () => {
  ensureNoLeakedDisposables();
  const files = new FileRestorer();
  let api: SwitchboardApi;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
  });

  afterEach(async () => {
    await closeAllEditors();
    files.restore();
    await fixtureIsLoaded(api);
  });

  it('Open Project Servers creates .mcp.json with an example when the folder has none, and opens it', async () => {
    const file = files.keep(projectFile());
    fs.rmSync(file);
    await waitForConfig(api, 'the project servers to go', (c) => !c.servers.some((s) => s.scope === 'project'));

    const opened = await vscode.commands.executeCommand<vscode.Uri | undefined>('switchboard.openProjectServers');
    assert.ok(opened, 'the command returns the file it opened');
    assert.equal(path.normalize(opened.fsPath), path.normalize(file));
    const text = fs.readFileSync(file, 'utf8');
    assert.match(text, /^\/\//, 'the file starts with a comment that explains it');
    assert.match(text, /"memory": \{\s*"command": "npx",\s*"args": \["-y", "@modelcontextprotocol\/server-memory"\]/);
    assert.match(text, /\/\/ {3}"type": "http"/, 'an http alternative is shown, commented out');
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor && path.normalize(editor.document.uri.fsPath), path.normalize(file), 'the new file is in the active editor');
    assert.equal(editor?.document.languageId, 'mcp-json');

    // The example is valid: it loads without problems and its server needs trust.
    const config = await waitForConfig(api, 'the example server',
      (c) => c.servers.some((s) => s.id === 'memory' && s.scope === 'project'));
    assert.deepEqual(config.problems.filter((p) => p.file === file), []);
    assert.equal(config.servers.find((s) => s.id === 'memory')?.needsTrust, true);
  });

  it('Open Project Servers opens an existing file without changing it', async () => {
    const file = projectFile();
    const before = fs.readFileSync(file, 'utf8');
    await vscode.commands.executeCommand('switchboard.openProjectServers');
    assert.equal(fs.readFileSync(file, 'utf8'), before);
    assert.equal(path.normalize(vscode.window.activeTextEditor!.document.uri.fsPath), path.normalize(file));
  });

  it('Open User Servers opens ~/.mcp.json', async () => {
    const opened = await vscode.commands.executeCommand<vscode.Uri | undefined>('switchboard.openUserServers');
    assert.equal(opened && path.normalize(opened.fsPath), path.normalize(userFile()));
  });

  it('Open User Servers creates ~/.mcp.json with a commented example when there is none', async () => {
    const file = files.keep(userFile());
    fs.rmSync(file);
    await waitForConfig(api, 'the user servers to go', (c) => !c.servers.some((s) => s.scope === 'user'));
    const opened = await vscode.commands.executeCommand<vscode.Uri | undefined>('switchboard.openUserServers');
    assert.equal(opened && path.normalize(opened.fsPath), path.normalize(file));
    const text = fs.readFileSync(file, 'utf8');
    assert.match(text, /\/\/ {3}"args": \["-y", "@modelcontextprotocol\/server-memory"\]/, 'a stdio example, commented out');
    assert.match(text, /\/\/ {3}"type": "http"/, 'an http example, commented out');
    // Nothing starts from the new file until the person uncomments an entry, and it has no problem.
    // A file with no servers changes nothing the watcher would publish: read it again explicitly.
    await vscode.commands.executeCommand('switchboard.refresh');
    const config = api.getConfig();
    assert.deepEqual(config.problems.filter((p) => p.file === file), []);
    assert.equal(config.servers.some((s) => s.scope === 'user'), false);
  });

  it('Open Local Servers creates the private file, and its servers override the project ones', async () => {
    const opened = await vscode.commands.executeCommand<vscode.Uri | undefined>('switchboard.openLocalServers');
    assert.ok(opened, 'the command returns the file it opened');
    const file = opened.fsPath;
    try {
      assert.ok(file.split(path.sep).includes('local-servers'), file);
      assert.ok(!file.startsWith(vscode.workspace.workspaceFolders![0].uri.fsPath), 'the local file is outside the repository');
      const text = fs.readFileSync(file, 'utf8');
      assert.match(text, /private/i);
      assert.match(text, /overrides/);
      assert.equal(vscode.window.activeTextEditor?.document.languageId, 'mcp-json');

      assert.match(text, /\/\/ {3}"command": "npx",/, 'an example, commented out');
      fs.writeFileSync(file, text.replace('"mcpServers": {', '"mcpServers": { "memory": { "command": "node", "args": ["local-memory.js"] },'));
      const config = await waitForConfig(api, 'the local memory server', (c) => c.servers.find((s) => s.id === 'memory')?.scope === 'local');
      assert.deepEqual(shadowedSummary(config), [['memory', 'project', 'local'], ['memory', 'user', 'local'], ['everything', 'plugin', 'user']]);
      const memory = serverRow(await serverItems(), 'memory')!;
      // A local server is the user's own: it starts at once (and fails here: there is no local-memory.js).
      assert.ok(memory.description.startsWith('local · stdio · '), memory.description);
      assert.notEqual(memory.state, 'needsTrust');
      const by = `shadowed by local (${path.basename(file)})`;
      assert.deepEqual(memory.children.filter((c) => c.kind === 'shadowed').map((c) => [c.label, c.description]),
        [['project · .mcp.json', by], ['user · .mcp.json', by]]);
    } finally {
      // The fixture has no local file: remove it (and so its servers) again.
      await closeAllEditors();
      fs.rmSync(file, { force: true });
    }
  });

  it('Reload Server Configuration re-reads every file', async () => {
    const version = api.getConfig().version;
    await vscode.commands.executeCommand('switchboard.refresh');
    assert.ok(api.getConfig().version > version, 'a new snapshot was published');
    const { servers, problems } = api.getConfig();
    assert.equal((await vscode.commands.executeCommand<string[]>('_switchboard.feedback')).at(-1),
      `$(refresh) MCP Switchboard: configuration reloaded: ${servers.length} servers, ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
      'the status bar says it was reloaded');
    await fixtureIsLoaded(api);
  });

  it('registerServers adds plugin servers and disposing removes them', async () => {
    const registration = api.registerServers('test.registrar', {
      'api-echo': { command: 'node', args: ['echo.js'] },
      everything: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
    });
    try {
      const config = await waitForConfig(api, 'the registered server', (c) => c.servers.some((s) => s.id === 'api-echo'));
      const echo = config.servers.find((s) => s.id === 'api-echo')!;
      assert.equal(echo.scope, 'plugin');
      assert.equal(echo.source.file, 'api:test.registrar');
      assert.equal(echo.needsTrust, false);
      // The user scope wins over plugins: the registered "everything" is shadowed, like the fixture extension's.
      assert.equal(config.servers.find((s) => s.id === 'everything')?.scope, 'user');
      assert.deepEqual(config.shadowed.filter((s) => s.name === 'everything').map((s) => [s.scope, path.basename(s.source.file), s.shadowedBy.scope]),
        [['plugin', 'package.json', 'user'], ['plugin', 'api:test.registrar', 'user']]);
      const items = await serverItems();
      assert.ok(serverRow(items, 'api-echo')?.description.startsWith('plugin · stdio · '), serverRow(items, 'api-echo')?.description);
      assert.deepEqual(shadowedLabels(serverRow(items, 'everything')),
        [`plugin · ${PLUGIN_EXTENSION_ID}`, 'plugin · test.registrar']);
      // No diagnostics or documents for the virtual file.
      assert.equal(vscode.languages.getDiagnostics().some(([uri]) => uri.toString().includes('test.registrar')), false);
    } finally {
      registration.dispose();
    }
    await waitForConfig(api, 'the registered servers to go',
      (c) => !c.servers.some((s) => s.id === 'api-echo') && !c.shadowed.some((s) => s.source.file === 'api:test.registrar'));
    const items = await serverItems();
    assert.equal(serverRow(items, 'api-echo'), undefined);
    assert.deepEqual(shadowedLabels(serverRow(items, 'everything')), [`plugin · ${PLUGIN_EXTENSION_ID}`], 'the extension\'s entry stays');
  });

  it('registerServers rejects malformed arguments', () => {
    assert.throws(() => api.registerServers('', {}), TypeError);
    assert.throws(() => api.registerServers('x', null as unknown as Record<string, unknown>), TypeError);
  });

  it('reports a change through onDidChangeConfig', async () => {
    const seen = new Promise<number>((resolve) => {
      const subscription = api.onDidChangeConfig((config) => {
        if (config.servers.some((s) => s.id === 'evented')) { subscription.dispose(); resolve(config.version); }
      });
    });
    const registration = api.registerServers('test.events', { evented: { url: 'http://127.0.0.1:9/mcp' } });
    try {
      const version = await Promise.race([seen, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no event')), 5000))]);
      assert.ok(version > 0);
    } finally {
      registration.dispose();
    }
    await waitFor('the evented server to go', () => !api.getConfig().servers.some((s) => s.id === 'evented'));
  });
});
