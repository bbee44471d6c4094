// The API other extensions (and the tests) get from `activate`: plugin-scope registration, the
// configuration and server states, server control, and tool calls through the one call path.
import * as vscode from 'vscode';
import type { ConfigSnapshot } from '../core/config';
import type { CallToolResult, Catalog, ServerState, ServerStateChange } from '../core/lifecycle';
import type { ToolStatus } from '../core/toolReview';
import { restartServer, startServer, stopServer } from './servers/serverCommands';
import type { SwitchboardContext } from './switchboardContext';

/** What `vscode.extensions.getExtension('mcp-switchboard.mcp-switchboard').exports` offers. */
export interface SwitchboardApi {
  /**
   * Adds plugin-scope servers on behalf of `source` (usually the calling extension's id). `servers` is
   * keyed by name, each entry in `.mcp.json` shape. A new registration from the same source replaces
   * the previous one; disposing removes the servers.
   */
  registerServers(source: string, servers: Record<string, unknown>): vscode.Disposable;
  /**
   * How long activation took, in milliseconds, from VS Code calling activate until it returned (the
   * configuration is read after that: see ready()).
   */
  readonly activationMs: number;
  /** How long loading the extension's modules took before activate ran, in milliseconds (undefined when not known). */
  readonly moduleLoadMs: number | undefined;
  /** Resolves once the configuration was first read and its servers handed to the lifecycle (never rejects). */
  ready(): Promise<void>;
  /** The merged configuration as last read. */
  getConfig(): ConfigSnapshot;
  /** Fires after the configuration was re-read and changed. */
  readonly onDidChangeConfig: vscode.Event<ConfigSnapshot>;
  /** Every effective server's lifecycle state, in configuration order. */
  getServerStates(): { id: string; state: ServerState }[];
  /** Fires on every state change of any server. */
  readonly onDidChangeServerState: vscode.Event<ServerStateChange>;
  /** The last lines (at most 500) of a server's log, secrets scrubbed, each as `[level] text`. */
  getServerLog(id: string): string[];
  /** What a ready server offers; undefined for an unknown id (empty lists while it is not ready). */
  getCatalog(id: string): Catalog | undefined;
  /** Starts a server as the Start command does (an untrusted project server opens the trust prompt first; never in Restricted Mode); resolves once it is ready or failed, or the prompt was answered otherwise. */
  startServer(id: string): Promise<void>;
  /** Stops a server; resolves once its process (group) is gone. */
  stopServer(id: string): Promise<void>;
  /** Restarts a server; resolves once it is ready or failed. */
  restartServer(id: string): Promise<void>;
  /** Stops every server; resolves once every process is gone (what deactivation does). */
  stopAllServers(): Promise<void>;
  /**
   * Calls a tool of a ready server through the tool call gate, the path every caller goes through. It
   * rejects with a ToolCallRefusedError (nothing reaches the server) for an unknown server or tool, a
   * server that is not ready, a tool hidden by the entry's `allowedTools`/`disabledTools`, a tool whose
   * definition changed and is not accepted yet, and a flagged tool while `switchboard.blockFlaggedTools` is on.
   */
  callTool(serverId: string, tool: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallToolResult>;
  /**
   * Whether the tool's definition changed since it was pinned and no person accepted it yet: every
   * automatic approval ("always allow") of it is suspended until someone does (Review Tool Change).
   */
  isToolSuspended(serverId: string, tool: string): boolean;
  /** Changed, new, flagged and blocked, for a tool the server lists now; undefined otherwise. */
  getToolStatus(serverId: string, tool: string): ToolStatus | undefined;
  /** Whether this workspace has a stored value for `${input:id}` (the value itself never leaves the extension). */
  hasStoredInput(id: string): Promise<boolean>;
}

/** The API over a built context; its event emitters are owned by `own`. */
/** What activation measured, and its first read of the configuration. */
export interface Activation {
  activationMs: number;
  moduleLoadMs: number | undefined;
  ready: Promise<void>;
}

export function createApi(ctx: SwitchboardContext, { activationMs, moduleLoadMs, ready }: Activation, own: (d: vscode.Disposable) => void): SwitchboardApi {
  const { sources, config, registry, trust, toolReview, serverLogs, inputs } = ctx;
  // Core events are re-emitted as vscode.Events, the type other extensions expect.
  const stateChanges = new vscode.EventEmitter<ServerStateChange>();
  own(stateChanges);
  own(registry.onDidChangeState((change) => stateChanges.fire(change)));
  return {
    registerServers: (source, servers) => sources.registerServers(source, servers),
    activationMs,
    moduleLoadMs,
    ready: () => ready,
    getConfig: () => config.current,
    onDidChangeConfig: config.onDidChange,
    getServerStates: () => registry.list().map((view) => ({ id: view.id, state: view.state })),
    onDidChangeServerState: stateChanges.event,
    getServerLog: (id) => serverLogs.tail(id),
    getCatalog: (id) => registry.get(id)?.catalog,
    startServer: (id) => startServer(registry, id, trust),
    stopServer: (id) => stopServer(registry, id),
    restartServer: (id) => restartServer(registry, id, trust),
    stopAllServers: () => registry.stopAll(),
    callTool: (serverId, tool, args = {}, options = {}) => ctx.calls.call({ serverId, tool, arguments: args, caller: 'api', ...(options.signal ? { signal: options.signal } : {}) }).then(({ result }) => result),
    isToolSuspended: (serverId, tool) => toolReview.isSuspended(serverId, tool),
    getToolStatus: (serverId, tool) => toolReview.status(serverId, tool),
    hasStoredInput: (id) => inputs.has(id),
  };
}
