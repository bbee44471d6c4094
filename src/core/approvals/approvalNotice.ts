// The notification of a call waiting for approval, shown while the Sidebar is hidden. Its Approve runs
// the call with exactly the arguments the card would show, so the notification shows all of them, as
// the card shows them (JSON, hidden characters escaped with the same helper), or it offers no Approve:
// only Show the card. VS Code cuts a notification's message after NOTIFICATION_MAX_CHARS characters
// (its notification model's limit, 1.139), and the host's plain-text pass may lengthen it: the length
// that decides is the length of the message as shown.
import { visible } from '../../protocol/visibleText';

/** The button that opens the call's card in the Sidebar. */
export const SHOW_THE_CARD = 'Show the card';

/** Characters of a message VS Code shows in a notification; the rest is cut off. */
export const NOTIFICATION_MAX_CHARS = 1000;

export type ApprovalNoticeChoice = 'Approve' | 'Reject' | typeof SHOW_THE_CARD;

export interface ApprovalNotice {
  readonly message: string;
  readonly choices: readonly ApprovalNoticeChoice[];
}

/** What a waiting call's notification needs to know of it. */
export interface NoticeRequest {
  readonly serverName: string;
  readonly tool: string;
  readonly reason: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** The arguments of a call as a notification shows them: compact JSON, every hidden character escaped. */
export function noticeArguments(args: Readonly<Record<string, unknown>>): string {
  return visible(JSON.stringify(args) ?? '{}');
}

/**
 * The message and buttons of a waiting call's notification: Approve and Reject when `shownAs(message)`
 * (what the notification makes of it) holds every argument within `limit` characters; otherwise only
 * Show the card, with a message that says why.
 */
export function approvalNotice(request: NoticeRequest, shownAs: (text: string) => string = (text) => text, limit = NOTIFICATION_MAX_CHARS): ApprovalNotice {
  const head = `"${visible(request.serverName)}" wants to run ${visible(request.tool)}: ${visible(request.reason)}.`;
  const args = noticeArguments(request.args);
  const full = Object.keys(request.args).length === 0 ? `${head} It has no arguments.` : `${head} Arguments: ${args}`;
  if (shownAs(full).length <= limit) return { message: full, choices: ['Approve', 'Reject', SHOW_THE_CARD] };
  return {
    message: `${head} Its arguments (${args.length} characters) do not fit in a notification: the card shows them, and approves them there.`,
    choices: [SHOW_THE_CARD],
  };
}
