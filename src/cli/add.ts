// `switchboard add`, `add-json` and `remove`: change a scope file from a terminal the way `claude mcp
// add` does, by text edits that keep the file's comments and formatting. A name the file has is
// refused unless --force; the extension picks the change up like any edit.
import { addServer, removeServer } from '../core/config/scopeWriter';
import type { ImportedEntry } from '../core/import';
import { PROGRAM, UsageError, type Args, type Command, type Io } from './command';
import {
  projectTrustNote, readScopeText, scopeFile, scopeFlag, ScopeWriteError, SCOPE_FILE_FLAGS, SCOPE_FILE_HELP,
  WRITABLE_SCOPES, writeScopeText,
} from './scopeFiles';

// The parser takes a fixed list of positional names: NAME, then the command and its arguments.
const MAX_POSITIONALS = 256;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const SCOPE_HELP = `  --scope SCOPE    user (default), local or project. Project servers are shared
                   through the repository and need trust before they start.
${SCOPE_FILE_HELP}
  --force          Replace a server of the same name instead of refusing.
  -h, --help       Show this help.`;

const ADD_HELP = `Usage: ${PROGRAM} add NAME [--scope user|local|project] [--env K=V]... -- COMMAND [ARGS...]
       ${PROGRAM} add NAME URL --transport http|sse [--header 'K: V']... [--scope ...]

Adds a server to a scope file (created when missing), keeping the file's comments and
formatting. A name the file already has is refused unless --force. Everything after
"--" is the command and its arguments, passed as they are. Values may use our
variables (\${VAR}, \${env:VAR}, \${input:id}, \${workspaceFolder}, \${userHome}).

Options:
  --env K=V        An environment variable of a stdio server. Repeatable.
  --transport T    stdio (default), http or sse. A URL needs http or sse.
  --header 'K: V'  A header of an http or sse server. Repeatable.
${SCOPE_HELP}

Exit status: 0 when the file was written; 1 when the name exists (without --force) or
the file cannot be changed (not valid JSON: fix it first); 2 for a usage error.
`;

const ADD_JSON_HELP = `Usage: ${PROGRAM} add-json NAME 'JSON' [--scope user|local|project] [--force]

Adds a server from its JSON definition, exactly as it is written in a .mcp.json
(e.g. '{"command":"npx","args":["-y","pkg"]}'); it is checked like the extension
reads it before anything is written.

Options:
${SCOPE_HELP}

Exit status: as for '${PROGRAM} add'.
`;

const REMOVE_HELP = `Usage: ${PROGRAM} remove NAME [--scope user|local|project]

Removes a server from a scope file, and nothing else: the other entries, comments
and formatting stay. Without --scope, the scopes this invocation can see (user;
local with --local; project with --workspace) are searched: the name must be in
exactly one.

Options:
  --scope SCOPE    The scope to remove it from.
${SCOPE_FILE_HELP}
  -h, --help       Show this help.

Exit status: 0 when removed; 1 when no scope has it; 2 for a usage error (including
a name in several scopes without --scope).
`;

export const addCommand: Command = {
  name: 'add',
  summary: 'Add a server to a scope file (user, local or project), keeping its comments',
  help: ADD_HELP,
  flags: {
    scope: { kind: 'string', meta: 'SCOPE' }, env: { kind: 'string', repeat: true, meta: 'K=V' },
    header: { kind: 'string', repeat: true, meta: "'K: V'" }, transport: { kind: 'string', meta: 'stdio|http|sse' },
    force: { kind: 'boolean' }, ...SCOPE_FILE_FLAGS,
  },
  positionals: { names: ['NAME', ...new Array<string>(MAX_POSITIONALS - 1).fill('COMMAND')], required: 2 },
  async run(args, io) {
    const [name, ...rest] = args.positionals;
    checkName(name, 'add');
    return write(args, io, 'add', name, entryFromFlags(args, rest));
  },
};

export const addJsonCommand: Command = {
  name: 'add-json',
  summary: 'Add a server to a scope file from its JSON definition',
  help: ADD_JSON_HELP,
  flags: { scope: { kind: 'string', meta: 'SCOPE' }, force: { kind: 'boolean' }, ...SCOPE_FILE_FLAGS },
  positionals: { names: ['NAME', 'JSON'], required: 2 },
  async run(args, io) {
    const [name, json] = args.positionals;
    checkName(name, 'add-json');
    let entry: unknown;
    try {
      entry = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`JSON: not valid JSON (${(error as Error).message})`, 'add-json');
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new UsageError('JSON: a server definition is an object, like {"command":"npx","args":["-y","pkg"]}', 'add-json');
    return write(args, io, 'add-json', name, entry as Record<string, unknown>);
  },
};

export const removeCommand: Command = {
  name: 'remove',
  summary: 'Remove a server from a scope file, keeping everything else',
  help: REMOVE_HELP,
  flags: { scope: { kind: 'string', meta: 'SCOPE' }, ...SCOPE_FILE_FLAGS },
  positionals: { names: ['NAME'], required: 1 },
  async run(args, io) {
    const [name] = args.positionals;
    const given = scopeFlag(args, 'scope', 'remove');
    const visible = given !== undefined ? [given] : WRITABLE_SCOPES.filter((scope) => scope === 'user' || (scope === 'local' ? args.string('local') : args.string('workspace')) !== undefined);
    const holding = visible.map((scope) => ({ scope, file: scopeFile(scope, args, io, 'remove') }))
      .map((target) => ({ ...target, text: readScopeText(target.file) }))
      .filter((target) => removeServer(target.text, name).ok);
    if (holding.length === 0) {
      io.err(`${PROGRAM}: no server named "${name}" in the ${visible.join(', ')} scope${visible.length === 1 ? '' : 's'}\n`);
      return 1;
    }
    if (holding.length > 1) throw new UsageError(`"${name}" is in several scopes (${holding.map((t) => `${t.scope}: ${t.file}`).join('; ')}); give --scope`, 'remove');
    const [target] = holding;
    const change = removeServer(target.text, name, { file: target.file });
    if (!change.ok) return refuse(io, target.file, change.refusal.message);
    return guarded(io, async () => {
      await writeScopeText(target.file, change.text, target.scope, []);
      io.out(`Removed "${name}" from the ${target.scope} scope (${target.file}).\n`);
    });
  },
};

/** The entry `add` describes with its flags and positionals. */
function entryFromFlags(args: Args, rest: string[]): ImportedEntry {
  const transport = args.string('transport') ?? 'stdio';
  if (!['stdio', 'http', 'sse'].includes(transport)) throw new UsageError(`--transport ${transport}: expected stdio, http or sse`, 'add');
  if (transport === 'stdio') {
    if (args.strings('header').length > 0) throw new UsageError('--header is for http and sse servers (give --transport http or sse)', 'add');
    const [command, ...commandArgs] = rest;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(command) && rest.length === 1) throw new UsageError(`${command} is a URL: give --transport http or sse`, 'add');
    const env = Object.fromEntries(args.strings('env').map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq < 0 ? pair : pair.slice(0, eq);
      if (eq < 0 || !ENV_NAME.test(key)) throw new UsageError(`--env ${pair}: expected NAME=VALUE with a NAME of letters, digits and _`, 'add');
      return [key, pair.slice(eq + 1)];
    }));
    return {
      type: 'stdio', command,
      ...(commandArgs.length > 0 ? { args: commandArgs } : {}),
      ...(Object.keys(env).length > 0 ? { env } : {}),
    };
  }
  if (args.strings('env').length > 0) throw new UsageError('--env is for stdio servers; a remote server takes --header', 'add');
  if (rest.length !== 1) throw new UsageError(`an ${transport} server takes one URL after NAME, got ${rest.length} arguments`, 'add');
  const [url] = rest;
  if (!/^https?:\/\//i.test(url) && !url.startsWith('${')) throw new UsageError(`${url}: an ${transport} server needs an http:// or https:// URL`, 'add');
  const headers = Object.fromEntries(args.strings('header').map((header) => {
    const colon = header.indexOf(':');
    const key = colon < 0 ? '' : header.slice(0, colon).trim();
    if (!HEADER_NAME.test(key)) throw new UsageError(`--header ${header}: expected 'Name: value'`, 'add');
    return [key, header.slice(colon + 1).trim()];
  }));
  return { type: transport as 'http' | 'sse', url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
}

/** Adds `entry` under `name` to the scope's file and says what was written. */
async function write(args: Args, io: Io, command: string, name: string, entry: object): Promise<number> {
  const scope = scopeFlag(args, 'scope', command, 'user')!;
  const file = scopeFile(scope, args, io, command);
  const change = addServer(readScopeText(file), name, entry, { force: args.has('force'), file });
  if (!change.ok) return refuse(io, file, change.refusal.kind === 'exists' ? `${change.refusal.message}; --force replaces it` : change.refusal.message);
  return guarded(io, async () => {
    await writeScopeText(file, change.text, scope, [name]);
    io.out(`Added "${name}" to the ${scope} scope (${file}):\n  ${describe(entry)}\n`);
    if (scope === 'project') io.out(projectTrustNote([name], file));
  });
}

/** The definition as a person checks it: the whole command line or URL, env and header names. */
function describe(entry: object): string {
  const e = entry as Partial<ImportedEntry>;
  const launch = e.command !== undefined ? [e.command, ...(e.args ?? [])].join(' ') : e.url ?? JSON.stringify(entry);
  const names = (label: string, map: Record<string, string> | undefined) => (map !== undefined && Object.keys(map).length > 0 ? `; ${label} ${Object.keys(map).join(', ')}` : '');
  return `${launch}${names('env', e.env)}${names('headers', e.headers)}`;
}

function checkName(name: string, command: string): void {
  // `/` is kept for the folder-qualified ids of multi-root workspaces.
  if (name.trim() === '' || name.includes('/') || [...name].some((char) => char.charCodeAt(0) < 0x20)) throw new UsageError(`NAME "${name}": a server name is not empty and has no "/" or control characters`, command);
}

function refuse(io: Io, file: string, message: string): number {
  io.err(`${PROGRAM}: ${file}: ${message}\n`);
  return 1;
}

async function guarded(io: Io, run: () => Promise<void>): Promise<number> {
  try {
    await run();
    return 0;
  } catch (error) {
    if (!(error instanceof ScopeWriteError)) throw error;
    io.err(`${PROGRAM}: ${error.message}\n`);
    return 1;
  }
}

