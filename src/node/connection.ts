// One live, initialized connection to a server, over the SDK Client. It hides two things from the core:
// the SDK's shapes (mapped to the core's types) and the Streamable HTTP session, which may expire and
// be replaced underneath (re-initialize, bounded, then retry the request once).
import { Emitter } from '../core/event';
import type { CloseInfo, CompletionRequest, CompletionResult, Page, RequestOptions, ServerConnection, ServerLog } from '../core/lifecycle/ports';
import type { CallToolResult, CatalogItemOf, CatalogKind, McpLogLevel } from '../core/lifecycle/types';
import { describeRemoteError, httpStatusOf, isProtocolOrLocal, isSessionExpired, networkReason, type RemoteKind } from './remoteTransports';
import type { McpSession, SessionSink } from './mcpSession';
import { listCatalogPage } from './catalogPages';
import { SdkResourceWatch } from './resourceWatch';
import { SdkTaskRequests } from './taskRequests';
import type { TaskPort, TaskState } from '../core/tasks/types';
import { SdkError, SdkErrorCode, SseError, type SdkRequestOptions, type Transport } from './sdk';
import type { SessionClient as Client } from './sessionClient';

/** Timeout of the small requests the core sends without options (logging/setLevel). */
const CONTROL_TIMEOUT_MS = 30_000;

export interface ConnectionOptions {
  log: ServerLog;
  /** Opens a fresh session on the same Streamable HTTP endpoint (used when the session expired). */
  reopen?: (sink: SessionSink) => Promise<McpSession>;
  /** Re-initializations allowed within `reinitWindowMs` before a request fails for good. */
  maxReinits: number;
  reinitWindowMs: number;
  /** How long close() waits for the server to acknowledge ending an HTTP session. */
  shutdownGraceMs: number;
  /** False when the entry's `roots` fixes them (or declares none): a change of workspace folders is no news to it. */
  followsWorkspaceRoots?: boolean;
  now?: () => number;
}

/** The ServerConnection the core works with. Create it with `SdkServerConnection.start`. */
export class SdkServerConnection implements ServerConnection {
  private session!: McpSession;
  private readonly listChangedEmitter = new Emitter<CatalogKind>();
  private readonly closeEmitter = new Emitter<CloseInfo>();
  readonly onListChanged = this.listChangedEmitter.event;
  readonly onClose = this.closeEmitter.event;
  private ended = false;
  private stopping = false;
  private closing: Promise<void> | undefined;
  private reinitializing: { from: McpSession; done: Promise<void> } | undefined;
  private readonly reinitTimes: number[] = [];
  private logLevel: McpLogLevel | undefined;
  private readonly taskStatusEmitter = new Emitter<TaskState>();
  private readonly sink: SessionSink = {
    listChanged: (kind) => this.listChangedEmitter.fire(kind),
    resourceUpdated: (uri) => this.watch.updated(uri),
    taskStatus: (task) => this.taskStatusEmitter.fire(task),
  };
  private readonly watch: SdkResourceWatch;
  private taskRequests: SdkTaskRequests | undefined;
  private readonly now: () => number;

  private constructor(private readonly options: ConnectionOptions) {
    this.now = options.now ?? Date.now;
    this.watch = new SdkResourceWatch((requestOptions, run) => this.request(requestOptions, run), options.log, () => this.session.client.getProtocolEra() === 'modern');
  }

  /** Opens the first session with `open` and returns the connection over it. */
  static async start(open: (sink: SessionSink) => Promise<McpSession>, options: ConnectionOptions): Promise<SdkServerConnection> {
    const connection = new SdkServerConnection(options);
    const session = await open(connection.sink);
    if (session.closed) {
      const info = connection.closeInfoOf(session, false);
      await session.shutdown();
      throw new Error(`${info.reason} right after initialize`);
    }
    connection.adopt(session);
    return connection;
  }

  get serverInfo(): { name: string; version: string; title?: string } {
    const info = this.session.client.getServerVersion();
    return { name: info?.name ?? '', version: info?.version ?? '', ...(info?.title !== undefined ? { title: info.title } : {}) };
  }

  get instructions(): string | undefined { return this.session.client.getInstructions(); }
  get protocolVersion(): string | undefined { return this.session.client.getNegotiatedProtocolVersion(); }

  get supports(): Readonly<Record<CatalogKind, boolean>> & { logging: boolean } {
    const caps = this.session.client.getServerCapabilities() ?? {};
    return {
      tools: caps.tools !== undefined,
      resources: caps.resources !== undefined,
      resourceTemplates: caps.resources !== undefined,
      prompts: caps.prompts !== undefined,
      logging: caps.logging !== undefined,
    };
  }

  /**
   * Present when the server declared `resources.subscribe`: without it nothing is ever sent. Both
   * generations (2026-07-28 watches on a `subscriptions/listen` stream: resourceWatch.ts).
   */
  get resourceWatch(): SdkResourceWatch | undefined {
    return this.session.client.getServerCapabilities()?.resources?.subscribe === true ? this.watch : undefined;
  }

  /** The transport actually in use (after a Streamable HTTP → SSE fallback this is 'sse'). */
  get transportKind(): 'stdio' | RemoteKind { return this.session.kind; }

  listPage<K extends CatalogKind>(kind: K, cursor: string | undefined, options: RequestOptions): Promise<Page<CatalogItemOf[K]>> {
    return this.request(options, (client, sdk) => listCatalogPage(client, kind, cursor, sdk));
  }

  callTool(name: string, args: Record<string, unknown>, options: RequestOptions): Promise<CallToolResult> {
    // The server's result is passed through; the core's CallToolResult mirrors the protocol's JSON.
    return this.request(options, (client, sdk) => client.callTool({ name, arguments: args }, sdk) as Promise<CallToolResult>);
  }

  /** The task requests, when the server declares tasks for tools/call (read per session: a new one may differ). */
  get tasks(): TaskPort | undefined {
    if (this.session.client.getServerCapabilities()?.tasks?.requests?.tools?.call === undefined) return undefined;
    this.taskRequests ??= new SdkTaskRequests((options, run) => this.request(options, run), this.taskStatusEmitter.event);
    return this.taskRequests;
  }

  readResource(uri: string, options: RequestOptions): Promise<{ contents: ({ uri: string; mimeType?: string } & Record<string, unknown>)[] }> {
    return this.request(options, (client, sdk) => client.readResource({ uri }, sdk));
  }

  getPrompt(name: string, args: Record<string, string>, options: RequestOptions): Promise<{ description?: string; messages: { role: string; content: unknown }[] }> {
    return this.request(options, (client, sdk) => client.getPrompt({ name, arguments: args }, sdk));
  }

  async complete(request: CompletionRequest, options: RequestOptions): Promise<CompletionResult> {
    // Completions are an optional capability: a server without it simply has no suggestions.
    if (this.session.client.getServerCapabilities()?.completions === undefined) return { values: [] };
    const { completion } = await this.request(options, (client, sdk) => client.complete(request, sdk));
    return {
      values: completion.values,
      ...(completion.total !== undefined ? { total: completion.total } : {}), ...(completion.hasMore !== undefined ? { hasMore: completion.hasMore } : {}),
    };
  }

  async setLogLevel(level: McpLogLevel): Promise<void> {
    this.logLevel = level;
    // Only servers that declared `logging` understand logging/setLevel; for the others it is a no-op.
    if (!this.supports.logging) return;
    await this.request({ timeoutMs: CONTROL_TIMEOUT_MS }, (client, sdk) => client.setLoggingLevel(level, sdk));
  }

  async notifyRootsChanged(): Promise<void> {
    if (this.ended || this.stopping || this.options.followsWorkspaceRoots === false) return;
    await this.session.client.sendRootsListChanged();
  }

  /** Staged shutdown, resolved when everything is gone. Called again while it runs, it kills at once. */
  close(): Promise<void> {
    if (this.closing) {
      if (!this.ended) void this.session.kill();
      return this.closing;
    }
    this.closing = this.stop();
    return this.closing;
  }

  /** Starts close() without waiting; never escalates a close already under way. */
  dispose(): void { this.closing ??= this.stop(); }
  // ---- sessions ----------------------------------------------------------------------------------

  private adopt(session: McpSession): void {
    this.session = session;
    session.onClosed(() => this.sessionClosed(session));
    session.onError((error) => this.sessionError(session, error));
  }

  /** Stops listening to a session that is being replaced or shut down on purpose. */
  private retire(session: McpSession): void {
    session.onClosed(undefined);
    session.onError(undefined);
  }

  private sessionClosed(session: McpSession): void {
    if (session !== this.session || this.stopping) return;
    this.finish(this.closeInfoOf(session, false));
    // The transport closed itself; make sure nothing under it lingers (an SSE event source, a process).
    void session.shutdown();
  }

  private sessionError(session: McpSession, error: Error): void {
    if (session !== this.session || this.stopping || this.ended) return;
    if (session.kind === 'sse' && error instanceof SseError) {
      // The SSE event stream is the connection: once it drops, the event source would reconnect into a
      // new, uninitialized server session. Treat it as the connection ending instead.
      const detail = networkReason(error) ?? error.message.replace(/^SSE error: ?/, '').replace(/^undefined$/, '');
      session.closeReason = `the SSE stream was lost${detail ? ` (${detail})` : ''}`;
      void session.shutdown();
      return;
    }
    this.options.log.warn(`transport: ${error.message}`);
  }

  private closeInfoOf(session: McpSession, expected: boolean): CloseInfo {
    const exit = session.process?.exit();
    const stderrTail = session.process?.stderrTail() ?? [];
    let reason: string;
    if (expected) reason = exit?.reason ?? 'stopped';
    else if (session.closeReason) reason = session.closeReason;
    else if (exit) reason = exit.reason;
    else if (session.kind === 'stdio') reason = 'the server closed its stdout';
    else reason = 'connection closed by the server';
    return { expected, exitCode: exit?.exitCode ?? null, signal: exit?.signal ?? null, reason, stderrTail };
  }

  /**
   * Ends the connection once: onClose fires, and the core fails the requests waiting on it (one owner,
   * one reason: see LiveConnection); the SDK ends its own requests when the transport closes.
   */
  private finish(info: CloseInfo): void {
    if (this.ended) return;
    this.ended = true;
    this.closeEmitter.fire(info);
    this.closeEmitter.dispose();
    this.listChangedEmitter.dispose();
    this.watch.dispose();
    this.taskStatusEmitter.dispose();
  }

  private async stop(): Promise<void> {
    this.stopping = true;
    const session = this.session;
    if (this.ended) return session.shutdown();
    // What is in flight was failed by the core when it began the stop (before calling close()).
    this.retire(session);
    await this.endHttpSession(session);
    await session.shutdown();
    this.finish(this.closeInfoOf(session, true));
  }

  /** Asks a Streamable HTTP server to drop our session (DELETE), within the grace period. */
  private async endHttpSession(session: McpSession): Promise<void> {
    const transport = session.transport as Transport & { terminateSession?: () => Promise<void> };
    if (session.kind !== 'http' || session.closed || transport.sessionId === undefined || !transport.terminateSession) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => { timer = setTimeout(resolve, this.options.shutdownGraceMs); });
    await Promise.race([transport.terminateSession().catch(() => undefined), grace]);
    clearTimeout(timer);
  }

  // ---- requests ----------------------------------------------------------------------------------

  /**
   * Runs one request on the current session, re-initializing once if the HTTP session expired. When the
   * connection ends, the core fails its waiting callers and the transport's close ends the SDK's request.
   * (No AbortController per request: creating one, and the abort listener the SDK adds to it, are a
   * measurable part of a call's cost. Only a request whose caller gave a signal gets one.)
   */
  private request<T>(options: RequestOptions, run: (client: Client, sdk: SdkRequestOptions) => Promise<T>): Promise<T> {
    if (this.ended || this.stopping) return Promise.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'connection closed'));
    // Without a signal from the caller, the SDK gets none: that is the common case, and the cheap one.
    const sdk: SdkRequestOptions = { timeout: options.timeoutMs, resetTimeoutOnProgress: true };
    let unlink: (() => void) | undefined;
    if (options.signal) {
      // The SDK never removes the listener it adds to a request's signal: it gets a signal of its own,
      // so that a caller's long-lived signal does not collect one listener per request.
      const caller = options.signal;
      const own = new AbortController();
      const forward = () => own.abort(caller.reason);
      if (caller.aborted) forward();
      else {
        caller.addEventListener('abort', forward, { once: true });
        unlink = () => caller.removeEventListener('abort', forward);
      }
      sdk.signal = own.signal;
    }
    if (options.onProgress) {
      const onProgress = options.onProgress;
      sdk.onprogress = (p) => {
        const progress: { progress: number; total?: number; message?: string } = { progress: p.progress };
        if (p.total !== undefined) progress.total = p.total;
        if (p.message !== undefined) progress.message = p.message;
        onProgress(progress);
      };
    }
    const session = this.session;
    // A stdio session is never re-initialized and its failures pass unchanged (see attempt): without a
    // signal to unlink, the SDK's own promise is the answer, one async step fewer on every call.
    if (unlink === undefined && session.kind === 'stdio' && !session.auth) {
      try {
        return run(session.client, sdk);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.attempt(options, run, sdk, unlink);
  }

  private async attempt<T>(options: RequestOptions, run: (client: Client, sdk: SdkRequestOptions) => Promise<T>, sdk: SdkRequestOptions, unlink: (() => void) | undefined): Promise<T> {
    const session = this.session;
    try {
      return await (session.auth ? session.withAuthorization((client) => run(client, sdk), this.options.log) : run(session.client, sdk));
    } catch (error) {
      // A request still in flight on a session that another request found expired fails with
      // "connection closed" when that session is shut down: it is retried on the new session too.
      // A request the caller cancelled (or that the connection's end cut short) is never retried.
      if (options.signal?.aborted || this.ended || this.stopping || (!this.expired(session, error) && !session.expiredAndReplaced)) throw this.failure(session, error);
      await this.reinitialize(session);
      try {
        return await run(this.session.client, sdk);
      } catch (retryError) {
        if (this.expired(this.session, retryError)) throw new Error('the server expired the new session at once; try again later');
        throw this.failure(this.session, retryError);
      }
    } finally {
      unlink?.();
    }
  }

  /** A 404 to a request carrying a session id: the spec's signal that the server dropped the session. */
  private expired(session: McpSession, error: unknown): boolean {
    return session.kind === 'http' && this.options.reopen !== undefined && session.transport.sessionId !== undefined && isSessionExpired(error);
  }

  /** Maps a request failure to what the caller should see; a refused connection ends the connection. */
  private failure(session: McpSession, error: unknown): unknown {
    if (isProtocolOrLocal(error) || session.kind === 'stdio' || session.url === undefined) return error;
    const reason = networkReason(error);
    if (reason === undefined && httpStatusOf(error) === undefined) return error;
    const described = new Error(describeRemoteError(error, session.url), { cause: error });
    if (reason === 'connection refused' && session === this.session && !this.stopping) {
      // Nothing listens there any more: the server went away, like a process that exited. A turn later,
      // so that the caller hears this failure before the connection's end fails what still waits.
      session.closeReason = described.message;
      setImmediate(() => void session.shutdown());
    }
    return described;
  }

  /** Replaces an expired session with a fresh one (shared by concurrent requests), within the budget. */
  private async reinitialize(expired: McpSession): Promise<void> {
    if (this.ended || this.stopping) throw new SdkError(SdkErrorCode.ConnectionClosed, 'connection closed');
    if (this.session !== expired) return; // another request already replaced it
    if (this.reinitializing?.from === expired) return this.reinitializing.done;
    const done = this.replaceSession(expired);
    this.reinitializing = { from: expired, done };
    try {
      await done;
    } finally {
      if (this.reinitializing?.done === done) this.reinitializing = undefined;
    }
  }

  private async replaceSession(expired: McpSession): Promise<void> {
    const { log, maxReinits, reinitWindowMs } = this.options;
    const now = this.now();
    while (this.reinitTimes.length > 0 && now - this.reinitTimes[0] > reinitWindowMs) this.reinitTimes.shift();
    if (this.reinitTimes.length >= maxReinits) {
      const message = `the server keeps expiring the session (re-initialized ${this.reinitTimes.length} times in the last ${Math.round(reinitWindowMs / 1000)} s); giving up`;
      log.error(message);
      expired.closeReason = message;
      void expired.shutdown();
      throw new Error(message);
    }
    this.reinitTimes.push(now);
    expired.expiredAndReplaced = true;
    log.warn(`session expired (the server answered 404 for it): re-initializing (${this.reinitTimes.length} of ${maxReinits} allowed per ${Math.round(reinitWindowMs / 1000)} s)`);
    const started = this.now();
    this.retire(expired);
    void expired.shutdown();
    let fresh: McpSession;
    try {
      fresh = await this.options.reopen!(this.sink);
    } catch (error) {
      const message = `session expired and re-initializing failed: ${error instanceof Error ? error.message : String(error)}`;
      log.error(message);
      expired.closeReason = message;
      this.finish(this.closeInfoOf(expired, false));
      throw new Error(message, { cause: error });
    }
    if (this.stopping || this.ended) {
      await fresh.shutdown();
      throw new SdkError(SdkErrorCode.ConnectionClosed, 'connection closed');
    }
    this.adopt(fresh);
    log.info(`re-initialized in ${this.now() - started} ms`);
    if (this.logLevel !== undefined && this.supports.logging) {
      await fresh.client.setLoggingLevel(this.logLevel, { timeout: CONTROL_TIMEOUT_MS }).catch(() => undefined);
    }
    if (this.resourceWatch) await this.watch.renew({ timeoutMs: CONTROL_TIMEOUT_MS });
    // A new session may be a restarted server with a different catalog: let the core list again.
    const supports = this.supports;
    for (const kind of ['tools', 'resources', 'resourceTemplates', 'prompts'] as const) if (supports[kind]) this.sink.listChanged(kind);
  }
}
