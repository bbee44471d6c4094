// Commands that exist only under an extension test run (ExtensionMode.Test): they answer the trust
// prompt from a script and tell the tests where the output channels are written.
import * as vscode from 'vscode';
import type { ManageTrust } from './manageTrust';
import type { SwitchboardContext } from './switchboardContext';
import { registerTrustTestHooks } from './trustTestHooks';

/** Registers the test-only commands; call it only when `ctx.testing`. */
export function registerTestHooks(ctx: SwitchboardContext, manageTrust: ManageTrust): vscode.Disposable {
  return vscode.Disposable.from(
    registerTrustTestHooks(ctx.trust, manageTrust, () => ctx.config.current.servers),
    vscode.commands.registerCommand('_switchboard.logFolder', () => ctx.extension.logUri.fsPath),
    vscode.commands.registerCommand('_switchboard.test.storedApprovals', () => ctx.approvals.stored()),
  );
}
