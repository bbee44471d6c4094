// The approval step of the call gate: for each resolved call, gather what the policy needs (the mode,
// the person's rules, trust, the tool's review status, the shell command's signatures, what the call
// would write), decide, and when the answer is "ask", put a card in the broker and wait for the person.
// The person's answer becomes the gate's decision; "always" answers become rules.
import type { DecideToolCall, ResolvedToolCall, ToolCallDecidedBy, ToolCallDecision, ToolCallDecisionBasis } from '../calls/types';
import type { EffectiveServer } from '../config/types';
import type { ApprovalAnswer, ApprovalBroker } from './approvalBroker';
import { decideCallNow, type CallDecision, type CallFiles } from './callDecision';
import { narrowConstraints, pathArgumentsOf, pathStyleOf, ruleChoicesOf, type ArgumentConstraint, type RuleNarrowing } from './argumentRules';
import { alwaysAllowRules } from '../shell/commandSignatures';
import type { ApprovalMode, DecidedBy } from './policy';
import { ruleServerOf, type ApprovalRule, type RuleScope } from './rules';
import { serverIdentityOf } from './serverIdentity';
import type { ShellParser } from '../shell/syntax';
import { shellCommandArgument } from './shellTool';

export interface ApprovalStepOptions {
  mode(): ApprovalMode;
  rules(): readonly ApprovalRule[];
  broker: ApprovalBroker;
  /** Whether the person trusts the server (their own scopes, or a project server they trusted). */
  serverTrusted(server: EffectiveServer): boolean;
  /** Loads the shell parser (once) for shell-like tools. */
  shellParser(): Promise<ShellParser>;
  /** Where the call's file writes are predicted (the workspace folders, the file system, what is known of the server). */
  files(call: ResolvedToolCall): CallFiles | Promise<CallFiles>;
  /** Keeps a new rule (the person chose "always" or "for this session"). */
  remember(rule: Omit<ApprovalRule, 'id' | 'scope' | 'createdAt'>, scope: RuleScope): Promise<void>;
  /** The name the model knows the tool by. */
  qualifiedName(serverId: string, tool: string): string;
  now(): number;
  newId(): string;
}

/** The gate's decision step built from the policy, the broker and the rules. */
export function approvalStep(options: ApprovalStepOptions): DecideToolCall {
  // A call that needs neither the shell parser, a file preview nor the person is decided without
  // waiting: every call takes this step, and most take it that way.
  return (call) => {
    const files = options.files(call);
    return files instanceof Promise ? files.then((ready) => decideWith(options, call, ready)) : decideWith(options, call, files);
  };
}

function decideWith(options: ApprovalStepOptions, call: ResolvedToolCall, files: CallFiles): ToolCallDecision | Promise<ToolCallDecision> {
  const decided = decideCallNow(call, {
    mode: options.mode(),
    rules: options.rules(),
    serverTrusted: options.serverTrusted(call.server),
    // As the gate resolved it: a changed tool never gets here.
    pinnedState: call.status?.new === true ? 'new' : 'accepted',
    flagged: (call.status?.findings.length ?? 0) > 0,
    shellParser: options.shellParser,
    files,
  });
  return decided instanceof Promise ? decided.then((ready) => actOn(options, call, files, ready)) : actOn(options, call, files, decided);
}

/** The decision as the gate takes it; an "ask" waits for the person's answer on a card. */
function actOn(options: ApprovalStepOptions, call: ResolvedToolCall, files: CallFiles, decided: CallDecision): ToolCallDecision | Promise<ToolCallDecision> {
  const { decision } = decided;
  const decidedBy = labelOf(decision.decidedBy);
  if (decision.decision === 'allow') return { kind: 'allow', decidedBy, verdict: 'allow', why: decision.reason };
  if (decision.decision === 'deny') return { kind: 'deny', reason: decision.reason, decidedBy, verdict: 'deny', why: decision.reason };
  return ask(options, call, files, decided, { decidedBy, verdict: 'ask', why: decision.reason });
}

/** Puts a card up and turns the person's answer (or the caller's cancellation) into the decision. */
async function ask(options: ApprovalStepOptions, call: ResolvedToolCall, files: CallFiles, { decision, shell, fileEffect }: CallDecision, basis: ToolCallDecisionBasis): Promise<ToolCallDecision> {
  const { server, tool, request } = call;
  const args = call.arguments;
  const preview = fileEffect?.preview;
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
    // Cancelled while it waited: the record still shows that it asked, and how long.
    return { ...basis, approvalId, waitedMs: options.now() - askedAt, kind: 'cancelled', error };
  }
  const waitedMs = options.now() - askedAt;
  const answered = (by: PersonAnswer): ToolCallDecisionBasis => ({ ...basis, decidedBy: { kind: 'person', answer: by }, approvalId, waitedMs });
  if (answer.kind === 'reject') {
    return { ...answered('reject'), kind: 'deny', reason: answer.reason?.trim() ? `rejected by the person: ${answer.reason.trim()}` : 'rejected by the person' };
  }
  // The JSON Schema validator (ajv) loads with the first approved card, not with the host.
  const { formatProblems, validateArguments } = await import('../schema/validateArguments');
  const problems = formatProblems(validateArguments(tool.inputSchema, answer.args));
  if (problems.length > 0) {
    return { ...answered('approve'), kind: 'deny', reason: `the approved arguments do not fit the tool's input schema: ${problems.join('; ')}` };
  }
  const constraints = answer.narrow === undefined || shell !== undefined ? undefined : narrowedOrNone(answer.narrow, answer.args, pathArguments, files.roots);
  // A narrowing that no longer fits the approved arguments keeps no rule (the sidebar checks it first): never a wider one.
  if (answer.remember && constraints !== null) await remember(options, call, answer.args, answer.remember, shell !== undefined, constraints, answer.narrow);
  const by: PersonAnswer = answer.remember === undefined ? 'approve' : answer.remember === 'session' ? 'approveForSession' : 'alwaysAllow';
  const edited: ToolCallDecision = { ...answered(by), kind: 'allow', arguments: { ...answer.args } };
  return edited;
}

type PersonAnswer = Extract<ToolCallDecidedBy, { kind: 'person' }>['answer'];

/** The policy's "decided by" as the call's record (and the history) label it. */
export function labelOf(by: DecidedBy): ToolCallDecidedBy {
  switch (by.kind) {
    case 'rule': return ruleLabel(by);
    case 'mode': return MODE_LABELS[by.mode];
    default: return FIXED_LABELS[by.kind];
  }
}

/** The label of a rule's decision, made once per decision (the policy makes one per rule: see byRule). */
const ruleLabels = new WeakMap<DecidedBy, ToolCallDecidedBy>();

function ruleLabel(by: Extract<DecidedBy, { kind: 'rule' }>): ToolCallDecidedBy {
  let label = ruleLabels.get(by);
  if (label === undefined) {
    label = { kind: 'rule', ruleId: by.ruleId };
    ruleLabels.set(by, label);
  }
  return label;
}

// The labels that carry nothing of the call, made once (every call is labelled).
const MODE_LABELS: Readonly<Record<ApprovalMode, ToolCallDecidedBy>> = {
  askBeforeEdits: { kind: 'mode', detail: 'askBeforeEdits' },
  acceptEdits: { kind: 'mode', detail: 'acceptEdits' },
  acceptEverything: { kind: 'mode', detail: 'acceptEverything' },
};
const FIXED_LABELS: Readonly<Record<'annotations' | 'review' | 'default', ToolCallDecidedBy>> = {
  annotations: { kind: 'annotations' }, review: { kind: 'review' }, default: { kind: 'default' },
};

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
