// .mcp.json files have a language of their own ("mcp-json", VS Code's jsonc grammar) whose completion,
// hover and schema warnings come from the extension's JSON schema; comments and trailing commas are accepted.
import * as assert from 'assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, positionOf, projectFile, waitFor } from './configTestSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

function markdownText(hover: vscode.Hover): string {
  return hover.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')).join('\n');
}

describe('mcp.json schema', () => {
  ensureNoLeakedDisposables();
  let document: vscode.TextDocument;

  before(async () => {
    document = await vscode.workspace.openTextDocument(vscode.Uri.file(projectFile()));
    await vscode.window.showTextDocument(document);
  });

  after(closeAllEditors);

  it('is JSON with Comments: validated, without comment or trailing comma errors', async () => {
    assert.equal(document.languageId, 'mcp-json');
    // An unsaved wrong value proves the schema validates the file; it must be the only complaint,
    // although the fixture is full of comments and trailing commas.
    const editor = await vscode.window.showTextDocument(document);
    const at = positionOf(document.getText(), '"type": "http",').translate(0, '"type": "http",'.length);
    assert.ok(await editor.edit((edit) => edit.insert(at, ' "timeout": "soon",')));
    try {
      const diagnostics = await waitFor('the schema to flag the wrong timeout', () => {
        const found = vscode.languages.getDiagnostics(document.uri).filter((d) => d.source !== 'MCP Switchboard');
        return found.length > 0 && found;
      }, 15_000, 100);
      assert.equal(diagnostics.length, 1, diagnostics.map((d) => d.message).join('; '));
      assert.equal(document.getText(diagnostics[0].range), '"soon"');
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    assert.equal(document.isDirty, false);
  });

  it('documents entry fields on hover', async () => {
    const at = positionOf(document.getText(), '"command"').translate(0, 2);
    const text = await waitFor('a hover from the schema', async () => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, at);
      const joined = (hovers ?? []).map(markdownText).join('\n');
      return /program to run/.test(joined) && joined;
    }, 15_000, 200);
    assert.match(text, /PATH/);
  });

  it('completes entry fields', async () => {
    // Inside the "docs" entry, after its last property.
    const text = document.getText();
    const inside = document.positionAt(text.indexOf('"url": "http://127.0.0.1:9/mcp",') + '"url": "http://127.0.0.1:9/mcp",'.length);
    const labels = await waitFor('completions from the schema', async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, inside);
      const found = (list?.items ?? []).map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      return found.some((l) => l.includes('alwaysLoad')) && found;
    }, 15_000, 200);
    for (const field of ['headers', 'timeout', 'disabled', 'allowedTools', 'disabledTools']) {
      assert.ok(labels.some((l) => l.includes(field)), `completion offers ${field}: ${labels.join(', ')}`);
    }
  });
});
