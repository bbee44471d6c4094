// The ServerConnector the lifecycle core calls: builds the transport for a server's launch type
// (stdio process, Streamable HTTP with SSE fallback, SSE, WebSocket), creates the SDK Client with our
// handlers (roots, logging, list_changed, trace), performs initialize within the core's abort signal,
// and turns whatever goes wrong into one user-facing sentence.
import { APP_MIME_TYPE, APPS_EXTENSION } from '../core/apps/uiResource';
import { ConnectError, SignInRequiredError } from '../core/lifecycle/errors';
import type { ConnectRequest, ServerConnection, ServerConnector } from '../core/lifecycle/ports';
import { DEFAULT_MAX_PAGES } from '../core/lifecycle/catalog';
import { startupTimeoutMessage } from '../core/lifecycle/startAttempt';
import type { CatalogKind } from '../core/lifecycle/types';
import { BoundedSchemaValidator } from './boundedSchemaValidator';
import { SdkServerConnection } from './connection';
import { McpSession, type SessionSink, type StdioProcessInfo } from './mcpSession';
import { ServerEnvironment } from './process/environment';
import { ProcessTransport } from './process/processTransport';
import type { ConnectAuthProvider, OAuthSupport } from './auth/oauthSupport';
import { canFinishAuth, createRemoteTransport, describeRemoteError, displayUrl, httpStatusOf, isNotStreamableHttp, networkReason, parseUrl, type IssuerPolicy, type RemoteKind } from './remoteTransports';
import { isExemptLegacyIssuer } from './auth/legacyIssuer';
import { IssuerWatch } from './auth/oauthFetchGuard';
import { signInRequiredIn } from './auth/oauthReach';
import {
  ProtocolError, RELATED_TASK_META_KEY, SdkError, SdkErrorCode, SdkHttpError, TaskStatusNotificationParamsSchema, UnauthorizedError,
  type ElicitResult, type Transport,
} from './sdk';
import { keepProgressBeforeResponses } from './messageOrder';
import { listenForListChanges } from './listChangeStream';
import { SessionClient } from './sessionClient';
import { closedOnProbe, GenerationMemory, negotiationFor, NEVER_MS } from './generations';
import type { ElicitationAnswer, ElicitationRequest, SamplingRequest, SamplingResult } from './serverRequests';
export type { ElicitationAnswer, ElicitationRequest, SamplingRequest, SamplingResult } from './serverRequests';
import { declaresRoots, followsWorkspace, rootsFor } from './serverRoots';
import { taskStateOf } from './taskRequests';
import { traceTransport } from './transportTrace';

/** A stdio server about to be started: its transport spawns on start() and shuts down (staged) on close(). */
export interface StdioLaunch extends StdioProcessInfo {
  readonly transport: Transport;
}

/** Creates (does not start) the process transport for a stdio server: resolves env and cwd, no spawn yet. */
export type StdioLauncher = (request: ConnectRequest) => Promise<StdioLaunch>;

/**
 * Launches stdio servers with the process layer: environment and cwd from `environment` (inherited env,
 * login-shell PATH, envFile, PATH appended), then a ProcessTransport (own process group, staged stop).
 */
export function processLauncher(environment: ServerEnvironment = new ServerEnvironment()): StdioLauncher {
  return async (request) => {
    const { launch } = request.server;
    if (!launch.command) throw new ConnectError('no command configured');
    const { env, cwd, fromEnvFile } = await environment.resolve(request.server);
    // Before the spawn: whatever the server prints from its first line on is scrubbed of these.
    request.addSecrets?.(Object.values(fromEnvFile));
    const transport = new ProcessTransport({
      command: launch.command,
      args: launch.args,
      cwd,
      env,
      log: request.log,
      shutdownGraceMs: request.shutdownGraceMs,
    });
    return { transport, stderrTail: () => transport.stderrTail, exit: () => transport.exit };
  };
}

export interface NodeServerConnectorOptions {
  /** Sent as clientInfo.version (the extension's package.json version). */
  clientVersion: string;
  /** Builds stdio transports; default `processLauncher()` with one ServerEnvironment for this connector. */
  launchStdio?: StdioLauncher;
  /** Re-initializations of an expired Streamable HTTP session allowed per window (default 3 per minute). */
  maxSessionReinits?: number;
  sessionReinitWindowMs?: number;
  /** OAuth for http and sse servers; without it a 401 fails the start with "needs authentication". */
  oauth?: OAuthSupport;
  /**
   * Answers the server's elicitations; when set, the client declares `elicitation` for form mode (the
   * SDK filling omitted fields from the schema's defaults) and, with `elicitUrls`, for URL mode. Without
   * it the capability is not declared.
   */
  elicit?: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;
  /** Whether `elicit` also answers URL-mode elicitations (declared as `elicitation.url`). */
  elicitUrls?: boolean;
  /**
   * Answers the server's `sampling/createMessage`. The client declares `sampling` only when this is set
   * and `samplingAvailable()` says a model is there when the server connects.
   */
  sample?: (request: SamplingRequest, signal: AbortSignal) => Promise<SamplingResult>;
  samplingAvailable?: () => boolean;
}

/** Sign-ins answered within one connect attempt before giving up (a server that keeps refusing fresh tokens). */
const MAX_AUTH_ROUNDS = 3;

export const CLIENT_NAME = 'mcp-switchboard';

/** What one connect attempt learned, for its error message: the process, when stdio. */
interface Attempt {
  process?: StdioProcessInfo;
}

export class NodeServerConnector implements ServerConnector {
  private readonly launchStdio: StdioLauncher;
  /** Sessions of cancelled starts still shutting down (a staged stop takes up to two grace periods). */
  private readonly shuttingDown = new Set<McpSession>();
  private readonly generations = new GenerationMemory();

  constructor(private readonly options: NodeServerConnectorOptions) {
    this.launchStdio = options.launchStdio ?? processLauncher();
  }

  async connect(request: ConnectRequest): Promise<ServerConnection> {
    const { launch } = request.server;
    request.signal.throwIfAborted();
    const kind = launch.type;
    let used: 'stdio' | RemoteKind = kind;
    const attempt: Attempt = {};
    const open = async (sink: SessionSink): Promise<McpSession> => {
      if (kind !== 'http') return this.openSession(request, kind, sink, request.signal, attempt);
      try {
        return await this.openSession(request, 'http', sink, request.signal, attempt);
      } catch (error) {
        if (request.signal.aborted || !isNotStreamableHttp(error)) throw error;
        const status = httpStatusOf(error);
        request.log.info(`${displayUrl(launch.url ?? '')} answered ${status} to a Streamable HTTP initialize: falling back to the HTTP+SSE transport`);
        used = 'sse';
        try {
          return await this.openSession(request, 'sse', sink, request.signal, attempt);
        } catch (sseError) {
          if (request.signal.aborted) throw sseError;
          const described = this.describe(sseError, request, 'sse', attempt);
          throw new ConnectError(
            `${displayUrl(launch.url ?? '')} is not a Streamable HTTP endpoint (it answered ${status}) and the SSE fallback failed: ${described.message}`,
            [],
            { cause: sseError },
          );
        }
      }
    };
    try {
      return await SdkServerConnection.start(open, {
        log: request.log,
        // Only a Streamable HTTP session can expire; it re-initializes on the same URL without fallback.
        reopen: kind === 'http' ? (sink) => this.reopen(request, sink) : undefined,
        maxReinits: this.options.maxSessionReinits ?? 3,
        reinitWindowMs: this.options.sessionReinitWindowMs ?? 60_000,
        shutdownGraceMs: request.shutdownGraceMs,
        followsWorkspaceRoots: followsWorkspace(request.server.launch),
      });
    } catch (error) {
      if (error instanceof ConnectError) throw error;
      throw this.describe(error, request, used, attempt);
    }
  }

  /**
   * A fresh session for an expired one. No core start watches it (the connection is live), so it is
   * bounded here by the startup timeout, and says so in the core's words.
   */
  private async reopen(request: ConnectRequest, sink: SessionSink): Promise<McpSession> {
    const signal = AbortSignal.timeout(request.startupTimeoutMs);
    try {
      return await this.openSession(request, 'http', sink, signal, {});
    } catch (error) {
      throw this.describe(error, request, 'http', {}, signal);
    }
  }

  /**
   * Opens a session; for a remote server doing OAuth, a 401 answered by a sign-in (an agent brought back
   * an authorization code) is finished (code exchanged for tokens) and the session opened again, a
   * bounded number of times. A 401 nobody can answer becomes SignInRequiredError.
   */
  private async openSession(request: ConnectRequest, kind: 'stdio' | RemoteKind, sink: SessionSink, signal: AbortSignal, attempt: Attempt): Promise<McpSession> {
    const url = kind === 'stdio' ? undefined : parseUrl(request.server.launch.url, kind);
    const auth = url && kind !== 'ws' ? this.options.oauth?.providerFor(request.server, url) : undefined;
    const issuers: IssuerPolicy = { watch: auth?.watch ?? new IssuerWatch(), sdkCheckOff: false, ...(auth?.reach ? { reach: auth.reach } : {}) };
    let probeFailure: { error: unknown; process: StdioProcessInfo | undefined } | undefined;
    for (let round = 1; ; round++) {
      const opened = await this.openSessionOnce(request, kind, sink, signal, attempt, url, auth, issuers);
      if (opened instanceof McpSession) return opened;
      const { error, transport } = opened;
      const signInFirst = signInRequiredIn(error);
      if (signInFirst !== undefined) throw signInFirst;
      if (kind === 'stdio' && !this.generations.knownOld(request.server, kind) && closedOnProbe(error)) {
        this.generations.markOld(request.server);
        probeFailure = { error, process: attempt.process };
        request.log.info('the server exited during the server/discover probe (some old servers exit on any request before initialize): starting it once more with initialize (2025-11-25)');
        round--;
        continue;
      }
      if (probeFailure !== undefined) {
        // It failed with initialize too: it was not the probe. Nothing is remembered, and the first
        // start's failure is the one reported (its exit and stderr; the second start only confirmed it).
        this.generations.forget(request.server);
        attempt.process = probeFailure.process;
        throw probeFailure.error;
      }
      // Started as a known old server and failed: its package may have moved to 2026-07-28 only; the next start asks again.
      if (this.generations.knownOld(request.server, kind)) this.generations.forget(request.server);
      if (auth !== undefined && !issuers.sdkCheckOff && isExemptLegacyIssuer(error, url!, issuers.watch)) {
        // The SDK refused what a 2025-03-26 server publishes (legacyIssuer.ts): once more with its check
        // off, the guard still checking; no sign-in round is used up by it.
        issuers.sdkCheckOff = true;
        round--;
        continue;
      }
      if (auth === undefined || !(error instanceof UnauthorizedError)) throw error;
      const response = auth.takeAuthorizationResponse?.();
      if (response === undefined) throw new SignInRequiredError(`${displayUrl(url!)} needs you to sign in`, { cause: error });
      if (round >= MAX_AUTH_ROUNDS) throw new ConnectError(`${displayUrl(url!)} still refused the connection after ${round} sign-ins`, [], { cause: error });
      if (!canFinishAuth(transport)) throw error;
      signal.throwIfAborted();
      await untilAborted(transport.finishAuth(response.code, response.iss), signal);
      request.log.info('signed in; connecting again with the new token');
    }
  }

  /**
   * Creates transport and Client, connects and initializes. On any failure (including an abort during
   * spawn, the SSE handshake or initialize) the transport is closed — for stdio that kills the process —
   * and the raw error is returned with the transport (a sign-in may still finish on it); a failure
   * before a transport exists is thrown.
   */
  private async openSessionOnce(
    request: ConnectRequest, kind: 'stdio' | RemoteKind, sink: SessionSink, signal: AbortSignal, attempt: Attempt,
    url: URL | undefined, auth: ConnectAuthProvider | undefined, issuers: IssuerPolicy,
  ): Promise<McpSession | { error: unknown; transport: Transport }> {
    signal.throwIfAborted();
    let transport: Transport;
    let processInfo: StdioProcessInfo | undefined;
    if (kind === 'stdio') {
      const launch = await untilAborted(this.launchStdio(request), signal);
      transport = launch.transport;
      processInfo = launch;
      attempt.process = launch;
    } else {
      const { headers } = request.server.launch;
      if (kind === 'ws' && Object.keys(headers).length > 0) {
        request.log.warn('the configured headers are not sent: the MCP SDK WebSocket transport cannot set request headers');
      }
      transport = createRemoteTransport(kind, url!, headers, auth, issuers);
    }
    if (request.trace) traceTransport(transport, request.log);
    const client = this.createClient(request, sink, kind);
    const session = new McpSession(client, transport, kind, url?.href, processInfo, auth);
    // The SDK keeps its abort listener on a request's signal after the request is done: give initialize
    // a signal of its own, linked to the caller's only while connecting.
    const initialize = new AbortController();
    const forward = () => initialize.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    // The startup timeout is the core's (the signal aborts); the SDK's own initialize limit must never fire first.
    const connecting = client.connect(transport, { signal: initialize.signal, timeout: NEVER_MS, ...this.generations.connectOptions(request.server, kind) });
    try {
      await untilAborted(connecting, signal);
    } catch (error) {
      connecting.catch(() => undefined);
      // Client.connect closes the transport itself when initialize fails, but not when start() fails or
      // the wait was cut short by the signal. The session makes both closes one (a staged stop).
      const closed = session.shutdown();
      if (signal.aborted) {
        // Cancelled (the core's startup timeout): answer now, with the stderr seen so far, and let the
        // staged stop finish in the background; dispose() cuts it short.
        this.shuttingDown.add(session);
        void closed.finally(() => this.shuttingDown.delete(session));
        throw error;
      }
      await closed;
      return { error, transport };
    } finally {
      signal.removeEventListener('abort', forward);
    }
    this.generations.record(request.server, kind, client.getProtocolEra());
    keepProgressBeforeResponses(transport);
    await untilAborted(listenForListChanges(client, request.log), signal).catch(async (error: unknown) => {
      await session.shutdown();
      throw error;
    });
    return session;
  }

  /** Kills at once whatever cancelled starts are still shutting down, and waits until it is gone. */
  async dispose(): Promise<void> {
    await Promise.all([...this.shuttingDown].map((session) => session.kill()));
  }

  private createClient(request: ConnectRequest, sink: SessionSink, kind: 'stdio' | RemoteKind): SessionClient {
    const elicit = this.options.elicit;
    const elicitation = elicit ? { form: { applyDefaults: true }, ...(this.options.elicitUrls ? { url: {} } : {}) } : undefined;
    const sample = this.options.sample !== undefined && (this.options.samplingAvailable?.() ?? true) ? this.options.sample : undefined;
    const client = new SessionClient(
      { name: CLIENT_NAME, version: this.options.clientVersion },
      {
        capabilities: {
          ...(declaresRoots(request.server.launch) ? { roots: { listChanged: true } } : {}),
          ...(elicitation ? { elicitation } : {}), ...(sample ? { sampling: {} } : {}),
          // MCP Apps: servers that check for it offer their tools' ui:// apps, which the app panel shows.
          extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } },
        },
        jsonSchemaValidator: new BoundedSchemaValidator(),
        versionNegotiation: negotiationFor(kind),
        // The SDK walks every page of a list itself: as many as the catalog would have asked for.
        listMaxPages: DEFAULT_MAX_PAGES,
      },
    );
    if (sample) {
      client.setRequestHandler('sampling/createMessage', async ({ params }, context) => {
        const result = await sample({
          serverId: request.server.id,
          messages: params.messages.map((m) => ({ role: m.role, content: m.content })),
          ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
          maxTokens: params.maxTokens,
          ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
          ...(params.stopSequences !== undefined ? { stopSequences: params.stopSequences } : {}),
          ...(params.modelPreferences !== undefined ? { modelPreferences: params.modelPreferences } : {}),
        }, context.mcpReq.signal);
        return { role: 'assistant', content: { type: 'text', text: result.text }, model: result.model, ...(result.stopReason ? { stopReason: result.stopReason } : {}) };
      });
    }
    if (elicit) {
      // The SDK checked the request against the declared modes; the signal aborts when the server cancels it.
      // A 2026-07-28 server's multi-round-trip input request (an elicitation inside an `input_required`
      // result) comes through this same handler: the SDK fulfils it here and retries the request.
      client.setRequestHandler('elicitation/create', async ({ params }, context) => {
        const serverId = request.server.id;
        const asked: ElicitationRequest = params.mode === 'url'
          ? { serverId, mode: 'url', message: params.message, url: params.url, elicitationId: params.elicitationId }
          : { serverId, mode: 'form', message: params.message, requestedSchema: params.requestedSchema };
        // A running task asking for input (delivered while tasks/result is open) says which task it is.
        const related: unknown = params._meta?.[RELATED_TASK_META_KEY];
        if (typeof related === 'object' && related !== null && typeof (related as { taskId?: unknown }).taskId === 'string') {
          asked.taskId = (related as { taskId: string }).taskId;
        }
        // The SDK checks the answer against the requested schema before it goes back.
        return (await elicit(asked, context.mcpReq.signal)) as ElicitResult;
      });
    }
    if (declaresRoots(request.server.launch)) {
      client.setRequestHandler('roots/list', () => ({ roots: rootsFor(request.server.launch, request.roots) }));
    }
    client.setNotificationHandler('notifications/message', (notification) => {
      const { level, logger, data } = notification.params;
      request.log.serverMessage(level, logger, data);
    });
    const fire = (...kinds: CatalogKind[]) => () => { for (const kind of kinds) sink.listChanged(kind); };
    client.setNotificationHandler('notifications/tools/list_changed', fire('tools'));
    // MCP has one notification for resources and resource templates.
    client.setNotificationHandler('notifications/resources/list_changed', fire('resources', 'resourceTemplates'));
    client.setNotificationHandler('notifications/prompts/list_changed', fire('prompts'));
    client.setNotificationHandler('notifications/resources/updated', (notification) => sink.resourceUpdated(notification.params.uri));
    // The Tasks extension is not among the v2 Client's methods: its notification is read with its own schema.
    client.setNotificationHandler('notifications/tasks/status', { params: TaskStatusNotificationParamsSchema }, (task) => sink.taskStatus?.(taskStateOf(task)));
    return client;
  }

  /** The user-facing Error for a failed connect. */
  private describe(error: unknown, request: ConnectRequest, kind: 'stdio' | RemoteKind, attempt: Attempt, signal: AbortSignal = request.signal): ConnectError {
    if (error instanceof ConnectError) return error;
    const launch = request.server.launch;
    let message: string;
    const tail = attempt.process?.stderrTail() ?? [];
    if (signal.aborted) {
      message = abortMessage(signal.reason, request.startupTimeoutMs);
    } else if (error instanceof SdkError && kind === 'stdio' && (error.code === SdkErrorCode.ConnectionClosed || attempt.process?.exit() !== undefined)) {
      const exit = attempt.process?.exit();
      message = `${exit?.reason ?? 'the server closed its stdout'} during startup`;
    } else if (kind !== 'stdio' && networkReason(error) !== undefined) {
      // Also when the network failed under the version probe (the SDK wraps it, the cause says what it was).
      message = describeRemoteError(error, launch.url ?? '');
    } else if (error instanceof ProtocolError || (error instanceof SdkError && !(error instanceof SdkHttpError))) {
      message = `initialize failed: ${error.message}`;
    } else if (kind === 'stdio') {
      // The process layer already phrases spawn failures ("command not found: npx (PATH searched: …)").
      message = error instanceof Error ? error.message : String(error);
    } else {
      message = describeRemoteError(error, launch.url ?? '');
    }
    return new ConnectError(message, tail, { cause: error });
  }
}

/** Waits for `promise`, but rejects as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function abortMessage(reason: unknown, startupTimeoutMs: number): string {
  if (reason instanceof Error && reason.name === 'TimeoutError') return startupTimeoutMessage(startupTimeoutMs);
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  if (typeof reason === 'string' && reason) return reason;
  return 'start was cancelled';
}
