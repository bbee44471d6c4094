// The Quick Fixes of config problems that know their fix (a typo's "did you mean"): the light bulb
// on `"comand"` offers Rename to "command", which replaces the key, quotes included. A fix is offered
// only while the text at the problem's range is still a JSON string (the file may have changed since
// it was read); VS Code's own edit applies it, so Undo takes it back.
import * as vscode from 'vscode';
import type { ConfigProblem } from '../../core/config/types';
import { DIAGNOSTIC_SOURCE, toRange } from './diagnostics';

/** The config files the fixes are offered in: ours, and any JSON file a scope reads. */
const SELECTOR: vscode.DocumentSelector = [{ scheme: 'file', language: 'mcp-json' }, { scheme: 'file', pattern: '**/*.json' }];

/** Registers the provider; `problems` are the configuration's current ones. */
export function registerConfigQuickFixes(problems: () => readonly ConfigProblem[]): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider(SELECTOR, new ConfigQuickFixes(problems), { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] });
}

class ConfigQuickFixes implements vscode.CodeActionProvider {
  constructor(private readonly problems: () => readonly ConfigProblem[]) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const ours = context.diagnostics.filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE);
    if (ours.length === 0) return [];
    const file = document.uri.fsPath;
    const fixable = this.problems().filter((problem) => problem.fix !== undefined && problem.file === file);
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of ours) {
      const problem = fixable.find((candidate) => candidate.code === diagnostic.code && candidate.message === diagnostic.message && toRange(candidate).isEqual(diagnostic.range));
      if (problem?.fix === undefined || !isJsonString(document.getText(diagnostic.range))) continue;
      const action = new vscode.CodeAction(problem.fix.title, vscode.CodeActionKind.QuickFix);
      action.edit = new vscode.WorkspaceEdit();
      action.edit.replace(document.uri, diagnostic.range, problem.fix.text);
      action.diagnostics = [diagnostic];
      action.isPreferred = true;
      actions.push(action);
    }
    return actions;
  }
}

/** Whether `text` is exactly one JSON string literal (what a fix replaces). */
function isJsonString(text: string): boolean {
  if (!text.startsWith('"')) return false;
  try {
    return typeof JSON.parse(text) === 'string';
  } catch {
    return false;
  }
}
