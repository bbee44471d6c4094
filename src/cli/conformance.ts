// `switchboard conformance-client URL`: the client side of the official MCP conformance suite. The suite
// starts a test server per scenario and runs this command with the scenario's name in the environment;
// we reach that server through exactly the extension's path (an "http" server entry → config core →
// lifecycle core → NodeServerConnector → the SDK's Streamable HTTP transport) and do what the scenario
// expects of a client.
import * as os from 'node:os';
import type { EffectiveServer, LayerSpec, OAuthSettings } from '../core/config/types';
import { mergeLayers, parseLayer } from '../core/config';
import { ServerState, errorMessage } from '../core/lifecycle';
import { MemorySecretStore, OAuthCredentialStore } from '../node/auth/credentialStore';
import { freeLoopbackPort } from '../node/auth/redirectListener';
import { CLIENT_NAME } from '../node/connector';
import { isServerAnswer } from '../node/serverAnswers';
import { conformanceOAuth, oauthSettingsFor, type ScenarioContext } from './conformanceAuth';
import { conformanceSteps } from './conformanceSteps';
import { millisecondsFlag, PROGRAM, UsageError, type Command, type Io } from './command';
import { CliHost } from './host';
import { problemLine } from './workspace';

const NAME = 'conformance-client';
const DEFAULT_TIMEOUT_MS = 10_000;

const CONFORMANCE_HELP = `Usage: ${PROGRAM} ${NAME} [--timeout MS] [--client-metadata-url URL] [--verbose] URL

An MCP client for the official conformance suite (@modelcontextprotocol/conformance),
which runs it as '<command> URL' with MCP_CONFORMANCE_SCENARIO (and, for some OAuth
scenarios, MCP_CONFORMANCE_CONTEXT) in the environment. It connects to URL as an "http"
server through the extension's own connection code, then does what the scenario
expects of a client:
  initialize   connect, list what the server offers, disconnect
  any other    connect, list the tools, then make the scenario's tool calls:
               those its context lists (toolCalls: [{ name, arguments }]), or the
               steps its description names (json-schema-2020-12-preservation: the
               focal tool's input schema sent back verbatim through the echo tool),
               else each tool once with arguments built from its input schema
               (defaults, else the first enum value, else a sample value of the
               type); disconnect
OAuth (auth/* scenarios) runs the extension's sign-in code with a headless browser:
the authorization page is fetched and its redirect lands on a one-shot listener on
127.0.0.1. Credentials from MCP_CONFORMANCE_CONTEXT become the server's "oauth"
entry (pre-registered or client-credentials clients) and live in memory only.
Form elicitations are accepted with the schema's defaults.

Options:
  --timeout MS     Startup timeout (connect + initialize). Default: ${DEFAULT_TIMEOUT_MS}.
  --client-metadata-url URL
                   The client's ID metadata document (SEP-991), used where the
                   authorization server supports it; else the client registers.
  --verbose        Print lifecycle messages on stderr.
  -h, --help       Show this help.

Exit status: 0 when the scenario's client steps all got the server's answer (an error
the server answered with, or a result that does not fit the protocol and is refused,
is printed and judged by the suite); 1 when connecting failed or a tool call got no
answer (transport, timeout, sign-in); 2 for a usage error (no URL,
MCP_CONFORMANCE_SCENARIO not set).
`;

export const conformanceCommand: Command = {
  name: NAME,
  summary: 'Act as the client of one MCP conformance-suite scenario (reads MCP_CONFORMANCE_SCENARIO)',
  help: CONFORMANCE_HELP,
  flags: { timeout: { kind: 'string', meta: 'MS' }, 'client-metadata-url': { kind: 'string', meta: 'URL' }, verbose: { kind: 'boolean' } },
  positionals: { names: ['URL'], required: 1 },
  async run(args, io) {
    const url = args.positionals[0];
    if (!/^https?:\/\//i.test(url)) throw new UsageError(`URL must be an http:// or https:// address, not '${url}'`, NAME);
    const scenario = io.env.MCP_CONFORMANCE_SCENARIO;
    if (!scenario) throw new UsageError('MCP_CONFORMANCE_SCENARIO is not set (the conformance suite sets it for each scenario)', NAME);
    const timeoutMs = millisecondsFlag(args, 'timeout', DEFAULT_TIMEOUT_MS, NAME);
    const say = (message: string): void => io.err(`[${NAME}] ${message}\n`);
    say(`scenario ${scenario}${contextNote(io.env.MCP_CONFORMANCE_CONTEXT)}`);
    const context = parseContext(io.env.MCP_CONFORMANCE_CONTEXT);
    const clientMetadataUrl = args.string('client-metadata-url');
    if (clientMetadataUrl !== undefined && !/^https:\/\/[^/]+\/./.test(clientMetadataUrl)) throw new UsageError('--client-metadata-url must be an https:// URL with a path', NAME);

    const server = httpServer(url, io, oauthSettingsFor(scenario, context, clientMetadataUrl));
    const oauth = conformanceOAuth(scenario, context, new OAuthCredentialStore(new MemorySecretStore()), CLIENT_NAME, await freeLoopbackPort());
    const host = new CliHost({
      io, verbose: args.has('verbose'), startupTimeoutMs: timeoutMs, requestTimeoutMs: timeoutMs, gate: () => 'allowed',
      oauth,
      // A headless person who accepts every form and leaves each field at the schema's default.
      elicit: () => Promise.resolve({ action: 'accept', content: {} }),
    });
    try {
      host.start([server]);
      await host.settle(2 * timeoutMs);
      const view = host.registry.get(server.id);
      const state = view?.state;
      if (view === undefined || state?.kind !== 'ready') {
        say(`could not connect: ${(state && ServerState.reason(state)) ?? `state ${state?.kind ?? 'unknown'}`}`);
        return 1;
      }
      const tools = view.catalog.tools;
      say(`connected in ${state.startMs} ms; tools: ${tools.map((tool) => tool.name).join(', ') || '(none)'}`);

      let failures = 0;
      for (const step of conformanceSteps(scenario, context, tools)) {
        try {
          const { result } = await host.calls.call({ serverId: server.id, tool: step.tool, arguments: step.arguments, caller: 'conformance' });
          say(`tools/call ${step.tool} → ${JSON.stringify(result).slice(0, 300)}`);
        } catch (error) {
          // The server's own answer, even an error, is what the suite judges; only a call that got none fails here.
          if (isServerAnswer(error)) {
            say(`tools/call ${step.tool} answered with an error: ${errorMessage(error)}`);
            continue;
          }
          failures++;
          say(`tools/call ${step.tool} failed: ${errorMessage(error)}`);
        }
      }
      return failures === 0 ? 0 : 1;
    } finally {
      await host.close();
      say('disconnected');
    }
  },
};

/** The URL as a user-scope "http" entry, read by the config core like any .mcp.json. */
function httpServer(url: string, io: Io, oauth: OAuthSettings | undefined): EffectiveServer {
  const text = JSON.stringify({ mcpServers: { conformance: { type: 'http', url, ...(oauth ? { oauth } : {}) } } });
  const spec: LayerSpec = { scope: 'user', file: `(${NAME})`, inline: text, vars: { env: io.env, userHome: os.homedir() } };
  const merged = mergeLayers([parseLayer(spec, { kind: 'text', text })]);
  const errors = merged.problems.filter((problem) => problem.severity === 'error');
  if (merged.servers.length !== 1 || errors.length > 0) {
    throw new UsageError(`cannot use ${url}: ${errors.map(problemLine).join('; ') || 'not a server URL'}`, NAME);
  }
  return merged.servers[0];
}

function parseContext(context: string | undefined): ScenarioContext {
  if (context === undefined) return {};
  try {
    const value: unknown = JSON.parse(context);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as ScenarioContext : {};
  } catch {
    return {};
  }
}

function contextNote(context: string | undefined): string {
  if (context === undefined) return '';
  try {
    const value: unknown = JSON.parse(context);
    const keys = typeof value === 'object' && value !== null ? Object.keys(value) : [];
    return ` (context keys: ${keys.join(', ') || 'none'})`;
  } catch {
    return ' (MCP_CONFORMANCE_CONTEXT is not JSON; ignored)';
  }
}
