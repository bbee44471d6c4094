// Every message between the extension host and the sidebar webview, declared once. The webview
// says `ready` first; the host posts nothing before it. Requests are answered by id.
import {
  isRecord, isRequestId,
  type ErrorMessage, type MethodOf, type Request, type RequestMessage, type ResponseMessage, type RpcError,
} from './rpc';
import type { ApprovalMode, JsonObject, PreviewView, RuleNarrowing, RuleScope } from './approvals';
import type { FieldValueRow } from './elicitation';
import type { SidebarSnapshot, SourceLocation } from './sidebar';

/** Commands the webview may ask the host to run. Each maps to the `switchboard.<name>` command. */
export const SIDEBAR_COMMANDS = ['openProjectServers', 'openUserServers', 'openLocalServers', 'refresh'] as const;
export type SidebarCommand = (typeof SIDEBAR_COMMANDS)[number];

/** What the webview may ask to do with one server: what the Start, Stop, Restart and Show Server Logs commands do. */
export const SERVER_ACTIONS = ['start', 'stop', 'restart', 'showLogs', 'signIn'] as const;
export type ServerAction = (typeof SERVER_ACTIONS)[number];

export interface ServerActionParams {
  readonly serverId: string;
  readonly action: ServerAction;
}

/** Open a server's definition (the host looks up its current source) or an exact file position. */
export type OpenSourceParams =
  | { readonly target: 'server'; readonly serverId: string }
  | ({ readonly target: 'location' } & SourceLocation);

export interface RunCommandParams {
  readonly command: SidebarCommand;
}

/** The person's answer to a card: run with these (possibly edited) arguments, or do not. */
export type ApprovalAnswerParams =
  /**
   * `remember`: Approve for session (`session`), Always allow in this workspace (`workspace`) or everywhere
   * (`global`); `narrow`: the rule covers only this file, this folder or one argument's value (with `remember`).
   */
  | { readonly kind: 'approve'; readonly args: JsonObject; readonly remember?: RuleScope; readonly narrow?: RuleNarrowing }
  /** `reason` is returned to the caller as the tool's error text. */
  | { readonly kind: 'reject'; readonly reason?: string };

export interface AnswerApprovalParams {
  readonly approvalId: string;
  readonly answer: ApprovalAnswerParams;
}

/** Edited arguments of a card, to check against the tool's input schema and to preview again. */
export interface CheckArgumentsParams {
  readonly approvalId: string;
  readonly args: JsonObject;
}

/** One problem at a JSON pointer into the arguments (`/content`; `""` for the whole object). */
export interface ArgumentProblemRow {
  readonly path: string;
  readonly message: string;
}

export interface CheckArgumentsResult {
  readonly problems: readonly ArgumentProblemRow[];
  /** What the edited call would change (for a call that writes files). */
  readonly preview?: PreviewView;
}

/** Opens VS Code's diff editor for one change the card's call (with these arguments) would make. */
export interface OpenDiffParams {
  readonly approvalId: string;
  readonly args: JsonObject;
  /** Index into the preview's changes. */
  readonly change: number;
}

export interface RevokeRuleParams {
  readonly ruleId: string;
}

export interface SetApprovalModeParams {
  readonly mode: ApprovalMode;
}

/** A form elicitation's inputs, to check (as they are typed) or to send. */
export interface ElicitationValuesParams {
  readonly elicitationId: string;
  readonly values: { readonly [field: string]: FieldValueRow };
}

/** The person's answer to an elicitation: `accept` sends the form (or, in URL mode, opens the page). */
export interface AnswerElicitationParams {
  readonly elicitationId: string;
  readonly action: 'accept' | 'decline' | 'cancel';
  /** The form's inputs (form mode, `accept` only). */
  readonly values?: { readonly [field: string]: FieldValueRow };
}

/** Problems of a form at its fields (`/field`); none means it was accepted (or is fine to send). */
export interface ElicitationProblemsResult {
  readonly problems: readonly ArgumentProblemRow[];
}

/** The person's answer to a sampling request: run it once, always for this server, or refuse it. */
export interface AnswerSamplingParams {
  readonly samplingId: string;
  readonly answer: 'approve' | 'always' | 'reject';
  /** Why it was refused (the server gets it in its error). */
  readonly reason?: string;
}

/** Success carries no data (`null` survives JSON); a failure is an ErrorMessage. */
export type OpenSourceResult = null;
export type RunCommandResult = null;
export type ServerActionResult = null;

export type OpenSourceRequest = Request<'openSource', OpenSourceParams, OpenSourceResult>;
export type RunCommandRequest = Request<'runCommand', RunCommandParams, RunCommandResult>;
export type ServerActionRequest = Request<'serverAction', ServerActionParams, ServerActionResult>;
export type AnswerApprovalRequest = Request<'answerApproval', AnswerApprovalParams, null>;
export type CheckArgumentsRequest = Request<'checkArguments', CheckArgumentsParams, CheckArgumentsResult>;
export type OpenDiffRequest = Request<'openDiff', OpenDiffParams, null>;
export type RevokeRuleRequest = Request<'revokeRule', RevokeRuleParams, null>;
export type SetApprovalModeRequest = Request<'setApprovalMode', SetApprovalModeParams, null>;
/** Saves the whole call history as a JSON file the person picks. */
export type ExportHistoryRequest = Request<'exportHistory', Record<string, never>, null>;
export type ClearHistoryRequest = Request<'clearHistory', Record<string, never>, null>;
export type CheckElicitationRequest = Request<'checkElicitation', ElicitationValuesParams, ElicitationProblemsResult>;
export type AnswerElicitationRequest = Request<'answerElicitation', AnswerElicitationParams, ElicitationProblemsResult>;
export type AnswerSamplingRequest = Request<'answerSampling', AnswerSamplingParams, null>;

/** Every request the webview can make of the host. */
export type SidebarRequest =
  | OpenSourceRequest | RunCommandRequest | ServerActionRequest
  | AnswerApprovalRequest | CheckArgumentsRequest | OpenDiffRequest | RevokeRuleRequest | SetApprovalModeRequest
  | ExportHistoryRequest | ClearHistoryRequest
  | CheckElicitationRequest | AnswerElicitationRequest | AnswerSamplingRequest;
export type SidebarMethod = MethodOf<SidebarRequest>;

/** The handshake: the webview's script has loaded and listens. */
export interface ReadyMessage {
  readonly type: 'ready';
}

/** The full state to render; replaces whatever the webview showed before. */
export interface SnapshotMessage {
  readonly type: 'snapshot';
  readonly snapshot: SidebarSnapshot;
}

export type WebviewToHostMessage = ReadyMessage | RequestMessage<SidebarRequest>;
export type HostToWebviewMessage = SnapshotMessage | ResponseMessage<SidebarRequest> | ErrorMessage;

/** What the host makes of data posted by the webview: a message it may act on, or why not. */
export type ParsedWebviewMessage =
  | { readonly ok: true; readonly message: WebviewToHostMessage }
  | { readonly ok: false; readonly id?: number; readonly error: RpcError };

const isCommand = (value: unknown): value is SidebarCommand =>
  typeof value === 'string' && (SIDEBAR_COMMANDS as readonly string[]).includes(value);

const isServerAction = (value: unknown): value is ServerAction =>
  typeof value === 'string' && (SERVER_ACTIONS as readonly string[]).includes(value);

const isPosition = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

const APPROVAL_MODES: readonly ApprovalMode[] = ['askBeforeEdits', 'acceptEdits', 'acceptEverything'];
const RULE_SCOPES: readonly RuleScope[] = ['session', 'workspace', 'global'];
/** Characters of a rejection reason kept (it becomes the tool's error text). */
export const REJECT_REASON_LIMIT = 2000;

const isId = (value: unknown): value is string => typeof value === 'string' && value !== '' && value.length <= 200;

function parseAnswer(value: unknown): ApprovalAnswerParams | undefined {
  if (!isRecord(value)) return undefined;
  if (value.kind === 'reject') {
    const { reason } = value;
    if (reason === undefined) return { kind: 'reject' };
    return typeof reason === 'string' ? { kind: 'reject', reason: reason.slice(0, REJECT_REASON_LIMIT) } : undefined;
  }
  if (value.kind !== 'approve' || !isRecord(value.args)) return undefined;
  const { remember } = value;
  if (remember === undefined) return value.narrow === undefined ? { kind: 'approve', args: value.args } : undefined;
  if (!(RULE_SCOPES as readonly unknown[]).includes(remember)) return undefined;
  if (value.narrow === undefined) return { kind: 'approve', args: value.args, remember: remember as RuleScope };
  const narrow = parseNarrowing(value.narrow);
  return narrow ? { kind: 'approve', args: value.args, remember: remember as RuleScope, narrow } : undefined;
}

function parseNarrowing(value: unknown): RuleNarrowing | undefined {
  if (!isRecord(value)) return undefined;
  if (value.kind === 'file' || value.kind === 'folder') return { kind: value.kind };
  return value.kind === 'value' && typeof value.argument === 'string' && value.argument !== '' && value.argument.length <= 200
    ? { kind: 'value', argument: value.argument }
    : undefined;
}

const isFieldValue = (value: unknown): value is FieldValueRow =>
  typeof value === 'string' || typeof value === 'boolean' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));

function parseValues(value: unknown): Record<string, FieldValueRow> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value);
  return entries.every(([, v]) => isFieldValue(v)) ? Object.fromEntries(entries) as Record<string, FieldValueRow> : undefined;
}

function parseOpenSource(params: Readonly<Record<string, unknown>>): OpenSourceParams | undefined {
  const { target } = params;
  if (target === 'server') {
    const { serverId } = params;
    return typeof serverId === 'string' && serverId !== '' ? { target, serverId } : undefined;
  }
  if (target === 'location') {
    const { file, line, column } = params;
    return typeof file === 'string' && file !== '' && isPosition(line) && isPosition(column)
      ? { target, file, line, column }
      : undefined;
  }
  return undefined;
}

/**
 * Checks data posted by the webview field by field and rebuilds it, so the host never acts on
 * extra or mistyped fields. Never throws.
 */
export function parseWebviewMessage(data: unknown): ParsedWebviewMessage {
  if (!isRecord(data)) return { ok: false, error: { code: 'invalidRequest', message: 'Message is not an object.' } };
  if (data.type === 'ready') return { ok: true, message: { type: 'ready' } };
  if (data.type !== 'request') {
    return { ok: false, error: { code: 'invalidRequest', message: `Unknown message type: ${String(data.type)}.` } };
  }
  const { id, method, params } = data;
  if (!isRequestId(id)) return { ok: false, error: { code: 'invalidRequest', message: 'Request has no valid id.' } };
  const invalidParams = { ok: false, id, error: { code: 'invalidParams', message: `Invalid params for ${String(method)}.` } } as const;
  if (!isRecord(params)) return invalidParams;
  switch (method) {
    case 'openSource': {
      const parsed = parseOpenSource(params);
      return parsed ? { ok: true, message: { type: 'request', id, method, params: parsed } } : invalidParams;
    }
    case 'runCommand': {
      const { command } = params;
      return isCommand(command) ? { ok: true, message: { type: 'request', id, method, params: { command } } } : invalidParams;
    }
    case 'serverAction': {
      const { serverId, action } = params;
      return typeof serverId === 'string' && serverId !== '' && isServerAction(action)
        ? { ok: true, message: { type: 'request', id, method, params: { serverId, action } } }
        : invalidParams;
    }
    case 'answerApproval': {
      const { approvalId } = params;
      const answer = parseAnswer(params.answer);
      return isId(approvalId) && answer ? { ok: true, message: { type: 'request', id, method, params: { approvalId, answer } } } : invalidParams;
    }
    case 'checkArguments': {
      const { approvalId, args } = params;
      return isId(approvalId) && isRecord(args) ? { ok: true, message: { type: 'request', id, method, params: { approvalId, args } } } : invalidParams;
    }
    case 'openDiff': {
      const { approvalId, args, change } = params;
      return isId(approvalId) && isRecord(args) && typeof change === 'number' && Number.isSafeInteger(change) && change >= 0
        ? { ok: true, message: { type: 'request', id, method, params: { approvalId, args, change } } }
        : invalidParams;
    }
    case 'revokeRule': {
      const { ruleId } = params;
      return isId(ruleId) ? { ok: true, message: { type: 'request', id, method, params: { ruleId } } } : invalidParams;
    }
    case 'setApprovalMode': {
      const { mode } = params;
      return (APPROVAL_MODES as readonly unknown[]).includes(mode)
        ? { ok: true, message: { type: 'request', id, method, params: { mode: mode as ApprovalMode } } }
        : invalidParams;
    }
    case 'checkElicitation': {
      const { elicitationId } = params;
      const values = parseValues(params.values);
      return isId(elicitationId) && values ? { ok: true, message: { type: 'request', id, method, params: { elicitationId, values } } } : invalidParams;
    }
    case 'answerElicitation': {
      const { elicitationId, action } = params;
      const values = params.values === undefined ? undefined : parseValues(params.values);
      if (!isId(elicitationId) || (action !== 'accept' && action !== 'decline' && action !== 'cancel') || (params.values !== undefined && values === undefined)) return invalidParams;
      return { ok: true, message: { type: 'request', id, method, params: { elicitationId, action, ...(values ? { values } : {}) } } };
    }
    case 'answerSampling': {
      const { samplingId, answer, reason } = params;
      if (!isId(samplingId) || (answer !== 'approve' && answer !== 'always' && answer !== 'reject') || (reason !== undefined && typeof reason !== 'string')) return invalidParams;
      return { ok: true, message: { type: 'request', id, method, params: { samplingId, answer, ...(reason !== undefined ? { reason: reason.slice(0, REJECT_REASON_LIMIT) } : {}) } } };
    }
    case 'exportHistory':
    case 'clearHistory':
      return { ok: true, message: { type: 'request', id, method, params: {} } };
    default:
      return { ok: false, id, error: { code: 'unknownMethod', message: `Unknown method: ${String(method)}.` } };
  }
}

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
    case 'response':
      return isRequestId(data.id) && typeof data.method === 'string';
    case 'error':
      return isRequestId(data.id) && isRecord(data.error) && typeof data.error.message === 'string';
    default:
      return false;
  }
}
