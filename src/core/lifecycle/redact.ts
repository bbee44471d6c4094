// The one redaction: everything a person or a log sees of a server (log lines, tree rows and tooltips,
// the sidebar, Manage Trust, the CLI, errors, the trust store) goes through these functions. Two kinds
// of secret are masked:
//  - known values: env and header values (and the tokens inside header values), the values `${VAR}`
//    and `${env:VAR}` expanded into any field, URL credentials and
//    secret query parameters, what the env file and `${input:…}` supplied at launch (added by the
//    connector that read them, see redactingConnector.ts), scrubbed wherever they occur in any text;
//  - secrets by position in the arguments, whatever their value: `--api-key=V`, `--token V`,
//    `API_KEY=V`, `Authorization: Bearer V`, credentials and secret parameters of URLs. Those values
//    then count as known values too, so a server printing its own `--token` is scrubbed as well.
import type { LaunchDefinition } from '../config/types';

/** What a secret is replaced with. */
export const REDACTED = '***';

// Values that cannot be secrets but would shred unrelated text if every occurrence were masked.
const NOT_SECRET = new Set(['true', 'false', 'yes', 'no', 'on', 'off', 'null', 'none']);
const MIN_SECRET_LENGTH = 4;
// Parts of a header value ("Bearer <token>") that are scrubbed on their own, so a token printed
// without its scheme is caught too.
const MIN_TOKEN_PART_LENGTH = 8;

/**
 * Names whose value is a secret: flags (`--api-key`), variables (`GITHUB_TOKEN`), headers
 * (`Authorization`, `X-Api-Key`) and query parameters (`access_token`). Anchored at the end of the
 * name, so `--max-tokens` or `--key-file` are not.
 */
const SECRET_NAME = /^(?:proxy-)?authorization$|^cookie$|^bearer$|api[-_]?key$|(?:^|[-_.])(?:key|token|secret|password|passwd|pwd|auth|session|credentials?|signature|sig)$/i;

/** Whether a flag, variable, header or query parameter name says its value is a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Whether a value is worth scrubbing: empty, very short or boolean-like values are not (they would mask unrelated text). */
export function isRedactable(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length >= MIN_SECRET_LENGTH && !NOT_SECRET.has(trimmed.toLowerCase());
}

/**
 * Every secret value of a launch definition, longest first: env and header values (and the tokens
 * inside header values), what `${VAR}` / `${env:VAR}` took from the environment, URL credentials and
 * secret query parameters (raw and percent-encoded), and the secret values of its arguments.
 */
export function secretsOf(launch: LaunchDefinition): string[] {
  const found = new Set<string>();
  // Values as written and percent-encoded; values taken from a URL are encoded already, so decoded.
  const add = (value: string | undefined, inUrl = false): void => {
    if (value === undefined || !isRedactable(value)) return;
    found.add(value);
    const other = inUrl ? safeDecode(value) : safeEncode(value);
    if (isRedactable(other)) found.add(other);
  };
  for (const value of Object.values(launch.env ?? {})) add(value);
  // What `${VAR}` / `${env:VAR}` expanded into args, url, headers, command or cwd: a secret like an env value.
  for (const value of Object.values(launch.expandedVars ?? {})) add(value);
  for (const value of Object.values(launch.headers ?? {})) {
    add(value);
    for (const part of value.split(/\s+/)) if (part.length >= MIN_TOKEN_PART_LENGTH) add(part);
  }
  add(launch.oauth?.clientSecret);
  if (launch.url !== undefined) for (const value of urlSecrets(launch.url)) add(value, true);
  for (const value of argSecrets(launch.args ?? [])) add(value, /%[0-9a-f]{2}/i.test(value));
  return sortSecrets(found);
}

/** The values of an argument list that are secrets by their position: see the top of this file. */
export function argSecrets(args: readonly string[]): string[] {
  const found: string[] = [];
  args.forEach((arg, index) => {
    const masked = maskArg(arg, index > 0 && isSecretFlag(args[index - 1]));
    found.push(...masked.secrets);
  });
  return found;
}

/** `text` with every occurrence of every redactable secret replaced by `***` (longest secrets first). */
export function redactText(text: string, secrets: readonly string[]): string {
  return textRedactor(secrets)(text);
}

/** redactText for these secrets, sorted once: for scrubbing many texts with the same secrets. */
export function textRedactor(secrets: readonly string[]): (text: string) => string {
  const ordered = secrets.filter(isRedactable).sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => {
    let result = text;
    for (const secret of ordered) {
      if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    }
    return result;
  };
}

/** A URL with its user and password and its secret query parameters masked, and any known secret scrubbed. */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  const masked = url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i, (_match, scheme: string, userinfo: string) =>
      `${scheme}${userinfo.includes(':') ? `${REDACTED}:${REDACTED}` : REDACTED}@`)
    .replace(QUERY_PARAMETER, (match, separator: string, name: string, value: string) =>
      (value !== '' && isSecretName(safeDecode(name)) ? `${separator}${name}=${REDACTED}` : match));
  return redactText(masked, secrets);
}

/** The arguments as a person may see them: secrets by position masked, then every known secret scrubbed. */
export function redactArgs(args: readonly string[], secrets: readonly string[] = []): string[] {
  return args.map((arg, index) => redactText(maskArg(arg, index > 0 && isSecretFlag(args[index - 1])).text, secrets));
}

/** A command line as a shell would read it (words quoted only when they need it), secrets masked. */
export function redactCommandLine(command: string, args: readonly string[], secrets: readonly string[] = []): string {
  return [redactText(command, secrets), ...redactArgs(args, secrets)].map(quoteWord).join(' ');
}

/**
 * A printable, secret-free form of a launch definition:
 * stdio `API_KEY=*** npx -y server --token=***`, remote `https://***@host/mcp (headers: Authorization=***)`.
 * `secrets` defaults to the launch's own; a connector that knows more (env file, inputs) passes those.
 */
export function redactLaunch(launch: LaunchDefinition, secrets: readonly string[] = secretsOf(launch)): string {
  if (launch.type === 'stdio') {
    const env = Object.keys(launch.env ?? {}).sort().map((key) => `${key}=${REDACTED}`);
    const line = redactCommandLine(launch.command ?? '', launch.args ?? [], secrets);
    const envFile = launch.envFile === undefined ? '' : ` (envFile ${quoteWord(redactText(launch.envFile, secrets))})`;
    return [...env, line].join(' ') + envFile;
  }
  const url = redactUrl(launch.url ?? '', secrets);
  const headers = Object.keys(launch.headers ?? {}).sort().map((key) => `${key}=${REDACTED}`);
  return headers.length > 0 ? `${url} (headers: ${headers.join(', ')})` : url;
}

// ── arguments ─────────────────────────────────────────────────────────────────────────────────────

const QUERY_PARAMETER = /([?&])([^=&#\s]+)=([^&#\s]*)/g;
/** `--api-key=V`, `-token=V`, `API_KEY=V`. */
const ASSIGNMENT = /^(-{0,2}([A-Za-z_][\w.-]*))=([\s\S]*)$/;
/** `Authorization: Bearer V`, also as `--header=Authorization: V`. */
const HEADER = /^((?:--?[\w-]+=)?([A-Za-z0-9_-]+)\s*:\s*)(\S[\s\S]*)$/;
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

/** `--token`, `-api-key` and the like: a flag whose next argument is a secret. */
function isSecretFlag(arg: string): boolean {
  const flag = /^--?([\w.-]+)$/.exec(arg);
  return flag !== null && isSecretName(flag[1]);
}

/** One argument with its secret masked, and the secret values it held. */
function maskArg(arg: string, afterSecretFlag: boolean): { text: string; secrets: string[] } {
  if (afterSecretFlag && !arg.startsWith('-')) return { text: REDACTED, secrets: [arg] };
  const assignment = ASSIGNMENT.exec(arg);
  if (assignment && isSecretName(assignment[2])) {
    return assignment[3] === '' ? { text: arg, secrets: [] } : { text: `${assignment[1]}=${REDACTED}`, secrets: [assignment[3], ...headerToken(assignment[3])] };
  }
  const header = HEADER.exec(arg);
  if (header && isSecretName(header[2]) && !/^\/\//.test(header[3])) {
    return { text: `${header[1]}${REDACTED}`, secrets: [header[3], ...headerToken(header[3])] };
  }
  const secrets: string[] = [];
  const text = arg.replace(URL_IN_TEXT, (url) => {
    secrets.push(...urlSecrets(url));
    return redactUrl(url);
  });
  return { text, secrets };
}

/** The token of `Bearer <token>`, so it is scrubbed when printed alone. */
function headerToken(value: string): string[] {
  return value.split(/\s+/).filter((part) => part.length >= MIN_TOKEN_PART_LENGTH && part !== value);
}

/** The user, password and secret query parameter values of a URL, as written. */
function urlSecrets(url: string): string[] {
  const found: string[] = [];
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^@/?#]*)@/i.exec(url)?.[1];
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    found.push(...(colon < 0 ? [userinfo] : [userinfo.slice(0, colon), userinfo.slice(colon + 1)]));
  }
  for (const match of url.matchAll(QUERY_PARAMETER)) {
    if (match[3] !== '' && isSecretName(safeDecode(match[2]))) found.push(match[3]);
  }
  return found.filter((value) => value !== '');
}

/** Quotes a word for display the way a POSIX shell would need it; `*` is left bare so masks stay readable. */
export function quoteWord(word: string): string {
  if (word === '') return "''";
  if (/^[A-Za-z0-9_\-+=/.,:@%^*~]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Longest first (so a secret containing another is masked whole), then in code-unit order. */
function sortSecrets(values: Iterable<string>): string[] {
  return [...values].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
}

function safeEncode(value: string): string {
  try { return encodeURIComponent(value); } catch { return value; }
}

function safeDecode(value: string): string {
  try { return decodeURIComponent(value); } catch { return value; }
}
