// Problems in config files reach the Problems panel at their exact line and column, go away when the
// file is fixed, and never take the other scopes' servers down.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import {
  FileRestorer, fixtureIsLoaded, OTHER_SCOPE_IDS, positionOf, projectFile, serverItems, serverRow, switchboardApi,
  switchboardDiagnostics, userFile, waitFor, waitForConfig,
} from './configTestSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

/** A comma is missing after the "memory" entry: a syntax error at the "docs" key. */
const MISSING_COMMA = `{
  "mcpServers": {
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] }
    "docs": { "type": "http", "url": "http://127.0.0.1:9/mcp" }
  }
}
`;

/** Valid JSON, but "command" is a number: that one entry is dropped, the rest of the file loads. */
const WRONG_TYPE = `// one good entry, one bad one
{
  "mcpServers": {
    "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] },
    "broken": {
      "command": 42
    },
  },
}
`;

describe('config diagnostics', () => {
  ensureNoLeakedDisposables();
  const files = new FileRestorer();
  let api: SwitchboardApi;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
  });

  afterEach(async () => {
    files.restore();
    await fixtureIsLoaded(api);
  });

  it('marks a syntax error in the project file at its line and column', async () => {
    const file = projectFile();
    files.write(file, MISSING_COMMA);
    const expected = positionOf(MISSING_COMMA, '"docs"');
    const diagnostics = await waitFor('a syntax diagnostic', () => {
      const found = switchboardDiagnostics(file).filter((d) => d.code === 'syntax');
      return found.length > 0 && found;
    });
    const [syntax] = diagnostics;
    assert.equal(syntax.severity, vscode.DiagnosticSeverity.Error);
    assert.deepEqual([syntax.range.start.line, syntax.range.start.character], [expected.line, expected.character],
      `expected the error at ${expected.line + 1}:${expected.character + 1}, got ${syntax.range.start.line + 1}:${syntax.range.start.character + 1}`);
    assert.equal(syntax.range.end.character - syntax.range.start.character, '"docs"'.length);
    assert.equal(syntax.source, 'MCP Switchboard');

    // The broken file keeps its last good servers; the user scope is untouched.
    const config = api.getConfig();
    const ids = config.servers.map((s) => `${s.scope}:${s.id}`).sort();
    assert.deepEqual(ids, [...OTHER_SCOPE_IDS, 'project:docs', 'project:filesystem', 'project:memory'].sort());
    assert.ok(config.problems.some((p) => p.code === 'kept-last-good'), 'a warning says the last good servers are shown');
    const items = await serverItems();
    assert.ok(serverRow(items, 'everything'), 'the user server is still listed');
    assert.ok(items.some((i) => i.kind === 'problems' && /^Problems \(\d+\)$/.test(i.label)), 'a Problems node is shown');
  });

  it('shows a missing comma once in Problems: ours, and not again from VS Code\'s JSON language service', async function () {
    this.timeout(40_000);
    const file = projectFile();
    files.write(file, MISSING_COMMA);
    let probe: vscode.TextDocument | undefined;
    let barrier: vscode.TextDocument | undefined;
    try {
      // The JSON language service is alive in this window: the same text as a jsonc document gets its syntax error.
      probe = await vscode.workspace.openTextDocument({ language: 'jsonc', content: MISSING_COMMA });
      await vscode.window.showTextDocument(probe, { preview: false });
      const probeUri = probe.uri;
      const fromJson = await waitFor('the JSON language service to flag the jsonc copy', () => {
        const found = vscode.languages.getDiagnostics(probeUri);
        return found.length > 0 && found;
      }, 20_000, 100);
      assert.match(fromJson.map((d) => d.message).join('; '), /comma/i);

      // The real file, open in an editor as a person would have it.
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      await vscode.window.showTextDocument(document, { preview: false });
      assert.equal(document.languageId, 'mcp-json');
      await waitFor('our syntax diagnostic', () => switchboardDiagnostics(file).some((d) => d.code === 'syntax'));
      // The JSON service validates each document a moment after it opened, in turn: a second probe opened
      // after the real file and flagged tells that the service has had its turn on the real file too.
      barrier = await vscode.workspace.openTextDocument({ language: 'jsonc', content: MISSING_COMMA });
      await vscode.window.showTextDocument(barrier, { preview: false });
      const barrierUri = barrier.uri;
      await waitFor('the JSON language service to flag a probe opened after the file', () => vscode.languages.getDiagnostics(barrierUri).length > 0, 20_000, 50);
      const all = vscode.languages.getDiagnostics(document.uri);
      const errors = all.filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
      assert.deepEqual(errors.map((d) => [d.source, d.code]), [['MCP Switchboard', 'syntax']],
        `exactly one syntax error, ours: ${all.map((d) => `${d.source}: ${d.message}`).join(' | ')}`);
      assert.deepEqual(all.filter((d) => d.source !== 'MCP Switchboard').map((d) => `${d.source}: ${d.message}`), [], 'nothing from another source');
      assert.ok(all.some((d) => d.code === 'kept-last-good'), 'ours says the last valid servers are kept');
    } finally {
      // The untitled probe has content: close it without saving, so no editor is left dirty for later tests.
      for (const untitled of [probe, barrier]) {
        if (!untitled) continue;
        await vscode.window.showTextDocument(untitled);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      assert.deepEqual(vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString()), [], 'no dirty document is left');
    }
  });

  it('clears the diagnostics when the file is fixed', async () => {
    const file = projectFile();
    files.write(file, MISSING_COMMA);
    await waitFor('a diagnostic', () => switchboardDiagnostics(file).length > 0);
    assert.ok(files.restore(), 'the fixture file was restored');
    await waitFor('the diagnostics to clear', () => switchboardDiagnostics(file).length === 0);
    await fixtureIsLoaded(api);
    const items = await serverItems();
    assert.equal(items.some((i) => i.kind === 'problems'), false, 'the Problems node is gone');
  });

  it('marks a wrong value at the value and keeps the other entries of the file', async () => {
    const file = projectFile();
    files.write(file, WRONG_TYPE);
    const config = await waitForConfig(api, 'the file with a wrong type to load',
      (c) => c.problems.some((p) => p.code === 'wrong-type'));
    const ids = config.servers.map((s) => `${s.scope}:${s.id}`).sort();
    assert.deepEqual(ids, [...OTHER_SCOPE_IDS, 'project:memory'].sort(), 'the bad entry is left out, the good ones stay');
    const diagnostic = await waitFor('the wrong-type diagnostic',
      () => switchboardDiagnostics(file).find((d) => d.code === 'wrong-type'));
    const expected = positionOf(WRONG_TYPE, '42');
    assert.deepEqual([diagnostic.range.start.line, diagnostic.range.start.character], [expected.line, expected.character]);
    assert.equal(diagnostic.range.end.character, expected.character + 2);
    assert.match(diagnostic.message, /"command" of server "broken"/);
  });

  it('marks a broken user file outside the workspace, and the project servers stay', async () => {
    const file = userFile();
    const broken = fs.readFileSync(file, 'utf8').replace('"everything": {', '"everything": {{');
    files.write(file, broken);
    const diagnostic = await waitFor('a diagnostic in ~/.mcp.json',
      () => switchboardDiagnostics(file).find((d) => d.code === 'syntax'));
    assert.equal(diagnostic.range.start.line, positionOf(broken, '{{').line);
    const config = api.getConfig();
    for (const id of ['memory', 'filesystem', 'docs']) {
      assert.equal(config.servers.find((s) => s.id === id)?.scope, 'project', `${id} is still served from the project file`);
    }
    assert.equal(config.servers.find((s) => s.id === 'everything')?.scope, 'user', 'the last good user servers are kept');
  });
});
