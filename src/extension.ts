// The composition root: activate builds one context of adapters around the core, wires them, and
// returns the small API other extensions (and the tests) use. Nothing else lives here.
import * as vscode from 'vscode';
import type { ConfigSnapshot } from './core/config';
import {
  ServerRegistry, startupSummaryLine, type Catalog, type CallToolResult, type Root, type ServerState, type ServerStateChange,
} from './core/lifecycle';
import { toSidebarSnapshot } from './core/sidebarSnapshot';
import { PinStore, ToolReview, type ToolStatus } from './core/trust';
import { NodeServerConnector, processLauncher } from './node/connector';
import { OAuthCredentialStore } from './node/auth/credentialStore';
import { OAuthProviders } from './node/auth/oauthSupport';
import { registerSignInCommands, SIGN_IN_COMMANDS } from './vscode/signInCommands';
import { JsonFileStore } from './node/jsonFileStore';
import { ServerEnvironment } from './node/process/environment';
import { registerCommands, revealSource, showError } from './vscode/commands';
import { ConfigAdapter } from './vscode/configAdapter';
import { ConfigSources } from './vscode/configSources';
import { FailureNotifier } from './vscode/failureNotifications';
import { inputDefinitionOf, registerInputCommands } from './vscode/inputCommands';
import { InputResolvingConnector } from './vscode/inputResolvingConnector';
import { onDidChangeLifecycleSettings, readLifecycleSettings } from './vscode/lifecycleSettings';
import { ManageTrust } from './vscode/manageTrust';
import { ProjectTrust } from './vscode/projectTrust';
import { registerServerCommands, restartServer, showLogsOf, startServer, stopServer } from './vscode/serverCommands';
import { ServerLogs } from './vscode/serverLogs';
import { SERVERS_VIEW_ID, ServersTreeProvider } from './vscode/serversTree';
import { SidebarViewProvider } from './vscode/sidebarView';
import { StatusBar } from './vscode/statusBar';
import { registerTrustTestHooks } from './vscode/trustTestHooks';
import { onDidChangeBlockFlaggedTools, readBlockFlaggedTools, registerToolReview } from './vscode/toolReviewCommands';
import { VscodeConfigFileSystem } from './vscode/vscodeFileSystem';
import { WorkspaceInputs, workspaceKeyOf } from './vscode/workspaceInputs';

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
  /** Starts a server as the Start command does (an untrusted project server opens the trust prompt first; never in Restricted Mode); resolves once it is ready or failed, or the prompt was answered otherwise. */
  startServer(id: string): Promise<void>;
  /** Stops a server; resolves once its process (group) is gone. */
  stopServer(id: string): Promise<void>;
  /** Restarts a server; resolves once it is ready or failed. */
  restartServer(id: string): Promise<void>;
  /** Stops every server; resolves once every process is gone (what deactivation does). */
  stopAllServers(): Promise<void>;
  /**
   * Calls a tool of a ready server. This is the call path every caller (chat, agents) goes through: a
   * tool the poisoning scan flagged is refused while the user setting `switchboard.blockFlaggedTools` is on.
   */
  callTool(serverId: string, tool: string, args?: Record<string, unknown>): Promise<CallToolResult>;
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
    const inputs = new WorkspaceInputs(context.secrets,
      workspaceKeyOf(vscode.workspace.workspaceFile, (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri)));
    own(registerInputCommands({ inputs, config, log, testing: context.extensionMode === vscode.ExtensionMode.Test }));
    // OAuth tokens and registered clients: SecretStorage, one record per server URL.
    const oauthStore = new OAuthCredentialStore(context.secrets);
    const oauth = new OAuthProviders({ store: oauthStore, clientName: 'MCP Switchboard' });
    const connector = new NodeServerConnector({
      oauth,
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
    // Trust decisions about project servers live in global storage, outside every repository.
    const trust = own(await ProjectTrust.create({
      storageDir: context.globalStorageUri.fsPath,
      folders: () => sources.folders().map((folder) => folder.uri.fsPath),
      config,
      log,
    }));
    const registry = own(new ServerRegistry({
      // `${input:…}` values are filled in at launch only, and scrubbed from whatever the server logs.
      connector: new InputResolvingConnector({ inner: connector, inputs, definitionOf: (server, id) => inputDefinitionOf(config.current, server, id) }),
      logFor: (server) => serverLogs.logFor(server),
      settings: readLifecycleSettings((message) => log.warn(message)),
      // The trust gate: a project server starts only once trusted, never in Restricted Mode; a running
      // one whose definition changed keeps its trusted definition until the person decides.
      isAllowed: (server) => trust.gate.isAllowed(server),
      awaitingDecision: (server) => trust.gate.awaitingDecision(server),
    }));
    registry.setRoots(workspaceRoots());
    own(vscode.workspace.onDidChangeWorkspaceFolders(() => registry.setRoots(workspaceRoots())));
    own(onDidChangeLifecycleSettings((settings) => registry.updateSettings(settings), (message) => log.warn(message)));
    // Subscribed before the views, so they read the registry after it caught up with the config.
    own(config.onDidChange((snapshot) => {
      serverLogs.track(snapshot.servers);
      registry.reconcile(snapshot.servers);
    }));
    own(trust.attach(registry));

    // Tool definitions are pinned per server in global storage (outside any repository).
    const pinProblem = (message: string): void => log.warn(`tool pins: ${message}`);
    const pins = await PinStore.load(new JsonFileStore(vscode.Uri.joinPath(context.globalStorageUri, 'tool-pins.json').fsPath, { onProblem: pinProblem }), { onProblem: pinProblem });
    own({ dispose: () => pins.dispose() });
    const toolReview = own(new ToolReview({
      pins,
      get: (id) => registry.get(id),
      onDidChangeCatalog: registry.onDidChangeCatalog,
      blockFlagged: readBlockFlaggedTools,
      onProblem: pinProblem,
    }));
    own(onDidChangeBlockFlaggedTools(() => toolReview.refresh()));
    own(registerToolReview({ review: toolReview, get: (id) => registry.get(id), list: () => registry.list(), log }));

    const tree = own(new ServersTreeProvider(config, registry, toolReview, trust, (server) => server.launch.url !== undefined && oauthStore.isSignedIn(server.launch.url)));
    const ctx: SwitchboardContext = { log, sources, config, tree, registry, connector, serverLogs };
    own(vscode.window.createTreeView(SERVERS_VIEW_ID, { treeDataProvider: ctx.tree, showCollapseAll: true }));
    own(registerCommands(ctx));
    own(registerServerCommands({ registry, logs: serverLogs, log, trust }));
    own(registerSignInCommands({
      registry, store: oauthStore, providers: oauth, inputs, log, clientName: 'MCP Switchboard',
      definitionOf: (server, id) => inputDefinitionOf(config.current, server, id),
      testing: context.extensionMode === vscode.ExtensionMode.Test,
    }));
    const manageTrust = own(new ManageTrust({
      trust,
      folders: () => sources.folders().map((folder) => folder.uri.fsPath),
      servers: () => config.current.servers,
      log,
    }));
    // Test-only commands that answer the trust prompt: registered under an extension test run only.
    if (context.extensionMode === vscode.ExtensionMode.Test) own(registerTrustTestHooks(trust, manageTrust, () => config.current.servers));
    own(new StatusBar(registry, `${SERVERS_VIEW_ID}.focus`));
    const notifier = own(new FailureNotifier({
      onDidChangeState: registry.onDidChangeState,
      log,
      showLogs: (ids) => { void showLogsOf(registry, serverLogs, ids); },
    }));
    const sidebarSnapshot = () => toSidebarSnapshot(config.current, {
      generatedAt: Date.now(),
      workspaceName: vscode.workspace.name,
      stateOf: (server) => {
        const view = registry.get(server.id);
        if (!view) return 'notStarted';
        const { tools, resources, resourceTemplates, prompts } = view.catalog;
        return {
          state: view.state,
          counts: { tools: tools.length, resources: resources.length, resourceTemplates: resourceTemplates.length, prompts: prompts.length },
          toolReview: toolReview.summary(server.id),
        };
      },
      trustOf: (server) => ({ decision: trust.decide(server), flags: trust.flags(server) }),
    });
    // Internal: the snapshot the sidebar is sent, and (under a test run) where the output channels are written, for tests.
    own(vscode.commands.registerCommand('_switchboard.sidebarSnapshot', sidebarSnapshot));
    if (context.extensionMode === vscode.ExtensionMode.Test) own(vscode.commands.registerCommand('_switchboard.logFolder', () => context.logUri.fsPath));
    const sidebar = own(new SidebarViewProvider(context.extensionUri, {
      onDidChange: (listener) => vscode.Disposable.from(
        config.onDidChange(() => listener()),
        registry.onDidChangeState(() => listener()),
        registry.onDidChangeCatalog(() => listener()),
        registry.onDidChangeServers(() => listener()),
        toolReview.onDidChange(() => listener()),
        trust.onDidChange(() => listener()),
      ),
      snapshot: sidebarSnapshot,
    }, {
      openSource: async (request) => {
        await revealSource(config, request.target === 'server' ? request.serverId : request);
      },
      runCommand: async (command) => {
        await vscode.commands.executeCommand(`switchboard.${command}`);
      },
      serverAction: async ({ serverId, action }) => {
        switch (action) {
          case 'start': return startServer(registry, serverId, trust);
          case 'stop': return stopServer(registry, serverId);
          case 'restart': return restartServer(registry, serverId, trust);
          case 'showLogs': return serverLogs.show(serverId, false);
          case 'signIn': { await vscode.commands.executeCommand(SIGN_IN_COMMANDS.signIn, serverId); return; }
        }
      },
    }));
    own(vscode.window.registerWebviewViewProvider(SidebarViewProvider.viewId, sidebar));

    // Failures of the first start are announced together, once every server has settled.
    const release = notifier.hold();
    await config.start();
    // Not awaited: activation never waits for a server.
    registry.reconcile(config.current.servers);
    // Project servers that need trust are asked about in one prompt (not awaited either).
    void trust.prompts.check();
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
      startServer: (id) => startServer(registry, id, trust),
      stopServer: (id) => stopServer(registry, id),
      restartServer: (id) => restartServer(registry, id, trust),
      stopAllServers: () => registry.stopAll(),
      callTool: async (serverId, tool, args = {}) => {
        const refusal = toolReview.checkCall(serverId, tool);
        if (refusal !== undefined) throw new Error(refusal);
        return registry.callTool(serverId, tool, args);
      },
      isToolSuspended: (serverId, tool) => toolReview.isSuspended(serverId, tool),
      getToolStatus: (serverId, tool) => toolReview.status(serverId, tool),
      hasStoredInput: (id) => inputs.has(id),
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
