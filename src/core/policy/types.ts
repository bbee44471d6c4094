// An administrator's policy over which servers may run: lists of rules matched against each server,
// whether only allowlisted servers may run, and an approval mode it fixes. Pure data.
import type { ApprovalMode } from '../approvals/policy';

/** One rule: every field it has must match (glob with `*`, except the exact `fingerprint`). */
export interface ServerRule {
  name?: string;
  /** An npm package a server runs through npx, bunx, `pnpm dlx`, `npm exec` / `npm x` or `yarn dlx` (version ignored; an alias counts as the package it names). */
  npm?: string;
  /** A PyPI package a server runs through uvx, `uv tool run` or `pipx run` (version and extras ignored). */
  pypi?: string;
  /** A container image `docker run` starts (`mcp/fetch`, `ghcr.io/org/img`; tag and digest ignored). */
  docker?: string;
  /** The command, as written or its file name, or any program it runs through a wrapper (`env`, `cmd /c`). */
  command?: string;
  url?: string;
  /** The sha256 fingerprint of the server's expanded launch definition (as `switchboard config` prints it). */
  fingerprint?: string;
}

/** A rule with where it was defined, for the reason people see. */
export interface SourcedRule {
  rule: ServerRule;
  /** E.g. `deniedServers[0] in /etc/mcp-switchboard/policy.json`. */
  origin: string;
}

/** The policy in effect: the managed file and the machine settings, combined. */
export interface Policy {
  allowed: SourcedRule[];
  denied: SourcedRule[];
  /** Only servers matching an allowed rule may run; where this was set. */
  onlyAllowlisted?: string;
  /**
   * Set when a source or a deny rule could not be understood: then no server runs (a rule an
   * administrator meant to keep a server off must never be skipped), and this says what to fix.
   */
  unreadable?: string;
  /** Set on a policy read from a machine policy file (the administrator's), not from the settings. */
  fromFile?: boolean;
  /**
   * Allow rules that do not count: a policy file asks for only allowlisted servers, so only its own allow
   * rules say which may run — a person's setting cannot widen the administrator's list. Each by origin.
   */
  ignoredAllowed?: { origins: string[]; reason: string };
  /** The approval mode the policy fixes (the settings and the sidebar cannot change it), and where it was set. */
  approvalMode?: { mode: ApprovalMode; origin: string };
}

/** What the policy says about one server. */
export type PolicyVerdict =
  | { verdict: 'allowed'; rule?: string; reason: string }
  | { verdict: 'denied'; rule: string; reason: string };

/** No rules at all. */
export const EMPTY_POLICY: Policy = { allowed: [], denied: [] };
