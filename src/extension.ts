// The composition root: activate builds the context, wires the surfaces to it, starts reading the
// configuration and returns the API; deactivate stops every server. Nothing else lives here.
import * as vscode from 'vscode';
import { startupSummaryLine } from './core/lifecycle';
import { createApi, type SwitchboardApi } from './vscode/api';
import { showError } from './vscode/reportingCommand';
import type { FailureNotifier } from './vscode/servers/failureNotifications';
import { registerSurfaces } from './vscode/surfaces';
import { buildContext, type SwitchboardContext } from './vscode/switchboardContext';
import { registerTestHooks } from './vscode/testHooks';
import { counted } from './protocol/counts';

/** Set once the configuration was first read: until then the Servers view shows no welcome text. */
const CONFIG_READ_CONTEXT = 'switchboard.configRead';

export type { SwitchboardApi } from './vscode/api';

/** The running context, for deactivate (which must wait for the servers to stop). */
let running: SwitchboardContext | undefined;

/**
 * `loadStarted`: when the loader (src/extensionLoader.ts) began loading this module; the API reports the
 * load apart from activation (activationMs counts from this call, as VS Code's own activation times do).
 */
export function activate(context: vscode.ExtensionContext, loadStarted?: number): SwitchboardApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('MCP Switchboard', { log: true });
  context.subscriptions.push(log);
  // Owned here until activation succeeds, so that a failure disposes what was already built.
  const owned: vscode.Disposable[] = [];
  const own = <T extends vscode.Disposable>(d: T): T => { owned.push(d); return d; };
  try {
    const ctx = buildContext(context, log, own);
    const { notifier, manageTrust } = registerSurfaces(ctx, own);
    if (ctx.testing) own(registerTestHooks(ctx, manageTrust));

    // Reading the configuration and starting its servers happen after activation returns: the views
    // paint at once and fill in as the files are read (the API's ready() says when).
    const ready = firstStart(ctx, notifier);
    const activationMs = Math.round((performance.now() - started) * 10) / 10;
    const moduleLoadMs = loadStarted === undefined ? undefined : Math.round((started - loadStarted) * 10) / 10;
    const api = createApi(ctx, { activationMs, moduleLoadMs, ready }, own);
    context.subscriptions.push(...owned);
    running = ctx;
    log.info(`activated in ${activationMs} ms${moduleLoadMs === undefined ? '' : ` (modules loaded in ${moduleLoadMs} ms before)`}`);
    return api;
  } catch (error) {
    for (const d of owned.reverse()) d.dispose();
    log.error('activation failed:', error instanceof Error ? error : String(error));
    void showError(`activation failed: ${error instanceof Error ? error.message : String(error)}`, log);
    throw error;
  }
}

/** The first read of the configuration and the first reconcile; never rejects (failures are logged). */
async function firstStart(ctx: SwitchboardContext, notifier: FailureNotifier): Promise<void> {
  // Failures of the first start are announced together, once every server has settled.
  const release = notifier.hold();
  try {
    await ctx.stateRead;
  } catch (error) {
    // Without the salt or the trust decisions nothing can be decided: no configuration is read, no server starts.
    ctx.log.error('reading the extension\'s own state failed:', error instanceof Error ? error : String(error));
    void showError(`could not read its own state, so no server starts: ${error instanceof Error ? error.message : String(error)}`, ctx.log);
    release();
    return;
  }
  try {
    const readStarted = performance.now();
    await ctx.config.start();
    // Not awaited: nothing waits for a server.
    ctx.registry.reconcile(ctx.config.current.servers);
    // Project servers that need trust are asked about in one prompt (not awaited either).
    void ctx.trust.prompts.check();
    const snapshot = ctx.config.current;
    ctx.log.info(`configuration read in ${Math.round(performance.now() - readStarted)} ms: ${counted(snapshot.servers.length, 'server')}, ${counted(snapshot.problems.length, 'config problem')}`);
  } catch (error) {
    ctx.log.error('reading the configuration failed:', error instanceof Error ? error : String(error));
  } finally {
    void vscode.commands.executeCommand('setContext', CONFIG_READ_CONTEXT, true);
  }
  void ctx.registry.settled().then((summary) => {
    ctx.log.info(startupSummaryLine(summary));
    release();
  });
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
