// What a person sees after a command that has no other visible result (Restart All, Reload, Revoke):
// a message in the status bar for a few seconds. The last messages are kept so that tests (and the
// internal `_switchboard.feedback` command) can read what was shown.
import * as vscode from 'vscode';
import { plainText } from './plainText';
import { counted } from '../../protocol/counts';

/** How long a message stays in the status bar. */
const SHOW_MS = 6000;
const KEEP = 20;

export const FEEDBACK_COMMAND = '_switchboard.feedback';

export class Feedback implements vscode.Disposable {
  private readonly shown: string[] = [];
  private current: vscode.Disposable | undefined;
  private readonly registration: vscode.Disposable;

  constructor() {
    // Internal (leading `_`): the messages shown so far, oldest first.
    this.registration = vscode.commands.registerCommand(FEEDBACK_COMMAND, () => [...this.shown]);
  }

  /**
   * Shows `text` in the status bar (replacing an earlier message of ours) and logs it. A leading
   * `$(icon) ` is ours (every caller starts with one); the rest may name servers, so it is plain text.
   */
  show(text: string, log?: vscode.LogOutputChannel): void {
    this.current?.dispose();
    this.current = vscode.window.setStatusBarMessage(plainText(text, { keepLeadingIcon: true }), SHOW_MS);
    this.shown.push(text);
    if (this.shown.length > KEEP) this.shown.splice(0, this.shown.length - KEEP);
    log?.info(text.replace(/^\$\([\w-]+\)\s*/, ''));
  }

  dispose(): void {
    this.current?.dispose();
    this.registration.dispose();
  }
}

/** "1 server", "3 servers" (the one pluralising helper, `counted`). */
export function count(n: number, noun: string, plural?: string): string {
  return counted(n, noun, plural);
}
