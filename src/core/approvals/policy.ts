// The approval policy: given a tool call and what is known about the tool, the server and the
// person's rules, say whether the call runs at once, waits for the person, or is refused — and why.
// Pure: the gate calls it, the sidebar only collects the answer (DESIGN.md §6).
import type { ToolAnnotations } from '../lifecycle/types';
import { describeRule, ruleAppliesTo, type ApprovalRule } from './rules';
import type { ServerIdentity } from './serverIdentity';

/** How much the person lets through without asking. */
export type ApprovalMode = 'askBeforeEdits' | 'acceptEdits' | 'acceptEverything';

export const APPROVAL_MODES: readonly ApprovalMode[] = ['askBeforeEdits', 'acceptEdits', 'acceptEverything'];

/** Whether `value` names a mode. */
export function isApprovalMode(value: unknown): value is ApprovalMode {
  return typeof value === 'string' && (APPROVAL_MODES as readonly string[]).includes(value);
}

/**
 * Where the pinned definition of the tool stands (see src/core/toolReview/toolReview.ts). A changed one is
 * not among them: the call gate refuses a changed tool before anything decides about its call.
 */
export type PinnedState = 'accepted' | 'new';

/** A shell-like tool's command, with the check of its signatures against the allowed ones. */
export interface ShellCommand {
  readonly command: string;
  /** Whether every signature of the command is among `allowed`, and why (or why it never can be). */
  check(allowed: readonly string[]): { readonly approved: boolean; readonly reason: string };
}

/**
 * What a call would do to files, as the preview predicted it from the arguments: writes inside the
 * workspace folders, a write outside every one of them, or a write whose place the preview could not
 * tell (it failed, e.g. with no workspace folder to resolve a path against).
 */
export type FileEffect = 'insideRoots' | 'outsideRoots' | 'unknown';

/** How well a file-writing tool is known (see PolicyInput.localWriter). */
export type LocalWriter = 'exact' | 'mapped';

/** Everything the decision depends on. */
export interface PolicyInput {
  readonly mode: ApprovalMode;
  /** Who the server is: rules apply by its identity, not its name alone. */
  readonly server: ServerIdentity;
  readonly tool: string;
  /** The server's hints: they may tighten a decision for any server, relax it only for a trusted one. */
  readonly annotations?: ToolAnnotations;
  /** Whether the person trusts this server (their own scopes, or a project server they trusted). */
  readonly serverTrusted: boolean;
  readonly pinnedState: PinnedState;
  /** The poisoning scan found something in the tool's definition. */
  readonly flagged?: boolean;
  readonly rules: readonly ApprovalRule[];
  readonly args: Readonly<Record<string, unknown>>;
  /** The workspace folders: a rule about files reads a relative path argument against the first. */
  readonly roots?: readonly string[];
  /** Set for shell-like tools: "always allow" is then about the command's signatures. */
  readonly shellCommand?: ShellCommand;
  /** Set when the call writes files (predicted from its arguments). */
  readonly fileEffect?: FileEffect;
  /**
   * Set when the tool is known to write local files: `exact` for server-filesystem's writing tools, whose
   * every effect the preview predicts as the server does it; `mapped` for a tool the person mapped in
   * the fileWriteTools setting (the file it writes is known, not what else it does). Only such a tool's
   * write counts as a file edit for Accept edits; a write guessed from argument names makes a call ask
   * when it lands outside, and never lets it through.
   */
  readonly localWriter?: LocalWriter;
}

export type Verdict = 'allow' | 'ask' | 'deny';

/** Who or what decided. */
export type DecidedBy =
  | { readonly kind: 'rule'; readonly ruleId: string }
  | { readonly kind: 'mode'; readonly mode: ApprovalMode }
  | { readonly kind: 'annotations' }
  | { readonly kind: 'review' }
  | { readonly kind: 'default' };

export interface Decision {
  readonly decision: Verdict;
  /** One sentence for people: why it runs, why it asks, why it was refused. */
  readonly reason: string;
  readonly decidedBy: DecidedBy;
}

/** Decides one call: deny rules first, then what always asks, then allow rules, the mode and the annotations. */
export function decide(input: PolicyInput): Decision {
  const { tool, mode } = input;
  const server = input.server.name;
  const matching = input.rules.filter((rule) => ruleAppliesTo(rule, input.server, tool, input.args, input.roots ?? []));

  const deny = matching.find((rule) => rule.effect === 'deny');
  if (deny) return byRule(deny);

  // What no rule and no mode lets through without a person looking.
  if (input.pinnedState === 'new') {
    return ask(`"${tool}" is a new tool of "${server}" that nobody reviewed yet`, { kind: 'review' });
  }
  if (input.flagged) {
    return ask(`the description of "${tool}" reads like instructions to the model or hides characters (poisoning scan)`, { kind: 'review' });
  }
  if (input.fileEffect === 'outsideRoots') {
    return ask('it would write to a path outside every workspace root', { kind: 'default' });
  }
  if (input.fileEffect === 'unknown') {
    return ask('it writes files, but the preview could not predict where or how (the card shows why)', { kind: 'default' });
  }

  const allows = matching.filter((rule) => rule.effect === 'allow');
  if (input.shellCommand) {
    // For a shell-like tool "always allow" is about command signatures, never the tool as a whole.
    const signatureRules = allows.filter((rule) => rule.signatures !== undefined && rule.signatures.length > 0);
    if (signatureRules.length > 0) {
      const allowed = signatureRules.flatMap((rule) => rule.signatures ?? []);
      const verdict = input.shellCommand.check(allowed);
      if (verdict.approved) {
        const ids = signatureRules.map((rule) => rule.id);
        return { decision: 'allow', reason: `allowed by your rules for these commands: ${verdict.reason}`, decidedBy: { kind: 'rule', ruleId: ids.join(',') } };
      }
      if (mode !== 'acceptEverything') return ask(`not every command is one you always allow: ${verdict.reason}`, { kind: 'default' });
    }
  } else {
    const allow = allows.find((rule) => rule.signatures === undefined || rule.signatures.length === 0);
    if (allow) return byRule(allow);
  }

  if (mode === 'acceptEverything') return { decision: 'allow', reason: 'you accept every tool call (mode: accept everything)', decidedBy: { kind: 'mode', mode } };

  const hints = input.annotations ?? {};
  // Hints that tighten count from any server; hints that relax only from a server the person trusts.
  const claimsReadOnly = hints.readOnlyHint === true && hints.destructiveHint !== true;
  if (claimsReadOnly && !input.shellCommand && input.fileEffect === undefined) {
    if (input.serverTrusted) return { decision: 'allow', reason: `"${tool}" only reads (its server, which you trust, says so)`, decidedBy: { kind: 'annotations' } };
    return ask(`"${tool}" says it only reads, but hints count only from servers you trusted`, { kind: 'annotations' });
  }

  if (mode === 'acceptEdits') {
    // A shell command, a destructive or an open-world hint outranks the file-edit rule: such a call is
    // more than an edit of the workspace's files, whatever its arguments look like. One exception to
    // the destructive hint: server-filesystem's writes, predicted exactly — what they destroy (the old
    // content of the file they replace) is the diff the preview shows.
    if (input.shellCommand) return ask('it runs a shell command (accept edits covers file edits only)', { kind: 'mode', mode });
    if (hints.openWorldHint === true) return ask(`"${tool}" reaches beyond this machine (its server says so; accept edits covers local file edits only)`, { kind: 'annotations' });
    const edit = input.fileEffect === 'insideRoots' && input.localWriter !== undefined;
    if (edit && input.localWriter === 'exact') {
      return { decision: 'allow', reason: 'a file edit inside the workspace, predicted exactly (mode: accept edits)', decidedBy: { kind: 'mode', mode } };
    }
    if (hints.destructiveHint === true) return ask(`"${tool}" may delete or overwrite (its server says so)`, { kind: 'annotations' });
    if (edit) return { decision: 'allow', reason: 'a file edit inside the workspace (mode: accept edits)', decidedBy: { kind: 'mode', mode } };
    // "Destroys nothing" covers only changes on this machine: an absent openWorldHint means open-world
    // (the MCP specification's default), so the server must also say the tool stays here.
    if (hints.destructiveHint === false && hints.openWorldHint === false && input.serverTrusted) {
      return { decision: 'allow', reason: `"${tool}" makes changes that destroy nothing and stay on this machine (its server, which you trust, says so; mode: accept edits)`, decidedBy: { kind: 'mode', mode } };
    }
    if (hints.destructiveHint === false && input.serverTrusted) {
      return ask(`"${tool}" says it destroys nothing but not that it stays on this machine (no openWorldHint: false), and accept edits covers local changes only`, { kind: 'annotations' });
    }
    return ask(hints.destructiveHint === false
      ? `"${tool}" says it destroys nothing, but hints count only from servers you trusted`
      : `"${tool}" may change things and does not say it destroys nothing`, { kind: 'default' });
  }

  // Ask before edits (the default).
  if (input.fileEffect === 'insideRoots') return ask('it would change files in the workspace', { kind: 'mode', mode });
  if (input.shellCommand) return ask('it runs a shell command', { kind: 'mode', mode });
  if (hints.destructiveHint === true) return ask(`"${tool}" may delete or overwrite (its server says so)`, { kind: 'annotations' });
  return ask(`"${tool}" may change things (it is not marked read-only)`, { kind: 'default' });
}

/**
 * The decision a deny rule or a whole-tool allow rule makes, built once per rule: an "always allow"
 * decides every call of its tool, and each call's history record keeps this very decision's reason
 * (rules are never changed in place: an edited rule is a new object).
 */
const ruleDecisions = new WeakMap<ApprovalRule, Decision>();

function byRule(rule: ApprovalRule): Decision {
  let decision = ruleDecisions.get(rule);
  if (decision === undefined) {
    decision = rule.effect === 'deny'
      ? { decision: 'deny', reason: `refused by your rule: ${describeRule(rule)}`, decidedBy: { kind: 'rule', ruleId: rule.id } }
      : { decision: 'allow', reason: `allowed by your rule: ${describeRule(rule)}`, decidedBy: { kind: 'rule', ruleId: rule.id } };
    ruleDecisions.set(rule, decision);
  }
  return decision;
}

function ask(reason: string, decidedBy: DecidedBy): Decision {
  return { decision: 'ask', reason, decidedBy };
}
