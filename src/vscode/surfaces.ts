// Everything a person sees and clicks, wired to the context: the Servers tree and its commands, the
// server and trust commands, the status bar, failure notifications, the sidebar and the chat.
import { registerCallTool } from './callToolCommand';
import { registerChat } from './chat/registerChat';
import { registerCommands } from './commands';
import { FailureNotifier } from './failureNotifications';
import { Feedback } from './feedback';
import { ManageTrust } from './manageTrust';
import { registerGallery } from './gallery';
import { registerImportServers } from './importServers';
import { registerInstallLinks } from './installLinks';
import { inputDefinitionOf } from './inputCommands';
import { registerMcpJsonLanguage } from './mcpJsonLanguage';
import { registerProjectHostingCommand } from './projectHostingCommand';
import { registerServerCommands, showLogsOf } from './serverCommands';
import { SERVERS_VIEW_ID, ServersTreeProvider } from './serversTree';
import { registerSidebar } from './sidebarWiring';
import { registerSignInCommands } from './signInCommands';
import { StatusBar } from './statusBar';
import type { Own, SwitchboardContext } from './switchboardContext';

/** The surfaces that activation talks to after wiring them. */
export interface Surfaces {
  readonly notifier: FailureNotifier;
  readonly manageTrust: ManageTrust;
}

/** Creates and registers every surface; each disposable goes to `own`. */
export function registerSurfaces(ctx: SwitchboardContext, own: Own): Surfaces {
  const { log, sources, config, registry, toolReview, trust, serverLogs, oauthStore, oauth, inputs } = ctx;
  const tree = own(new ServersTreeProvider(config, registry, toolReview, trust, (server) => server.launch.url !== undefined && oauthStore.isSignedIn(server.launch.url)));
  own(tree.createView(SERVERS_VIEW_ID));
  own(registerMcpJsonLanguage());
  const feedback = own(new Feedback());
  own(registerCommands({ sources, config, tree, log, feedback, testing: ctx.testing }));
  own(registerServerCommands({ registry, logs: serverLogs, log, trust, feedback, testing: ctx.testing }));
  own(registerSignInCommands({
    registry, store: oauthStore, providers: oauth, inputs, log, clientName: 'MCP Switchboard',
    definitionOf: (server, id) => inputDefinitionOf(config.current, server, id),
    testing: ctx.testing,
  }));
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
  own(registerCallTool({
    servers: () => registry.list(),
    call: (request) => ctx.calls.call(request),
  }));
  own(registerChat(ctx));
  own(registerProjectHostingCommand(ctx.projectHosting));
  own(registerImportServers({ sources, inputs, log, feedback, testing: ctx.testing }));
  own(registerGallery({ sources, inputs, log, feedback, testing: ctx.testing }));
  own(registerInstallLinks({ sources, inputs, log, feedback, testing: ctx.testing }));
  return { notifier, manageTrust };
}
