// Commands that exist only under an extension test run (ExtensionMode.Test): they answer the trust
// prompt and the dialogs from a script, tell the tests where the output channels are written, which
// notifications were shown, and which disposables are live.
import * as vscode from 'vscode';
import { registerDialogTestHooks } from './ui/dialogs';
import { LIVE_DISPOSABLES_COMMAND, trackLiveDisposables } from './liveDisposables';
import type { ManageTrust } from './trust/manageTrust';
import { NOTIFICATIONS_TEST_COMMAND, shownNotifications } from './ui/notify';
import type { SwitchboardContext } from './switchboardContext';
import { registerTrustTestHooks } from './trust/trustTestHooks';

/** Registers the test-only commands; call it only when `ctx.testing`. */
export function registerTestHooks(ctx: SwitchboardContext, manageTrust: ManageTrust): vscode.Disposable {
  // From here on (activation is done): what a test suite leaves live, it made.
  const live = trackLiveDisposables();
  return vscode.Disposable.from(
    live,
    vscode.commands.registerCommand(LIVE_DISPOSABLES_COMMAND, () => live.bySite()),
    registerTrustTestHooks(ctx.trust, manageTrust, () => ctx.config.current.servers),
    vscode.commands.registerCommand('_switchboard.logFolder', () => ctx.extension.logUri.fsPath),
    vscode.commands.registerCommand('_switchboard.test.storedApprovals', () => ctx.approvals.stored()),
    // Resolves once no server is starting, stopping or waiting to restart: what a test awaits instead of
    // sleeping before it checks that something did not start.
    vscode.commands.registerCommand('_switchboard.test.serversSettled', async () => { await ctx.registry.settled(); }),
    vscode.commands.registerCommand(NOTIFICATIONS_TEST_COMMAND, shownNotifications),
    registerDialogTestHooks(),
  );
}
