// Flagged tool results held for the person (`switchboard.toolOutputs.review: hold`): the pending list
// the chat waits on and the Sidebar shows, as cards, with the answer each card sends back.
import * as vscode from 'vscode';
import { describeFindings, type HeldOutput, type HeldOutputAnswer } from '../../core/chat/outputReview';
import { PendingRequests } from '../../core/pending/pendingRequests';
import type { HeldOutputCard } from '../../protocol/sidebar';

export class HeldOutputs implements vscode.Disposable {
  private readonly pending = new PendingRequests<HeldOutput, HeldOutputAnswer>((reason) =>
    new Error(reason === 'aborted' ? 'The review of the tool result was cancelled.' : 'The window closed before the tool result was reviewed.'));
  /** Fires when a result is held or answered. */
  readonly onDidChange = this.pending.onDidChange;

  /** Holds a flagged result until the person answers in the Sidebar (or `signal` aborts). */
  hold(held: HeldOutput, signal?: AbortSignal): Promise<HeldOutputAnswer> {
    // The Sidebar is where the answer is given: bring it forward, as a waiting approval does.
    void vscode.commands.executeCommand('switchboard.sidebar.focus').then(undefined, () => undefined);
    return this.pending.ask(held, signal);
  }

  cards(): HeldOutputCard[] {
    return this.pending.pending().map((held) => ({ id: held.id, server: held.server, tool: held.tool, findings: describeFindings(held.findings), preview: held.preview, at: held.at }));
  }

  /** The person's answer; throws when the result no longer waits. */
  answer(id: string, release: boolean, reason?: string): void {
    const answered = this.pending.answer(id, release ? { release: true } : { release: false, ...(reason !== undefined ? { reason } : {}) });
    if (!answered) throw new Error('That tool result no longer waits for a review.');
  }

  dispose(): void {
    this.pending.dispose();
  }
}
