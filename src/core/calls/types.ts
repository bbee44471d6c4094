// The shapes of a tool call on its way through the gate: what a caller asks for, what the gate
// resolved it to, what the decision step answers, and the record of how it ended.
import type { EffectiveServer } from '../config/types';
import type { CallOptions } from '../lifecycle/controllerTypes';
import type { CallToolResult, ToolInfo } from '../lifecycle/types';
import type { PoisonFinding } from '../toolReview/poisoning';

/** The reasons a call is refused before anything is sent to the server. */
export type ToolCallRefusalCode =
  | 'unknownServer'
  | 'serverNotReady'
  | 'toolFiltered'
  | 'unknownTool'
  | 'toolBlocked'
  | 'toolChanged'
  | 'denied';

/** Who asked for a call, for the messages and the history (e.g. 'api', 'cli', 'chat', 'lmTool', 'app': an MCP App's frame). */
export type ToolCallOrigin = string;

/** A call as a caller asks for it. */
export interface ToolCallRequest extends CallOptions {
  /** The server's id (its name, or `<folder>/<name>` in a multi-root clash). */
  serverId: string;
  /** The tool's name as the server lists it. */
  tool: string;
  /** The call's arguments; `{}` when absent. */
  arguments?: Record<string, unknown>;
  caller: ToolCallOrigin;
  /** Told when the call waits for the person's approval, with the id of its card (the chat says so and links to it). */
  onAwaitingApproval?: (approvalId: string) => void;
}

/** What the review knows about a tool (the ToolReview of src/core/trust fits). */
export interface ToolCallStatus {
  /** Its definition differs from the pinned one and nobody accepted it yet. */
  changed: boolean;
  /** Flagged by the poisoning scan while blocking is on: calls to it are refused. */
  blocked: boolean;
  findings: PoisonFinding[];
  /** Nobody reviewed the tool yet (it appeared this session). */
  new?: boolean;
}

/** Where the gate asks for a tool's pinned and scanned status. */
export interface ToolStatusSource {
  status(serverId: string, toolName: string): ToolCallStatus | undefined;
  /**
   * The recording of a catalog that just changed, while one runs (undefined otherwise): a tool is
   * only known to be new or changed once it is done, so the gate waits for it before resolving.
   */
  settling?(): Promise<void> | undefined;
}

/** A call the gate resolved: the server is ready and offers the tool, which is neither blocked nor changed. */
export interface ResolvedToolCall {
  readonly request: ToolCallRequest;
  /** The server's definition at resolution time. */
  readonly server: EffectiveServer;
  /** The tool's definition as the server lists it now. */
  readonly tool: ToolInfo;
  /** The review's status of the tool, when the gate has a review. */
  readonly status: ToolCallStatus | undefined;
  readonly arguments: Record<string, unknown>;
}

/** Who or what decided a call (the history shows it). */
export type ToolCallDecidedBy =
  | { readonly kind: 'person'; readonly answer: 'approve' | 'approveForSession' | 'alwaysAllow' | 'reject' }
  | { readonly kind: 'rule'; readonly ruleId: string }
  | { readonly kind: 'mode' | 'annotations' | 'review' | 'default' | 'gate'; readonly detail?: string };

/** How the decision step came to its answer: what the call's record keeps. */
export interface ToolCallDecisionBasis {
  readonly decidedBy: ToolCallDecidedBy;
  /** The policy's verdict before any person looked (`ask` when a card asked), and its reason. */
  readonly verdict: 'allow' | 'ask' | 'deny';
  readonly why: string;
  /** The card's id, when the step asked. */
  readonly approvalId?: string;
  /** How long the card waited for the person (or until the caller cancelled), when the step asked. */
  readonly waitedMs?: number;
}

/**
 * The decision step's answer, with how it was reached. `allow` may replace the arguments (a person
 * edited them before approving); `deny` carries the reason the caller (and the model) is told;
 * `cancelled` says the caller gave up while the step waited, with the error the call fails with.
 */
export type ToolCallDecision = ToolCallDecisionBasis & (
  | { readonly kind: 'allow'; readonly arguments?: Record<string, unknown> }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'cancelled'; readonly error: unknown }
);

/** Decides whether a resolved call goes ahead (the approval policy plugs in here; default: allow). */
export type DecideToolCall = (call: ResolvedToolCall) => ToolCallDecision | Promise<ToolCallDecision>;

/** How a call ended. */
export type ToolCallOutcome =
  | { kind: 'result'; result: CallToolResult }
  | { kind: 'refused'; code: ToolCallRefusalCode; message: string }
  | { kind: 'failed'; message: string };

/** One call through the gate, from request to outcome (what a call history records). */
export interface ToolCallRecord {
  request: ToolCallRequest;
  /** The arguments sent (after the decision step), or the requested ones when nothing was sent. */
  arguments: Record<string, unknown>;
  startedAt: number;
  /** From the call to its outcome: resolving, deciding (a person's answer included) and running. */
  durationMs: number;
  /** From sending to the server to its outcome (set when it was sent). */
  ranMs?: number;
  /** Whether the call was sent to the server (a refusal, a rejection or a cancelled approval never was). */
  sent: boolean;
  /** The server's task id, when the call ran as a task. */
  taskId?: string;
  /** The decision step's answer; absent when the gate refused the call before it. */
  decision?: ToolCallDecision;
  outcome: ToolCallOutcome;
}

/** What ToolCallGate.call() answers: the tool's result and the record of the call that produced it. */
export interface ToolCallResponse {
  readonly result: CallToolResult;
  readonly record: ToolCallRecord;
}
