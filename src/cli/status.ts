// `switchboard status`: starts the workspace's servers the way the extension would, waits until each is
// ready or failed, lists what each offers, stops them all and reports.
import {
  DEFAULT_LIFECYCLE_SETTINGS, ServerState, serverWarnings, startupSummaryLine, stderrExcerpt, type RefusedTool, type ServerView, type StartupSummary,
} from '../core/lifecycle';
import { millisecondsFlag, PROGRAM, type Command } from './command';
import { tableRenderer } from './table';
import { TRUST_STORE_HELP } from './trust';
import { problemLine, readWorkspaceConfig, WORKSPACE_HELP } from './workspace';
import { settleBudget, workspaceServersHost, WORKSPACE_SERVERS_FLAGS } from './workspaceServers';

const STATUS_HELP = `Usage: ${PROGRAM} status --workspace DIR [options]

Starts the workspace's MCP servers as the extension would (all at once), waits until
each one is ready or has failed, lists what each ready server offers, stops them all
(no process is left behind) and prints one line per server.

Project servers (the workspace's .mcp.json) are not started unless --allow-project is
given or their exact definition is trusted in --trust-store FILE: the others are listed
with state "needsTrust". Disabled servers are listed as "disabled". Tools hidden by an
entry's "allowedTools"/"disabledTools" are not counted (the table says how many), nor
are tools the host refuses (a schema nested too deep to check): the table names them
with the reason, and with --json they are named on stderr.

Options:
${WORKSPACE_HELP}
  --allow-project  Also start the project servers (you trust this repository).
${TRUST_STORE_HELP}
  --timeout MS     Startup timeout of each server, unless its entry sets "timeout".
                   Default: ${DEFAULT_LIFECYCLE_SETTINGS.startupTimeoutMs}.
  --json           Print JSON (stable format, below) instead of a table.
  --verbose        Print lifecycle messages and the servers' stderr on stderr
                   (env and header values are masked).
  -h, --help       Show this help.

JSON: { "servers": [ { "name", "scope", "state", "error", "tools", "resources",
          "prompts", "startMs", "warnings", "stderr", "hint" } ] }
"state" is the lifecycle state: ready, failed, needsTrust, disabled (or starting when
a server did not settle in time). "error" is the reason a server failed, else null.
The counts are numbers (0 unless ready). "startMs" is the time from start to ready in
milliseconds, null if the server never became ready. "warnings" are what is wrong
with a ready server, e.g. "tools/list failed: …" (it is ready, but offers less than
it should; the counts hold what was listed). "stderr" is what a failed
server wrote to stderr, the lines stating the error first, then the last lines ([]
unless failed). "hint" says what to do when stderr names the cause (a missing
environment variable: which one to set, and where), else null.

Exit status: 0 when every server that was started is ready; 1 when any failed;
2 for a usage error.
`;

/** One server's line of the report, in the JSON key order. */
interface StatusRow {
  name: string;
  scope: string;
  state: ServerState['kind'];
  error: string | null;
  tools: number;
  resources: number;
  prompts: number;
  startMs: number | null;
  /** What is wrong with a ready server: a listing that failed ("tools/list failed: …"). */
  warnings: string[];
  /** A failed server's stderr: the lines stating the error first, then the last lines. */
  stderr: string[];
  /** What to do about a failure when stderr names its cause, else null. */
  hint: string | null;
  /** Not printed in JSON: why a server waiting for trust was not started, for the table. */
  parkedBecause?: string;
  /** Not printed in JSON: how many listed tools allowedTools/disabledTools hide, for the table. */
  hiddenTools: number;
  /** Not printed in JSON (told on stderr instead): the tools the host refused, with why. */
  refusedTools: RefusedTool[];
  /** Not printed in JSON: log lines dropped because the server logged faster than the budget. */
  droppedLogLines: number;
}

export const statusCommand: Command = {
  name: 'status',
  summary: 'Start the servers, wait until each is ready or failed, stop them and report',
  help: STATUS_HELP,
  flags: { ...WORKSPACE_SERVERS_FLAGS, verbose: { kind: 'boolean' } },
  async run(args, io) {
    const startupTimeoutMs = millisecondsFlag(args, 'timeout', DEFAULT_LIFECYCLE_SETTINGS.startupTimeoutMs, 'status');
    const config = await readWorkspaceConfig(args, io, 'status');
    const { merged } = config;
    for (const problem of merged.problems) io.err(`${PROGRAM}: ${problemLine(problem)}\n`);
    const { host, trust } = await workspaceServersHost(args, io, config, { startupTimeoutMs, verbose: args.has('verbose') });
    let rows: StatusRow[];
    let summary: StartupSummary;
    try {
      host.start(merged.servers);
      const settled = await host.settle(settleBudget(merged.servers, startupTimeoutMs));
      if (!settled) io.err(`${PROGRAM}: some servers did not settle in time; reporting them as they are\n`);
      rows = host.registry.list().map((view) => {
        const row = rowOf(view, host.startMs(view.id));
        if (row.state === 'needsTrust' && trust.store !== undefined) row.parkedBecause = trust.decide(view.server).reason;
        return row;
      });
      summary = host.registry.summary();
    } finally {
      await host.close();
    }

    if (args.has('json')) {
      for (const row of rows) for (const line of refusedLines(row.refusedTools)) io.err(`${PROGRAM}: server '${row.name}': ${line}\n`);
    }
    io.out(args.has('json') ? `${JSON.stringify({ servers: rows.map(jsonOf) }, null, 2)}\n` : formatTable(rows, summary));
    return rows.every((row) => isFine(row.state)) ? 0 : 1;
  },
};

/** Parked servers were not meant to run: they do not make the status fail. */
function isFine(state: ServerState['kind']): boolean {
  return state === 'ready' || state === 'needsTrust' || state === 'disabled';
}

function rowOf(view: ServerView, startMs: number | null): StatusRow {
  const { state, catalog } = view;
  const ready = state.kind === 'ready';
  return {
    name: view.id,
    scope: view.server.scope,
    state: state.kind,
    error: ServerState.reason(state) ?? null,
    tools: ready ? catalog.tools.length : 0,
    resources: ready ? catalog.resources.length : 0,
    prompts: ready ? catalog.prompts.length : 0,
    startMs,
    warnings: serverWarnings(view),
    stderr: state.kind === 'failed' || state.kind === 'crashed' ? stderrExcerpt(state.stderrTail) : [],
    hint: state.kind === 'failed' ? state.hint ?? null : null,
    hiddenTools: ready ? catalog.hiddenTools ?? 0 : 0,
    refusedTools: ready ? catalog.refusedTools ?? [] : [],
    droppedLogLines: view.droppedLogLines,
  };
}

/** One line per refused tool: `tool 'deep' refused: its input schema is nested more than 64 levels deep`. */
export function refusedLines(refused: readonly RefusedTool[] | undefined): string[] {
  return (refused ?? []).map((tool) => `tool '${tool.name}' refused: ${tool.reason}`);
}

function jsonOf(row: StatusRow): Omit<StatusRow, 'hiddenTools' | 'refusedTools' | 'droppedLogLines' | 'parkedBecause'> {
  const { name, scope, state, error, tools, resources, prompts, startMs, warnings, stderr, hint } = row;
  return { name, scope, state, error, tools, resources, prompts, startMs, warnings, stderr, hint };
}

function formatTable(rows: StatusRow[], summary: StartupSummary): string {
  if (rows.length === 0) return 'No servers configured.\n';
  const header = ['NAME', 'SCOPE', 'STATE', 'TOOLS', 'RESOURCES', 'PROMPTS', 'START'];
  const cells = rows.map((row) => [
    row.name, row.scope, row.state, String(row.tools), String(row.resources), String(row.prompts),
    row.startMs === null ? '-' : `${row.startMs} ms`,
  ]);
  const render = tableRenderer(header, cells);
  const lines = [render(header)];
  rows.forEach((row, index) => {
    lines.push(render(cells[index]));
    if (row.error !== null) lines.push(`    ${row.error}`);
    for (const warning of row.warnings) lines.push(`    warning: ${warning}`);
    for (const line of refusedLines(row.refusedTools)) lines.push(`    ${line}`);
    if (row.droppedLogLines > 0) lines.push(`    ${row.droppedLogLines} log ${row.droppedLogLines === 1 ? 'line' : 'lines'} dropped: the server logged faster than the log takes (see --verbose)`);
    if (row.hiddenTools > 0) lines.push(`    ${row.hiddenTools} more ${row.hiddenTools === 1 ? 'tool is' : 'tools are'} hidden by allowedTools/disabledTools`);
    if (row.hint !== null) lines.push(`    hint: ${row.hint}`);
    for (const line of row.stderr) lines.push(`    stderr: ${line}`);
    if (row.state === 'needsTrust') {
      lines.push(row.parkedBecause === undefined
        ? '    not started: a project server; pass --allow-project to start it'
        : `    not started: ${row.parkedBecause}; trust it with '${PROGRAM} trust ${row.name}' or pass --allow-project`);
    }
  });
  lines.push('', startupSummaryLine(summary));
  return `${lines.join('\n')}\n`;
}
