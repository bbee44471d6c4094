// Projects the merged configuration onto the rows the sidebar webview shows. Pure: the clock and
// the server states come in as arguments, so the same input always gives the same snapshot.
import type { TaskRow } from '../protocol/tasks';
import type {
  ConfigProblem, EffectiveServer, LaunchDefinition, MergedConfig, ProblemSeverity, Scope, ShadowedServer, SourceRange, TransportKind,
} from './config/types';
import { compareEffectiveServers } from './config/merge';
import { redactCommandLine, redactText, redactUrl, secretsOf } from './lifecycle/redact';
import { ServerState, type ServerStateKind as CoreStateKind } from './lifecycle/state';
import type { DangerFlag } from './trust/dangerFlags';
import type { PromptHoldReason } from './trust/promptHold';
import type { TrustDecision } from './trust/trustDecision';
import { trustDisplay } from './trust/trustGate';
import { needsTrustDecision } from './trust/trustKey';
import type {
  CatalogCounts, DangerFlagRow, HeldOutputCard, LifecycleStateKind, ProblemRow, ProblemSeverity as RowSeverity, Scope as RowScope, ServerRow, ServerStateKind,
  ShadowedRow, SidebarSnapshot, SourceLocation, ToolReviewCounts, TransportKind as RowTransport,
} from '../protocol/sidebar';
import { EMPTY_APPROVALS_VIEW, type ApprovalsView } from '../protocol/approvals';
import type { ElicitationCard } from '../protocol/elicitation';
import type { SamplingCard } from '../protocol/sampling';

/** `true` when A and B are the same union; `never` (a compile error below) when they drift apart. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
// The protocol spells out the core's vocabularies so that it depends on nothing; these lines stop the
// build the moment a scope, transport, severity or lifecycle state is added on one side only.
const vocabulariesMatch: [Same<Scope, RowScope>, Same<TransportKind, RowTransport>, Same<ProblemSeverity, RowSeverity>, Same<CoreStateKind, LifecycleStateKind>] = [true, true, true, true];
void vocabulariesMatch;

/** The words a row shows for a bare state kind; the mapped type makes a new state kind a compile error here. */
export const SERVER_STATE_LABELS: { readonly [K in ServerStateKind]: string } = {
  notStarted: 'not started',
  stopped: ServerState.label({ kind: 'stopped' }),
  starting: ServerState.label({ kind: 'starting', since: 0 }),
  ready: ServerState.label({ kind: 'ready', since: 0, startMs: 0 }),
  failed: ServerState.label({ kind: 'failed', error: '', stderrTail: [] }),
  crashed: ServerState.label({ kind: 'crashed', exitCode: null, signal: null, error: '', stderrTail: [] }),
  restarting: 'restarting',
  stopping: ServerState.label({ kind: 'stopping', since: 0 }),
  needsTrust: ServerState.label({ kind: 'needsTrust' }),
  needsSignIn: ServerState.label({ kind: 'needsSignIn', reason: '' }),
  disabled: ServerState.label({ kind: 'disabled' }),
};

/** What the lifecycle knows about one server: its state and, when ready, the size of its catalog. */
export interface ServerStatus {
  readonly state: ServerState;
  readonly counts?: CatalogCounts;
  /** Changed, new and flagged tools (shown while the server is ready). */
  readonly toolReview?: ToolReviewCounts;
  /** Tools the host refused to take from the listing, with why (shown while the server is ready). */
  readonly refusedTools?: readonly { readonly name: string; readonly reason: string }[];
  /** What is wrong with a ready server (a listing that failed), one line each (shown while it is ready). */
  readonly warnings?: readonly string[];
}

export interface SidebarSnapshotOptions {
  /** Milliseconds since the epoch, from the caller's clock. */
  generatedAt: number;
  workspaceName?: string;
  /**
   * The lifecycle state of a server: a bare kind, or the full state (its label and reason are then
   * shown) with catalog counts. Every server is `notStarted` when omitted.
   */
  stateOf?: (server: EffectiveServer) => ServerStateKind | ServerStatus;
  /** What the trust gate says about a server; shown for project servers (a refused one reads "not trusted"). */
  trustOf?: (server: EffectiveServer) => ServerTrustStatus | undefined;
  /** The approvals sections (pending calls, rules, history); empty when omitted. */
  approvals?: ApprovalsView;
  /** What servers ask the person for; none when omitted. */
  elicitations?: readonly ElicitationCard[];
  /** Model completions servers ask for; none when omitted. */
  sampling?: readonly SamplingCard[];
  /** Flagged tool results held for the person; none when omitted. */
  heldOutputs?: readonly HeldOutputCard[];
  /** Tool calls running (or ended) as MCP tasks. */
  tasks?: readonly TaskRow[];
}

/** Why a running project server's row says its definition is not the one in the file. */
export const HELD_REASON = 'the definition changed: the one you trusted before runs until you decide about the change';

/** A server's trust decision and the danger flags of its definition. */
export interface ServerTrustStatus {
  readonly decision: TrustDecision;
  readonly flags: readonly DangerFlag[];
  /** Set while the trust prompt for it waits for its file to be saved, valid and unchanged for a moment. */
  readonly waiting?: PromptHoldReason;
}

/** Builds the full sidebar snapshot from the merged config: sorted, display-safe, JSON-serialisable. */
export function toSidebarSnapshot(
  merged: Pick<MergedConfig, 'servers' | 'shadowed' | 'problems'>,
  opts: SidebarSnapshotOptions,
): SidebarSnapshot {
  const stateOf = opts.stateOf ?? ((): ServerStateKind => 'notStarted');
  return {
    // The Servers tree's order (scope precedence, then id), so both views list servers alike.
    servers: [...merged.servers].sort(compareEffectiveServers).map((server) => toServerRow(server, stateOf(server), needsTrustDecision(server) ? opts.trustOf?.(server) : undefined)),
    shadowed: [...merged.shadowed].sort(compareShadowed).map(toShadowedRow),
    problems: [...merged.problems].sort(compareProblems).map(toProblemRow),
    ...(opts.workspaceName !== undefined ? { workspaceName: opts.workspaceName } : {}),
    approvals: opts.approvals ?? EMPTY_APPROVALS_VIEW,
    elicitations: opts.elicitations ?? [],
    sampling: opts.sampling ?? [],
    ...(opts.heldOutputs !== undefined && opts.heldOutputs.length > 0 ? { heldOutputs: opts.heldOutputs } : {}),
    ...(opts.tasks !== undefined && opts.tasks.length > 0 ? { tasks: opts.tasks } : {}),
    generatedAt: opts.generatedAt,
  };
}

function toServerRow(server: EffectiveServer, status: ServerStateKind | ServerStatus, trust: ServerTrustStatus | undefined): ServerRow {
  const full = typeof status === 'string' ? undefined : status;
  const kind = typeof status === 'string' ? status : status.state.kind;
  // A server parked for trust says why: never trusted, changed, refused ("not trusted"), Restricted Mode.
  // A file being edited: "changed — waiting for trust" (no prompt yet), also while the trusted definition runs.
  const waiting = trust?.waiting !== undefined ? trustDisplay(trust.decision, trust.waiting) : undefined;
  const parked = waiting ?? (kind === 'needsTrust' && trust ? trustDisplay(trust.decision) : undefined);
  // Running while its changed definition waits for trust: what runs is the definition trusted before.
  const held = full && ServerState.isActive(full.state) && trust?.decision.state === 'needsTrust' ? HELD_REASON : undefined;
  const reason = waiting !== undefined && held !== undefined ? `${waiting.reason}; ${HELD_REASON}` : (full && ServerState.reason(full.state)) ?? parked?.reason ?? held;
  return {
    id: server.id,
    name: revealHiddenCharacters(server.name),
    scope: server.scope,
    ...(server.folder !== undefined ? { folder: server.folder } : {}),
    transport: server.launch.type,
    state: kind,
    stateLabel: parked?.label ?? (full ? ServerState.label(full.state) : SERVER_STATE_LABELS[kind]),
    ...(reason ? { stateReason: revealHiddenCharacters(reason) } : {}),
    ...(full?.state.kind === 'failed' && full.state.hint !== undefined ? { stateHint: revealHiddenCharacters(full.state.hint) } : {}),
    ...(full?.counts && full.state.kind === 'ready' ? { counts: { ...full.counts } } : {}),
    ...(full?.toolReview && full.state.kind === 'ready' ? { toolReview: toolReviewRow(full.toolReview) } : {}),
    ...(full?.refusedTools && full.refusedTools.length > 0 && full.state.kind === 'ready'
      ? { refusedTools: full.refusedTools.map((tool) => ({ name: revealHiddenCharacters(tool.name), reason: tool.reason })) }
      : {}),
    ...(full?.warnings && full.warnings.length > 0 && full.state.kind === 'ready' ? { warnings: full.warnings.map(revealHiddenCharacters) } : {}),
    ...(trust && trust.flags.length > 0 ? { dangerFlags: trust.flags.map((flag) => toDangerFlagRow(flag, secretsOf(server.launch))) } : {}),
    launchSummary: launchSummary(server.launch),
    source: toLocation(server.source),
    needsTrust: server.needsTrust,
    disabled: server.disabled,
    canRestart: full !== undefined && ServerState.canRestart(full.state),
    fingerprint: server.fingerprint,
  };
}

function toDangerFlagRow(flag: DangerFlag, secrets: readonly string[]): DangerFlagRow {
  return { id: flag.id, reason: flag.reason, ...(flag.detail !== undefined ? { detail: revealHiddenCharacters(redactText(flag.detail, secrets)) } : {}) };
}

function toolReviewRow(review: ToolReviewCounts): ToolReviewCounts {
  return {
    changed: review.changed,
    new: review.new,
    flagged: review.flagged,
    blocked: review.blocked,
    flaggedTools: review.flaggedTools.map((tool) => ({ name: revealHiddenCharacters(tool.name), reasons: tool.reasons.map(revealHiddenCharacters) })),
  };
}

function toShadowedRow(entry: ShadowedServer): ShadowedRow {
  return {
    name: revealHiddenCharacters(entry.name),
    scope: entry.scope,
    source: toLocation(entry.source),
    shadowedBy: { id: entry.shadowedBy.id, scope: entry.shadowedBy.scope, file: entry.shadowedBy.file },
  };
}

function toProblemRow(problem: ConfigProblem): ProblemRow {
  return {
    file: problem.file,
    line: problem.line,
    column: problem.column,
    severity: problem.severity,
    message: revealHiddenCharacters(problem.message),
    code: problem.code,
  };
}

const toLocation = (range: SourceRange): SourceLocation => ({ file: range.file, line: range.line, column: range.column });

// ---- ordering: stable across runs, independent of locale ----

function compareText(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

const compareShadowed = (a: ShadowedServer, b: ShadowedServer): number =>
  compareText(a.name, b.name) || compareText(a.source.file, b.source.file) || a.source.line - b.source.line;

const SEVERITY_ORDER: { readonly [K in ProblemSeverity]: number } = { error: 0, warning: 1 };

const compareProblems = (a: ConfigProblem, b: ConfigProblem): number =>
  SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]
  || compareText(a.file, b.file) || a.line - b.line || a.column - b.column || compareText(a.message, b.message);

// ---- display text ----

/**
 * One line saying what a server runs: the command line for stdio, the url otherwise, through the one
 * redaction (redact.ts), because variables are already expanded here and sidebars get screen-shared.
 * The trust prompt, not this line, is where the exact definition is shown.
 */
export function launchSummary(launch: LaunchDefinition): string {
  const secrets = secretsOf(launch);
  switch (launch.type) {
    case 'stdio':
      return revealHiddenCharacters(redactCommandLine(launch.command ?? '', launch.args, secrets));
    case 'http':
    case 'sse':
    case 'ws':
      return revealHiddenCharacters(redactUrl(launch.url ?? '', secrets));
    default:
      return assertNever(launch.type);
  }
}

/**
 * Makes characters that could hide or reorder text visible as `\u{…}`: C0/C1 controls, bidi
 * overrides and isolates, zero-width characters and Unicode tags. Tabs and line breaks become
 * spaces. Config text comes from repositories, so a name must not be able to pose as another.
 */
export function revealHiddenCharacters(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '\t' || ch === '\n' || ch === '\r') out += ' ';
    else if (isHiddenCodePoint(cp)) out += `\\u{${cp.toString(16).toUpperCase()}}`;
    else out += ch;
  }
  return out;
}

const HIDDEN_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x001f], [0x007f, 0x009f], [0x00ad, 0x00ad], [0x061c, 0x061c], [0x180e, 0x180e],
  [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x206f], [0xfeff, 0xfeff], [0xfff9, 0xfffb],
  [0xe0000, 0xe007f],
];

const isHiddenCodePoint = (cp: number): boolean => HIDDEN_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);

function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${String(value)}`);
}
