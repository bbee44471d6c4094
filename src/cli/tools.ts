// `switchboard tools`: the tools of a workspace's running servers under the names models know them by
// (`mcp__<server>__<tool>`), in the one order every list uses — what the chat sends a model.
import { qualifyToolNames } from '../core/naming/toolNames';
import { DEFAULT_LIFECYCLE_SETTINGS } from '../core/lifecycle';
import { millisecondsFlag, PROGRAM, type Command } from './command';
import { refusedLines } from './status';
import { tableRenderer } from './table';
import { TRUST_STORE_HELP } from './trust';
import { problemLine, readWorkspaceConfig, WORKSPACE_HELP } from './workspace';
import { settleBudget, workspaceServersHost, WORKSPACE_SERVERS_FLAGS } from './workspaceServers';

const NAME = 'tools';

const HELP = `Usage: ${PROGRAM} ${NAME} --workspace DIR [options]

Starts the workspace's MCP servers as the extension would, lists the tools of every
server that became ready under the names a model gets (mcp__<server>__<tool>: only
[A-Za-z0-9_-], at most 64 characters, a short hash where a name was cut or two clashed),
sorted by server then tool, and stops them all. Tools hidden by an entry's
"allowedTools"/"disabledTools" are left out; so are tools the host refuses (a schema
nested too deep to check), each named on stderr with the reason.

Project servers start only with --allow-project or when trusted in --trust-store.

Options:
${WORKSPACE_HELP}
  --allow-project  Also start the project servers (you trust this repository).
${TRUST_STORE_HELP}
  --timeout MS     Startup timeout of each server. Default: ${DEFAULT_LIFECYCLE_SETTINGS.startupTimeoutMs}.
  --json           Print JSON instead of a table:
                   [ { "server", "tool", "qualifiedName", "description" } ]
                   ("description" is null when the tool has none).
  -h, --help       Show this help.

Exit status: 0 when every server that was started is ready; 1 when any failed (the
tools of the ready ones are still printed); 2 for a usage error.
`;

export const toolsCommand: Command = {
  name: NAME,
  summary: 'List the running servers\' tools under the names models get',
  help: HELP,
  flags: WORKSPACE_SERVERS_FLAGS,
  async run(args, io) {
    const startupTimeoutMs = millisecondsFlag(args, 'timeout', DEFAULT_LIFECYCLE_SETTINGS.startupTimeoutMs, NAME);
    const config = await readWorkspaceConfig(args, io, NAME);
    for (const problem of config.merged.problems) io.err(`${PROGRAM}: ${problemLine(problem)}\n`);
    const { host } = await workspaceServersHost(args, io, config, { startupTimeoutMs, verbose: false });
    let tools: { server: string; tool: string; qualifiedName: string; description: string | null }[];
    let failed: string[];
    let refused: string[];
    try {
      host.start(config.merged.servers);
      await host.settle(settleBudget(config.merged.servers, startupTimeoutMs));
      const ready = host.registry.list().filter((view) => view.state.kind === 'ready');
      failed = host.registry.list().filter((view) => view.state.kind === 'failed' || view.state.kind === 'crashed').map((view) => view.id);
      refused = ready.flatMap((view) => refusedLines(view.catalog.refusedTools).map((line) => `server '${view.id}': ${line}`));
      const descriptions = new Map<string, string | undefined>();
      for (const view of ready) for (const tool of view.catalog.tools) descriptions.set(`${view.id}\u0000${tool.name}`, tool.description);
      tools = qualifyToolNames(ready.flatMap((view) => view.catalog.tools.map((tool) => ({ server: view.id, tool: tool.name }))))
        .map((named) => ({ ...named, description: descriptions.get(`${named.server}\u0000${named.tool}`) ?? null }));
    } finally {
      await host.close();
    }
    for (const line of refused) io.err(`${PROGRAM}: ${line}\n`);
    for (const id of failed) io.err(`${PROGRAM}: server '${id}' did not start; its tools are not listed (see '${PROGRAM} status')\n`);
    if (args.has('json')) io.out(`${JSON.stringify(tools, null, 2)}\n`);
    else if (tools.length === 0) io.out('No tools: no ready server offers one.\n');
    else {
      const header = ['QUALIFIED NAME', 'SERVER', 'TOOL'];
      const cells = tools.map((t) => [t.qualifiedName, t.server, t.tool]);
      const render = tableRenderer(header, cells);
      io.out(`${[render(header), ...cells.map(render)].join('\n')}\n`);
    }
    return failed.length > 0 ? 1 : 0;
  },
};
