// Reading a policy: the managed file (JSON with comments) and the machine settings. Every problem is
// reported at its position. Uncertainty never lets more run: an allow rule that cannot be understood is
// left out, and a file, a list or a deny rule that cannot be understood blocks every server, naming it.
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { describeNode, propertiesOf } from '../config/jsonNodes';
import { LineIndex } from '../config/positions';
import { APPROVAL_MODES, isApprovalMode, type ApprovalMode } from '../approvals/policy';
import type { Policy, ServerRule, SourcedRule } from './types';

const RULE_FIELDS: readonly (keyof ServerRule)[] = ['name', 'npm', 'pypi', 'docker', 'command', 'url', 'fingerprint'];
// `mcpServers` / `servers` and `inputs`: the servers the policy provides, read as a config layer.
const TOP_FIELDS = ['allowedServers', 'deniedServers', 'onlyAllowlisted', 'approvalMode', 'mcpServers', 'servers', 'inputs'];

/** A problem in a policy source. */
export interface PolicyProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** The raw shape of a policy (the file's object, or the settings'). */
export interface RawPolicy {
  allowedServers?: unknown;
  deniedServers?: unknown;
  onlyAllowlisted?: unknown;
  approvalMode?: unknown;
}

/** Parses the managed policy file's text into a policy and its problems. */
export function parsePolicyFile(file: string, text: string): { policy: Policy; problems: PolicyProblem[] } {
  const index = new LineIndex(file, text);
  const at = (node: Node | undefined, message: string): PolicyProblem => ({ file, ...index.position(node?.offset ?? 0), message });
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length > 0) {
    const problems = errors.map((error) => ({ file, ...index.position(error.offset), message: `${printParseErrorCode(error.error)}: the policy file is not valid JSON` }));
    return { policy: { allowed: [], denied: [], unreadable: `${file}:${problems[0].line}:${problems[0].column} is not valid JSON` }, problems };
  }
  if (tree === undefined) return { policy: { allowed: [], denied: [] }, problems: [] };
  if (tree.type !== 'object') {
    const problem = at(tree, `The policy file must hold an object, not ${describeNode(tree)}`);
    return { policy: { allowed: [], denied: [], unreadable: `${file} does not hold an object` }, problems: [problem] };
  }
  const problems: PolicyProblem[] = [];
  let unreadable: string | undefined;
  const properties = propertiesOf(tree);
  for (const [key, property] of properties) if (!TOP_FIELDS.includes(key)) problems.push(at(property.keyNode, `Unknown field "${key}", ignored; known: ${TOP_FIELDS.join(', ')}`));
  const list = (key: 'allowedServers' | 'deniedServers'): SourcedRule[] => {
    const node = properties.get(key)?.valueNode;
    if (node === undefined) return [];
    if (node.type !== 'array') {
      problems.push(at(node, `"${key}" must be a list of rules, not ${describeNode(node)}`));
      if (key === 'deniedServers') unreadable ??= `"deniedServers" in ${file} is not a list`;
      return [];
    }
    return (node.children ?? []).flatMap((child, i) => {
      const read = readRule(child);
      if (typeof read === 'string') {
        const denying = key === 'deniedServers';
        problems.push(at(child, `${key}[${i}] ${read}; ${denying ? 'no server runs until it is fixed' : 'this rule is left out'}`));
        if (denying) unreadable ??= `${key}[${i}] in ${file} cannot be understood`;
        return [];
      }
      return [{ rule: read, origin: `${key}[${i}] in ${file}` }];
    });
  };
  const only = properties.get('onlyAllowlisted')?.valueNode;
  if (only !== undefined && only.type !== 'boolean') problems.push(at(only, `"onlyAllowlisted" must be true or false, not ${describeNode(only)}`));
  const policy: Policy = { allowed: list('allowedServers'), denied: list('deniedServers'), fromFile: true };
  if (only?.value === true) policy.onlyAllowlisted = `onlyAllowlisted in ${file}`;
  if (unreadable !== undefined) policy.unreadable = unreadable;
  const mode = properties.get('approvalMode')?.valueNode;
  if (mode !== undefined) {
    const fixed = fixedMode(mode.value, `approvalMode in ${file}`);
    if (fixed.problem !== undefined) problems.push(at(mode, fixed.problem));
    policy.approvalMode = fixed.lock;
  }
  return { policy, problems };
}

/**
 * The mode a policy fixes. A value that is not a mode still fixes one, the strictest (ask before edits):
 * an administrator who meant to lock the mode never gets a looser one because of a typo.
 */
function fixedMode(value: unknown, origin: string): { lock: { mode: ApprovalMode; origin: string }; problem?: string } {
  if (isApprovalMode(value)) return { lock: { mode: value, origin } };
  return {
    lock: { mode: 'askBeforeEdits', origin: `${origin} (not a mode, so the strictest)` },
    problem: `"approvalMode" must be one of ${APPROVAL_MODES.join(', ')}, not ${JSON.stringify(value)}; the mode is fixed to askBeforeEdits until it is fixed`,
  };
}

/** The rules of the machine settings (`switchboard.policy.*`), already parsed by VS Code. */
export function policyFromSettings(raw: RawPolicy, label: string): { policy: Policy; problems: string[] } {
  const problems: string[] = [];
  let unreadable: string | undefined;
  const list = (key: 'allowedServers' | 'deniedServers'): SourcedRule[] => {
    const value = raw[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      problems.push(`${label}.${key} must be a list of rules`);
      if (key === 'deniedServers') unreadable ??= `${label}.${key} is not a list`;
      return [];
    }
    return value.flatMap((item, i) => {
      const read = ruleOf(item);
      if (typeof read === 'string') {
        const denying = key === 'deniedServers';
        problems.push(`${label}.${key}[${i}] ${read}; ${denying ? 'no server runs until it is fixed' : 'this rule is left out'}`);
        if (denying) unreadable ??= `${label}.${key}[${i}] cannot be understood`;
        return [];
      }
      return [{ rule: read, origin: `${label}.${key}[${i}]` }];
    });
  };
  const policy: Policy = { allowed: list('allowedServers'), denied: list('deniedServers') };
  if (raw.onlyAllowlisted === true) policy.onlyAllowlisted = `${label}.onlyAllowlisted`;
  if (unreadable !== undefined) policy.unreadable = unreadable;
  if (raw.approvalMode !== undefined && raw.approvalMode !== null && raw.approvalMode !== '') {
    const fixed = fixedMode(raw.approvalMode, `${label}.approvalMode`);
    if (fixed.problem !== undefined) problems.push(`${label}.approvalMode: ${fixed.problem}`);
    policy.approvalMode = fixed.lock;
  }
  return { policy, problems };
}

/**
 * Both sources together: every deny rule counts, and either may ask for only allowlisted servers. When a
 * policy file asks for that, only the files' allow rules count: a person's `switchboard.policy.allowedServers`
 * could otherwise let any server past the administrator's list (the rules left out are named).
 */
export function combinePolicies(...policies: Policy[]): Policy {
  const fileOnly = policies.find((p) => p.fromFile === true && p.onlyAllowlisted !== undefined)?.onlyAllowlisted;
  const counts = (p: Policy): boolean => fileOnly === undefined || p.fromFile === true;
  const combined: Policy = { allowed: policies.filter(counts).flatMap((p) => p.allowed), denied: policies.flatMap((p) => p.denied) };
  const ignored = policies.filter((p) => !counts(p)).flatMap((p) => p.allowed.map((rule) => rule.origin));
  if (ignored.length > 0) combined.ignoredAllowed = { origins: ignored, reason: `only the policy files' allow rules count while ${fileOnly} is set` };
  const only = fileOnly ?? policies.find((p) => p.onlyAllowlisted !== undefined)?.onlyAllowlisted;
  if (only !== undefined) combined.onlyAllowlisted = only;
  const unreadable = policies.find((p) => p.unreadable !== undefined)?.unreadable;
  if (unreadable !== undefined) combined.unreadable = unreadable;
  // Two sources fixing different modes: the stricter holds.
  const locks = policies.flatMap((p) => (p.approvalMode !== undefined ? [p.approvalMode] : []));
  if (locks.length > 0) combined.approvalMode = locks.reduce((strictest, lock) => (APPROVAL_MODES.indexOf(lock.mode) < APPROVAL_MODES.indexOf(strictest.mode) ? lock : strictest));
  return combined;
}

function readRule(node: Node): ServerRule | string {
  if (node.type === 'string') return ruleOf(node.value);
  if (node.type !== 'object') return `is ${describeNode(node)}, not a rule object`;
  const value: Record<string, unknown> = {};
  for (const [key, property] of propertiesOf(node)) value[key] = property.valueNode?.value;
  return ruleOf(value);
}

/** A rule from a plain value, or what is wrong with it. */
function ruleOf(value: unknown): ServerRule | string {
  if (typeof value === 'string') return { name: value };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not a rule object';
  const rule: ServerRule = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (!(RULE_FIELDS as readonly string[]).includes(key)) return `has "${key}", which is not one of ${RULE_FIELDS.join(', ')}`;
    if (typeof field !== 'string' || field === '') return `has a "${key}" that is not a non-empty string`;
    rule[key as keyof ServerRule] = field;
  }
  return Object.keys(rule).length === 0 ? 'has no field, so it would match nothing' : rule;
}
