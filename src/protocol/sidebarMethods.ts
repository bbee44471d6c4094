// The sidebar's requests, declared once: each method with the zod schema of its params and the type
// of its result. The request types (sidebarMessages.ts), the host's check of what the page posts
// (parseWebviewMessage) and the handler interface the host implements (SidebarHandlers) all follow
// from this table, so a new message is one row here. The webview imports this module for types only:
// zod stays out of its bundle.
import { z } from 'zod';
import type { ApprovalMode, JsonObject, PreviewView, RuleNarrowing, RuleScope } from './approvals';
import type { FieldValueRow } from './elicitation';

/** Commands the webview may ask the host to run. Each maps to the `switchboard.<name>` command. */
export const SIDEBAR_COMMANDS = ['openProjectServers', 'openUserServers', 'openLocalServers', 'refresh'] as const;
export type SidebarCommand = (typeof SIDEBAR_COMMANDS)[number];

/** What the webview may ask to do with one server: what the Start, Stop, Restart and Show Server Logs commands do. */
export const SERVER_ACTIONS = ['start', 'stop', 'restart', 'showLogs', 'signIn'] as const;
export type ServerAction = (typeof SERVER_ACTIONS)[number];

/** Characters of a rejection reason kept (it becomes the tool's error text). */
export const REJECT_REASON_LIMIT = 2000;

const APPROVAL_MODES = ['askBeforeEdits', 'acceptEdits', 'acceptEverything'] as const satisfies readonly ApprovalMode[];
const RULE_SCOPES = ['session', 'workspace', 'global'] as const satisfies readonly RuleScope[];

/** Ids the host handed out (approvals, rules, requests): never empty, never huge. */
const id = z.string().min(1, 'must not be empty').max(200);
const position = z.int().min(1);
/** What the person typed as a reason: kept, but cut at the limit. */
const reason = z.string().transform((text) => text.slice(0, REJECT_REASON_LIMIT));
const jsonObject = z.record(z.string(), z.unknown()) as z.ZodType<JsonObject, JsonObject>;
const fieldValue = z.union([z.string(), z.boolean(), z.array(z.string()).readonly()]) satisfies z.ZodType<FieldValueRow>;
const fieldValues = z.record(z.string(), fieldValue).readonly();
const none = z.object({});
/** What "always allow" may be narrowed to besides the whole tool: this file, files under its folder, one argument's value. */
const narrowing = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file') }),
  z.object({ kind: z.literal('folder') }),
  z.object({ kind: z.literal('value'), argument: id }),
]) satisfies z.ZodType<RuleNarrowing>;

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

/**
 * The answer to Approve or Reject. No problems: the call was settled. Problems (Approve only): the
 * arguments do not fit the tool's schema, the call still waits and the card shows them at the fields.
 */
export type AnswerApprovalResult = CheckArgumentsResult;

/** Problems of a form at its fields (`/field`); none means it was accepted (or is fine to send). */
export interface ElicitationProblemsResult {
  readonly problems: readonly ArgumentProblemRow[];
}

/** One row of the table: the params' schema, and the result's type (a phantom: results come from the host). */
export interface MethodSpec<Params extends z.ZodType, Result> {
  readonly params: Params;
  readonly result?: Result;
}

const method = <Result>() => <Params extends z.ZodType>(params: Params): MethodSpec<Params, Result> => ({ params });

export const SIDEBAR_METHODS = {
  /** Open a server's definition (the host looks up its current source) or an exact file position. */
  openSource: method<null>()(z.discriminatedUnion('target', [
    z.object({ target: z.literal('server'), serverId: id }),
    z.object({ target: z.literal('location'), file: z.string().min(1, 'must not be empty'), line: position, column: position }),
  ])),
  runCommand: method<null>()(z.object({ command: z.enum(SIDEBAR_COMMANDS) })),
  serverAction: method<null>()(z.object({ serverId: id, action: z.enum(SERVER_ACTIONS) })),
  /** The person's answer to a card: run with these (possibly edited) arguments, or do not. */
  answerApproval: method<AnswerApprovalResult>()(z.object({
    approvalId: id,
    answer: z.discriminatedUnion('kind', [
      /**
       * `remember`: Approve for session (`session`), Always allow in this workspace (`workspace`) or everywhere (`global`);
       * `narrow`: the rule covers only this file, this folder or one argument's value (so only with `remember`).
       */
      z.object({ kind: z.literal('approve'), args: jsonObject, remember: z.enum(RULE_SCOPES).optional(), narrow: narrowing.optional() })
        .refine((answer) => answer.narrow === undefined || answer.remember !== undefined, { message: 'a narrowed rule needs remember', path: ['narrow'] }),
      /** `reason` is returned to the caller as the tool's error text. */
      z.object({ kind: z.literal('reject'), reason: reason.optional() }),
    ]),
  })),
  /** Edited arguments of a card, to check against the tool's input schema and to preview again. */
  checkArguments: method<CheckArgumentsResult>()(z.object({ approvalId: id, args: jsonObject })),
  /** Opens VS Code's diff editor for one change (an index into the preview's changes) the call with these arguments would make. */
  openDiff: method<null>()(z.object({ approvalId: id, args: jsonObject, change: z.int().min(0) })),
  revokeRule: method<null>()(z.object({ ruleId: id })),
  setApprovalMode: method<null>()(z.object({ mode: z.enum(APPROVAL_MODES) })),
  /** Saves the whole call history as a JSON file the person picks. */
  exportHistory: method<null>()(none),
  clearHistory: method<null>()(none),
  /** A form elicitation's inputs, to check as they are typed. */
  checkElicitation: method<ElicitationProblemsResult>()(z.object({ elicitationId: id, values: fieldValues })),
  /** The person's answer to an elicitation: `accept` sends the form (`values`, form mode only) or, in URL mode, opens the page. */
  answerElicitation: method<ElicitationProblemsResult>()(z.object({
    elicitationId: id,
    action: z.enum(['accept', 'decline', 'cancel']),
    values: fieldValues.optional(),
  })),
  /** The person's answer to a sampling request: run it once, always for this server, or refuse it (`reason`: the server gets it). */
  answerSampling: method<null>()(z.object({ samplingId: id, answer: z.enum(['approve', 'always', 'reject']), reason: reason.optional() })),
  /** The person's answer to a held tool result: hand it to the model (fenced, with the warning), or withhold it (`reason`: the model is told). */
  answerHeldOutput: method<null>()(z.object({ heldId: id, release: z.boolean(), reason: reason.optional() })),
  /** Asks the server to cancel a running task (tasks/cancel). */
  cancelTask: method<null>()(z.object({ taskId: id })),
  /** Opens an ended task's result as a document. */
  openTaskResult: method<null>()(z.object({ taskId: id })),
  /** Forgets the tasks that ended. */
  clearTasks: method<null>()(none),
  /** The person's answer on a trust card, for the definition it showed (`fingerprint`). */
  answerTrustCard: method<null>()(z.object({ serverId: id, fingerprint: id, answer: z.enum(['trust', 'refuse']) })),
} as const;

type Table = typeof SIDEBAR_METHODS;
export type SidebarMethod = keyof Table;

/** What the page sends for a method. */
export type SidebarParams<M extends SidebarMethod> = z.input<Table[M]['params']>;
/** What the host's handler receives: the params as the schema rebuilt them (unknown fields dropped). */
export type CheckedParams<M extends SidebarMethod> = z.output<Table[M]['params']>;
export type SidebarResult<M extends SidebarMethod> = Exclude<Table[M]['result'], undefined>;

/** What a handler returns: nothing for a method whose reply carries no data (the host replies `null`). */
type HandlerResult<M extends SidebarMethod> = SidebarResult<M> extends null ? void : SidebarResult<M>;

/** What the host does for each request; a thrown error is shown in the view. */
export type SidebarHandlers = {
  readonly [M in SidebarMethod]: (params: CheckedParams<M>) => Promise<HandlerResult<M>> | HandlerResult<M>;
};

/** Whether `name` is a method of the table (and not, say, `toString`). */
export function isSidebarMethod(name: unknown): name is SidebarMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(SIDEBAR_METHODS, name);
}

/** Checks one method's params against the table: the rebuilt params, or one sentence saying what is wrong. */
export function checkParams<M extends SidebarMethod>(name: M, params: unknown): { ok: true; params: CheckedParams<M> } | { ok: false; reason: string } {
  const parsed = SIDEBAR_METHODS[name].params.safeParse(params);
  if (parsed.success) return { ok: true, params: parsed.data as CheckedParams<M> };
  const problems = parsed.error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message));
  return { ok: false, reason: `Invalid params for ${name}: ${problems.join('; ')}.` };
}
