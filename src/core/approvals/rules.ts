// The person's standing answers to tool calls: "always allow" (for a tool, or for a shell-like tool's
// command signatures) and "always deny", each kept for the session, the workspace or everywhere, and
// each revocable. Pure data and matching; where rules are stored is the adapters' business.

/** How long a rule lives: this window's session (memory), this workspace, or every workspace. */
export type RuleScope = 'session' | 'workspace' | 'global';

/** What a rule answers. */
export type RuleEffect = 'allow' | 'deny';

/**
 * One rule. `server` and `tool` are names as the configuration and the server give them (a rule kept
 * "everywhere" applies to every server of that name); `*` matches any. A rule with `signatures` is
 * about a shell-like tool's commands: it allows those command signatures (`npm run build`,
 * `python -m pytest`), never the tool as a whole.
 */
export interface ApprovalRule {
  /** Stable id, for revoking. */
  readonly id: string;
  readonly effect: RuleEffect;
  readonly server: string;
  readonly tool: string;
  readonly signatures?: readonly string[];
  readonly scope: RuleScope;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** Where it came from, for people: e.g. `"Always allow" on a call of write_file`. */
  readonly origin: string;
}

/** Whether `rule` is about this server's tool. */
export function ruleMatches(rule: ApprovalRule, server: string, tool: string): boolean {
  return (rule.server === '*' || rule.server === server) && (rule.tool === '*' || rule.tool === tool);
}

/** A rule as one line for people: `allow npm run build, npm test for shell of server "ci" (workspace)`. */
export function describeRule(rule: ApprovalRule): string {
  const what = rule.signatures !== undefined && rule.signatures.length > 0
    ? `${rule.signatures.map((s) => `"${s}"`).join(', ')} in ${toolWords(rule)}`
    : toolWords(rule);
  return `${rule.effect} ${what} (${SCOPE_WORDS[rule.scope]})`;
}

const SCOPE_WORDS: { readonly [S in RuleScope]: string } = {
  session: 'this session',
  workspace: 'this workspace',
  global: 'everywhere',
};

function toolWords(rule: ApprovalRule): string {
  const tool = rule.tool === '*' ? 'every tool' : `tool "${rule.tool}"`;
  const server = rule.server === '*' ? 'any server' : `server "${rule.server}"`;
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
  const createdAt = record.createdAt === undefined ? 0 : record.createdAt;
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) throw new Error(`${at}.createdAt: expected a number`);
  return {
    id: text('id', `rule-${index + 1}`),
    effect,
    server: text('server'),
    tool: text('tool', '*'),
    ...(signatures !== undefined ? { signatures } : {}),
    scope,
    createdAt,
    origin: typeof record.origin === 'string' ? record.origin : 'from a rules file',
  };
}
