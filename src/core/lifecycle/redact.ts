// Secrets in a launch definition (env and header values, URL credentials) must never reach a log, a
// notification or the UI. These helpers print a launch with its values masked and scrub known secret
// values out of any text (error messages, stderr lines).
import type { LaunchDefinition } from '../config/types';

/** What a secret is replaced with. */
export const REDACTED = '***';

// Values that cannot be secrets but would shred unrelated text if every occurrence were masked.
const NOT_SECRET = new Set(['true', 'false', 'yes', 'no', 'on', 'off', 'null', 'none']);
const MIN_SECRET_LENGTH = 4;
// Parts of a header value ("Bearer <token>") that are scrubbed on their own, so a token printed
// without its scheme is caught too.
const MIN_TOKEN_PART_LENGTH = 8;

/** Whether a value is worth scrubbing: empty, very short or boolean-like values are not (they would mask unrelated text). */
export function isRedactable(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length >= MIN_SECRET_LENGTH && !NOT_SECRET.has(trimmed.toLowerCase());
}

/** Every secret value of a launch definition, longest first: env and header values (and the tokens inside header values) and URL credentials, raw and percent-encoded. */
export function secretsOf(launch: LaunchDefinition): string[] {
  const found = new Set<string>();
  const add = (value: string | undefined, withEncoded = true): void => {
    if (value === undefined || !isRedactable(value)) return;
    found.add(value);
    if (withEncoded) found.add(safeEncode(value));
  };
  for (const value of Object.values(launch.env ?? {})) add(value);
  for (const value of Object.values(launch.headers ?? {})) {
    add(value);
    for (const part of value.split(/\s+/)) if (part.length >= MIN_TOKEN_PART_LENGTH) add(part);
  }
  add(launch.oauth?.clientSecret);
  const credentials = urlCredentials(launch.url);
  // Credentials are already percent-encoded in the URL; their decoded form is what a server would print.
  for (const value of credentials) {
    add(value, false);
    add(safeDecode(value), false);
  }
  return [...found].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
}

/** `text` with every occurrence of every redactable secret replaced by `***` (longest secrets first). */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  const ordered = secrets.filter(isRedactable).sort((a, b) => b.length - a.length);
  for (const secret of ordered) {
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** A URL with its user and password masked and any literal secret value scrubbed. */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  const masked = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i, (_match, scheme: string, userinfo: string) =>
    `${scheme}${userinfo.includes(':') ? `${REDACTED}:${REDACTED}` : REDACTED}@`);
  return redactText(masked, secrets);
}

/**
 * A printable, secret-free form of a launch definition:
 * stdio `API_KEY=*** npx -y server --token=***`, remote `https://***@host/mcp (headers: Authorization=***)`.
 */
export function redactLaunch(launch: LaunchDefinition): string {
  const secrets = secretsOf(launch);
  if (launch.type === 'stdio') {
    const env = Object.keys(launch.env ?? {}).sort().map((key) => `${key}=${REDACTED}`);
    const words = [launch.command ?? '', ...(launch.args ?? [])].map((word) => quoteWord(redactText(word, secrets)));
    return [...env, ...words].join(' ');
  }
  const url = redactUrl(launch.url ?? '', secrets);
  const headers = Object.keys(launch.headers ?? {}).sort().map((key) => `${key}=${REDACTED}`);
  return headers.length > 0 ? `${url} (headers: ${headers.join(', ')})` : url;
}

function urlCredentials(url: string | undefined): string[] {
  const match = url === undefined ? null : /^[a-z][a-z0-9+.-]*:\/\/([^@/?#]*)@/i.exec(url);
  if (!match) return [];
  const userinfo = match[1];
  const colon = userinfo.indexOf(':');
  return colon < 0 ? [userinfo] : [userinfo.slice(0, colon), userinfo.slice(colon + 1)];
}

// Quotes a word for display the way a POSIX shell would need it; `*` is left bare so masks stay readable.
function quoteWord(word: string): string {
  if (word === '') return "''";
  if (/^[A-Za-z0-9_\-+=/.,:@%^*~]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function safeEncode(value: string): string {
  try { return encodeURIComponent(value); } catch { return value; }
}

function safeDecode(value: string): string {
  try { return decodeURIComponent(value); } catch { return value; }
}
