// Goose's `config.yaml`: `extensions`, one entry per extension. `stdio` ones have `cmd`, `args` and
// `envs`; `sse` and `streamable_http` ones a `uri` (and `headers`); `builtin`, `platform`, `frontend`
// and `inline_python` ones run inside Goose and cannot be imported. Values are literal. Names in
// `env_keys` are secrets Goose keeps in its own store: they become `${input:…}` secrets, asked once.
import { parseDocument } from 'yaml';
import { describe, EntryBuilder } from './entry';
import { emptyRead } from './serverMap';
import type { HostRead, HostReader, ImportedEntry } from './types';

const TRANSPORTS: Record<string, ImportedEntry['type']> = { stdio: 'stdio', sse: 'sse', streamable_http: 'http' };
const INSIDE_GOOSE = ['builtin', 'platform', 'frontend', 'inline_python'];
const NOTES: Record<string, string> = {
  timeout: 'Goose\'s timeout is for tool calls; Switchboard has one for every server, the setting switchboard.requestTimeout',
  description: 'Switchboard keeps no description of a server',
  display_name: 'Switchboard shows the server\'s name',
  bundled: 'it only says whether Goose shipped the extension',
};
const TRANSLATED = ['type', 'name', 'enabled', 'cmd', 'args', 'envs', 'env_keys', 'uri', 'headers', 'available_tools'];

/** Reads Goose's configuration. */
export const readGoose: HostReader = (file, text) => {
  const parsed = parseDocument(text, { prettyErrors: true });
  if (parsed.errors.length > 0) {
    const problems = parsed.errors.map((error) => {
      const position = error.linePos?.[0] ?? { line: 1, col: 1 };
      return { file, line: position.line, column: position.col, message: error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '') };
    });
    return { servers: [], inputs: [], skipped: [], problems, usable: false };
  }
  const read = emptyRead();
  const root = parsed.toJS() as unknown;
  const extensions = typeof root === 'object' && root !== null ? (root as Record<string, unknown>).extensions : undefined;
  if (extensions === undefined || extensions === null) return read;
  if (typeof extensions !== 'object' || Array.isArray(extensions)) {
    const node = parsed.get('extensions', true) as { range?: [number, number, number] } | undefined;
    const offset = node?.range?.[0] ?? 0;
    const before = text.slice(0, offset).split(/\r\n|\r|\n/);
    read.problems.push({ file, line: before.length, column: before[before.length - 1].length + 1, message: `"extensions" is ${describe(extensions)}, not a map of extensions` });
    return read;
  }
  for (const [name, raw] of Object.entries(extensions as Record<string, unknown>)) readExtension(read, name, raw, file);
  return read;
};

function readExtension(read: HostRead, name: string, raw: unknown, file: string): void {
  const builder = new EntryBuilder(name, 'literal', read.skipped);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    builder.fail(`its definition is ${describe(raw)}, not a map`);
    builder.finish(file);
    return;
  }
  const entry = raw as Record<string, unknown>;
  const kind = typeof entry.type === 'string' ? entry.type : undefined;
  if (kind !== undefined && INSIDE_GOOSE.includes(kind)) {
    builder.fail(`it is a "${kind}" extension, which runs inside Goose rather than as an MCP server of its own`);
    builder.finish(file);
    return;
  }
  const type = kind !== undefined && Object.prototype.hasOwnProperty.call(TRANSPORTS, kind) ? TRANSPORTS[kind] : undefined;
  if (type === undefined) builder.fail(`"type" ${JSON.stringify(entry.type)} is not one Switchboard knows (stdio, sse, streamable_http)`);
  for (const key of Object.keys(entry)) if (!TRANSLATED.includes(key)) builder.note(key, NOTES[key] ?? 'not a field Switchboard knows');
  builder.set('type', type);
  builder.set('command', builder.text('cmd', entry.cmd));
  builder.set('args', builder.texts('args', entry.args));
  const env: Record<string, string> = { ...builder.map('envs', entry.envs) };
  for (const key of builder.texts('env_keys', entry.env_keys) ?? []) {
    const id = `${name}-${key}`;
    env[key] = `\${input:${id}}`;
    if (!read.inputs.some((input) => input.id === id)) {
      read.inputs.push({ id, type: 'promptString', description: `${key} for ${name} (kept in Goose's secret storage)`, password: true });
    }
  }
  builder.set('env', env);
  builder.set('url', builder.text('uri', entry.uri));
  builder.set('headers', builder.map('headers', entry.headers));
  if (builder.flag('enabled', entry.enabled) === false) builder.set('disabled', true);
  const tools = builder.texts('available_tools', entry.available_tools);
  if (tools !== undefined && tools.length > 0) builder.set('allowedTools', tools);
  const server = builder.finish(file);
  if (server !== undefined) read.servers.push(server);
}
