// `switchboard code --file SCRIPT.js`: starts the workspace's servers as the extension would, runs
// SCRIPT in code mode's sandbox with `tools.<server>.<tool>(args)` for every ready server's tools
// (each call through the call gate; typing the command is the approval, as for `call`), prints what
// the script printed, and stops the servers.
import * as path from 'node:path';
import { ModelToolCatalog } from '../core/chat/modelTools';
import { DEFAULT_SANDBOX_LIMITS, runCode } from '../core/code';
import { DEFAULT_LIFECYCLE_SETTINGS } from '../core/lifecycle';
import { quickJsEngine } from '../node/quickjsEngine';
import { millisecondsFlag, PROGRAM, readFlagFile, UsageError, type Command } from './command';
import { TRUST_STORE_HELP } from './trust';
import { problemLine, readWorkspaceConfig, WORKSPACE_HELP } from './workspace';
import { settleBudget, workspaceServersHost, WORKSPACE_SERVERS_FLAGS } from './workspaceServers';

const NAME = 'code';

const HELP = `Usage: ${PROGRAM} ${NAME} --workspace DIR --file SCRIPT.js [options]

Starts the workspace's MCP servers as the extension would, runs SCRIPT.js in code
mode's sandbox (QuickJS in WebAssembly: no files, processes, network, modules or
timers), prints what the script printed with console.log, and stops the servers.

Inside the script, every ready server's tools are functions that return promises:
  const rows = await tools.<server>.<tool>({ ...arguments });
named like the model names (mcp__<server>__<tool>) without the prefix. A call answers
the tool's structuredContent when the tool declares an output schema, else its content
blocks; a call that is refused or answers isError throws an Error with the reason.
Also there: console.log, and sleep(ms) (at most ${DEFAULT_SANDBOX_LIMITS.maxSleepMs} ms). Top-level await works.

Calls go through the same call gate as the editor's (recorded as caller "code"); typing
this command is the approval, as for '${PROGRAM} call'. Project servers start only with
--allow-project or when trusted in --trust-store.

Options:
${WORKSPACE_HELP}
  --allow-project  Also start the project servers (you trust this repository).
${TRUST_STORE_HELP}
  --file SCRIPT.js The script to run (required).
  --timeout-ms N   How long the script may run, waits for tool calls included.
                   Default: ${DEFAULT_SANDBOX_LIMITS.wallMs}. CPU time is bounded to ${DEFAULT_SANDBOX_LIMITS.cpuMs} ms, memory to
                   ${DEFAULT_SANDBOX_LIMITS.memoryBytes / (1024 * 1024)} MB, printed output to ${DEFAULT_SANDBOX_LIMITS.outputChars} characters, calls to ${DEFAULT_SANDBOX_LIMITS.maxCalls}.
  --timeout MS     Startup timeout of each server. Default: ${DEFAULT_LIFECYCLE_SETTINGS.startupTimeoutMs}.
  --json           Print JSON instead of the output:
                   { "output": STRING, "calls": [ { "server", "tool", "ok" } ], "error": STRING? }
  -h, --help       Show this help.

Exit status: 0 when the script ran to its end; 1 when it ended with an error (a throw,
a bound exceeded, a forbidden name such as require or process); 2 for a usage error.
`;

export const codeCommand: Command = {
  name: NAME,
  summary: 'Run a script that calls the servers\' tools in code mode\'s sandbox',
  help: HELP,
  flags: {
    ...WORKSPACE_SERVERS_FLAGS,
    file: { kind: 'string', meta: 'SCRIPT.js' },
    'timeout-ms': { kind: 'string', meta: 'N' },
  },
  async run(args, io) {
    const file = args.string('file');
    if (file === undefined) throw new UsageError('missing --file SCRIPT.js', NAME);
    const script = readFlagFile(path.resolve(io.cwd, file), 'file', NAME);
    const wallMs = millisecondsFlag(args, 'timeout-ms', DEFAULT_SANDBOX_LIMITS.wallMs, NAME);
    const startupTimeoutMs = millisecondsFlag(args, 'timeout', DEFAULT_LIFECYCLE_SETTINGS.startupTimeoutMs, NAME);
    const config = await readWorkspaceConfig(args, io, NAME);
    for (const problem of config.merged.problems) io.err(`${PROGRAM}: ${problemLine(problem)}\n`);
    const { host } = await workspaceServersHost(args, io, config, { startupTimeoutMs, verbose: false });
    try {
      host.start(config.merged.servers);
      await host.settle(settleBudget(config.merged.servers, startupTimeoutMs));
      for (const view of host.registry.list()) {
        if (view.state.kind === 'failed' || view.state.kind === 'crashed') io.err(`${PROGRAM}: server '${view.id}' did not start: its tools are not in the script's API (see '${PROGRAM} status')\n`);
      }
      const result = await runCode(script, {
        engine: quickJsEngine,
        catalog: new ModelToolCatalog(host.registry.list()),
        // A call waits as long as the script may: the run's own wall time is its bound.
        call: async (request) => (await host.calls.call({ ...request, timeoutMs: wallMs })).result,
        limits: { wallMs },
      });
      if (args.has('json')) {
        const calls = result.calls.map(({ server, tool, ok }) => ({ server, tool, ok }));
        io.out(`${JSON.stringify({ output: result.output, calls, ...(result.error !== undefined ? { error: result.error } : {}) }, null, 2)}\n`);
      } else {
        io.out(result.output);
        if (result.error !== undefined) io.err(`${PROGRAM}: the script ended with an error: ${result.error}\n`);
      }
      return result.error === undefined ? 0 : 1;
    } finally {
      await host.close();
    }
  },
};
