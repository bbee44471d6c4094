// Every message between the extension host and the sidebar webview. The webview says `ready` first;
// the host posts nothing before it. Requests are answered by id. The requests themselves are the
// table in sidebarMethods.ts; the types here follow from it (imported as types only, so the webview,
// which imports this module, bundles no zod).
import {
  isRecord, isRequestId,
  type ErrorMessage, type Request, type RequestMessage, type ResponseMessage,
} from './rpc';
import type { SidebarSnapshot } from './sidebar';
import type { CheckedParams, SidebarMethod, SidebarParams, SidebarResult } from './sidebarMethods';

export type {
  AnswerApprovalResult, ArgumentProblemRow, CheckArgumentsResult, ElicitationProblemsResult, ServerAction, SidebarCommand, SidebarHandlers, SidebarMethod,
} from './sidebarMethods';

/** Every request the webview can make of the host, as the page sends it. */
export type SidebarRequest = { [M in SidebarMethod]: Request<M, SidebarParams<M>, SidebarResult<M>> }[SidebarMethod];
/** The same requests as the host's check rebuilt them (what handlers receive). */
export type CheckedSidebarRequest = { [M in SidebarMethod]: Request<M, CheckedParams<M>, SidebarResult<M>> }[SidebarMethod];

export type OpenSourceParams = SidebarParams<'openSource'>;
export type ServerActionParams = SidebarParams<'serverAction'>;
export type AnswerApprovalParams = CheckedParams<'answerApproval'>;
/** The person's answer to a card: run with these (possibly edited) arguments, or do not. */
export type ApprovalAnswerParams = AnswerApprovalParams['answer'];
export type CheckArgumentsParams = CheckedParams<'checkArguments'>;
export type OpenDiffParams = CheckedParams<'openDiff'>;
export type ElicitationValuesParams = CheckedParams<'checkElicitation'>;
export type AnswerElicitationParams = CheckedParams<'answerElicitation'>;
export type AnswerSamplingParams = CheckedParams<'answerSampling'>;
export type AnswerHeldOutputParams = CheckedParams<'answerHeldOutput'>;

/** The handshake: the webview's script has loaded and listens. */
export interface ReadyMessage {
  readonly type: 'ready';
}

/** The full state to render; replaces whatever the webview showed before. */
export interface SnapshotMessage {
  readonly type: 'snapshot';
  readonly snapshot: SidebarSnapshot;
}

/** Scroll to this waiting card and focus its first button (the chat's "Show the approval card"). */
export interface RevealMessage {
  readonly type: 'reveal';
  readonly approvalId: string;
}

export type WebviewToHostMessage = ReadyMessage | RequestMessage<SidebarRequest>;
/** A page's message after the host checked it. */
export type CheckedWebviewMessage = ReadyMessage | RequestMessage<CheckedSidebarRequest>;
export type HostToWebviewMessage = SnapshotMessage | RevealMessage | ResponseMessage<SidebarRequest> | ErrorMessage;

/**
 * Shallow check of data posted by the host (which this extension wrote): the discriminant and the
 * fields the webview reads before it trusts the rest.
 */
export function isHostToWebviewMessage(data: unknown): data is HostToWebviewMessage {
  if (!isRecord(data)) return false;
  switch (data.type) {
    case 'snapshot':
      return isRecord(data.snapshot) && Array.isArray(data.snapshot.servers)
        && Array.isArray(data.snapshot.shadowed) && Array.isArray(data.snapshot.problems)
        && isRecord(data.snapshot.approvals) && Array.isArray(data.snapshot.approvals.pending) && Array.isArray(data.snapshot.elicitations) && Array.isArray(data.snapshot.sampling);
    case 'reveal':
      return typeof data.approvalId === 'string';
    case 'response':
      return isRequestId(data.id) && typeof data.method === 'string';
    case 'error':
      return isRequestId(data.id) && isRecord(data.error) && typeof data.error.message === 'string';
    default:
      return false;
  }
}
