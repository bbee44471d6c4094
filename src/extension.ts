// The composition root: activate builds one context of adapters around the core, wires them, and
// returns the small API other extensions (and the tests) use. Nothing else lives here.
import * as vscode from 'vscode';
import type { ConfigSnapshot } from './core/config';
import { toSidebarSnapshot } from './core/sidebarSnapshot';
import { registerCommands, revealSource, showError } from './vscode/commands';
import { ConfigAdapter } from './vscode/configAdapter';
import { ConfigSources } from './vscode/configSources';
import { SERVERS_VIEW_ID, ServersTreeProvider } from './vscode/serversTree';
import { SidebarViewProvider } from './vscode/sidebarView';
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
}

/** Everything activation built, owned in one place. */
interface SwitchboardContext {
  log: vscode.LogOutputChannel;
  sources: ConfigSources;
  config: ConfigAdapter;
  tree: ServersTreeProvider;
}

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
    const tree = own(new ServersTreeProvider(config));
    const ctx: SwitchboardContext = { log, sources, config, tree };
    own(vscode.window.createTreeView(SERVERS_VIEW_ID, { treeDataProvider: ctx.tree, showCollapseAll: true }));
    own(registerCommands(ctx));
    const sidebar = own(new SidebarViewProvider(context.extensionUri, {
      onDidChange: (listener) => config.onDidChange(() => listener()),
      snapshot: () => toSidebarSnapshot(config.current, { generatedAt: Date.now(), workspaceName: vscode.workspace.name }),
    }, {
      openSource: async (request) => {
        await revealSource(config, request.target === 'server' ? request.serverId : request);
      },
      runCommand: async (command) => {
        await vscode.commands.executeCommand(`switchboard.${command}`);
      },
    }));
    own(vscode.window.registerWebviewViewProvider(SidebarViewProvider.viewId, sidebar));
    await config.start();

    context.subscriptions.push(...owned);
    const activationMs = Math.round((performance.now() - started) * 10) / 10;
    const snapshot = config.current;
    log.info(`activated in ${activationMs} ms: ${snapshot.servers.length} server(s), ${snapshot.problems.length} config problem(s)`);
    return {
      registerServers: (source, servers) => sources.registerServers(source, servers),
      activationMs,
      getConfig: () => config.current,
      onDidChangeConfig: config.onDidChange,
    };
  } catch (error) {
    for (const d of owned.reverse()) d.dispose();
    log.error('activation failed:', error instanceof Error ? error : String(error));
    void showError(`activation failed: ${error instanceof Error ? error.message : String(error)}`, log);
    throw error;
  }
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
