// The questions a command asks before it acts on what it was given: a modal confirmation, and the save
// dialog. A command can be run with arguments by anything that can run commands (another extension, a
// keybinding, a link), so exporting, accepting a tool, signing out and revoking always ask the person
// here first, whatever they were given. Under an extension test run a script may answer instead; every
// question asked is kept for the tests.
import * as vscode from 'vscode';

export const DIALOG_TEST_COMMANDS = {
  /** `(script: { confirm?: boolean; pick?: string | null; save?: string | null } | null)`: answers the questions below; null asks the person again. */
  script: '_switchboard.test.scriptDialogs',
  /** The questions asked so far, oldest first. */
  asked: '_switchboard.test.dialogsAsked',
} as const;

/** A question as the tests see it. */
export interface AskedDialog {
  kind: 'confirm' | 'pick' | 'save';
  message: string;
  /** The file the save dialog proposed. */
  defaultPath?: string;
  /** The detail of a confirmation or pick. */
  detail?: string;
}

interface Script {
  confirm?: boolean;
  /** The action a pick answers with; null: closed without an answer. */
  pick?: string | null;
  save?: string | null;
}

let script: Script | undefined;
const asked: AskedDialog[] = [];
const KEEP = 50;

function remember(question: AskedDialog): void {
  asked.push(question);
  if (asked.length > KEEP) asked.splice(0, asked.length - KEEP);
}

/** Asks in a modal dialog whether to `action`; true only when the person chose it. */
export async function confirm(message: string, detail: string, action: string): Promise<boolean> {
  remember({ kind: 'confirm', message });
  if (script) return script.confirm === true;
  return await vscode.window.showWarningMessage(message, { modal: true, detail }, action) === action;
}

/**
 * Asks in a modal dialog which of `actions` to take; the one chosen, or undefined when the person
 * closed it (Escape, Cancel). Rejects when VS Code will not show a modal dialog.
 */
export async function pickAction<T extends string>(message: string, detail: string, actions: readonly T[]): Promise<T | undefined> {
  remember({ kind: 'pick', message, detail });
  if (script) return actions.find((action) => action === script?.pick);
  const picked = await vscode.window.showWarningMessage(message, { modal: true, detail }, ...actions);
  return actions.find((action) => action === picked);
}

/** The save dialog; the file picked, or undefined when the person cancelled. */
export async function saveDialog(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined> {
  remember({ kind: 'save', message: options.title ?? '', ...(options.defaultUri ? { defaultPath: options.defaultUri.fsPath } : {}) });
  if (script) return typeof script.save === 'string' ? vscode.Uri.file(script.save) : undefined;
  return vscode.window.showSaveDialog(options);
}

/** The test-only commands; register them only under an extension test run. */
export function registerDialogTestHooks(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(DIALOG_TEST_COMMANDS.script, (next: Script | null) => { script = next ?? undefined; }),
    vscode.commands.registerCommand(DIALOG_TEST_COMMANDS.asked, (): AskedDialog[] => asked.map((question) => ({ ...question }))),
  );
}
