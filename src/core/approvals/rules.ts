// The person's standing answers to tool calls: "always allow" (for a tool, or for a shell-like tool's
// command signatures) and "always deny", each kept for the session, the workspace or everywhere, and
// each revocable. Pure data and matching; where rules are stored is the adapters' business.
import type { Scope } from '../config/types';
import { checkArguments, describeConstraint, parseConstraints, type ArgumentConstraint } from './argumentRules';
import { legacyNameApplies, type ServerIdentity } from './serverIdentity';

/** How long a rule lives: this window's session (memory), this workspace, or every workspace. */
export type RuleScope = 'session' | 'workspace' | 'global';

/** What a rule answers. */
export type RuleEffect = 'allow' | 'deny';

/**
 * One rule. `server` and `tool` are names as the configuration and the server give them; `*` matches
 * any. A rule the extension keeps also names the server's identity (`serverScope` and `serverFile`:
 * the scope and the file that defines it) and applies to that server only. An allow rule with a name
 * and no identity (kept before rules had one, or written by hand) applies only to the person's own
 * servers of that name (user and local scope), never to a project or plugin server that took the name;
 * a deny rule with a name alone refuses every server of that name. A rule
 * with `signatures` is about a shell-like tool's commands: it allows those command signatures
 * (`npm run build`, `python -m pytest`), never the tool as a whole. A rule with `arguments` holds only
 * for calls whose every argument condition is understood and met (this file, files under a folder, one
 * argument's value; see argumentRules.ts); a rule without is about every call of the tool.
 */
export interface ApprovalRule {
  /** Stable id, for revoking. */
  readonly id: string;
  readonly effect: RuleEffect;
  readonly server: string;
  /** The scope of the server the rule is about (set together with `serverFile`). */
  readonly serverScope?: Scope;
  /** The file that defines the server the rule is about. */
  readonly serverFile?: string;
  readonly tool: string;
  readonly signatures?: readonly string[];
  /** Conditions on the call's arguments, all of which must hold. */
  readonly arguments?: readonly ArgumentConstraint[];
  readonly scope: RuleScope;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** Where it came from, for people: e.g. `"Always allow" on a call of write_file`. */
  readonly origin: string;
}

/** Whether `rule` is about this server's tool: by identity, or by name for the person's own servers only. */
export function ruleMatches(rule: ApprovalRule, server: ServerIdentity, tool: string): boolean {
  return serverMatches(rule, server) && (rule.tool === '*' || rule.tool === tool);
}

function serverMatches(rule: ApprovalRule, server: ServerIdentity): boolean {
  if (rule.server === '*') return true;
  if (rule.serverScope === undefined || rule.serverFile === undefined) {
    // A refusal by name may refuse more than meant, never let more through: it holds for any server of that name.
    return rule.effect === 'deny' ? rule.server === server.name : legacyNameApplies(rule.server, server);
  }
  return rule.server === server.name && rule.serverScope === server.scope && rule.serverFile === server.file;
}

/**
 * Whether `rule` is about this call: its server and tool, and its argument conditions. An allow rule
 * holds only when every condition is understood and met; a deny rule refuses unless a condition it
 * understands is not met (`roots`: the workspace folders, which relative paths are read against).
 */
export function ruleAppliesTo(rule: ApprovalRule, server: ServerIdentity, tool: string, args: Readonly<Record<string, unknown>>, roots: readonly string[]): boolean {
  if (!ruleMatches(rule, server, tool)) return false;
  if (rule.arguments === undefined || rule.arguments.length === 0) return true;
  const check = checkArguments(rule.arguments, args, roots);
  return rule.effect === 'allow' ? check.kind === 'satisfied' : check.kind !== 'unsatisfied';
}

/** The fields of a rule that tie it to one server. */
export function ruleServerOf(server: ServerIdentity): Pick<ApprovalRule, 'server' | 'serverScope' | 'serverFile'> {
  return { server: server.name, serverScope: server.scope, serverFile: server.file };
}

/** A rule as one line for people: `allow npm run build, npm test for shell of server "ci" (workspace)`. */
export function describeRule(rule: ApprovalRule): string {
  const what = rule.signatures !== undefined && rule.signatures.length > 0
    ? `${rule.signatures.map((s) => `"${s}"`).join(', ')} in ${toolWords(rule)}`
    : toolWords(rule);
  const when = rule.arguments !== undefined && rule.arguments.length > 0 ? ` when ${rule.arguments.map(describeConstraint).join(' and ')}` : '';
  return `${rule.effect} ${what}${when} (${SCOPE_WORDS[rule.scope]})`;
}

const SCOPE_WORDS: { readonly [S in RuleScope]: string } = {
  session: 'this session',
  workspace: 'this workspace',
  global: 'everywhere',
};

function toolWords(rule: ApprovalRule): string {
  const tool = rule.tool === '*' ? 'every tool' : `tool "${rule.tool}"`;
  const server = rule.server === '*' ? 'any server'
    : rule.serverScope === undefined ? `server "${rule.server}"` : `${rule.serverScope} server "${rule.server}"`;
  return `${tool} of ${server}`;
}

/** Parses rules read from a file or storage; throws with the index and field of the first bad one. */
export function parseRules(value: unknown): ApprovalRule[] {
  const list = Array.isArray(value) ? value : (value as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(list)) throw new Error('rules: expected a JSON array of rules (or { "rules": [...] })');
  return list.map((item, index) => parseRule(item, index));
}

function parseRule(item: unknown, index: number): ApprovalRule {
  const at = `rules[${index}]`;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new Error(`${at}: expected an object`);
  const record = item as Record<string, unknown>;
  const text = (key: string, fallback?: string): string => {
    const value = record[key] ?? fallback;
    if (typeof value !== 'string' || value === '') throw new Error(`${at}.${key}: expected a non-empty string`);
    return value;
  };
  const effect = text('effect', 'allow');
  if (effect !== 'allow' && effect !== 'deny') throw new Error(`${at}.effect: expected "allow" or "deny"`);
  const scope = text('scope', 'session');
  if (scope !== 'session' && scope !== 'workspace' && scope !== 'global') throw new Error(`${at}.scope: expected "session", "workspace" or "global"`);
  let signatures: string[] | undefined;
  if (record.signatures !== undefined) {
    if (!Array.isArray(record.signatures) || !record.signatures.every((s) => typeof s === 'string' && s.trim() !== '')) {
      throw new Error(`${at}.signatures: expected an array of non-empty strings`);
    }
    signatures = record.signatures.map((s: string) => s.trim());
  }
  const constraints = record.arguments === undefined ? undefined : parseConstraints(record.arguments, at);
  const identity = serverIdentityFields(record, at);
  const createdAt = record.createdAt === undefined ? 0 : record.createdAt;
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) throw new Error(`${at}.createdAt: expected a number`);
  return {
    id: text('id', `rule-${index + 1}`),
    effect,
    server: text('server'),
    ...identity,
    tool: text('tool', '*'),
    ...(signatures !== undefined ? { signatures } : {}),
    ...(constraints !== undefined && constraints.length > 0 ? { arguments: constraints } : {}),
    scope,
    createdAt,
    origin: typeof record.origin === 'string' ? record.origin : 'from a rules file',
  };
}

const SCOPES: readonly Scope[] = ['managed', 'local', 'project', 'user', 'plugin'];

function serverIdentityFields(record: Record<string, unknown>, at: string): Pick<ApprovalRule, 'serverScope' | 'serverFile'> {
  const { serverScope, serverFile } = record;
  if (serverScope === undefined && serverFile === undefined) return {};
  if (typeof serverScope !== 'string' || !(SCOPES as readonly string[]).includes(serverScope)) {
    throw new Error(`${at}.serverScope: expected ${SCOPES.map((s) => `"${s}"`).join(', ')} (together with serverFile)`);
  }
  if (typeof serverFile !== 'string' || serverFile === '') throw new Error(`${at}.serverFile: expected a non-empty string (together with serverScope)`);
  return { serverScope: serverScope as Scope, serverFile };
}
