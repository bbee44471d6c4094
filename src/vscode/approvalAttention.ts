// A call that waits for the person must not wait unseen: the sidebar is brought on screen, its
// container shows how many calls wait, and while the sidebar was hidden a notification offers
// Approve / Reject / Show for the new card.
import * as vscode from 'vscode';
import type { ApprovalBroker, ApprovalRequest } from '../core/approvals';
import { DisposableStore } from '../core/disposable';

/** What attention needs of the sidebar view. */
export interface AttentionView {
  readonly visible: boolean;
  reveal(): Promise<void>;
  setBadge(count: number, tooltip: string): void;
}

export function watchApprovals(broker: ApprovalBroker, view: AttentionView, log: vscode.LogOutputChannel): vscode.Disposable {
  const store = new DisposableStore();
  store.add(broker.onDidChange(() => {
    const count = broker.pending().length;
    view.setBadge(count, count === 1 ? '1 tool call waits for your approval' : `${count} tool calls wait for your approval`);
  }));
  store.add(broker.onDidAsk((request) => {
    if (view.visible) return;
    void view.reveal().catch((error: unknown) => log.warn(`approvals: could not show the sidebar: ${String(error)}`));
    void notify(broker, request, view);
  }));
  return { dispose: () => store.dispose() };
}

async function notify(broker: ApprovalBroker, request: ApprovalRequest, view: AttentionView): Promise<void> {
  const choice = await vscode.window.showInformationMessage(
    `"${request.serverName}" wants to run ${request.tool}: ${request.reason}.`,
    'Approve', 'Reject', 'Show',
  );
  // A card answered in the sidebar meanwhile (or cancelled) is gone: the notification's answer is then moot.
  if (choice === 'Approve') broker.answer(request.id, { kind: 'approve', args: request.args });
  else if (choice === 'Reject') broker.answer(request.id, { kind: 'reject', reason: 'rejected from the notification' });
  else if (choice === 'Show') await view.reveal();
}
