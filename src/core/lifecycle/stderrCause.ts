// What a failed server's stderr says went wrong. The last lines are rarely the cause: Node ends a crash
// with its stack (`requireStack: []`, `Node.js v20…`), many CLIs end with their usage text, while the
// line that states the error ("Error: Cannot find module …", "… set SENTRY_ACCESS_TOKEN") came earlier.
// So an excerpt puts the lines that state the error first, then the tail; and when one of them names
// a missing environment variable, a hint says which variable to set and where.
import type { EffectiveServer } from '../config/types';
import type { ServerLog } from './ports';
import type { ServerState } from './state';

/** Lines an excerpt shows at most (the server's log has all of them). */
export const STDERR_EXCERPT_LINES = 8;
/** Lines stating the error an excerpt puts first at most. */
const MAX_CAUSE_LINES = 3;
/** A line longer than this is cut in an excerpt. */
const MAX_EXCERPT_LINE_CHARS = 400;

/** Lines that state an error: `Error: …`, `TypeError [ERR_X]: …`, `error: unknown option`, `FATAL …`. */
const ERROR_LINE = /^\s*(?:Uncaught\s+)?(?:[A-Z]\w*)?(?:Error|Exception)(?:\s*\[[A-Z0-9_]+\])?:\s*\S|^\s*(?:error|fatal|panic)(?:\[\w+\])?\s*[:!]\s*\S/i;
/** Phrases that state the cause wherever they stand in a line. */
const CAUSE_PHRASES: readonly RegExp[] = [
  /\bCannot find (?:module|package)\b/,
  /\bNo module named\b/,
  /\bno access token\b/i,
  /\bnot set\b/i,
  /\b(?:is|are) (?:required|missing)\b/i,
  /\bmissing (?:required )?(?:environment|env|argument|option|api key|token)/i,
  /\brequired (?:environment|env) var/i,
  /\bmust be (?:set|provided|specified)\b/i,
  /\b(?:ENOENT|EACCES|EADDRINUSE|ECONNREFUSED|ENOTFOUND)\b/,
  /\bcommand not found\b/i,
  /\bNo such file or directory\b/i,
  /\b(?:unauthori[sz]ed|invalid (?:api )?(?:key|token)|permission denied)\b/i,
];
/** Lines that never state the cause: stack frames, Node's trailer, the source line and caret it prints. */
const NOISE_LINE = /^\s*(?:at\s|\^+\s*$|requireStack:|code:\s|Require stack:|Node\.js v\d|throw\s|[{}\]],?\s*$|-\s\/)/;

/** Whether a stderr line states an error (rather than being a stack frame, usage text or progress). */
export function statesCause(line: string): boolean {
  if (line.trim() === '' || NOISE_LINE.test(line)) return false;
  return ERROR_LINE.test(line) || CAUSE_PHRASES.some((phrase) => phrase.test(line));
}

/**
 * The lines to show for a failure: the first few that state the error (oldest first), then the last
 * lines of the tail that are not among them, `max` lines in all. Blank lines are left out.
 */
export function stderrExcerpt(tail: readonly string[], max = STDERR_EXCERPT_LINES): string[] {
  const lines = tail.filter((line) => line.trim() !== '').map(shorten);
  const causes: number[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < lines.length && causes.length < Math.min(MAX_CAUSE_LINES, max); i++) {
    const key = lines[i].trim();
    if (!statesCause(lines[i]) || seen.has(key)) continue;
    seen.add(key);
    causes.push(i);
  }
  const room = Math.max(0, max - causes.length);
  const rest: number[] = [];
  for (let i = lines.length - 1; i >= 0 && rest.length < room; i--) {
    // A cause repeated later (a retry printing it again) is shown once, up front.
    if (!seen.has(lines[i].trim())) rest.unshift(i);
  }
  return [...causes, ...rest].map((i) => lines[i]);
}

/** A variable name: upper case with at least one underscore (SENTRY_ACCESS_TOKEN), so words like ERROR don't count. */
const NAME = String.raw`\$?([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])`;
const VARIABLE = String.raw`(?:the\s+)?(?:environment|env)\s+var(?:iable)?`;
/** Ways stderr says a variable is missing; each captures its name. */
const MISSING_VARIABLE: readonly RegExp[] = [
  // "SENTRY_ACCESS_TOKEN environment variable is required", "BRAVE_API_KEY is not set", "FOO must be set"
  new RegExp(String.raw`\b${NAME}(?:\s+${VARIABLE})?\s+(?:is\s+)?(?:not\s+set|required|missing|undefined|not\s+defined|must\s+be\s+(?:set|provided)|is\s+empty)\b`),
  // "Missing required environment variable: FOO", "environment variable FOO is not set"
  new RegExp(String.raw`\b(?:missing\s+(?:required\s+)?)?${VARIABLE}s?:?\s+["'\`]?${NAME}`, 'i'),
  // "No access token was provided … set SENTRY_ACCESS_TOKEN", "please set GITHUB_TOKEN"
  new RegExp(String.raw`\bset\s+(?:the\s+)?["'\`]?${NAME}\b["'\`]?(?!\s*=)`, 'i'),
  // "Missing FOO_KEY", "FOO_KEY not provided", "pass one with --token or via `FOO_TOKEN`"
  new RegExp(String.raw`\bmissing\s+["'\`]?${NAME}\b|\b${NAME}["'\`]?\s+(?:was\s+)?not\s+provided\b|\bvia\s+(?:the\s+)?["'\`]?${NAME}`, 'i'),
];

/**
 * The environment variable the server says is missing, if a line stating the error names one. Only
 * such lines count: usage text ("--token  (or set GITHUB_TOKEN)") names variables that may be fine.
 */
export function missingVariable(tail: readonly string[]): string | undefined {
  for (const line of tail) {
    if (!statesCause(line)) continue;
    for (const pattern of MISSING_VARIABLE) {
      // The first group that took part (a pattern of alternatives has one group each).
      const name = pattern.exec(line)?.slice(1).find((group) => group !== undefined);
      if (name !== undefined && name === name.toUpperCase()) return name;
    }
  }
  return undefined;
}

/** The entry a hint points to. */
export interface HintEntry {
  name: string;
  scope: string;
  /** The file that defines the entry (a .mcp.json, or a virtual source). */
  file: string;
  /** The names the entry's "env" sets. */
  envNames: readonly string[];
}

/** When stderr names a missing variable: which one to set, and where (the entry's "env", or an input). */
export function failureHint(tail: readonly string[], entry: HintEntry): string | undefined {
  const name = missingVariable(tail);
  if (name === undefined) return undefined;
  // An administrator's or an extension's entry is not the person's to edit.
  if (entry.scope === 'managed' || entry.scope === 'plugin') {
    return `set ${name} in the environment VS Code starts with (the ${entry.scope} entry "${entry.name}" in ${entry.file} cannot be edited here)`;
  }
  const where = `the "env" of "${entry.name}" in ${entry.file} (${entry.scope} scope)`;
  if (entry.envNames.includes(name)) {
    return `the server says ${name} is missing, but ${where} sets it: check its value there (a \${env:…} it refers to may be unset where the server starts)`;
  }
  return `set ${name}: add it to ${where}, e.g. "${name}": "\${input:${entry.name}-${name}}" to be asked for it once (kept in the secret store)`;
}

function shorten(line: string): string {
  return line.length > MAX_EXCERPT_LINE_CHARS ? `${line.slice(0, MAX_EXCERPT_LINE_CHARS - 1)}…` : line;
}

/**
 * A failure's reason with the first stderr line stating its cause and the hint, for one-line messages:
 * `exited with code 1 during startup (stderr: Error: Cannot find module 'x')`.
 */
export function failureSummary(error: string, tail: readonly string[], hint?: string): string {
  const cause = tail.find(statesCause)?.trim();
  const withCause = cause !== undefined && !error.includes(cause) ? `${error} (stderr: ${shorten(cause)})` : error;
  return hint !== undefined ? `${withCause} — ${hint}` : withCause;
}

/** The hint for a server of the configuration (see failureHint). */
export function serverFailureHint(server: Pick<EffectiveServer, 'name' | 'scope' | 'source' | 'launch'>, tail: readonly string[]): string | undefined {
  return failureHint(tail, { name: server.name, scope: server.scope, file: server.source.file, envNames: Object.keys(server.launch.env) });
}

/** The `failed` state of a server, with the hint when stderr names the cause (logged too: the log is where people look). */
export function failedState(
  server: Pick<EffectiveServer, 'name' | 'scope' | 'source' | 'launch'>, error: string, stderrTail: string[], log: Pick<ServerLog, 'error'>,
): Extract<ServerState, { kind: 'failed' }> {
  const hint = serverFailureHint(server, stderrTail);
  if (hint !== undefined) log.error(`hint: ${hint}`);
  return { kind: 'failed', error, stderrTail, ...(hint !== undefined ? { hint } : {}) };
}
