// What the lifecycle core needs from the outside world. src/node implements the connector
// (processes and the MCP SDK); src/vscode and the CLI implement the log sink.
import type { Disposable } from '../disposable';
import type { Event } from '../event';
import type { EffectiveServer } from '../config/types';
import type { TaskPort } from '../tasks/types';
import type { CallToolResult, CatalogItemOf, CatalogKind, McpLogLevel, Root } from './types';

/** One server's log. Implementations must never print env or header values (see redact.ts). */
export interface ServerLog {
  /** Lifecycle events ("starting", "ready in 240 ms", "exited with code 1"). */
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** A line the server wrote on stderr. */
  stderr(line: string): void;
  /** A `notifications/message` from the server, at its level. */
  serverMessage(level: McpLogLevel, logger: string | undefined, data: unknown): void;
  /** Protocol trace of one JSON-RPC message (only called when tracing is on). */
  trace(direction: 'send' | 'receive', message: unknown): void;
}

/** Why a connection ended. */
export interface CloseInfo {
  /** True when close() was called (a stop), false when the server went away by itself. */
  expected: boolean;
  exitCode: number | null;
  signal: string | null;
  /** Human-readable cause, e.g. "process exited with code 1", "connection closed by the server". */
  reason: string;
  stderrTail: string[];
}

export interface RequestOptions {
  /** Milliseconds without progress before the request fails. */
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
  /** The server's cache hint (2026-07-28): the list stays fresh this many ms; absent when it gave none (or 0). */
  ttlMs?: number;
}

/** What `completion/complete` asks about: one argument of a prompt or of a resource template. */
export interface CompletionRequest {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  /** The values of the arguments already filled in, which may narrow the suggestions. */
  context?: { arguments?: Record<string, string> };
}

/** Suggested values (at most 100, the protocol's limit), and whether there are more. */
export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/**
 * Watching a server's resources for changes. The 2025-11-25 generation subscribes one resource at a
 * time (`resources/subscribe`, `resources/unsubscribe`, then `notifications/resources/updated`); the
 * 2026-07-28 one keeps a `subscriptions/listen` stream open for the set being watched. Either fits this
 * shape: the core says which URIs it starts and stops watching and hears which of them changed.
 */
export interface ResourceWatch {
  /** Starts watching `uri`; resolves once the server accepted. */
  watch(uri: string, options: RequestOptions): Promise<void>;
  /** Stops watching `uri`. */
  unwatch(uri: string, options: RequestOptions): Promise<void>;
  /** A watched resource changed (its URI). */
  readonly onUpdated: Event<string>;
}

/** A live, initialized connection to one server. */
export interface ServerConnection extends Disposable {
  readonly serverInfo: { name: string; version: string; title?: string };
  /** The protocol version spoken: '2025-11-25' (and older) after `initialize`, '2026-07-28' after `server/discover`. */
  readonly protocolVersion?: string;
  readonly instructions?: string;
  /** Which catalog kinds the server declared in its capabilities. */
  readonly supports: Readonly<Record<CatalogKind, boolean>> & { logging: boolean };
  /** One page of a catalog list; the core loops on `nextCursor`. */
  listPage<K extends CatalogKind>(kind: K, cursor: string | undefined, options: RequestOptions): Promise<Page<CatalogItemOf[K]>>;
  callTool(name: string, args: Record<string, unknown>, options: RequestOptions): Promise<CallToolResult>;
  /** The task requests (tools/call as a task, tasks/get, tasks/result, tasks/cancel), when the server declares tasks for tools/call. */
  readonly tasks?: TaskPort;
  readResource(uri: string, options: RequestOptions): Promise<{ contents: ({ uri: string; mimeType?: string } & Record<string, unknown>)[] }>;
  getPrompt(name: string, args: Record<string, string>, options: RequestOptions): Promise<{ description?: string; messages: { role: string; content: unknown }[] }>;
  /** `completion/complete`: suggestions for one argument of a prompt or resource template (none when the server does not offer completions). */
  complete(request: CompletionRequest, options: RequestOptions): Promise<CompletionResult>;
  setLogLevel(level: McpLogLevel): Promise<void>;
  /** Sends notifications/roots/list_changed (the server then asks roots/list again). */
  notifyRootsChanged(): Promise<void>;
  /** Resource watching, present only when the server offers it (old generation: `resources.subscribe`). */
  readonly resourceWatch?: ResourceWatch;
  /** A `notifications/<kind>/list_changed` arrived. */
  readonly onListChanged: Event<CatalogKind>;
  /**
   * Fires once when the connection ends, for any reason. The core then fails the requests waiting on it
   * (LiveConnection); the connection itself only ends them with its transport, and refuses new ones.
   */
  readonly onClose: Event<CloseInfo>;
  /**
   * Staged shutdown (stdio: close stdin → SIGTERM → SIGKILL of the process group). Resolves when it is
   * gone. Called again while that runs, it ends it at once (stdio: SIGKILL of the process group now).
   */
  close(): Promise<void>;
}

export interface ConnectRequest {
  server: EffectiveServer;
  log: ServerLog;
  /** Current roots; asked each time the server sends roots/list. */
  roots: () => Root[];
  /**
   * Startup timeout: spawn + initialize must finish within it. The core enforces it (`signal` aborts with
   * startupTimeoutMessage); a connector only uses it to bound work of its own that has no core start,
   * such as re-initializing an expired session of a live connection.
   */
  startupTimeoutMs: number;
  /** Grace period between each shutdown stage. */
  shutdownGraceMs: number;
  trace: boolean;
  signal: AbortSignal;
  /**
   * Tells the redaction about secret values the connector learned while launching (an env file's
   * values, `${input:…}` answers): from then on they are scrubbed from the log, errors and the
   * connection's output. Set by RedactingConnector.
   */
  addSecrets?(values: Iterable<string>): void;
}

/** What the untimed step before a start knows. */
export interface PrepareRequest {
  server: EffectiveServer;
  /** True for a restart after a crash (nobody asked for it): a step that needs a person should fail instead of asking. */
  automatic: boolean;
  /** Aborts when the start is cancelled (a stop or restart came first). */
  signal: AbortSignal;
}

/** Starts a process or opens a remote connection and performs MCP initialize. */
export interface ServerConnector {
  /**
   * Optional step before `connect`, outside the startup timeout, for what may wait on a person (the
   * values of `${input:…}` references). A rejection fails the start with its message.
   */
  prepare?(request: PrepareRequest): Promise<void>;
  /** Rejects with an Error whose message is the user-facing reason (e.g. "command not found: npx (PATH searched: …)"). */
  connect(request: ConnectRequest): Promise<ServerConnection>;
}
