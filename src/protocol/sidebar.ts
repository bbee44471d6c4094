// The data the sidebar webview renders: one full snapshot, posted by the host, never patched.
// This module owns the view model and imports nothing: the webview and the host both depend on it,
// and the projection that fills it (src/core/sidebarSnapshot.ts) checks at compile time that the
// vocabularies below are exactly the core's.
import type { ApprovalsView } from './approvals';
import type { ElicitationCard } from './elicitation';
import type { SamplingCard } from './sampling';
import type { TaskRow } from './tasks';

/** Where a server is defined (the core's `Scope`). */
export type Scope = 'managed' | 'local' | 'project' | 'user' | 'plugin';

/** How a server is reached (the core's `TransportKind`). */
export type TransportKind = 'stdio' | 'http' | 'sse' | 'ws';

/** How bad a config problem is (the core's `ProblemSeverity`). */
export type ProblemSeverity = 'error' | 'warning';

/** The lifecycle's state kinds (the core's `ServerStateKind`). */
export type LifecycleStateKind = 'stopped' | 'starting' | 'ready' | 'stopping' | 'failed' | 'crashed' | 'restarting' | 'needsTrust' | 'needsSignIn' | 'disabled';

/**
 * The lifecycle state a row shows: one of the lifecycle's kinds, or `notStarted` for a server the
 * configuration has but the lifecycle does not know (yet). A new lifecycle kind must land in
 * `LifecycleStateKind`: the projection does not compile until it does.
 */
export type ServerStateKind = 'notStarted' | LifecycleStateKind;

/** How many items of each kind a ready server offers. */
export interface CatalogCounts {
  readonly tools: number;
  readonly resources: number;
  readonly resourceTemplates: number;
  readonly prompts: number;
}

/** What the tool review found among a ready server's tools (see src/core/toolReview/toolReview.ts). */
export interface ToolReviewCounts {
  /** Tools whose definition changed since pinned, not yet accepted. */
  readonly changed: number;
  /** Tools that appeared on a server known before, not yet reviewed. */
  readonly new: number;
  /** Tools the poisoning scan flagged. */
  readonly flagged: number;
  /** Flagged tools that calls are refused for (`switchboard.blockFlaggedTools`). */
  readonly blocked: number;
  /** Each flagged tool (name display-safe) with the reasons found. */
  readonly flaggedTools: readonly { readonly name: string; readonly reasons: readonly string[] }[];
}

/** A reason to look twice at a project server's definition (see src/core/trust/dangerFlags.ts). */
export interface DangerFlagRow {
  /** Stable id, e.g. `sudo`, `pipe-to-shell`. */
  readonly id: string;
  /** What the pattern means, for people. */
  readonly reason: string;
  /** What matched (display-safe). */
  readonly detail?: string;
}

/** A 1-based position in a config file. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * One effective server. Display fields (`name`, `launchSummary`) are ready to show as text: hidden
 * and control characters are made visible and likely secrets are masked. `id` is kept exact: it is
 * what requests refer to.
 */
export interface ServerRow {
  readonly id: string;
  readonly name: string;
  readonly scope: Scope;
  /** Absolute path of the workspace folder the entry belongs to (local and project scopes). */
  readonly folder?: string;
  readonly transport: TransportKind;
  readonly state: ServerStateKind;
  /** The state as words, e.g. "ready", "restarting (attempt 2)". */
  readonly stateLabel: string;
  /** Why the server failed, crashed or is restarting (display-safe, secrets already scrubbed). */
  readonly stateReason?: string;
  /** What to do about a failure when stderr names its cause (a missing environment variable), display-safe. */
  readonly stateHint?: string;
  /** What a ready server offers; absent while it is not ready. */
  readonly counts?: CatalogCounts;
  /** Changed, new and flagged tools of a ready server; absent while it is not ready. */
  readonly toolReview?: ToolReviewCounts;
  /** Tools of a ready server the host refused to take from its listing (names display-safe), with why; absent when none. */
  readonly refusedTools?: readonly { readonly name: string; readonly reason: string }[];
  /** What is wrong with a ready server, display-safe: "tools/list failed: …" (what it offers may be missing); absent when nothing. */
  readonly warnings?: readonly string[];
  /** Project servers: the danger flags of the definition, in the order the trust prompt lists them. */
  readonly dangerFlags?: readonly DangerFlagRow[];
  /** The command line (stdio) or the url (http, sse, ws), for display only. */
  readonly launchSummary: string;
  readonly source: SourceLocation;
  readonly needsTrust: boolean;
  readonly disabled: boolean;
  /** Whether Restart (Retry after a failure) applies in its state: the lifecycle's one answer (ServerState.canRestart). */
  readonly canRestart: boolean;
  readonly fingerprint: string;
}

/** An entry that lost to a higher-precedence entry of the same name. */
export interface ShadowedRow {
  readonly name: string;
  readonly scope: Scope;
  readonly source: SourceLocation;
  readonly shadowedBy: { readonly id: string; readonly scope: Scope; readonly file: string };
}

/** One config problem, as the Problems panel would show it. */
export interface ProblemRow extends SourceLocation {
  readonly severity: ProblemSeverity;
  readonly message: string;
  readonly code: string;
}

/** Everything the sidebar shows, in display order. */
export interface SidebarSnapshot {
  readonly servers: readonly ServerRow[];
  readonly shadowed: readonly ShadowedRow[];
  readonly problems: readonly ProblemRow[];
  readonly workspaceName?: string;
  /** Calls waiting for the person, the person's rules and the call history. */
  readonly approvals: ApprovalsView;
  /** What servers ask the person for (forms to fill, pages to open), oldest first. */
  readonly elicitations: readonly ElicitationCard[];
  /** Model completions servers ask for, waiting for the person's approval, oldest first. */
  readonly sampling: readonly SamplingCard[];
  /** Tool results the output scan flagged, held for the person before the model sees them (switchboard.toolOutputs.review: hold). */
  readonly heldOutputs?: readonly HeldOutputCard[];
  /** Tool calls running as MCP tasks (oldest first), then the last ones that ended (newest first). */
  readonly tasks?: readonly TaskRow[];
  /** Project servers whose definition the person is editing: each asks for trust on a card, never in a modal. */
  readonly trustCards?: readonly TrustCardRow[];
  /** Milliseconds since the epoch when the host built this snapshot. */
  readonly generatedAt: number;
}

/** A changed (or new) project server definition asking for trust on a card: the diff, and the whole definition. */
export interface TrustCardRow {
  readonly serverId: string;
  /** The definition shown: Trust and start trusts this one only. */
  readonly fingerprint: string;
  readonly message: string;
  readonly changes: readonly { readonly kind: 'added' | 'removed' | 'changed'; readonly text: string }[];
  /** The whole definition, as the trust prompt shows it (plain text, one line per fact). */
  readonly definition: string;
  /** Why Trust and start is not offered right now. */
  readonly blocked?: string;
}

/** A flagged tool result waiting for the person: what was found, and the start of its text. */
export interface HeldOutputCard {
  readonly id: string;
  readonly server: string;
  readonly tool: string;
  /** What the output scan found, in words. */
  readonly findings: string;
  readonly preview: string;
  readonly at: number;
}

/** The last segment of a path or virtual file name, for either separator. */
export function baseName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return cut < 0 ? trimmed : trimmed.slice(cut + 1);
}
