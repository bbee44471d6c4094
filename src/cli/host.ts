// A one-shot host for the CLI: the extension's lifecycle core (ServerRegistry) over the extension's
// connector (NodeServerConnector), so a server behaves here exactly as it does in the editor. Logs go
// to stderr only when asked, scrubbed of the launch's secrets; close() (also on Ctrl-C) stops every
// server and waits until its process group is gone.
import { version } from '../../package.json';
import { ToolCallGate } from '../core/calls';
import type { Disposable } from '../core/disposable';
import type { EffectiveServer } from '../core/config/types';
import { RedactingConnector, ServerRegistry, redactText, secretsOf, type GateAnswer, type McpLogLevel, type Root, type ServerLog } from '../core/lifecycle';
import { boundedJsonText } from '../core/schema/jsonBounds';
import type { OAuthSupport } from '../node/auth/oauthSupport';
import { NodeServerConnector, processLauncher, type NodeServerConnectorOptions } from '../node/connector';
import { ServerEnvironment } from '../node/process/environment';
import { PROGRAM, type Io } from './command';

export interface CliHostOptions {
  io: Io;
  /** Lifecycle messages, server stderr and server log messages go to stderr. */
  verbose: boolean;
  startupTimeoutMs: number;
  requestTimeoutMs: number;
  /** The start gate: which servers may start without an explicit start (project ones only when trusted, or the user said so). */
  gate(server: EffectiveServer): GateAnswer;
  /** Why a server must not run at all (the administrator's policy), or undefined; such a server is held. */
  blocked?(server: EffectiveServer): string | undefined;
  roots?: Root[];
  /**
   * The digest the configuration used for env file values: a project server's env file is checked
   * against it at launch (without it, such a server does not start).
   */
  envFileDigest?: (value: string) => string;
  /** OAuth for remote servers; without it a server answering 401 fails to start. */
  oauth?: OAuthSupport;
  /** Answers form elicitations (the capability is declared only with it). */
  elicit?: NodeServerConnectorOptions['elicit'];
}

const SIGNAL_EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export class CliHost {
  readonly registry: ServerRegistry;
  /** The only way to call a tool (the CLI has no pins: nothing is blocked or changed here). */
  readonly calls: ToolCallGate;
  private readonly connector: NodeServerConnector;
  private readonly readyAfter = new Map<string, number>();
  private readonly subscription: Disposable;
  private closing: Promise<void> | undefined;
  private interruptedBy: NodeJS.Signals | undefined;
  private readonly onSignal = (signal: NodeJS.Signals): void => this.interrupted(signal);

  constructor(private readonly options: CliHostOptions) {
    this.connector = new NodeServerConnector({
      clientVersion: version,
      // A command line inherits the shell's PATH already; asking a login shell would only cost time.
      launchStdio: processLauncher(new ServerEnvironment({ baseEnv: options.io.env, loginShell: 'never', envFileDigest: options.envFileDigest })),
      oauth: options.oauth,
      elicit: options.elicit,
    });
    this.registry = new ServerRegistry({
      // The one redaction: launch secrets and env file values out of every log line and error.
      connector: new RedactingConnector(this.connector),
      logFor: (server) => (options.verbose ? stderrLog(server, options.io) : SILENT_LOG),
      // One shot: a server that crashes while we look at it is reported as failed, not restarted.
      settings: { startupTimeoutMs: options.startupTimeoutMs, requestTimeoutMs: options.requestTimeoutMs, maxRestarts: 0 },
      gate: (server) => options.gate(server),
      hostedElsewhere: (server) => options.blocked?.(server),
    });
    this.calls = new ToolCallGate({ registry: this.registry });
    this.registry.setRoots(options.roots ?? []);
    this.subscription = this.registry.onDidChangeState(({ id, state }) => {
      if (state.kind === 'ready' && !this.readyAfter.has(id)) this.readyAfter.set(id, state.startMs);
    });
    for (const signal of Object.keys(SIGNAL_EXIT_CODES)) process.on(signal, this.onSignal);
  }

  /** Starts every allowed server in parallel; the others are parked (needsTrust, disabled). */
  start(servers: readonly EffectiveServer[]): void {
    this.registry.reconcile(servers);
  }

  /**
   * Waits until no server is starting and every ready server's catalog is listed, at most `withinMs`.
   * Resolves false when the time ran out first.
   */
  settle(withinMs: number): Promise<boolean> {
    return within(this.registry.settled().then(() => this.registry.catalogsLoaded()), withinMs);
  }

  /** Milliseconds from start to ready the first time the server became ready, or null. */
  startMs(id: string): number | null {
    return this.readyAfter.get(id) ?? null;
  }

  /** Stops every server and resolves once every process is gone. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.registry.stopAll();
        // A start cut short by its timeout is still being stopped in the background: finish it now.
        await this.connector.dispose();
      } finally {
        this.subscription.dispose();
        this.calls.dispose();
        this.registry.dispose();
        for (const signal of Object.keys(SIGNAL_EXIT_CODES)) process.off(signal, this.onSignal);
      }
    })();
    return this.closing;
  }

  /** Servers run in their own process groups, so Ctrl-C does not reach them: stop them, then exit. */
  private interrupted(signal: NodeJS.Signals): void {
    const code = SIGNAL_EXIT_CODES[signal] ?? 1;
    if (this.interruptedBy !== undefined) process.exit(code); // a second signal: do not wait any longer
    this.interruptedBy = signal;
    this.options.io.err(`${PROGRAM}: ${signal}: stopping the servers (again to quit at once)…\n`);
    void this.close().finally(() => process.exit(code));
  }
}

/** Resolves true when `work` settles within `ms`, false otherwise (never rejects). */
export async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), ms); });
  try {
    return await Promise.race([work.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const SILENT_LOG: ServerLog = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  stderr: () => undefined,
  serverMessage: () => undefined,
  trace: () => undefined,
};

/** How much of a structured log message or traced message is printed. */
const MAX_LOGGED_JSON = 64 * 1024;

/** `[name] …` lines on stderr, every one scrubbed of the server's env and header values. */
function stderrLog(server: EffectiveServer, io: Io): ServerLog {
  const secrets = secretsOf(server.launch);
  const write = (text: string): void => {
    for (const line of redactText(text, secrets).split(/\r?\n/)) io.err(`[${server.id}] ${line}\n`);
  };
  return {
    info: (message) => write(message),
    warn: (message) => write(`warning: ${message}`),
    error: (message) => write(`error: ${message}`),
    stderr: (line) => write(`stderr: ${line}`),
    serverMessage: (level: McpLogLevel, logger, data) =>
      write(`server ${level}${logger ? ` (${logger})` : ''}: ${typeof data === 'string' ? data : boundedJsonText(data, MAX_LOGGED_JSON)}`),
    trace: (direction, message) => write(`${direction === 'send' ? '→' : '←'} ${boundedJsonText(message, MAX_LOGGED_JSON)}`),
  };
}
