// The headless CLI: the same config core as the extension, without VS Code. Thin on purpose: it parses
// arguments, calls the core and formats. Each subcommand is one entry of the `commands` table.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mergeLayers, parseLayer, standardLayerSpecs } from './core/config';
import { MAX_CONFIG_BYTES } from './core/config/ports';
import type { ConfigProblem, EffectiveServer, MergedConfig, ShadowedServer, SourceRange } from './core/config/types';
import { NodeConfigFileSystem } from './node/configFileSystem';

const PROGRAM = 'switchboard';

/** Where a command writes, and what it sees of its process. */
interface Io {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
  env: Record<string, string | undefined>;
}

/** A wrong invocation: reported on one line with a hint, exit code 2. */
class UsageError extends Error {
  constructor(message: string, readonly command?: string) {
    super(message);
  }
}

type FlagSpec = { kind: 'boolean' } | { kind: 'string'; repeat?: boolean; meta: string };
type FlagValues = Record<string, string[] | boolean | undefined>;

interface Command {
  name: string;
  summary: string;
  help: string;
  flags: Record<string, FlagSpec>;
  run(values: FlagValues, io: Io): Promise<number>;
}

// ---------------------------------------------------------------------------------------------
// config

const CONFIG_HELP = `Usage: ${PROGRAM} config --workspace DIR [--workspace DIR ...] [options]

Reads every .mcp.json scope the extension reads, merges them and prints the effective
servers, the entries they shadow and every problem found, with file:line:column.

Options:
  --workspace DIR  A workspace folder; DIR/.mcp.json is its project scope. Repeat it
                   for a multi-root workspace. At least one is required.
  --home DIR       The user's home: the user scope is DIR/.mcp.json and \${userHome}
                   expands to DIR. Default: the current user's home directory.
  --local FILE     The local (private) scope file of the first workspace.
  --plugin FILE    A file in .mcp.json shape read as plugin scope, labelled with its
                   file name. Repeatable.
  --json           Print JSON (stable format, below) instead of a table.
  -h, --help       Show this help.

Scopes, highest precedence first: local, project, user, plugin. When a name is
defined in several scopes the highest wins whole; the others are listed as shadowed.

Names: when two workspace folders define the same server name, both are kept under
a folder-qualified name "<folder name>/<server>". The NAME column and the JSON
"name" field always hold this unique name, so every listed server can be told apart;
the folder itself is in "folder".

Variables (\${VAR}, \${VAR:-default}, \${env:VAR}) expand from this process's
environment, \${workspaceFolder} to the server's workspace folder, \${userHome} to
--home. Paths in the output are absolute.

JSON: { "servers": [ { "name", "scope", "folder", "type", "command", "args", "env",
          "cwd", "url", "headers", "fingerprint", "needsTrust",
          "source": { "file", "line", "column" } } ],
        "shadowed": [ { "name", "scope", "source", "shadowedBy": { "scope", "file" } } ],
        "problems": [ { "file", "line", "column", "severity", "message" } ] }
Every key is always present; absent values are null, empty maps {} and lists [].
Env and header values are printed as written in --json and masked in the table.

Exit status: 0 when the configuration was read, whatever problems it has;
2 for a usage error.
`;

const configCommand: Command = {
  name: 'config',
  summary: 'Print the effective MCP servers of a workspace, where each comes from, and all config problems',
  help: CONFIG_HELP,
  flags: {
    workspace: { kind: 'string', repeat: true, meta: 'DIR' },
    home: { kind: 'string', meta: 'DIR' },
    local: { kind: 'string', meta: 'FILE' },
    plugin: { kind: 'string', repeat: true, meta: 'FILE' },
    json: { kind: 'boolean' },
  },
  async run(values, io) {
    const strings = (name: string) => (values[name] as string[] | undefined) ?? [];
    const workspaces = strings('workspace').map((dir) => path.resolve(io.cwd, dir));
    if (workspaces.length === 0) throw new UsageError('missing --workspace DIR', 'config');
    for (const dir of workspaces) {
      if (!isDirectory(dir)) throw new UsageError(`--workspace ${dir}: not a directory`, 'config');
    }
    const home = path.resolve(io.cwd, strings('home')[0] ?? os.homedir());
    const local = strings('local')[0];

    const specs = standardLayerSpecs({
      folders: workspaces.map((folder, index) => ({
        path: folder,
        localFile: index === 0 && local !== undefined ? path.resolve(io.cwd, local) : undefined,
      })),
      userFile: path.join(home, '.mcp.json'),
      userHome: home,
      env: io.env,
      plugins: strings('plugin').map((file) => ({ file: path.resolve(io.cwd, file), label: path.basename(file) })),
    });
    const files = new NodeConfigFileSystem();
    const layers = await Promise.all(specs.map(async (spec) =>
      parseLayer(spec, spec.inline !== undefined ? { kind: 'text', text: spec.inline } : await files.read(spec.file, MAX_CONFIG_BYTES))));
    const merged = mergeLayers(layers);

    io.out(values.json === true ? `${JSON.stringify(toJson(merged), null, 2)}\n` : formatTable(merged, specs.map((s) => s.file)));
    return 0;
  },
};

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The stable JSON shape: every key present, in this order. */
function toJson(merged: MergedConfig): unknown {
  return {
    servers: merged.servers.map((server) => ({
      name: server.id,
      scope: server.scope,
      folder: server.folder ?? null,
      type: server.launch.type,
      command: server.launch.command ?? null,
      args: [...server.launch.args],
      env: { ...server.launch.env },
      cwd: server.launch.cwd ?? null,
      url: server.launch.url ?? null,
      headers: { ...server.launch.headers },
      fingerprint: server.fingerprint,
      needsTrust: server.needsTrust,
      source: sourceJson(server.source),
    })),
    shadowed: merged.shadowed.map((entry) => ({
      name: entry.name,
      scope: entry.scope,
      source: sourceJson(entry.source),
      shadowedBy: { scope: entry.shadowedBy.scope, file: entry.shadowedBy.file },
    })),
    problems: merged.problems.map((problem) => ({
      file: problem.file,
      line: problem.line,
      column: problem.column,
      severity: problem.severity,
      message: problem.message,
    })),
  };
}

function sourceJson(source: SourceRange): { file: string; line: number; column: number } {
  return { file: source.file, line: source.line, column: source.column };
}

function formatTable(merged: MergedConfig, files: string[]): string {
  const lines: string[] = [];
  if (merged.servers.length === 0) {
    lines.push('No servers. Files read:', ...files.map((file) => `  ${file}`));
  } else {
    const header = ['NAME', 'SCOPE', 'TYPE', 'COMMAND/URL', 'SOURCE'];
    const rows = merged.servers.map((server) => [
      server.id, server.scope, server.launch.type, launchText(server), location(server.source),
    ]);
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
    const render = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ');
    lines.push(render(header));
    merged.servers.forEach((server, index) => {
      lines.push(render(rows[index]));
      lines.push(...detailLines(server).map((detail) => `    ${detail}`));
    });
  }

  lines.push('', section('Shadowed', merged.shadowed.map(shadowedLine)));
  lines.push('', section('Problems', merged.problems.map(problemLine)));
  return `${lines.join('\n')}\n`;
}

function section(title: string, entries: string[]): string {
  if (entries.length === 0) return `${title}: none`;
  return [`${title} (${entries.length}):`, ...entries.map((entry) => `  ${entry}`)].join('\n');
}

function shadowedLine(entry: ShadowedServer): string {
  return `${entry.name} (${entry.scope}) ${location(entry.source)}  shadowed by ${entry.shadowedBy.scope} ${entry.shadowedBy.file}`;
}

function problemLine(problem: ConfigProblem): string {
  return `${problem.file}:${problem.line}:${problem.column} ${problem.severity} ${problem.message}`;
}

function location(source: SourceRange): string {
  return `${source.file}:${source.line}:${source.column}`;
}

function launchText(server: EffectiveServer): string {
  const { command, args, url } = server.launch;
  if (command !== undefined) return [command, ...args].map(quoteArg).join(' ');
  return url !== undefined ? maskUrl(url) : '';
}

/** Env and header values are often secrets: the table shows names only. */
function detailLines(server: EffectiveServer): string[] {
  const details: string[] = [];
  const masked = (map: Record<string, string>) => Object.keys(map).map((key) => `${key}=***`).join(' ');
  if (Object.keys(server.launch.env).length > 0) details.push(`env: ${masked(server.launch.env)}`);
  if (Object.keys(server.launch.headers).length > 0) details.push(`headers: ${masked(server.launch.headers)}`);
  if (server.launch.cwd !== undefined) details.push(`cwd: ${server.launch.cwd}`);
  if (server.needsTrust) details.push('needs trust before it can start');
  return details;
}

function quoteArg(arg: string): string {
  return arg === '' || /[\s"'\\$`]/.test(arg) ? JSON.stringify(arg) : arg;
}

function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

// ---------------------------------------------------------------------------------------------
// Dispatch

const commands: Command[] = [configCommand];

function mainHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `Run '${PROGRAM} <command> --help' for a command's options.`,
    '',
  ].join('\n');
}

/** Parses `--name value`, `--name=value` and boolean `--name`; `-h`/`--help` everywhere. */
function parseFlags(command: Command, args: string[]): FlagValues | 'help' {
  const values: FlagValues = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '-h' || arg === '--help') return 'help';
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument '${arg}'`, command.name);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = Object.prototype.hasOwnProperty.call(command.flags, name) ? command.flags[name] : undefined;
    if (spec === undefined) throw new UsageError(`unknown option '--${name}'`, command.name);
    if (spec.kind === 'boolean') {
      if (eq >= 0) throw new UsageError(`option '--${name}' takes no value`, command.name);
      values[name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (i + 1 < args.length && !args[i + 1].startsWith('--')) value = args[++i];
    if (value === undefined || value === '') throw new UsageError(`option '--${name}' needs a value (${spec.meta})`, command.name);
    const previous = values[name] as string[] | undefined;
    if (previous !== undefined && !spec.repeat) throw new UsageError(`option '--${name}' given twice`, command.name);
    values[name] = [...(previous ?? []), value];
  }
  return values;
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  try {
    const [name, ...rest] = argv;
    if (name === undefined) throw new UsageError('missing command');
    if (name === '-h' || name === '--help' || name === 'help') {
      io.out(mainHelp());
      return 0;
    }
    const command = commands.find((c) => c.name === name);
    if (command === undefined) throw new UsageError(`unknown command '${name}'`);
    const values = parseFlags(command, rest);
    if (values === 'help') {
      io.out(command.help);
      return 0;
    }
    return await command.run(values, io);
  } catch (error) {
    if (error instanceof UsageError) {
      const hint = error.command === undefined ? `${PROGRAM} --help` : `${PROGRAM} ${error.command} --help`;
      io.err(`${PROGRAM}: ${error.message}\nRun '${hint}' for usage.\n`);
      return 2;
    }
    io.err(`${PROGRAM}: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    return 1;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
  }).then((code) => { process.exitCode = code; });
}
