// What the ServerController shows the rest of the extension: its events, its read-only view of a
// server, the options it is created with and the per-request options.
import type { EffectiveServer } from '../config/types';
import type { TaskCallOptions } from '../tasks/types';
import type { Clock } from './clock';
import type { RequestOptions, ServerConnection, ServerConnector, ServerLog } from './ports';
import type { LifecycleSettings } from './settings';
import type { ServerState } from './state';
import type { CallToolResult, Catalog, CatalogKind, Root } from './types';

/** A state change of one server. */
export interface ServerStateChange {
  id: string;
  state: ServerState;
  previous: ServerState;
}

/** One catalog kind of one server changed (loaded, refreshed, or emptied because the connection ended). */
export interface CatalogChange {
  id: string;
  kind: CatalogKind;
}

/** Per-request options; `timeoutMs` defaults to the `requestTimeoutMs` setting. */
export interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: RequestOptions['onProgress'];
  /** Run the call as a task (when the connection offers tasks), told to this observer; only the gate sets it. */
  task?: TaskCallOptions;
}

/** Sends tools/call on a server's live connection (rejects when it is not ready). Only the tool call gate holds one. */
export type SendToolCall = (name: string, args: Record<string, unknown>, options?: CallOptions) => Promise<CallToolResult>;

export type ReadResourceResult = Awaited<ReturnType<ServerConnection['readResource']>>;
export type GetPromptResult = Awaited<ReturnType<ServerConnection['getPrompt']>>;

/** What the rest of the extension may read about a server (changing it goes through the registry). */
export interface ServerView {
  readonly id: string;
  readonly server: EffectiveServer;
  readonly state: ServerState;
  /** The catalog of the live connection; empty when the server is not ready. */
  readonly catalog: Catalog;
  /** Log lines of this server dropped because it logged faster than the log budget lets through (see logBudget). */
  readonly droppedLogLines: number;
  /** Resolves when the live connection's catalog listing is done (at once when there is no connection). */
  whenCatalogLoaded(): Promise<void>;
}

export interface ServerControllerOptions {
  server: EffectiveServer;
  connector: ServerConnector;
  log: ServerLog;
  clock: Clock;
  /** Read at every use, so a settings change applies to the next start or request. */
  settings: () => LifecycleSettings;
  /** The current roots, read whenever the server asks. */
  roots: () => Root[];
  /** Receives, once and at construction, the only function that calls this server's tools. */
  grantToolCalls?(send: SendToolCall): void;
}
