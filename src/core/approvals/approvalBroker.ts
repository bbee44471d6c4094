// Where a call that must be asked about waits for the person: each pending approval is a card the
// sidebar shows; the person's answer (or the caller's cancellation) settles it (see PendingRequests).
import type { Event } from '../event';
import { PendingRequests } from '../pending/pendingRequests';
import type { ToolAnnotations } from '../lifecycle/types';
import type { RuleChoices, RuleNarrowing } from './argumentRules';
import type { FilePreview } from './preview/types';
import type { RuleScope } from './rules';

/** What a card shows about one call. */
export interface ApprovalRequest {
  readonly id: string;
  /** The server's id (what requests refer to) and name (what rules use). */
  readonly serverId: string;
  readonly serverName: string;
  readonly tool: string;
  /** The name the model knows the tool by, e.g. `mcp__fs__write_file`. */
  readonly qualifiedName: string;
  readonly annotations?: ToolAnnotations;
  /** Why the policy asks, in one sentence. */
  readonly reason: string;
  /** The call's arguments as the caller sent them. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The tool's input schema, for validating edited arguments. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** Set for shell-like tools: the command's signatures ("Always allow" is about those). */
  readonly signatures?: readonly string[];
  /** Set for a call that writes files: what it would change (or why the server would refuse it). */
  readonly preview?: FilePreview;
  /** The arguments that hold paths (a narrower "always allow" for this file or folder is about them). */
  readonly pathArguments?: readonly string[];
  /** The narrower rules the card offers for the call's arguments as asked (not set for a shell-like tool). */
  readonly ruleChoices?: RuleChoices;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** Who is calling: `chat`, `lm-tool`, `command`, `api`. */
  readonly caller: string;
}

/** The person's answer to a card. */
export type ApprovalAnswer =
  /**
   * Run the call with these (possibly edited) arguments; `remember` keeps an allow rule, about the whole
   * tool or, with `narrow`, only about this file, this folder or one argument's value (of these arguments).
   */
  | { readonly kind: 'approve'; readonly args: Readonly<Record<string, unknown>>; readonly remember?: RuleScope; readonly narrow?: RuleNarrowing }
  /** Do not run it; `reason` is returned to the caller as the tool's error text. */
  | { readonly kind: 'reject'; readonly reason?: string };

/** The caller went away (cancelled, or the broker was disposed) before the person answered. */
export class ApprovalCancelledError extends Error {
  constructor(message = 'the call was cancelled before it was approved') {
    super(message);
    this.name = 'ApprovalCancelledError';
  }
}

/** The pending approvals, in the order they were asked. */
export class ApprovalBroker extends PendingRequests<ApprovalRequest, ApprovalAnswer> {
  /** Fires with each new card (to reveal the sidebar or notify). */
  readonly onDidAsk: Event<ApprovalRequest> = this.onDidAdd;

  constructor() {
    super((reason) => new ApprovalCancelledError(reason === 'disposed' ? 'the window closed before the call was approved' : undefined));
  }
}
