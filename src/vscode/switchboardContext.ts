// Builds the long-lived parts of the extension around the core — configuration, trust, the server
// registry, tool review — and hands them back as one context object that the surfaces (views,
// commands, API) are wired to. Every disposable it creates goes to `own`, so a failed activation
// disposes exactly what was built.
import * as vscode from 'vscode';
import { ToolCallGate } from '../core/calls';
import { DeferredConnector, RedactingConnector, ServerRegistry, systemClock, type Root } from '../core/lifecycle';
import { TaskTracker } from '../core/tasks';
import { readTaskCallMode } from './tasks/taskSettings';
import { PinStore, ToolReview } from '../core/toolReview';
import { OAuthCredentialStore } from '../node/auth/credentialStore';
import { deferredDigest } from '../core/trust/secretDigest';
import { installDigest } from '../node/installSalt';
import { JsonFileStore } from '../node/jsonFileStore';
import { parseEnvFile } from '../node/process/environment';
import { Approvals } from './approvals/approvals';
import { ConfigAdapter } from './config/configAdapter';
import { Elicitations } from './approvals/elicitations';
import { HeldOutputs } from './trust/heldOutputs';
import { Sampling } from './approvals/sampling';
import { ConfigSources } from './config/configSources';
import { inputDefinitionOf, registerInputCommands } from './inputs/inputCommands';
import { InputResolvingConnector } from './inputs/inputResolvingConnector';
import { onDidChangeLifecycleSettings, readLifecycleSettings } from './servers/lifecycleSettings';
import { policyFiles, PolicyService } from './config/policy';
import { ProjectHosting } from './coexist/projectHosting';
import { ProjectTrust } from './trust/projectTrust';
import type { LoadedConnector } from './servers/serverConnection';
import { ServerLogs } from './servers/serverLogs';
import { onDidChangeBlockFlaggedTools, readBlockFlaggedTools, registerToolReview } from './trust/toolReviewCommands';
import { VscodeConfigFileSystem } from './config/vscodeFileSystem';
import { WorkspaceInputs, workspaceKeyOf } from './inputs/workspaceInputs';

/** Everything activation built that outlives it, owned in one place. */
export interface SwitchboardContext {
  readonly extension: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  /**
   * Resolves once the extension's own state (salt, tool pins, trust decisions, policy) was read; rejects
   * when it could not be (then the configuration is never read and nothing starts).
   */
  readonly stateRead: Promise<void>;
  readonly sources: ConfigSources;
  readonly config: ConfigAdapter;
  readonly inputs: WorkspaceInputs;
  /** Builds the real connector (and the OAuth providers) on the first server start or sign-in. */
  readonly connector: DeferredConnector;
  /** OAuth tokens and registered clients (SecretStorage, one record per server URL). */
  readonly oauthStore: OAuthCredentialStore;
  /** The connector and the OAuth providers, loaded on first use. */
  readonly connection: () => Promise<LoadedConnector>;
  readonly trust: ProjectTrust;
  readonly registry: ServerRegistry;
  readonly toolReview: ToolReview;
  /** The approval policy, the pending cards, the person's rules and the call history. */
  readonly approvals: Approvals;
  /** Servers' requests for the person's input (forms, pages to open), waiting in the sidebar. */
  readonly elicitations: Elicitations;
  /** Servers' requests for a model completion, approved in the sidebar. */
  readonly sampling: Sampling;
  /** The one way to call a tool: resolve → decide → send → record. */
  readonly calls: ToolCallGate;
  /** Tool calls running as MCP tasks, and the last ones that ended (the Sidebar's Tasks section). */
  readonly tasks: TaskTracker;
  /** Flagged tool results held for review in the Sidebar. */
  readonly heldOutputs: HeldOutputs;
  readonly serverLogs: ServerLogs;
  /** Who hosts the servers of the workspace's .mcp.json when VS Code's own MCP would run them too. */
  readonly projectHosting: ProjectHosting;
  /** Whether this is an extension test run (test-only commands are registered then). */
  readonly testing: boolean;
}

/** Adds a disposable to the activation's owner and returns it. */
export type Own = <T extends vscode.Disposable>(disposable: T) => T;

/**
 * Builds the context without waiting for anything: the extension's own state (the salt, the tool pins,
 * the trust decisions, the administrator's policy) is read in the background, and the configuration is
 * read only after it (`stateRead`), so no server is seen, gated or shown before its trust is known.
 */
export function buildContext(extension: vscode.ExtensionContext, log: vscode.LogOutputChannel, own: Own): SwitchboardContext {
  const testing = extension.extensionMode === vscode.ExtensionMode.Test;
  // The administrator's policy: a denied server is held, with the rule, and never started.
  const policy = own(new PolicyService(log));
  // Tool definitions are pinned per server in global storage (outside any repository).
  const pinProblem = (message: string): void => log.warn(`tool pins: ${message}`);
  // The state files are opened once activation has returned (a microtask later): the views paint first.
  const activated = Promise.resolve();
  // The salt of every kept digest of a secret (env file variables, trust records), in global storage.
  const digest = deferredDigest(activated.then(() => installDigest(extension.globalStorageUri.fsPath, (message) => log.warn(`trust: ${message}`))));
  const sources = own(new ConfigSources({ globalStorage: extension.globalStorageUri, ownExtensionId: extension.extension.id, managedFiles: policyFiles() }));
  // Every read of the configuration waits for the extension's own state (and never happens if it failed);
  // env files are digested then, with the salt already in.
  const config = own(new ConfigAdapter({
    sources, fileSystem: new VscodeConfigFileSystem(), log, envFiles: { parse: parseEnvFile, digest: (value: string): string => digest.digest(value) },
    readsAfter: () => stateRead,
  }));
  const serverLogs = own(new ServerLogs());
  const inputs = new WorkspaceInputs(extension.secrets,
    workspaceKeyOf(vscode.workspace.workspaceFile, (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri)));
  own(registerInputCommands({ inputs, config, log, testing }));
  // OAuth tokens and registered clients: SecretStorage, one record per server URL.
  const oauthStore = new OAuthCredentialStore(extension.secrets);
  // A server's request for the person's input waits as a card in the sidebar.
  const elicitations = own(new Elicitations());
  // A server's request for a model completion waits for approval, then goes to a VS Code language model.
  const sampling = own(new Sampling(extension, log));
  // The SDK, the transports and OAuth load with the first server that starts (or the first sign-in),
  // once the salt their records are digested with is in.
  let loaded: Promise<LoadedConnector> | undefined;
  const connection = (): Promise<LoadedConnector> => {
    loaded ??= stateRead.then(() => import('./servers/serverConnection')).then(
      (m) => m.createServerConnection({ extension, log, oauthStore, elicitations, sampling, digest }),
      (error: unknown) => { loaded = undefined; throw error; },
    );
    return loaded;
  };
  const connector = new DeferredConnector(async () => (await connection()).connector);
  own({ dispose: () => { void connector.dispose(); } });
  const pins = PinStore.unread(new JsonFileStore(vscode.Uri.joinPath(extension.globalStorageUri, 'tool-pins.json').fsPath, { onProblem: pinProblem }), { onProblem: pinProblem });
  own({ dispose: () => pins.dispose() });
  // Trust decisions about project servers live in global storage, outside every repository.
  const trust = own(ProjectTrust.open({
    storageDir: extension.globalStorageUri.fsPath,
    folders: () => sources.folders().map((folder) => folder.uri.fsPath),
    config,
    log,
    digest,
  }));
  // The small files of the extension's own state are read together, while the surfaces paint.
  const stateRead: Promise<void> = Promise.all([
    digest.loaded,
    activated.then(() => pins.reload()),
    trust.loaded,
    activated.then(() => policy.reload()),
  ]).then(() => undefined);
  // Not left unhandled when nothing reads the configuration (firstStart reports a failure).
  stateRead.catch(() => undefined);
  // VS Code's own MCP also reads the workspace's .mcp.json: the person's choice of host holds servers back.
  // It is asked right after the trust prompt due now, as one moment.
  const projectHosting = own(new ProjectHosting({
    state: extension.workspaceState, servers: () => config.current.servers, onDidChangeServers: config.onDidChange, log,
    trustMoment: () => trust.prompts.settled(),
  }));
  const registry = own(new ServerRegistry({
    // `${input:…}` values are filled in at launch only, and scrubbed from whatever the server logs.
    // One redaction in front of it all: launch secrets, input values and env file values.
    connector: new RedactingConnector(new InputResolvingConnector({ inner: connector, inputs, definitionOf: (server, id) => inputDefinitionOf(config.current, server, id) })),
    logFor: (server) => serverLogs.logFor(server),
    // The trust gate: a project server starts only once trusted, never in Restricted Mode; a running
    // one whose definition changed keeps its trusted definition until the person decides.
    gate: (server) => trust.gate.gate(server),
    hostedElsewhere: (server) => policy.blockReason(server) ?? projectHosting.hostedElsewhere(server),
    // A skill's servers run while the skill is in use (see src/vscode/chat/skillUse.ts).
    startsOnDemand: (server) => server.skill !== undefined,
  }));
  own(policy.onDidChange(() => registry.applyGate()));
  elicitations.attach(registry);
  sampling.attach(registry);
  registry.setRoots(workspaceRoots());
  own(vscode.workspace.onDidChangeWorkspaceFolders(() => registry.setRoots(workspaceRoots())));
  // The lifecycle settings (timeouts, restarts, log level) are read once activation has returned: no
  // server starts before the configuration is read, which waits for the state files anyway.
  void activated.then(() => registry.updateSettings(readLifecycleSettings((message) => log.warn(message))));
  own(onDidChangeLifecycleSettings((settings) => registry.updateSettings(settings), (message) => log.warn(message)));
  // Subscribed before the views, so they read the registry after it caught up with the config.
  own(config.onDidChange((snapshot) => {
    serverLogs.track(snapshot.servers);
    registry.reconcile(snapshot.servers);
  }));
  own(trust.attach(registry));
  own(projectHosting.attach(registry));

  const toolReview = own(new ToolReview({
    pins,
    get: (id) => registry.get(id),
    onDidChangeCatalog: registry.onDidChangeCatalog,
    blockFlagged: readBlockFlaggedTools,
    onProblem: pinProblem,
  }));
  own(onDidChangeBlockFlaggedTools(() => toolReview.refresh()));
  own(registerToolReview({ review: toolReview, get: (id) => registry.get(id), list: () => registry.list(), log, testing }));
  // Every call asks the approval policy (and, when it says so, the person in the sidebar) before it is
  // sent, and is recorded in the history however it ended.
  const approvals = own(new Approvals({ extension, registry, trust, log, policy }));
  // A call of a tool that supports tasks may run as one (switchboard.tasks.callAsTask): approved and
  // recorded like any other, listed in the Sidebar's Tasks section while it runs.
  const tasks = own(new TaskTracker(systemClock));
  const calls = own(new ToolCallGate({ registry, tools: toolReview, decide: approvals.decide, tasks: { tracker: tasks, mode: readTaskCallMode } }));
  own(calls.onDidCall((record) => approvals.recordCall(record)));
  const heldOutputs = own(new HeldOutputs());
  return { extension, log, stateRead, sources, config, inputs, connector, oauthStore, connection, trust, registry, toolReview, approvals, elicitations, sampling, calls, tasks, heldOutputs, serverLogs, projectHosting, testing };
}

/** The workspace folders as MCP roots. */
function workspaceRoots(): Root[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ uri: folder.uri.toString(), name: folder.name }));
}
