// The composition root: activate builds the context, wires the surfaces to it, starts reading the
// configuration and returns the API; deactivate stops every server. Nothing else lives here.
import * as vscode from 'vscode';
import { startupSummaryLine } from './core/lifecycle';
import { createApi, type SwitchboardApi } from './vscode/api';
import { showError } from './vscode/reportingCommand';
import { registerSurfaces } from './vscode/surfaces';
import { buildContext, type SwitchboardContext } from './vscode/switchboardContext';
import { registerTestHooks } from './vscode/testHooks';
import { counted } from './protocol/counts';

export type { SwitchboardApi } from './vscode/api';

/** The running context, for deactivate (which must wait for the servers to stop). */
let running: SwitchboardContext | undefined;

/** `started`: when the loader (src/extensionLoader.ts) began loading this module, so that its load counts. */
export async function activate(context: vscode.ExtensionContext, started = performance.now()): Promise<SwitchboardApi> {
  const log = vscode.window.createOutputChannel('MCP Switchboard', { log: true });
  context.subscriptions.push(log);
  // Owned here until activation succeeds, so that a failure disposes what was already built.
  const owned: vscode.Disposable[] = [];
  const own = <T extends vscode.Disposable>(d: T): T => { owned.push(d); return d; };
  try {
    const ctx = await buildContext(context, log, own);
    const { notifier, manageTrust } = registerSurfaces(ctx, own);
    if (ctx.testing) own(registerTestHooks(ctx, manageTrust));

    // Failures of the first start are announced together, once every server has settled.
    const release = notifier.hold();
    await ctx.config.start();
    // Not awaited: activation never waits for a server.
    ctx.registry.reconcile(ctx.config.current.servers);
    // Project servers that need trust are asked about in one prompt (not awaited either).
    void ctx.trust.prompts.check();
    void ctx.registry.settled().then((summary) => {
      log.info(startupSummaryLine(summary));
      release();
    });

    const activationMs = Math.round((performance.now() - started) * 10) / 10;
    const api = createApi(ctx, activationMs, own);
    context.subscriptions.push(...owned);
    running = ctx;
    const snapshot = ctx.config.current;
    log.info(`activated in ${activationMs} ms: ${counted(snapshot.servers.length, 'server')}, ${counted(snapshot.problems.length, 'config problem')}`);
    return api;
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
