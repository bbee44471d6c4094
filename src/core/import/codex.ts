// Codex's `config.toml` (`~/.codex/config.toml`, or `$CODEX_HOME`, and a trusted project's
// `.codex/config.toml`): one `[mcp_servers.NAME]` table per server. Values are literal (Codex expands no
// variables); a bearer token or header read from the environment becomes our `${VAR}`.
import { parse, TomlError } from 'smol-toml';
import { describe, EntryBuilder } from './entry';
import { emptyRead } from './serverMap';
import type { HostRead, HostReader, ImportProblem } from './types';

const SIGN_IN = 'sign-in settings are not imported; the server asks you to sign in when it answers 401';
const NOTES: Record<string, string> = {
  env_vars: 'Switchboard passes your whole environment to a server, so these names reach it anyway',
  tool_timeout_sec: 'Switchboard has one tool call timeout for every server, the setting switchboard.requestTimeout',
  oauth: SIGN_IN, scopes: SIGN_IN, oauth_resource: SIGN_IN,
  required: 'Switchboard starts every server independently and never refuses to start because one failed',
};
const TRANSLATED = ['command', 'args', 'env', 'cwd', 'url', 'bearer_token_env_var', 'bearer_token', 'http_headers', 'env_http_headers',
  'startup_timeout_sec', 'startup_timeout_ms', 'enabled', 'enabled_tools', 'disabled_tools'];

/** Reads a Codex `config.toml`. */
export const readCodex: HostReader = (file, text) => {
  let parsed: Record<string, unknown>;
  try {
    parsed = parse(text) as Record<string, unknown>;
  } catch (error) {
    const where = error instanceof TomlError ? { line: error.line, column: error.column } : { line: 1, column: 1 };
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return { servers: [], inputs: [], skipped: [], problems: [{ file, ...where, message }], usable: false };
  }
  const read = emptyRead();
  const tables = parsed.mcp_servers;
  if (tables === undefined) return read;
  if (typeof tables !== 'object' || tables === null || Array.isArray(tables)) {
    read.problems.push(problemOnLine(file, text, /^\s*mcp_servers\s*=/m, `"mcp_servers" is ${describe(tables)}, not a table of servers`));
    return read;
  }
  for (const [name, raw] of Object.entries(tables as Record<string, unknown>)) readServer(read, name, raw, file);
  return read;
};

function readServer(read: HostRead, name: string, raw: unknown, file: string): void {
  const builder = new EntryBuilder(name, 'literal', read.skipped);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    builder.fail(`its definition is ${describe(raw)}, not a table`);
    builder.finish(file);
    return;
  }
  const table = raw as Record<string, unknown>;
  for (const key of Object.keys(table)) {
    if (!TRANSLATED.includes(key)) builder.note(key, NOTES[key] ?? 'not a field Switchboard knows');
  }
  builder.set('command', builder.text('command', table.command));
  builder.set('args', builder.texts('args', table.args));
  builder.set('env', builder.map('env', table.env));
  builder.set('cwd', builder.text('cwd', table.cwd));
  const url = builder.text('url', table.url);
  if (url !== undefined) builder.set('type', 'http');
  builder.set('url', url);
  const headers: Record<string, string> = { ...builder.map('http_headers', table.http_headers) };
  for (const [header, variable] of Object.entries(builder.map('env_http_headers', table.env_http_headers) ?? {})) {
    headers[header] = `\${${variable}}`;
  }
  const tokenVariable = builder.text('bearer_token_env_var', table.bearer_token_env_var);
  const token = builder.text('bearer_token', table.bearer_token);
  if (tokenVariable !== undefined) headers.Authorization = `Bearer \${${tokenVariable}}`;
  else if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  builder.set('headers', headers);
  builder.set('timeout', timeout(builder, table));
  if (builder.flag('enabled', table.enabled) === false) builder.set('disabled', true);
  builder.set('allowedTools', builder.texts('enabled_tools', table.enabled_tools));
  builder.set('disabledTools', builder.texts('disabled_tools', table.disabled_tools));
  const server = builder.finish(file);
  if (server !== undefined) read.servers.push(server);
}

/** `startup_timeout_sec` (seconds, may be fractional) or the older `startup_timeout_ms`, as milliseconds. */
function timeout(builder: EntryBuilder, table: Record<string, unknown>): number | undefined {
  const seconds = table.startup_timeout_sec;
  const ms = table.startup_timeout_ms;
  const value = seconds !== undefined ? { field: 'startup_timeout_sec', value: seconds, scale: 1000 } : ms !== undefined ? { field: 'startup_timeout_ms', value: ms, scale: 1 } : undefined;
  if (value === undefined) return undefined;
  if (typeof value.value !== 'number' || !(value.value > 0)) {
    builder.fail(`"${value.field}" is ${describe(value.value)}, not a positive number`);
    return undefined;
  }
  return Math.round(value.value * value.scale);
}

/** A problem on the first line matching `pattern` (TOML values carry no positions once parsed). */
function problemOnLine(file: string, text: string, pattern: RegExp, message: string): ImportProblem {
  const match = pattern.exec(text);
  const line = match === null ? 1 : text.slice(0, match.index).split(/\r\n|\r|\n/).length;
  return { file, line, column: 1, message };
}
