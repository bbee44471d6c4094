// `switchboard call SERVER TOOL [JSON-ARGS]`: starts one server the way the extension would, calls one
// tool, prints the result as the server sent it, and stops the server.
import { ToolCallRefusedError } from '../core/calls';
import type { EffectiveServer } from '../core/config/types';
import { DEFAULT_LIFECYCLE_SETTINGS, errorMessage, stderrExcerpt, type CallToolResult, type ServerView } from '../core/lifecycle';
import { needsTrustDecision } from '../core/trust';
import { millisecondsFlag, PROGRAM, UsageError, type Command, type Io } from './command';
import { CliHost } from './host';
import { cliTrust, TRUST_STORE_FLAGS, TRUST_STORE_HELP } from './trust';
import { policyBlock } from './workspaceServers';
import { problemLine, readWorkspaceConfig, workspaceRoots, WORKSPACE_FLAGS, WORKSPACE_HELP } from './workspace';

const CALL_HELP = `Usage: ${PROGRAM} call SERVER TOOL ['JSON-ARGS'] --workspace DIR [options]

Starts the server named SERVER (the NAME that '${PROGRAM} config' prints) as the
extension would, calls its tool TOOL with the arguments JSON-ARGS (a JSON object,
default {}), prints the result (content, structuredContent, isError) as JSON, and stops
the server.

Options:
${WORKSPACE_HELP}
  --allow-project  Allow SERVER to be a project server (you trust this repository).
${TRUST_STORE_HELP}
  --timeout MS     Startup timeout, unless the server's entry sets "timeout".
                   Default: ${DEFAULT_LIFECYCLE_SETTINGS.startupTimeoutMs}.
  --call-timeout MS
                   How long the call may go without an answer or a progress
                   notification. Default: ${DEFAULT_LIFECYCLE_SETTINGS.requestTimeoutMs}.
  --verbose        Print lifecycle messages and the server's stderr on stderr
                   (env and header values are masked).
  -h, --help       Show this help.

A tool hidden by the entry's "allowedTools"/"disabledTools" is refused, as in the
editor; so is a tool the server does not list (with the names it does offer), and a
tool the host refuses to take from the listing (a schema nested too deep to check).

Exit status: 0 when the tool answered; 1 when the server did not start, the call was
refused or failed, or the result has "isError": true (the result is still printed); 2 for a usage
error (including an unknown SERVER, or a project server that is neither trusted in
--trust-store FILE nor allowed with --allow-project).
`;

export const callCommand: Command = {
  name: 'call',
  summary: 'Start one server, call one of its tools, print the result and stop it',
  help: CALL_HELP,
  flags: {
    ...WORKSPACE_FLAGS,
    ...TRUST_STORE_FLAGS,
    'allow-project': { kind: 'boolean' },
    timeout: { kind: 'string', meta: 'MS' },
    'call-timeout': { kind: 'string', meta: 'MS' },
    verbose: { kind: 'boolean' },
  },
  positionals: { names: ['SERVER', 'TOOL', 'JSON-ARGS'], required: 2 },
  async run(args, io) {
    const [serverName, toolName, argsText] = args.positionals;
    const toolArgs = parseToolArguments(argsText);
    const startupTimeoutMs = millisecondsFlag(args, 'timeout', DEFAULT_LIFECYCLE_SETTINGS.startupTimeoutMs, 'call');
    const callTimeoutMs = millisecondsFlag(args, 'call-timeout', DEFAULT_LIFECYCLE_SETTINGS.requestTimeoutMs, 'call');
    const config = await readWorkspaceConfig(args, io, 'call');
    const { merged } = config;
    const trust = await cliTrust(io, config);
    const server = merged.servers.find((candidate) => candidate.id === serverName);
    if (server === undefined) {
      for (const problem of merged.problems) io.err(`${PROGRAM}: ${problemLine(problem)}\n`);
      const known = merged.servers.map((candidate) => candidate.id);
      throw new UsageError(`unknown server '${serverName}' (configured: ${known.length > 0 ? known.join(', ') : 'none'})`, 'call');
    }
    if (needsTrustDecision(server) && !args.has('allow-project')) {
      const decision = trust.decide(server);
      if (trust.store === undefined) {
        throw new UsageError(`'${server.id}' is a project server (${server.source.file}): it runs only with --allow-project or when trusted in --trust-store FILE`, 'call');
      }
      if (decision.state !== 'allowed') {
        throw new UsageError(`'${server.id}' is a project server (${server.source.file}) that is not trusted (${decision.reason}): trust it with '${PROGRAM} trust ${server.id}', or pass --allow-project`, 'call');
      }
    }
    const blocked = policyBlock(config.policy, server);
    if (blocked !== undefined) {
      io.err(`${PROGRAM}: server '${server.id}' is ${blocked}\n`);
      return 1;
    }
    if (server.disabled) {
      io.err(`${PROGRAM}: server '${server.id}' is disabled ("disabled": true in ${server.source.file}:${server.source.line})\n`);
      return 1;
    }

    const host = new CliHost({
      io,
      verbose: args.has('verbose'),
      startupTimeoutMs,
      requestTimeoutMs: callTimeoutMs,
      gate: () => 'allowed',
      roots: workspaceRoots(args, io),
      envFileDigest: config.digest.digest,
    });
    try {
      host.start([server]);
      await host.settle(startupBudget(server, startupTimeoutMs));
      let result: CallToolResult;
      try {
        ({ result } = await host.calls.call({ serverId: server.id, tool: toolName, arguments: toolArgs, timeoutMs: callTimeoutMs, caller: 'cli' }));
      } catch (error) {
        if (!(error instanceof ToolCallRefusedError)) {
          io.err(`${PROGRAM}: calling '${toolName}' on '${server.id}' failed: ${errorMessage(error)}\n`);
          return 1;
        }
        if (error.code === 'serverNotReady') return notStarted(io, server, host.registry.get(server.id));
        io.err(`${PROGRAM}: ${error.message}\n`);
        return 1;
      }
      io.out(`${JSON.stringify(result, null, 2)}\n`);
      if (result.isError === true) {
        io.err(`${PROGRAM}: the tool '${toolName}' of '${server.id}' reported an error (isError: true)\n`);
        return 1;
      }
      return 0;
    } finally {
      await host.close();
    }
  },
};

/** The JSON-ARGS positional: a JSON object, or {} when absent. */
function parseToolArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`JSON-ARGS is not valid JSON: ${errorMessage(error)}`, 'call');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`JSON-ARGS must be a JSON object, e.g. '{"message":"hi"}'`, 'call');
  }
  return value as Record<string, unknown>;
}

/** The startup timeout (the entry's own, if set), the staged kill of a hung server and a catalog listing. */
function startupBudget(server: EffectiveServer, startupTimeoutMs: number): number {
  return 2 * (server.timeout ?? startupTimeoutMs) + DEFAULT_LIFECYCLE_SETTINGS.shutdownGraceMs;
}

function notStarted(io: Io, server: EffectiveServer, view: ServerView | undefined): number {
  const state = view?.state;
  const reason = state?.kind === 'failed' || state?.kind === 'crashed' ? state.error : `it is ${state?.kind ?? 'unknown'}`;
  io.err(`${PROGRAM}: server '${server.id}' did not start: ${reason}\n`);
  if (state?.kind === 'failed' && state.hint !== undefined) io.err(`  hint: ${state.hint}\n`);
  if (state?.kind === 'failed' || state?.kind === 'crashed') {
    // The lines stating the error first: the last ones are often a stack or usage text.
    for (const line of stderrExcerpt(state.stderrTail, 10)) io.err(`  stderr: ${line}\n`);
  }
  return 1;
}
