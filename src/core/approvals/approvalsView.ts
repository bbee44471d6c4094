// Projects the pending approvals, the rules and the call history onto what the sidebar shows. Pure;
// the lines below stop the build when a mode or scope is added on one side of the protocol only.
import type {
  ApprovalCard, ApprovalMode as RowMode, ApprovalsView, HistoryRow, PreviewView, RuleNarrowing as RowNarrowing, RuleRow, RuleScope as RowScope,
} from '../../protocol/approvals';
import { describeConstraint, type RuleNarrowing } from './argumentRules';
import type { ApprovalRequest } from './approvalBroker';
import type { CallRecord, DecidedByLabel } from './callHistory';
import type { ApprovalMode } from './policy';
import type { FilePreview } from './preview/types';
import { describeRule, type ApprovalRule, type RuleScope } from './rules';
import { revealHiddenCharacters } from '../sidebarSnapshot';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const vocabulariesMatch: [Same<ApprovalMode, RowMode>, Same<RuleScope, RowScope>, Same<RuleNarrowing, RowNarrowing>] = [true, true, true];
void vocabulariesMatch;

/** Characters of a diff a card shows; Open Diff shows the rest. */
export const CARD_DIFF_LIMIT = 60_000;
/** Characters of a call's arguments a history row shows. */
export const HISTORY_ARGS_LIMIT = 400;

export interface ApprovalsViewInput {
  readonly mode: ApprovalMode;
  readonly modeLockedBy?: string;
  readonly pending: readonly ApprovalRequest[];
  readonly rules: readonly ApprovalRule[];
  readonly history: readonly CallRecord[];
  /** Whether the person trusts the server with this id. */
  serverTrusted(serverId: string): boolean;
}

export function toApprovalsView(input: ApprovalsViewInput): ApprovalsView {
  return {
    mode: input.mode,
    ...(input.modeLockedBy !== undefined ? { modeLockedBy: input.modeLockedBy } : {}),
    pending: input.pending.map((request) => toCard(request, input.serverTrusted(request.serverId))),
    rules: input.rules.map(toRuleRow),
    history: input.history.map(toHistoryRow),
  };
}

function toCard(request: ApprovalRequest, serverTrusted: boolean): ApprovalCard {
  return {
    id: request.id,
    serverId: request.serverId,
    serverName: request.serverName,
    tool: request.tool,
    qualifiedName: request.qualifiedName,
    ...(request.annotations ? { annotations: { ...request.annotations } } : {}),
    serverTrusted,
    reason: request.reason,
    args: request.args,
    inputSchema: request.inputSchema,
    ...(request.signatures ? { signatures: [...request.signatures] } : {}),
    ...(request.preview ? { preview: toPreviewView(request.preview) } : {}),
    ...(request.ruleChoices ? { ruleChoices: { paths: request.ruleChoices.paths.map((p) => ({ ...p })) } } : {}),
    createdAt: request.createdAt,
    caller: request.caller,
  };
}

/** A prediction as a card shows it: the changed paths and the diff, cut to what a card can hold. */
export function toPreviewView(preview: FilePreview): PreviewView {
  const truncated = preview.diff.length > CARD_DIFF_LIMIT;
  return {
    changes: preview.changes.map((change) => ({ path: change.path, kind: change.kind, ...(change.to !== undefined ? { to: change.to } : {}) })),
    diff: truncated ? preview.diff.slice(0, preview.diff.lastIndexOf('\n', CARD_DIFF_LIMIT) + 1) : preview.diff,
    ...(truncated ? { diffTruncated: true } : {}),
    ...(preview.error !== undefined ? { error: preview.error } : {}),
    ...(preview.outsideRoots !== undefined && preview.outsideRoots.length > 0 ? { outsideRoots: [...preview.outsideRoots] } : {}),
    ...(preview.dryRun ? { dryRun: true } : {}),
  };
}

function toRuleRow(rule: ApprovalRule): RuleRow {
  return {
    id: rule.id,
    effect: rule.effect,
    server: rule.server,
    tool: rule.tool,
    ...(rule.signatures ? { signatures: [...rule.signatures] } : {}),
    ...(rule.arguments !== undefined && rule.arguments.length > 0 ? { conditions: rule.arguments.map(describeConstraint) } : {}),
    scope: rule.scope,
    createdAt: rule.createdAt,
    origin: rule.origin,
    description: describeRule(rule),
  };
}

function toHistoryRow(record: CallRecord): HistoryRow {
  const args = JSON.stringify(record.args) ?? '{}';
  return {
    id: record.id,
    at: record.at,
    server: record.server,
    tool: record.tool,
    argsText: args.length > HISTORY_ARGS_LIMIT ? `${args.slice(0, HISTORY_ARGS_LIMIT - 1)}…` : args,
    decision: record.decision,
    ran: record.ran,
    decidedBy: decidedByWords(record.decidedBy),
    reason: record.reason,
    ...(record.durationMs !== undefined ? { durationMs: record.durationMs } : {}),
    ...(record.waitedMs !== undefined ? { waitedMs: record.waitedMs } : {}),
    ...(record.ranMs !== undefined ? { ranMs: record.ranMs } : {}),
    ...(record.resultChars !== undefined ? { resultChars: record.resultChars } : {}),
    ...(record.error !== undefined ? { error: record.error } : {}),
    ...(record.outputWarning !== undefined ? { outputWarning: record.outputWarning } : {}),
    caller: record.caller,
    ...(record.taskId !== undefined ? { taskId: revealHiddenCharacters(record.taskId) } : {}),
  };
}

const ANSWER_WORDS = {
  approve: 'you (Approve)',
  approveForSession: 'you (Approve for session)',
  alwaysAllow: 'you (Always allow)',
  reject: 'you (Reject)',
} as const;

const MODE_WORDS: Readonly<Record<string, string>> = {
  askBeforeEdits: 'ask before edits',
  acceptEdits: 'accept edits',
  acceptEverything: 'accept everything',
};

/** Who or what decided a call, in words. */
export function decidedByWords(by: DecidedByLabel): string {
  switch (by.kind) {
    case 'person': return ANSWER_WORDS[by.answer];
    case 'rule': return 'your rule';
    case 'mode': return by.detail !== undefined ? `mode: ${MODE_WORDS[by.detail] ?? by.detail}` : 'the mode';
    case 'annotations': return "the tool's hints";
    case 'review': return 'tool review';
    case 'gate': return by.detail !== undefined ? `refused (${by.detail})` : 'refused';
    case 'default': return 'the policy';
  }
}
