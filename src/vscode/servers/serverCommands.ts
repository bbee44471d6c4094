// The lifecycle commands: start, stop, restart a server (from a tree row, by id, or picked from a
// list when run from the palette), restart every server, and show a server's log.
import * as vscode from 'vscode';
import { ServerState, StartRefusedError, type ServerRegistry, type ServerView } from '../../core/lifecycle';
import { count, type Feedback } from '../ui/feedback';
import { serverLogChannelName, type ServerLogs } from './serverLogs';
import { shortReason } from '../tree/stateIcons';
import { notifyInfo } from '../ui/notify';
import { registerReportingCommand } from '../reportingCommand';

export const SERVER_COMMANDS = {
  start: 'switchboard.startServer',
  stop: 'switchboard.stopServer',
  restart: 'switchboard.restartServer',
  restartAll: 'switchboard.restartAllServers',
  showLogs: 'switchboard.showServerLogs',
} as const;

export interface ServerCommandDeps {
  registry: ServerRegistry;
  logs: ServerLogs;
  log: vscode.LogOutputChannel;
  trust: StartTrust;
  /** Where Restart All says what it did. */
  feedback: Feedback;
  /** Under an extension test run: a failed command rejects (see registerReportingCommand). */
  testing: boolean;
}

/** What Start needs from the trust side: asking a person to trust a server. */
export interface StartTrust {
  /** Shows the trust prompt for this server; resolves once it was answered (a trusted server is then starting). */
  askToTrust(id: string): Promise<unknown>;
}

/**
 * Starts a server as a person asked to, by the core's Start policy (ServerRegistry.requestStart): a
 * server that needs trust starts only once trusted in the prompt; never in Restricted Mode, never a
 * server its entry disables. Resolves once it is ready or has failed (or the prompt was answered otherwise).
 */
export async function startServer(registry: ServerRegistry, id: string, trust: StartTrust): Promise<void> {
  known(registry, id);
  await withHostingHint(registry.requestStart(id, (target) => trust.askToTrust(target)));
}

export async function stopServer(registry: ServerRegistry, id: string): Promise<void> {
  known(registry, id);
  await registry.stop(id);
}

/** Restarts a server; a parked one (or one whose changed definition waits for trust) is started, with the same checks. */
export async function restartServer(registry: ServerRegistry, id: string, trust: StartTrust): Promise<void> {
  known(registry, id);
  await withHostingHint(registry.requestRestart(id, (target) => trust.askToTrust(target)));
}

/** A server held for another host says how to change who hosts it (a command of this extension). */
async function withHostingHint(start: Promise<unknown>): Promise<void> {
  try {
    await start;
  } catch (error) {
    if (!(error instanceof StartRefusedError) || error.refusal !== 'hostedElsewhere') throw error;
    throw new Error(`${error.message} To change who hosts it, run "MCP Switchboard: Choose Who Hosts Project Servers…".`, { cause: error });
  }
}

export function registerServerCommands(deps: ServerCommandDeps): vscode.Disposable {
  const { registry, logs, log, trust, feedback } = deps;
  const register = (id: string, run: (target?: unknown) => Promise<unknown>) => registerReportingCommand(id, run, deps);

  /** Runs `action` on the server named by `target`, or on one the user picks among those `applies` to. */
  const onServer = (placeHolder: string, none: string, applies: (view: ServerView) => boolean, action: (id: string) => Promise<void>) =>
    async (target?: unknown): Promise<ServerState['kind'] | undefined> => {
      const id = serverIdOf(target) ?? await pickServer(registry.list().filter(applies), placeHolder, none);
      if (id === undefined) return undefined;
      await action(id);
      return registry.get(id)?.state.kind;
    };

  return vscode.Disposable.from(
    register(SERVER_COMMANDS.start, onServer('Start which MCP server?', 'Every MCP server is already running (or disabled).',
      (view) => ServerState.canStart(view.state) && view.state.kind !== 'disabled',
      (id) => startServer(registry, id, trust))),
    register(SERVER_COMMANDS.stop, onServer('Stop which MCP server?', 'No MCP server is running.',
      (view) => ServerState.isActive(view.state),
      (id) => stopServer(registry, id))),
    register(SERVER_COMMANDS.restart, onServer('Restart which MCP server?', 'No MCP server can be restarted.',
      (view) => ServerState.canRestart(view.state),
      (id) => restartServer(registry, id, trust))),
    register(SERVER_COMMANDS.restartAll, () => restartAll(registry, feedback, log)),
    // Resolves with the name of the channel it showed (the tests cannot read the Output panel).
    register(SERVER_COMMANDS.showLogs, async (target?: unknown) => {
      const id = serverIdOf(target) ?? await pickServer(registry.list(), 'Show the log of which MCP server?', 'No MCP server is configured.');
      if (id === undefined) return undefined;
      known(registry, id);
      logs.show(id, false);
      return serverLogChannelName(id);
    }),
  );
}

/** Restart All: restarts every running (or failed) server with progress in the status bar, then says how it went; resolves with that message. */
async function restartAll(registry: ServerRegistry, feedback: Feedback, log: vscode.LogOutputChannel): Promise<string> {
  log.info('Restart All requested');
  const ids = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'Restarting MCP servers…' },
    () => registry.restartAll());
  const kinds = ids.map((id) => registry.get(id)?.state.kind);
  const ready = kinds.filter((kind) => kind === 'ready').length;
  const failed = kinds.filter((kind) => kind === 'failed').length;
  const message = ids.length === 0
    ? 'MCP Switchboard: no server was running, so none was restarted'
    : `$(debug-restart) MCP Switchboard: restarted ${count(ids.length, 'server')}: ${ready} ready${failed > 0 ? `, ${failed} failed` : ''}`;
  feedback.show(message, log);
  return message;
}

/** Shows the log of one of `ids`: at once when there is one, else after the user picks. */
export async function showLogsOf(registry: ServerRegistry, logs: ServerLogs, ids: readonly string[]): Promise<void> {
  const id = ids.length === 1 ? ids[0] : await pickServer(
    ids.map((i) => registry.get(i)).filter((view): view is ServerView => view !== undefined),
    'Show the log of which MCP server?', 'Those servers are no longer configured.');
  if (id !== undefined) logs.show(id, false);
}

/** A server id from a command argument: the id itself, or a Servers view row (context menu, inline action). */
function serverIdOf(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  const serverId = (target as { data?: { serverId?: unknown } } | undefined)?.data?.serverId;
  return typeof serverId === 'string' ? serverId : undefined;
}

async function pickServer(views: readonly ServerView[], placeHolder: string, none: string): Promise<string | undefined> {
  if (views.length === 0) {
    void notifyInfo(none);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(views.map((view) => {
    const reason = ServerState.reason(view.state);
    return {
      label: view.id,
      description: `${view.server.scope} · ${view.server.launch.type} · ${ServerState.label(view.state)}`,
      detail: reason ? shortReason(reason, 120) : undefined,
      id: view.id,
    };
  }), { placeHolder, matchOnDescription: true });
  return picked?.id;
}

function known(registry: ServerRegistry, id: string): ServerView {
  const view = registry.get(id);
  if (!view) throw new Error(`No MCP server with the id "${id}".`);
  return view;
}
