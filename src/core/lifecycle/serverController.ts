// One server's lifecycle: the only code that changes its ServerState. It owns the current connection
// (a slot whose old value is disposed when replaced), the pending start, the restart timer and the
// catalog of the live connection. Everything that takes time goes through the injected Clock.
import type { Disposable } from '../disposable';
import { Emitter, type Event } from '../event';
import type { EffectiveServer } from '../config/types';
import { sameAlwaysLoad, sameToolFilter } from '../config/toolFilter';
import { CATALOG_KINDS, DEFAULT_MIN_REFRESH_INTERVAL_MS, emptyCatalog } from './catalog';
import { BudgetedLog } from './logBudget';
import { ClosingConnections } from './closingConnections';
import type { CallOptions, CatalogChange, GetPromptResult, ReadResourceResult, ServerControllerOptions, ServerStateChange, ServerView } from './controllerTypes';
import { ServerNotRunningError, SignInRequiredError, errorMessage } from './errors';
import { LiveConnection } from './liveConnection';
import { OfferedCatalogCache } from './offeredCatalog';
import type { CloseInfo, CompletionRequest, CompletionResult, RequestOptions, ServerConnection } from './ports';
import { redactText, secretsOf } from './redact';
import { ResourceWatchAccess } from './resourceWatchAccess';
import { nextRestart } from './restartPolicy';
import type { LifecycleSettings } from './settings';
import { MutableSlot } from './slot';
import { StartAttempt } from './startAttempt';
import { runStart } from './startRun';
import { failedState } from './stderrCause';
import { runToolTask } from '../tasks/taskRun';
import { ServerState } from './state';
import type { Catalog, McpLogLevel } from './types';

export type {
  CallOptions, CatalogChange, GetPromptResult, ReadResourceResult, SendToolCall, ServerControllerOptions, ServerStateChange, ServerView,
} from './controllerTypes';

/** What a server that is not ready offers: one shared catalog, frozen so no reader can fill it. */
const NOTHING_LISTED: Catalog = emptyCatalog();
for (const kind of CATALOG_KINDS) Object.freeze(NOTHING_LISTED[kind]);

/**
 * Drives one server through its states. Created and owned by the ServerRegistry. It has no public way
 * to call a tool: the one function that sends tools/call is handed to its creator at construction
 * (`grantToolCalls`), and the registry hands it on to the tool call gate only.
 */
export class ServerController implements ServerView, Disposable {
  private readonly stateEmitter = new Emitter<ServerStateChange>();
  private readonly catalogEmitter = new Emitter<CatalogChange>();
  /** Fires on every state change, after the state was set. */
  readonly onDidChangeState: Event<ServerStateChange> = this.stateEmitter.event;
  readonly onDidChangeCatalog: Event<CatalogChange> = this.catalogEmitter.event;

  private currentState: ServerState = ServerState.stopped;
  private currentServer: EffectiveServer;
  private readonly live = new MutableSlot<LiveConnection>();
  private readonly restartTimer = new MutableSlot<Disposable>();
  private pending: { attempt: StartAttempt; done: Promise<void> } | undefined;
  /** Staged closes under way, with their connection (a second Stop closes it again, which kills at once). */
  private readonly closing = new ClosingConnections((message) => this.warn(message));
  /** The Stop under way: resolves once its staged closes are done and the final state is set. */
  private stopping: Promise<void> | undefined;
  /** Bumped by every start and stop; an async step whose epoch is stale drops its result. */
  private epoch = 0;
  /** When recent crashes (and failed automatic restarts) happened (only those inside the restart window are kept). */
  private failures: number[] = [];
  private disposed = false;
  private readonly offered = new OfferedCatalogCache();
  /** The server's log behind a budget: a server that floods it must not grow the host's memory. */
  private readonly log: BudgetedLog;
  /** Watching resources on the ready connection (the bookkeeping of who watches is core/subscriptions). */
  readonly resources = new ResourceWatchAccess(() => this.id, () => this.readyConnection(), () => this.requestOptions(), (message) => this.warn(message));

  constructor(private readonly options: ServerControllerOptions) {
    this.currentServer = options.server;
    this.log = new BudgetedLog(options.log, options.clock);
    // tools/call, which every tool call takes, without a closure of its own per call; a closure here, not
    // a method, so that nothing but the gate holding it can call a tool. A call the gate wants run as a
    // task is one where the server offers tasks, and a plain call where it does not.
    options.grantToolCalls?.((name, args, callOptions) => {
      const task = callOptions?.task;
      if (task !== undefined) return this.request((connection) => connection.tasks === undefined
        ? connection.callTool(name, args, this.requestOptions(callOptions))
        : runToolTask(connection.tasks, name, args, { serverId: this.id, clock: this.options.clock, ...this.requestOptions(callOptions), ...task }));
      const live = this.readyConnection();
      return live ? live.callTool(name, args, this.requestOptions(callOptions), this.requestFailed) : Promise.reject(new ServerNotRunningError(this.id, this.currentState));
    });
  }

  get id(): string { return this.currentServer.id; }

  get server(): EffectiveServer { return this.currentServer; }

  get state(): ServerState { return this.currentState; }

  get droppedLogLines(): number { return this.log.dropped; }

  /** The offered catalog: tools hidden by the entry's `allowedTools`/`disabledTools` left out (see offeredCatalog). */
  get catalog(): Catalog {
    return this.offered.get(this.live.value?.catalog.current ?? NOTHING_LISTED, this.currentServer);
  }

  whenCatalogLoaded(): Promise<void> {
    return this.live.value?.catalog.idle() ?? Promise.resolve();
  }

  /**
   * Replaces the definition used by the next start; does not restart (the registry decides that). A
   * changed tool filter or `alwaysLoad` applies at once: the offered tools change without a restart.
   */
  setServer(server: EffectiveServer): void {
    const previous = this.currentServer;
    this.currentServer = server;
    const offerChanged = !sameToolFilter(previous, server) || !sameAlwaysLoad(previous, server);
    if (offerChanged && this.live.value !== undefined && !this.disposed) this.catalogEmitter.fire({ id: this.id, kind: 'tools' });
  }

  /** Starts the server unless it is starting or ready; resolves once it is ready or failed. Resets the restart budget. */
  start(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.failures = [];
    if (this.currentState.kind === 'starting' && this.pending) return this.pending.done;
    if (this.currentState.kind === 'ready') return Promise.resolve();
    this.restartTimer.clear();
    return this.connect(false, this.closing.allClosed());
  }

  /**
   * Stops (staged close of the connection, a pending start is aborted, a pending restart cancelled): the
   * state is `stopping` while the process goes, then `stopped`. Resolves when the connection is gone. A
   * second stop while stopping kills the process at once. A parked server stays parked.
   */
  stop(): Promise<void> {
    if (this.currentState.kind === 'stopping' && this.stopping) return this.forceStop(this.stopping);
    // A parked server has nothing running; stopping it must not hide why it is parked.
    const parked = this.currentState.kind === 'needsTrust' || this.currentState.kind === 'disabled';
    return this.shutdown(parked ? this.currentState : { kind: 'stopped' }, !parked);
  }

  /** Stops a server that is being removed: straight to `stopped` (nobody watches it go), resolved when the connection is gone. */
  retire(): Promise<void> {
    return this.shutdown({ kind: 'stopped' });
  }

  /** Stops and holds the server in `needsTrust` or `disabled` (with the reason a disabled one shows, if any). */
  park(kind: 'needsTrust' | 'disabled', reason?: string): Promise<void> {
    return this.shutdown(kind === 'disabled' && reason !== undefined ? { kind, reason } : { kind });
  }

  /**
   * Closes the current connection, then starts again with the current definition. Resets the restart
   * budget. `why` goes to the log, so that a restart someone asked for never reads like a crash.
   */
  restart(why = 'requested'): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.failures = [];
    this.info(`restarting (${why})`);
    this.release('the server is restarting');
    return this.connect(false, this.closing.allClosed());
  }

  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.request((connection) => connection.readResource(uri, this.requestOptions(options)));
  }

  getPrompt(name: string, args: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    return this.request((connection) => connection.getPrompt(name, args, this.requestOptions(options)));
  }

  /** `completion/complete` for an argument of one of this server's prompts or resource templates. */
  complete(request: CompletionRequest, options?: CallOptions): Promise<CompletionResult> {
    return this.request((connection) => connection.complete(request, this.requestOptions(options)));
  }

  /** Tells a ready server that the roots changed; failures are logged. */
  notifyRootsChanged(): void {
    const live = this.readyConnection();
    if (!live) return;
    live.connection.notifyRootsChanged().catch((error: unknown) => this.warn(`could not send roots/list_changed: ${errorMessage(error)}`));
  }

  /** Asks a ready server that declared logging to log at `level`; failures are logged. */
  setLogLevel(level: McpLogLevel): void {
    const live = this.readyConnection();
    if (!live || !live.connection.supports.logging) return;
    live.connection.setLogLevel(level).catch((error: unknown) => this.warn(`could not set the log level to ${level}: ${errorMessage(error)}`));
  }

  /** Stops without waiting (the staged close continues in the background) and drops all listeners. */
  dispose(): void {
    if (this.disposed) return;
    void this.shutdown({ kind: 'stopped' });
    this.disposed = true;
    this.restartTimer.dispose();
    this.live.dispose();
    this.log.dispose();
    this.resources.dispose();
    this.stateEmitter.dispose();
    this.catalogEmitter.dispose();
  }

  // ── transitions ────────────────────────────────────────────────────────────────────────────────

  /** The single place the state changes. */
  private setState(next: ServerState): void {
    const previous = this.currentState;
    if (previous === next || JSON.stringify(previous) === JSON.stringify(next)) return;
    this.currentState = next;
    try {
      this.stateEmitter.fire({ id: this.id, state: next, previous });
    } catch (error) {
      this.log.error(`a state listener failed: ${errorMessage(error)}`);
    }
  }

  private connect(automatic: boolean, before: Promise<void> | undefined): Promise<void> {
    const epoch = ++this.epoch;
    const server = this.currentServer;
    const settings = this.options.settings();
    const timeoutMs = server.timeout !== undefined && server.timeout > 0 ? server.timeout : settings.startupTimeoutMs;
    const attempt = new StartAttempt(this.options.clock, timeoutMs, settings.shutdownGraceMs);
    this.setState({ kind: 'starting', since: this.options.clock.now() });
    if (epoch !== this.epoch) return Promise.resolve(); // a state listener stopped it
    const done = runStart({
      attempt, server, automatic, before,
      connector: this.options.connector,
      request: { log: this.log, roots: () => this.options.roots(), shutdownGraceMs: settings.shutdownGraceMs, trace: settings.trace },
      isCurrent: () => epoch === this.epoch && !this.disposed,
      info: (line) => this.info(line),
      now: () => this.options.clock.now(),
    }, {
      connected: (connection, startedAt) => { this.pending = undefined; this.onConnected(connection, startedAt, settings); },
      failed: (message, stderrTail) => { this.pending = undefined; this.onStartFailed(message, stderrTail, automatic); },
      signInRequired: (message) => { this.pending = undefined; this.onSignInRequired(message); },
    });
    this.pending = { attempt, done };
    return done;
  }

  private onConnected(connection: ServerConnection, startedAt: number, settings: LifecycleSettings): void {
    const live = LiveConnection.open(this.id, connection, {
      log: this.log,
      requestTimeoutMs: () => this.options.settings().requestTimeoutMs,
      onDidChange: (kind) => this.catalogEmitter.fire({ id: this.id, kind }),
      clock: this.options.clock,
      minRefreshIntervalMs: DEFAULT_MIN_REFRESH_INTERVAL_MS,
    });
    this.live.value = live;
    live.subscriptions.add(connection.onClose((info) => this.onClosed(live, info)));
    this.resources.follow(live);
    const now = this.options.clock.now();
    const info = connection.serverInfo;
    this.info(`ready in ${now - startedAt} ms (${info.name}${info.version ? ` ${info.version}` : ''})`);
    this.setState({ kind: 'ready', since: now, startMs: now - startedAt });
    if (this.live.value !== live) return; // a state listener stopped it
    if (connection.supports.logging) this.setLogLevel(settings.logLevel);
    void live.catalog.load();
  }

  /** Parks the server until a person signs in: no restart, since only signing in can change the answer. */
  private onSignInRequired(message: string): void {
    const reason = this.redact(message);
    this.log.warn(`needs sign-in: ${reason}`);
    this.setState({ kind: 'needsSignIn', reason });
  }

  private onStartFailed(message: string, stderrTail: string[], automatic: boolean): void {
    const error = this.redact(message);
    const tail = stderrTail.map((line) => this.redact(line));
    if (automatic) {
      this.log.error(`restart failed: ${error}`);
      this.afterFailure(error, tail);
      return;
    }
    this.log.error(`failed to start: ${error}`);
    this.setState(failedState(this.currentServer, error, tail, this.log));
  }

  private onClosed(live: LiveConnection, info: CloseInfo): void {
    // Only the current connection counts; a stop takes it out of the slot before closing it.
    if (this.live.value !== live) return;
    const reason = this.redact(info.reason || 'the connection closed');
    this.live.take();
    const stderrTail = info.stderrTail.map((line) => this.redact(line));
    live.end(reason, stderrTail);
    this.closing.add(live.connection);
    this.log.error(`crashed: ${reason}`);
    this.setState({ kind: 'crashed', exitCode: info.exitCode, signal: info.signal, error: reason, stderrTail });
    this.announceEmptied(live.catalog.current);
    if (this.currentState.kind === 'crashed') this.afterFailure(reason, stderrTail);
  }

  /** Counts a failure in the sliding window and either schedules a restart with backoff or gives up. */
  private afterFailure(reason: string, stderrTail: string[]): void {
    const now = this.options.clock.now();
    const next = nextRestart(this.failures, now, this.options.settings(), reason);
    this.failures = next.failures;
    if (next.kind === 'giveUp') {
      this.log.error(next.error);
      this.setState(failedState(this.currentServer, next.error, stderrTail, this.log));
      return;
    }
    this.restartTimer.value = this.options.clock.setTimeout(() => {
      this.restartTimer.take();
      void this.connect(true, this.closing.allClosed());
    }, next.delayMs);
    this.info(next.message);
    this.setState({ kind: 'restarting', attempt: next.attempt, at: now + next.delayMs, reason });
  }

  /** Releases everything; with `showStopping`, the state is `stopping` until the staged closes are done, then `final`. */
  private shutdown(final: ServerState, showStopping = false): Promise<void> {
    const hadSomething = this.release('the server was stopped');
    const closed = this.closing.allClosed();
    const stoppedLine = final.kind === 'stopped' ? 'stopped' : `stopped (${ServerState.label(final)})`;
    if (!showStopping || closed === undefined) {
      this.setState(final);
      if (hadSomething) this.info(stoppedLine);
      return closed ?? Promise.resolve();
    }
    const epoch = this.epoch;
    const done = closed.then(() => {
      if (this.stopping === done) this.stopping = undefined;
      // A start (or another stop) since then owns the state now.
      if (epoch !== this.epoch || this.disposed) return;
      this.setState(final);
      this.info(stoppedLine);
    });
    this.stopping = done;
    this.setState({ kind: 'stopping', since: this.options.clock.now() });
    return done;
  }

  /** A second Stop during the staged close: every connection still closing is closed again, which kills its process now. */
  private forceStop(stopping: Promise<void>): Promise<void> {
    this.info('stop requested again while stopping: ending the process now');
    this.closing.forceAll();
    return stopping;
  }

  /** Cancels the pending start and restart and starts the staged close of the connection. Returns whether there was anything to stop. */
  private release(reason: string): boolean {
    this.epoch++;
    const hadTimer = this.restartTimer.value !== undefined;
    this.restartTimer.clear();
    const pending = this.pending;
    this.pending = undefined;
    pending?.attempt.cancel(reason);
    const live = this.live.take();
    if (live) {
      live.end(reason);
      this.closing.add(live.connection);
      this.announceEmptied(live.catalog.current);
    }
    return hadTimer || pending !== undefined || live !== undefined;
  }

  private announceEmptied(catalog: Catalog): void {
    if (this.disposed) return;
    for (const kind of CATALOG_KINDS) {
      if (catalog[kind].length > 0) this.catalogEmitter.fire({ id: this.id, kind });
    }
  }

  // ── requests ───────────────────────────────────────────────────────────────────────────────────

  private request<T>(send: (connection: ServerConnection) => Promise<T>): Promise<T> {
    const live = this.readyConnection();
    return live ? live.send(send, this.requestFailed) : Promise.reject(new ServerNotRunningError(this.id, this.currentState));
  }

  /** Tokens refused mid-session (revoked, refresh expired): the server needs a person now, not only this call. */
  private readonly requestFailed = (error: unknown, live: LiveConnection): void => {
    if (error instanceof SignInRequiredError && this.live.value === live) {
      this.release('a sign-in is needed');
      this.onSignInRequired(error.message);
    }
  };

  private readyConnection(): LiveConnection | undefined {
    return this.currentState.kind === 'ready' ? this.live.value : undefined;
  }

  private requestOptions(options: CallOptions = {}): RequestOptions {
    return {
      timeoutMs: options.timeoutMs ?? this.options.settings().requestTimeoutMs,
      signal: options.signal,
      onProgress: options.onProgress,
    };
  }

  // ── logging (always scrubbed of the launch's secrets) ────────────────────────────────────────────

  private redact(text: string): string {
    return redactText(text, secretsOf(this.currentServer.launch));
  }

  private info(message: string): void { this.log.info(this.redact(message)); }

  private warn(message: string): void { this.log.warn(this.redact(message)); }
}
