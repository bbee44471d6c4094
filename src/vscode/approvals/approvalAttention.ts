// What waits for the person must not wait unseen: a new tool call to approve or a server's request for
// input brings the sidebar on screen, the sidebar's container counts everything that waits, and while
// the sidebar was hidden a notification offers to answer (a tool call's shows its arguments, with
// Approve / Reject / Show the card, or only Show the card when they do not fit: core/approvals/approvalNotice.ts).
import * as vscode from 'vscode';
import { approvalNotice, SHOW_THE_CARD, type ApprovalBroker, type ApprovalRequest } from '../../core/approvals';
import { DisposableStore } from '../../core/disposable';
import type { Event } from '../../core/event';
import { counted, nounFor } from '../../protocol/counts';
import { notifyInfo } from '../ui/notify';
import { plainText } from '../ui/plainText';

/** What attention needs of the sidebar view. */
export interface AttentionView {
  readonly visible: boolean;
  reveal(): Promise<void>;
  setBadge(count: number, tooltip: string): void;
}

/** Requests of one kind that wait for the person (tool calls to approve, servers' requests for input). */
export interface AttentionSource {
  readonly onDidChange: Event<void>;
  count(): number;
  /** Fires for each new request with what to notify about it (shown when the sidebar is hidden). */
  readonly onDidArrive: Event<(show: () => Promise<void>) => Promise<void>>;
}

/** A source over a pending list, with the notification for one of its requests. */
export function attentionSource<R>(
  list: { readonly onDidChange: Event<void>; readonly onDidAdd: Event<R>; pending(): readonly R[] },
  notify: (request: R, show: () => Promise<void>) => Promise<void>,
): AttentionSource {
  return {
    onDidChange: list.onDidChange,
    count: () => list.pending().length,
    onDidArrive: (listener) => list.onDidAdd((request) => listener((show) => notify(request, show))),
  };
}

export function watchAttention(view: AttentionView, log: vscode.LogOutputChannel, sources: readonly AttentionSource[]): vscode.Disposable {
  const store = new DisposableStore();
  const show = (): Promise<void> => view.reveal().catch((error: unknown) => log.warn(`could not show the sidebar: ${String(error)}`));
  for (const source of sources) {
    store.add(source.onDidChange(() => {
      const count = sources.reduce((sum, s) => sum + s.count(), 0);
      view.setBadge(count, `${counted(count, 'request')} ${nounFor(count, 'waits', 'wait')} for you`);
    }));
    store.add(source.onDidArrive((notify) => {
      if (view.visible) return;
      void show();
      void notify(show);
    }));
  }
  return { dispose: () => store.dispose() };
}

/**
 * Tool calls waiting for approval. The notification shows every argument Approve would send (measured
 * as notify shows it, after plainText); when they do not fit, it offers only Show the card, where the
 * call is approved.
 */
export function approvalAttention(broker: ApprovalBroker): AttentionSource {
  return attentionSource(broker, async (request: ApprovalRequest, show) => {
    const notice = approvalNotice(request, plainText);
    const choice = await notifyInfo(notice.message, ...notice.choices);
    // A card answered in the sidebar meanwhile (or cancelled) is gone: the notification's answer is then moot.
    if (choice === 'Approve') broker.answer(request.id, { kind: 'approve', args: request.args });
    else if (choice === 'Reject') broker.answer(request.id, { kind: 'reject', reason: 'rejected from the notification' });
    else if (choice === SHOW_THE_CARD) await show();
  });
}
