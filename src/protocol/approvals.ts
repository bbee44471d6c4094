// The approvals part of the sidebar's view model: calls waiting for the person (cards), the person's
// standing rules, and the history of calls. Like sidebar.ts it imports nothing; the core projection
// (src/core/approvals/approvalsView.ts) checks at compile time that its vocabularies are the core's.

/** A JSON object as it crosses the webview boundary. */
export type JsonObject = { readonly [key: string]: unknown };

/** How much the person lets through without asking (the core's `ApprovalMode`). */
export type ApprovalMode = 'askBeforeEdits' | 'acceptEdits' | 'acceptEverything';

/** Where a rule is kept (the core's `RuleScope`). */
export type RuleScope = 'session' | 'workspace' | 'global';

/** A server's hints about a tool (MCP tool annotations); hints, not promises. */
export interface AnnotationHints {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** One file a call would change. */
export interface FileChangeRow {
  readonly path: string;
  readonly kind: 'create' | 'modify' | 'move';
  readonly to?: string;
}

/** What a file-writing call would change, as the card shows it. */
export interface PreviewView {
  readonly changes: readonly FileChangeRow[];
  /** Unified diff of every change ('' when nothing changes), cut at a size a card can show. */
  readonly diff: string;
  /** The diff was longer than the card shows; Open Diff shows it all. */
  readonly diffTruncated?: boolean;
  /** Why the server would refuse the call (then nothing changes). */
  readonly error?: string;
  /** Paths the call names outside every workspace root. */
  readonly outsideRoots?: readonly string[];
  /** An edit_file dry run: the server only answers with its diff. */
  readonly dryRun?: boolean;
}

/** What "always allow" may be narrowed to besides the whole tool (the core's `RuleNarrowing`). */
export type RuleNarrowing =
  | { readonly kind: 'file' }
  | { readonly kind: 'folder' }
  | { readonly kind: 'value'; readonly argument: string };

/** The files and folders a card's narrower rules would be about, as a person reads them. */
export interface RuleChoicesView {
  readonly paths: readonly { readonly argument: string; readonly file: string; readonly folder: string }[];
}

/** One call waiting for the person. */
export interface ApprovalCard {
  readonly id: string;
  readonly serverId: string;
  readonly serverName: string;
  readonly tool: string;
  /** The name the model knows the tool by, e.g. `mcp__fs__write_file`. */
  readonly qualifiedName: string;
  readonly annotations?: AnnotationHints;
  /** Whether the person trusts the server (hints from other servers only ever tighten). */
  readonly serverTrusted: boolean;
  /** Why it asks, in one sentence. */
  readonly reason: string;
  readonly args: JsonObject;
  readonly inputSchema: JsonObject;
  /** For a shell-like tool: the command's signatures ("Always allow" is about those). */
  readonly signatures?: readonly string[];
  readonly preview?: PreviewView;
  /** Narrower "always allow" rules for this call's arguments (not for a shell-like tool). */
  readonly ruleChoices?: RuleChoicesView;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** Who is calling: `chat`, `lm-tool`, `command`, `api`, `cli`. */
  readonly caller: string;
}

/** One of the person's standing rules. */
export interface RuleRow {
  readonly id: string;
  readonly effect: 'allow' | 'deny';
  readonly server: string;
  readonly tool: string;
  readonly signatures?: readonly string[];
  /** The rule's conditions on the call's arguments, in words with their pattern (`path is under notes/ (/ws/notes/**)`). */
  readonly conditions?: readonly string[];
  readonly scope: RuleScope;
  readonly createdAt: number;
  /** Where it came from, e.g. `"Always allow (this workspace)" on a call of write_file`. */
  readonly origin: string;
  /** The rule as one line. */
  readonly description: string;
}

/** One recorded call. */
export interface HistoryRow {
  readonly id: string;
  readonly at: number;
  readonly server: string;
  readonly tool: string;
  /** The arguments as sent, as JSON text (cut for display; Export History has them whole). */
  readonly argsText: string;
  readonly decision: 'allow' | 'ask' | 'deny';
  readonly ran: boolean;
  /** Who or what decided, in words: "you (Approve)", "your rule", "mode: accept edits"… */
  readonly decidedBy: string;
  readonly reason: string;
  /** From the call to its result, waiting for the person included. */
  readonly durationMs?: number;
  /** How long it waited for the person's answer (only when a card asked). */
  readonly waitedMs?: number;
  /** How long the server took (only when it was sent). */
  readonly ranMs?: number;
  readonly resultChars?: number;
  readonly error?: string;
  /** What the output scan found in the result (it brought outside content that tries to instruct the model). */
  readonly outputWarning?: string;
  readonly caller: string;
  /** The server's id of the task, when the call ran as an MCP task (display-safe). */
  readonly taskId?: string;
}

/** Everything the approvals sections show. */
export interface ApprovalsView {
  readonly mode: ApprovalMode;
  /** Set when the administrator's policy fixes the mode: where (the picker is then read-only). */
  readonly modeLockedBy?: string;
  /** Oldest first. */
  readonly pending: readonly ApprovalCard[];
  readonly rules: readonly RuleRow[];
  /** Newest first. */
  readonly history: readonly HistoryRow[];
}

export const EMPTY_APPROVALS_VIEW: ApprovalsView = { mode: 'askBeforeEdits', pending: [], rules: [], history: [] };
