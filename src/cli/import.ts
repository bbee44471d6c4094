// `switchboard import --from HOST [--file FILE] [--json] [--write SCOPE]`: the servers another MCP host
// (Claude Desktop, Claude Code, VS Code, Cursor, Windsurf, Codex, Zed, Goose) has, translated into
// entries of ours, with what cannot be translated and why; it writes only with --write.
import * as os from 'node:os';
import * as path from 'node:path';
import { addServer, declareInputs } from '../core/config/scopeWriter';
import {
  defaultLocations, HOST_IDS, HOST_NAMES, importHost, MAX_HOST_FILE_BYTES, originNote, originNoteOf, withOriginNote, withWorkspaceOrigins, workspaceImportEntries,
  type HostId, type HostImport, type ImportedEntry, type ImportedServer, type Platform,
} from '../core/import';
import { buildTrustPrompt, launchDangerFlags } from '../core/trust';
import { loadBashParser } from '../node/bashParser';
import { NodeConfigFileSystem } from '../node/configFileSystem';
import { dangerFlagContext } from '../node/dangerFlagContext';
import { PROGRAM, UsageError, type Command } from './command';
import { projectTrustNote, readScopeText, ScopeWriteError, scopeFile, scopeFlag, SCOPE_FILE_FLAGS, SCOPE_FILE_HELP, writeScopeText } from './scopeFiles';

const IMPORT_HELP = `Usage: ${PROGRAM} import --from HOST [--file FILE] [--json] [--write user|local|project [--workspace DIR] [--reviewed]]

Reads the MCP servers another host has and prints them as entries of a .mcp.json,
with every server or field that cannot be translated and why. Writes nothing
unless --write is given.

HOST: ${HOST_IDS.join(', ')}.

Options:
  --from HOST      The host to read.
  --file FILE      Read this file (in HOST's format) instead of HOST's default
                   locations. Repeatable.
  --write SCOPE    Write the servers into the scope file of SCOPE (user, local or
                   project). A name the file already has is left alone (listed in
                   "skipped") unless --force is given. Comments and formatting of
                   the file are kept. Project servers still need trust.
  --force          With --write: replace servers of the same name.
  --reviewed       With --write user or local: you have read the definitions of
                   the servers that come from a repository's file (below) and
                   trust them. Without it such a server is not written there:
                   its whole definition and danger flags are printed instead,
                   and the exit status is 1.
${SCOPE_FILE_HELP}
                   Without --file, DIR's own files of HOST (.vscode/mcp.json,
                   .cursor/mcp.json, .codex/config.toml, .zed/settings.json) are
                   read too.
  --json           Print JSON (below) instead of a table.
  -h, --help       Show this help.

Default locations (~ is --home): Claude Desktop's claude_desktop_config.json
(macOS ~/Library/Application Support/Claude, Windows %APPDATA%\\Claude, Linux
$XDG_CONFIG_HOME/Claude); Claude Code's ~/.claude.json (top-level and each
project's mcpServers); VS Code's profile mcp.json (Code and Code - Insiders:
$XDG_CONFIG_HOME/Code/User, ~/Library/Application Support/Code/User,
%APPDATA%\\Code\\User); Cursor's ~/.cursor/mcp.json; Windsurf's
~/.codeium/windsurf/mcp_config.json; Codex's $CODEX_HOME/config.toml or
~/.codex/config.toml; Zed's settings.json ($XDG_CONFIG_HOME/zed, ~/.config/zed on
macOS, %APPDATA%\\Zed); Goose's config.yaml ($XDG_CONFIG_HOME/goose, ~/.config/goose
on macOS, %APPDATA%\\Block\\goose\\config). $XDG_CONFIG_HOME defaults to ~/.config.

A server read from a repository's file — inside the --workspace folder, or a
host's project file (.vscode/mcp.json, .cursor/mcp.json, .codex/config.toml,
.zed/settings.json, .mcp.json) wherever it lies, but not HOST's own user file — is
the repository's, not yours: written into the user or local scope only with
--reviewed, it gets a comment naming the file it came from. In the project scope
it waits for trust like any project server.

JSON: { "mcpServers": { NAME: ENTRY, ... },
        "origins": { NAME: { "file", "section"?, "fromWorkspace" }, ... },
        "skipped": [ { "name", "reason" } ],
        "problems": [ { "file", "line", "column", "message" } ] }
ENTRY is exactly what is (or would be) written into a .mcp.json: "type", then
"command", "args", "env", "envFile", "cwd", "url", "headers", "timeout",
"disabled", "allowedTools", "disabledTools" when the source has them, with the
host's variables in our syntax. A "skipped" reason starting with "not imported:"
means the whole server was left out; one naming a field means the server was
imported without that field. With --write, "mcpServers" holds what was written.
"fromWorkspace" is true for a server read from a repository's file; such a
server's ENTRY also says "fromWorkspace": true (not written into the file, where
a comment naming the file it came from records it instead).

Exit status: 0 when at least one file was read (whatever it holds); 1 when none
could be (missing, or not valid in HOST's format), or when --write user or local
would write a repository's server without --reviewed (nothing is written); 2 for
a usage error.
`;

export const importCommand: Command = {
  name: 'import',
  summary: 'Read the MCP servers of another host (Claude, VS Code, Cursor, Windsurf, Codex, Zed, Goose) as .mcp.json entries',
  help: IMPORT_HELP,
  flags: {
    from: { kind: 'string', meta: 'HOST' },
    file: { kind: 'string', repeat: true, meta: 'FILE' },
    write: { kind: 'string', meta: 'SCOPE' },
    force: { kind: 'boolean' },
    reviewed: { kind: 'boolean' },
    json: { kind: 'boolean' },
    ...SCOPE_FILE_FLAGS,
  },
  async run(args, io) {
    const from = args.string('from');
    if (from === undefined) throw new UsageError(`missing --from HOST (${HOST_IDS.join(', ')})`, 'import');
    if (!(HOST_IDS as readonly string[]).includes(from)) throw new UsageError(`--from ${from}: expected one of ${HOST_IDS.join(', ')}`, 'import');
    const host = from as HostId;
    const scope = scopeFlag(args, 'write', 'import');
    if (args.has('force') && scope === undefined) throw new UsageError('--force only goes with --write', 'import');
    if (args.has('reviewed') && scope !== 'user' && scope !== 'local') throw new UsageError('--reviewed only goes with --write user or --write local', 'import');
    const target = scope === undefined ? undefined : scopeFile(scope, args, io, 'import');

    const home = path.resolve(io.cwd, args.string('home') ?? os.homedir());
    const workspace = args.string('workspace');
    const given = args.strings('file').map((file) => path.resolve(io.cwd, file));
    const files = given.length > 0 ? given : defaultLocations(host, {
      platform: platformOf(process.platform), home, env: io.env,
      folders: workspace === undefined ? [] : [path.resolve(io.cwd, workspace)],
    });
    const fileSystem = new NodeConfigFileSystem();
    const reads = await Promise.all(files.map(async (file) => ({ file, read: await fileSystem.read(file, MAX_HOST_FILE_BYTES) })));
    const result = importHost(host, reads);
    if (given.length > 0) {
      for (const file of result.missingFiles) result.problems.push({ file, line: 1, column: 1, message: 'No such file' });
    }
    const folders = workspace === undefined ? [] : [path.resolve(io.cwd, workspace)];
    const userFiles = defaultLocations(host, { platform: platformOf(process.platform), home, env: io.env });
    result.servers = withWorkspaceOrigins(result.servers, { folders, userFiles });

    let servers = result.servers.map((server) => ({ name: server.name, entry: server.entry }));
    if ((scope === 'user' || scope === 'local') && !args.has('reviewed')) {
      const unreviewed = result.servers.filter((server) => server.fromWorkspace === true);
      if (unreviewed.length > 0) {
        io.err(await refusal(unreviewed, scope, { folders, home, env: io.env }));
        return 1;
      }
    }
    if (scope !== undefined && target !== undefined) {
      try {
        servers = await writeServers(result, target, scope, args.has('force'));
      } catch (error) {
        if (!(error instanceof ScopeWriteError)) throw error;
        io.err(`${PROGRAM}: ${error.message}\n`);
        return 1;
      }
    }
    if (args.has('json')) io.out(`${JSON.stringify(toJson(servers, result), null, 2)}\n`);
    else io.out(formatTable(servers, result, target, scope !== undefined && target !== undefined ? readScopeText(target) : undefined));
    if (result.readFiles.length === 0) {
      io.err(`${PROGRAM}: no ${HOST_NAMES[host]} configuration could be read; looked in:\n${files.map((file) => `  ${file}`).join('\n')}\n`);
      return 1;
    }
    if (scope === 'project' && servers.length > 0 && target !== undefined) io.err(projectTrustNote(servers.map((s) => s.name), target));
    return 0;
  },
};

/** Writes every imported server whose name the file lacks (all of them with `force`); returns those written. */
async function writeServers(result: HostImport, file: string, scope: 'user' | 'local' | 'project', force: boolean): Promise<{ name: string; entry: ImportedEntry }[]> {
  let text = readScopeText(file);
  const written: { name: string; entry: ImportedEntry }[] = [];
  for (const server of result.servers) {
    const change = addServer(text, server.name, server.entry, { force, file });
    if (!change.ok) {
      if (change.refusal.kind !== 'exists') throw new ScopeWriteError(`${file}: ${change.refusal.message}`);
      result.skipped.push({ name: server.name, reason: `not written: ${change.refusal.message} of ${file} (--force replaces it)` });
      continue;
    }
    text = change.text;
    if (server.fromWorkspace === true) text = withOriginNote(text, server.name, originNote(server.file, new Date())) ?? text;
    written.push({ name: server.name, entry: server.entry });
  }
  if (written.length === 0 || text === undefined) return written;
  const used = result.inputs.filter((input) => written.some(({ entry }) => JSON.stringify(entry).includes(`\${input:${input.id}}`)));
  const declared = declareInputs(text, used, { file });
  if (!declared.ok) throw new ScopeWriteError(`${file}: ${declared.refusal.message}`);
  await writeScopeText(file, declared.text, scope, written.map((server) => server.name));
  return written;
}

/**
 * Why repository servers are not written without a person's review: each shown whole, as the trust
 * prompt shows a project server (command line, danger flags), and how to go on.
 */
async function refusal(servers: readonly ImportedServer[], scope: 'user' | 'local', where: { folders: string[]; home: string; env: Record<string, string | undefined> }): Promise<string> {
  const context = dangerFlagContext({ workspaceFolders: where.folders, userHome: where.home, env: where.env, shellParser: await loadBashParser() });
  const entries = workspaceImportEntries(servers.map((server) => ({ name: server.name, entry: server.entry, file: server.file })), {
    folders: where.folders, env: where.env, userHome: where.home, flags: (server) => launchDangerFlags(server, context),
  });
  const names = servers.map((server) => `"${server.name}"`).join(', ');
  return `${PROGRAM}: not written: ${names} ${servers.length === 1 ? 'comes' : 'come'} from a repository's file, not from your own configuration. `
    + `Read ${servers.length === 1 ? 'its definition' : 'their definitions'} below; to write ${servers.length === 1 ? 'it' : 'them'} into the ${scope} scope, run the same command with --reviewed, `
    + `or import into the project scope, where ${servers.length === 1 ? 'it waits' : 'they wait'} for trust. Nothing was written.\n\n${buildTrustPrompt(entries).detail}\n`;
}

function toJson(servers: { name: string; entry: ImportedEntry }[], result: HostImport): unknown {
  const origin = new Map(result.servers.map((server) => [server.name, server]));
  return {
    // A repository's server says so in its entry too, where a reader of the entries looks first.
    mcpServers: Object.fromEntries(servers.map((server) => [server.name, origin.get(server.name)?.fromWorkspace === true ? { ...server.entry, fromWorkspace: true } : server.entry])),
    origins: Object.fromEntries(servers.map(({ name }) => {
      const source = origin.get(name);
      return [name, { file: source?.file ?? '', ...(source?.section !== undefined ? { section: source.section } : {}), fromWorkspace: source?.fromWorkspace === true }];
    })),
    skipped: result.skipped.map((item) => ({ name: item.name, reason: item.reason })),
    problems: result.problems.map((problem) => ({ file: problem.file, line: problem.line, column: problem.column, message: problem.message })),
  };
}

/** The table; `written` is the target's text after --write, whose notes of origin are shown. */
function formatTable(servers: { name: string; entry: ImportedEntry }[], result: HostImport, target: string | undefined, written: string | undefined): string {
  const lines: string[] = [];
  const origin = new Map(result.servers.map((server) => [server.name, server.section === undefined ? server.file : `${server.file} (${server.section})`]));
  if (servers.length === 0) lines.push(target === undefined ? 'No servers to import.' : `Nothing written to ${target}.`);
  else lines.push(target === undefined ? `Servers (${servers.length}):` : `Wrote ${servers.length} server(s) to ${target}:`);
  for (const { name, entry } of servers) {
    lines.push(`  ${name}  ${entry.type}  ${entry.command !== undefined ? [entry.command, ...(entry.args ?? [])].join(' ') : entry.url ?? ''}`);
    if (entry.env !== undefined) lines.push(`      env: ${Object.keys(entry.env).join(', ')}`);
    if (entry.headers !== undefined) lines.push(`      headers: ${Object.keys(entry.headers).join(', ')}`);
    const repository = result.servers.find((server) => server.name === name)?.fromWorkspace === true;
    lines.push(`      from ${origin.get(name) ?? ''}${repository ? ' (a repository\'s file: written into the user or local scope only with --reviewed)' : ''}`);
    const note = written === undefined ? undefined : originNoteOf(written, name);
    if (note !== undefined) lines.push(`      noted in the file: ${note}`);
  }
  lines.push('', result.skipped.length === 0 ? 'Skipped: none' : `Skipped (${result.skipped.length}):`, ...result.skipped.map((item) => `  ${item.name}: ${item.reason}`));
  lines.push('', result.problems.length === 0 ? 'Problems: none' : `Problems (${result.problems.length}):`,
    ...result.problems.map((problem) => `  ${problem.file}:${problem.line}:${problem.column} ${problem.message}`));
  return `${lines.join('\n')}\n`;
}

function platformOf(platform: NodeJS.Platform): Platform {
  return platform === 'win32' || platform === 'darwin' ? platform : 'linux';
}
