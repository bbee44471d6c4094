// A typo gets a fix, not only a problem: in a real extension host, a mistyped field ("comand") and a
// mistyped type ("stdoi") in the project file are marked with "did you mean …?", their light bulbs offer
// Rename to "command" and Change to "stdio", and applying them (then saving) clears both problems.
import * as assert from 'assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { closeAllEditors, FileRestorer, fixtureIsLoaded, projectFile, switchboardApi, switchboardDiagnostics, waitFor } from './configTestSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

/**
 * The project file with two mistyped servers added before its own: its servers stay defined, so the
 * user server the project's "memory" shadows never becomes the effective one (and starts) meanwhile.
 */
function withTypos(original: string): string {
  const typos = `
    "typo-field": { "comand": "node", "args": ["server.js"] },
    "typo-type": { "type": "stdoi", "command": "node" },`;
  const at = original.indexOf('"mcpServers": {');
  assert.ok(at >= 0, 'the fixture\'s project file has an mcpServers object');
  const end = at + '"mcpServers": {'.length;
  return `${original.slice(0, end)}${typos}${original.slice(end)}`;
}

/** The Quick Fixes VS Code offers at a diagnostic's range. */
async function quickFixesAt(uri: vscode.Uri, range: vscode.Range): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, range, vscode.CodeActionKind.QuickFix.value);
  return (actions ?? []).filter((action): action is vscode.CodeAction => 'title' in action && 'edit' in action);
}

describe('config Quick Fixes', () => {
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

  it('"comand" and "stdoi" say did you mean, and their Quick Fixes rename the key and change the type', async () => {
    const file = projectFile();
    files.write(file, withTypos(fs.readFileSync(file, 'utf8')));
    const uri = vscode.Uri.file(file);
    const [field, type] = await waitFor('the two typo diagnostics', () => {
      const found = switchboardDiagnostics(file);
      const f = found.find((d) => d.code === 'unknown-field');
      const t = found.find((d) => d.code === 'unknown-type');
      return f && t ? [f, t] as const : undefined;
    });
    assert.equal(field.message, 'Unknown field "comand" in server "typo-field", ignored; did you mean "command"?');
    assert.match(type.message, /^Unknown server type "stdoi" in server "typo-type"; did you mean "stdio"\?/);

    const document = await vscode.workspace.openTextDocument(uri);
    const rename = (await quickFixesAt(uri, field.range)).find((action) => action.title === 'Rename to "command"');
    const change = (await quickFixesAt(uri, type.range)).find((action) => action.title === 'Change to "stdio"');
    assert.ok(rename?.edit, 'Rename to "command" is offered at "comand"');
    assert.ok(change?.edit, 'Change to "stdio" is offered at "stdoi"');
    assert.equal(rename.isPreferred, true);
    assert.ok(await vscode.workspace.applyEdit(rename.edit));
    assert.ok(await vscode.workspace.applyEdit(change.edit));
    assert.match(document.getText(), /"typo-field": \{ "command": "node"/);
    assert.match(document.getText(), /"typo-type": \{ "type": "stdio", "command": "node"/);
    assert.ok(await document.save());
    await waitFor('the typo problems to be gone', () => !switchboardDiagnostics(file).some((d) => d.code === 'unknown-field' || d.code === 'unknown-type'));
    assert.ok(api.getConfig().servers.some((server) => server.id === 'typo-field' && server.launch.command === 'node'));
  });

  it('offers no fix once the text at the problem is no longer the typo it was about', async () => {
    const file = projectFile();
    files.write(file, withTypos(fs.readFileSync(file, 'utf8')));
    const uri = vscode.Uri.file(file);
    const field = await waitFor('the unknown field', () => switchboardDiagnostics(file).find((d) => d.code === 'unknown-field'));
    const document = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    // The key's closing quote typed away: the range no longer holds a JSON string.
    edit.replace(uri, new vscode.Range(field.range.end.translate(0, -1), field.range.end), 'x');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.equal((await quickFixesAt(uri, field.range)).filter((action) => action.title.startsWith('Rename to')).length, 0);
    // Back to what is on disk, so the next suite meets a clean file.
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.equal(document.isDirty, false);
  });
});
