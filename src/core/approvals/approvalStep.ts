// The approval step of the call gate: for each resolved call, gather what the policy needs (the mode,
// the person's rules, trust, the tool's review status, the shell command's signatures, what the call
// would write), decide, and when the answer is "ask", put a card in the broker and wait for the person.
// The person's answer becomes the gate's decision; "always" answers become rules.
import type { DecideToolCall, ResolvedToolCall, ToolCallDecision } from '../calls/types';
import type { EffectiveServer } from '../config/types';
import type { ApprovalAnswer, ApprovalBroker } from './approvalBroker';
import { decideCall, type CallFiles } from './callDecision';
import { narrowConstraints, pathArgumentsOf, pathStyleOf, ruleChoicesOf, type ArgumentConstraint, type RuleNarrowing } from './argumentRules';
import { alwaysAllowRules } from './commandSignatures';
import type { ApprovalMode, Decision, PinnedState } from './policy';
import { ruleServerOf, type ApprovalRule, type RuleScope } from './rules';
import { serverIdentityOf } from './serverIdentity';
import type { ShellParser } from '../shell/syntax';
import { shellCommandArgument } from './shellTool';

/** What the step knows about a call once it decided, for the call history. */
export interface StepOutcome {
  readonly decision: Decision;
  /** Set when the person answered a card. */
  readonly answer?: 'approve' | 'approveForSession' | 'alwaysAllow' | 'reject';
  /** The card's id, when the step asked. */
  readonly approvalId?: string;
  /** How long the card waited for the person (or until the caller cancelled), when the step asked. */
  readonly waitedMs?: number;
}

export interface ApprovalStepOptions {
  mode(): ApprovalMode;
  rules(): readonly ApprovalRule[];
  broker: ApprovalBroker;
  /** Whether the person trusts the server (their own scopes, or a project server they trusted). */
  serverTrusted(server: EffectiveServer): boolean;
  /** The tool's review state (accepted, new, changed). */
  pinnedState(serverId: string, tool: string): PinnedState;
  /** Loads the shell parser (once) for shell-like tools. */
  shellParser(): Promise<ShellParser>;
  /** Where the call's file writes are predicted (the workspace folders, the file system, what is known of the server). */
  files(call: ResolvedToolCall): CallFiles | Promise<CallFiles>;
  /** Keeps a new rule (the person chose "always" or "for this session"). */
  remember(rule: Omit<ApprovalRule, 'id' | 'scope' | 'createdAt'>, scope: RuleScope): Promise<void>;
  /** The name the model knows the tool by. */
  qualifiedName(serverId: string, tool: string): string;
  /** Told how each call was decided (for the history). */
  onDecided?(call: ResolvedToolCall, outcome: StepOutcome): void;
  now(): number;
  newId(): string;
}

/** The gate's decision step built from the policy, the broker and the rules. */
export function approvalStep(options: ApprovalStepOptions): DecideToolCall {
  return async (call) => {
    const { server, tool, request } = call;
    const args = call.arguments;
    const files = await options.files(call);
    const { decision, shell, fileEffect } = await decideCall(call, {
      mode: options.mode(),
      rules: options.rules(),
      serverTrusted: options.serverTrusted(server),
      pinnedState: options.pinnedState(request.serverId, tool.name),
      flagged: (call.status?.findings.length ?? 0) > 0,
      shellParser: options.shellParser,
      files,
    });
    const preview = fileEffect?.preview;
    if (decision.decision !== 'ask') {
      options.onDecided?.(call, { decision });
      return decision.decision === 'allow' ? { kind: 'allow' } : { kind: 'deny', reason: decision.reason };
    }
    const pathArguments = pathArgumentsOf(fileEffect?.pathArguments, args);
    const approvalId = options.newId();
    const askedAt = options.now();
    const asked = options.broker.ask({
      id: approvalId,
      serverId: request.serverId,
      serverName: server.name,
      tool: tool.name,
      qualifiedName: options.qualifiedName(request.serverId, tool.name),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      reason: decision.reason,
      args,
      inputSchema: tool.inputSchema,
      ...(shell ? { signatures: shell.signatures } : {}),
      ...(preview ? { preview } : {}),
      ...(shell ? {} : { pathArguments, ruleChoices: ruleChoicesOf(args, pathArguments, files.roots, pathStyleOf(files.roots)) }),
      createdAt: askedAt,
      caller: request.caller,
    }, request.signal);
    // The card is in the broker now: the caller may say where it waits.
    request.onAwaitingApproval?.(approvalId);
    let answer: ApprovalAnswer;
    try {
      answer = await asked;
    } catch (error) {
      // Cancelled while it waited: the history still shows that it asked, and how long.
      options.onDecided?.(call, { decision, approvalId, waitedMs: options.now() - askedAt });
      throw error;
    }
    const waitedMs = options.now() - askedAt;
    if (answer.kind === 'reject') {
      options.onDecided?.(call, { decision, answer: 'reject', approvalId, waitedMs });
      return { kind: 'deny', reason: answer.reason?.trim() ? `rejected by the person: ${answer.reason.trim()}` : 'rejected by the person' };
    }
    // The JSON Schema validator (ajv) loads with the first approved card, not with the host.
    const { formatProblems, validateArguments } = await import('../schema/validateArguments');
    const problems = formatProblems(validateArguments(tool.inputSchema, answer.args));
    if (problems.length > 0) {
      options.onDecided?.(call, { decision, answer: 'approve', approvalId, waitedMs });
      return { kind: 'deny', reason: `the approved arguments do not fit the tool's input schema: ${problems.join('; ')}` };
    }
    const constraints = answer.narrow === undefined || shell !== undefined ? undefined : narrowedOrNone(answer.narrow, answer.args, pathArguments, files.roots);
    // A narrowing that no longer fits the approved arguments keeps no rule (the sidebar checks it first): never a wider one.
    if (answer.remember && constraints !== null) await remember(options, call, answer.args, answer.remember, shell !== undefined, constraints, answer.narrow);
    options.onDecided?.(call, { decision, answer: answer.remember === undefined ? 'approve' : answer.remember === 'session' ? 'approveForSession' : 'alwaysAllow', approvalId, waitedMs });
    const edited: ToolCallDecision = { kind: 'allow', arguments: { ...answer.args } };
    return edited;
  };
}

/** The constraints of a narrowed "always allow", or null when the approved arguments do not allow it. */
function narrowedOrNone(narrow: RuleNarrowing, args: Readonly<Record<string, unknown>>, pathArguments: readonly string[], roots: readonly string[]): ArgumentConstraint[] | null {
  try {
    return narrowConstraints(narrow, args, pathArguments, roots, pathStyleOf(roots));
  } catch {
    return null;
  }
}

/**
 * "Always allow" on a shell-like tool keeps the command's signatures; on any other tool, the tool, or
 * with `constraints` only the calls whose arguments meet them.
 */
async function remember(options: ApprovalStepOptions, call: ResolvedToolCall, args: Record<string, unknown>, scope: RuleScope, isShell: boolean, constraints: readonly ArgumentConstraint[] | undefined, narrow?: RuleNarrowing): Promise<void> {
  const base = { effect: 'allow' as const, ...ruleServerOf(serverIdentityOf(call.server)), tool: call.tool.name };
  if (isShell) {
    const argument = shellCommandArgument(call.tool);
    const text = argument === undefined ? undefined : args[argument];
    if (typeof text !== 'string') return;
    const signatures = alwaysAllowRules([text], await options.shellParser());
    if (signatures.length === 0) return;
    await options.remember({ ...base, signatures, origin: `"${scopeWord(scope)}" on \`${text.length > 80 ? `${text.slice(0, 77)}…` : text}\`` }, scope);
    return;
  }
  if (constraints !== undefined && constraints.length > 0) {
    await options.remember({ ...base, arguments: constraints, origin: `"${scopeWord(scope)}" on a call of ${call.tool.name}, ${narrowWords(narrow)}` }, scope);
    return;
  }
  await options.remember({ ...base, origin: `"${scopeWord(scope)}" on a call of ${call.tool.name}` }, scope);
}

function narrowWords(narrow: RuleNarrowing | undefined): string {
  if (narrow === undefined) return 'for its arguments';
  return narrow.kind === 'file' ? 'only for this file' : narrow.kind === 'folder' ? 'only for files under its folder' : `only for this value of ${narrow.argument}`;
}

function scopeWord(scope: RuleScope): string {
  return scope === 'session' ? 'Approve for session' : scope === 'workspace' ? 'Always allow (this workspace)' : 'Always allow (everywhere)';
}
