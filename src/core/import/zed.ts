// Zed's `settings.json` (JSON with comments): `context_servers`. A custom server has `command` (a
// string with `args` and `env` beside it, or, in older files, an object `{ path, args, env }`) or a
// `url` with `headers`; a server an extension provides is started by that extension's code. Zed
// expands no variables.
import { EntryBuilder, describe } from './entry';
import { objectAt, parseJsonSource, unusable } from './jsonSource';
import { emptyRead } from './serverMap';
import type { HostRead, HostReader } from './types';

const KNOWN = ['source', 'enabled', 'command', 'args', 'env', 'url', 'headers', 'settings'];

/** Reads Zed's settings. */
export const readZed: HostReader = (file, text) => {
  const source = parseJsonSource(file, text);
  if (Array.isArray(source)) return unusable(source);
  const read = emptyRead();
  const servers = objectAt(source, ['context_servers'], read.problems);
  for (const [name, raw] of Object.entries(servers ?? {})) readServer(read, name, raw, file);
  return read;
};

function readServer(read: HostRead, name: string, raw: unknown, file: string): void {
  const builder = new EntryBuilder(name, 'literal', read.skipped);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    builder.fail(`its definition is ${describe(raw)}, not an object`);
    builder.finish(file);
    return;
  }
  const entry = raw as Record<string, unknown>;
  for (const key of Object.keys(entry)) if (!KNOWN.includes(key)) builder.note(key, 'not a field Switchboard knows');
  if (entry.source === 'extension' || (entry.command === undefined && entry.url === undefined && entry.settings !== undefined)) {
    builder.fail('a Zed extension provides this server and only that extension knows how to start it');
    builder.finish(file);
    return;
  }
  if (entry.settings !== undefined) builder.note('settings', 'these are settings for a Zed extension');
  const command = entry.command;
  if (typeof command === 'object' && command !== null && !Array.isArray(command)) {
    const legacy = command as Record<string, unknown>;
    builder.set('command', builder.text('command.path', legacy.path));
    builder.set('args', builder.texts('command.args', legacy.args));
    builder.set('env', builder.map('command.env', legacy.env));
  } else {
    builder.set('command', builder.text('command', command));
    builder.set('args', builder.texts('args', entry.args));
    builder.set('env', builder.map('env', entry.env));
  }
  builder.set('url', builder.text('url', entry.url));
  builder.set('headers', builder.map('headers', entry.headers));
  if (builder.flag('enabled', entry.enabled) === false) builder.set('disabled', true);
  const server = builder.finish(file);
  if (server !== undefined) read.servers.push(server);
}
