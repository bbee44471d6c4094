// The composition root: activate builds one context of adapters around the core, wires them, and
// returns the small API other extensions (and the tests) use. Nothing else lives here.
import * as vscode from 'vscode';
import type { ConfigSnapshot } from './core/config';
import {
  ServerRegistry, startupSummaryLine, type Catalog, type Root, type ServerState, type ServerStateChange,
} from './core/lifecycle';
import { toSidebarSnapshot } from './core/sidebarSnapshot';
import { NodeServerConnector, processLauncher } from './node/connector';
import { ServerEnvironment } from './node/process/environment';
import { registerCommands, revealSource, showError } from './vscode/commands';
import { ConfigAdapter } from './vscode/configAdapter';
import { ConfigSources } from './vscode/configSources';
import { FailureNotifier } from './vscode/failureNotifications';
import { onDidChangeLifecycleSettings, readLifecycleSettings } from './vscode/lifecycleSettings';
import { registerServerCommands, restartServer, showLogsOf, startServer, stopServer } from './vscode/serverCommands';
import { ServerLogs } from './vscode/serverLogs';
import { SERVERS_VIEW_ID, ServersTreeProvider } from './vscode/serversTree';
import { SidebarViewProvider } from './vscode/sidebarView';
import { StatusBar } from './vscode/statusBar';
import { VscodeConfigFileSystem } from './vscode/vscodeFileSystem';

/** What `vscode.extensions.getExtension('mcp-switchboard.mcp-switchboard').exports` offers. */
export interface SwitchboardApi {
  /**
   * Adds plugin-scope servers on behalf of `source` (usually the calling extension's id). `servers` is
   * keyed by name, each entry in `.mcp.json` shape. A new registration from the same source replaces
   * the previous one; disposing removes the servers.
   */
  registerServers(source: string, servers: Record<string, unknown>): vscode.Disposable;
  /** How long activation took, in milliseconds. */
  readonly activationMs: number;
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
  /** Starts a server as the Start command does (a project server too, unless in Restricted Mode); resolves once it is ready or failed. */
  startServer(id: string): Promise<void>;
  /** Stops a server; resolves once its process (group) is gone. */
  stopServer(id: string): Promise<void>;
  /** Restarts a server; resolves once it is ready or failed. */
  restartServer(id: string): Promise<void>;
  /** Stops every server; resolves once every process is gone (what deactivation does). */
  stopAllServers(): Promise<void>;
}

/** Everything activation built, owned in one place. */
interface SwitchboardContext {
  log: vscode.LogOutputChannel;
  sources: ConfigSources;
  config: ConfigAdapter;
  tree: ServersTreeProvider;
  registry: ServerRegistry;
  connector: NodeServerConnector;
  serverLogs: ServerLogs;
}

/** The running context, for deactivate (which must wait for the servers to stop). */
let running: SwitchboardContext | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<SwitchboardApi> {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('MCP Switchboard', { log: true });
  context.subscriptions.push(log);
  // Owned here until activation succeeds, so that a failure disposes what was already built.
  const owned: vscode.Disposable[] = [];
  const own = <T extends vscode.Disposable>(d: T): T => { owned.push(d); return d; };
  try {
    const sources = own(new ConfigSources({ globalStorage: context.globalStorageUri, ownExtensionId: context.extension.id }));
    const config = own(new ConfigAdapter({ sources, fileSystem: new VscodeConfigFileSystem(), log }));

    const serverLogs = own(new ServerLogs());
    const connector = new NodeServerConnector({
      clientVersion: String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0'),
      launchStdio: processLauncher(new ServerEnvironment({
        // A local window may have been started from the Dock or a launcher, with a bare PATH: 'auto'
        // asks the login shell then (and only then). A remote window's extension host was started by
        // the remote side's own shell, so its PATH is already the user's.
        loginShell: vscode.env.remoteName === undefined ? 'auto' : 'never',
        debug: (message) => log.debug(message),
      })),
    });
    own({ dispose: () => { void connector.dispose(); } });
    const registry = own(new ServerRegistry({
      connector,
      logFor: (server) => serverLogs.logFor(server),
      settings: readLifecycleSettings((message) => log.warn(message)),
      // Project servers wait for trust: they start only through an explicit start.
      isAllowed: (server) => !server.needsTrust,
    }));
    registry.setRoots(workspaceRoots());
    own(vscode.workspace.onDidChangeWorkspaceFolders(() => registry.setRoots(workspaceRoots())));
    own(onDidChangeLifecycleSettings((settings) => registry.updateSettings(settings), (message) => log.warn(message)));
    // Subscribed before the views, so they read the registry after it caught up with the config.
    own(config.onDidChange((snapshot) => {
      serverLogs.track(snapshot.servers);
      registry.reconcile(snapshot.servers);
    }));

    const tree = own(new ServersTreeProvider(config, registry));
    const ctx: SwitchboardContext = { log, sources, config, tree, registry, connector, serverLogs };
    own(vscode.window.createTreeView(SERVERS_VIEW_ID, { treeDataProvider: ctx.tree, showCollapseAll: true }));
    own(registerCommands(ctx));
    own(registerServerCommands({ registry, logs: serverLogs, log }));
    own(new StatusBar(registry, `${SERVERS_VIEW_ID}.focus`));
    const notifier = own(new FailureNotifier({
      onDidChangeState: registry.onDidChangeState,
      log,
      showLogs: (ids) => { void showLogsOf(registry, serverLogs, ids); },
    }));
    const sidebar = own(new SidebarViewProvider(context.extensionUri, {
      onDidChange: (listener) => vscode.Disposable.from(
        config.onDidChange(() => listener()),
        registry.onDidChangeState(() => listener()),
        registry.onDidChangeCatalog(() => listener()),
        registry.onDidChangeServers(() => listener()),
      ),
      snapshot: () => toSidebarSnapshot(config.current, {
        generatedAt: Date.now(),
        workspaceName: vscode.workspace.name,
        stateOf: (server) => {
          const view = registry.get(server.id);
          if (!view) return 'notStarted';
          const { tools, resources, resourceTemplates, prompts } = view.catalog;
          return { state: view.state, counts: { tools: tools.length, resources: resources.length, resourceTemplates: resourceTemplates.length, prompts: prompts.length } };
        },
      }),
    }, {
      openSource: async (request) => {
        await revealSource(config, request.target === 'server' ? request.serverId : request);
      },
      runCommand: async (command) => {
        await vscode.commands.executeCommand(`switchboard.${command}`);
      },
      serverAction: async ({ serverId, action }) => {
        switch (action) {
          case 'start': return startServer(registry, serverId);
          case 'stop': return stopServer(registry, serverId);
          case 'restart': return restartServer(registry, serverId);
          case 'showLogs': return serverLogs.show(serverId, false);
        }
      },
    }));
    own(vscode.window.registerWebviewViewProvider(SidebarViewProvider.viewId, sidebar));

    // Failures of the first start are announced together, once every server has settled.
    const release = notifier.hold();
    await config.start();
    // Not awaited: activation never waits for a server.
    registry.reconcile(config.current.servers);
    void registry.settled().then((summary) => {
      log.info(startupSummaryLine(summary));
      release();
    });

    context.subscriptions.push(...owned);
    running = ctx;
    const activationMs = Math.round((performance.now() - started) * 10) / 10;
    const snapshot = config.current;
    log.info(`activated in ${activationMs} ms: ${snapshot.servers.length} server(s), ${snapshot.problems.length} config problem(s)`);
    const stateChanges = new vscode.EventEmitter<ServerStateChange>();
    context.subscriptions.push(stateChanges, registry.onDidChangeState((change) => stateChanges.fire(change)));
    return {
      registerServers: (source, servers) => sources.registerServers(source, servers),
      activationMs,
      getConfig: () => config.current,
      onDidChangeConfig: config.onDidChange,
      getServerStates: () => registry.list().map((view) => ({ id: view.id, state: view.state })),
      onDidChangeServerState: stateChanges.event,
      getServerLog: (id) => serverLogs.tail(id),
      getCatalog: (id) => registry.get(id)?.catalog,
      startServer: (id) => startServer(registry, id),
      stopServer: (id) => stopServer(registry, id),
      restartServer: (id) => restartServer(registry, id),
      stopAllServers: () => registry.stopAll(),
    };
  } catch (error) {
    for (const d of owned.reverse()) d.dispose();
    log.error('activation failed:', error instanceof Error ? error : String(error));
    void showError(`activation failed: ${error instanceof Error ? error.message : String(error)}`, log);
    throw error;
  }
}

/** Stops every server and waits until their processes (and process groups) are gone; VS Code waits for the promise. */
export async function deactivate(): Promise<void> {
  const ctx = running;
  running = undefined;
  if (!ctx) return;
  try {
    await ctx.registry.stopAll();
    await ctx.connector.dispose();
  } catch (error) {
    ctx.log.error('stopping the servers failed:', error instanceof Error ? error : String(error));
  } finally {
    // The rest goes with context.subscriptions.
    ctx.registry.dispose();
  }
}

/** The workspace folders as MCP roots. */
function workspaceRoots(): Root[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ uri: folder.uri.toString(), name: folder.name }));
}
