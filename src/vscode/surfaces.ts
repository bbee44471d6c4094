// Everything a person sees and clicks, wired to the context: the Servers tree and its commands, the
// server and trust commands, the status bar, failure notifications, the sidebar and the chat.
import * as vscode from 'vscode';
import { registerChat } from './chat/registerChat';
import { registerCommands } from './commands';
import { FailureNotifier } from './servers/failureNotifications';
import { Feedback } from './ui/feedback';
import { ManageTrust } from './trust/manageTrust';
import { inputDefinitionOf } from './inputs/inputCommands';
import { LAZY_COMMAND_IDS, LAZY_TEST_COMMAND_IDS } from './lazyCommandIds';
import { lazyCommands } from './lazyCommands';
import { registerMcpJsonLanguage } from './config/mcpJsonLanguage';
import { registerProjectHostingCommand } from './coexist/projectHostingCommand';
import { registerServerCommands, showLogsOf } from './servers/serverCommands';
import { SERVERS_VIEW_ID, ServersTreeProvider } from './tree/serversTree';
import { registerSidebar } from './sidebar/sidebarWiring';
import { announceSignInNeeded } from './servers/signInNotice';
import { StatusBar } from './servers/statusBar';
import type { Own, SwitchboardContext } from './switchboardContext';

/** The surfaces that activation talks to after wiring them. */
export interface Surfaces {
  readonly notifier: FailureNotifier;
  readonly manageTrust: ManageTrust;
}

/** Creates and registers every surface; each disposable goes to `own`. */
export function registerSurfaces(ctx: SwitchboardContext, own: Own): Surfaces {
  const { log, sources, config, registry, toolReview, trust, serverLogs, oauthStore, inputs } = ctx;
  const tree = own(new ServersTreeProvider(config, registry, toolReview, trust, (server) => server.launch.url !== undefined && oauthStore.isSignedIn(server.launch.url)));
  own(tree.createView(SERVERS_VIEW_ID));
  own(registerMcpJsonLanguage());
  const feedback = own(new Feedback());
  own(registerCommands({ sources, config, tree, log, feedback, testing: ctx.testing }));
  own(registerServerCommands({ registry, logs: serverLogs, log, trust, feedback, testing: ctx.testing }));
  // Rarely used commands: registered now, their code loaded with their first call (lazyCommands.ts).
  const lazy = (module: keyof typeof LAZY_COMMAND_IDS, load: () => Promise<() => vscode.Disposable>): void => {
    const testOnly: readonly string[] = ctx.testing ? (LAZY_TEST_COMMAND_IDS as Partial<Record<string, readonly string[]>>)[module] ?? [] : [];
    own(lazyCommands([...LAZY_COMMAND_IDS[module], ...testOnly], load));
  };
  lazy('signInCommands', async () => {
    const { registerSignInCommands } = await import('./servers/signInCommands');
    return () => registerSignInCommands({
      registry, store: oauthStore, providers: async () => (await ctx.connection()).oauth, inputs, log, clientName: 'MCP Switchboard',
      definitionOf: (server, id) => inputDefinitionOf(config.current, server, id),
      testing: ctx.testing,
    });
  });
  own(announceSignInNeeded(registry));
  const manageTrust = own(new ManageTrust({
    trust,
    folders: () => sources.folders().map((folder) => folder.uri.fsPath),
    servers: () => config.current.servers,
    log,
    feedback,
    testing: ctx.testing,
  }));
  own(new StatusBar(registry, `${SERVERS_VIEW_ID}.focus`));
  const notifier = own(new FailureNotifier({
    onDidChangeState: registry.onDidChangeState,
    log,
    showLogs: (ids) => { void showLogsOf(registry, serverLogs, ids); },
  }));
  own(registerSidebar(ctx));
  lazy('apps', async () => {
    const { registerAppCommands } = await import('./apps/appCommands');
    return () => registerAppCommands({
      extensionUri: ctx.extension.extensionUri,
      hostVersion: String((ctx.extension.extension.packageJSON as { version?: unknown }).version ?? ''),
      servers: () => registry.list(),
      readResource: (serverId, uri) => registry.readResource(serverId, uri),
      call: (request) => ctx.calls.call(request),
      log,
    });
  });
  lazy('callToolCommand', async () => {
    const { registerCallTool } = await import('./servers/callToolCommand');
    return () => registerCallTool({
      servers: () => registry.list(),
      call: (request) => ctx.calls.call(request),
    });
  });
  own(registerChat(ctx));
  own(registerProjectHostingCommand(ctx.projectHosting));
  const install = { sources, inputs, log, feedback, testing: ctx.testing };
  lazy('importServers', async () => {
    const { registerImportServers } = await import('./install/importServers');
    return () => registerImportServers(install);
  });
  lazy('gallery', async () => {
    const { registerGallery } = await import('./install/gallery');
    return () => registerGallery(install);
  });
  lazy('installLinks', async () => {
    const { registerInstallLinks } = await import('./install/installLinks');
    return () => registerInstallLinks(install);
  });
  // The `vscode://…/install?…` handler (an onUri activation) must exist now; its code loads with the first link.
  own(vscode.window.registerUriHandler({
    handleUri: (uri) => {
      void import('./install/installLinks').then((m) => m.handleInstallUri(install, uri))
        .catch((error: unknown) => log.error('install link failed:', error instanceof Error ? error : String(error)));
    },
  }));
  return { notifier, manageTrust };
}
