// The notification that a remote server needs a sign-in, with a button that runs Sign In. It listens
// from activation on, while the sign-in code itself (signInCommands.ts) loads with its first use.
import * as vscode from 'vscode';
import type { ServerRegistry } from '../../core/lifecycle';
import { notifyWarning } from '../ui/notify';

const SIGN_IN_COMMAND = 'switchboard.signIn';

/** One notification each time a server starts needing a sign-in (not again while it stays that way). */
export function announceSignInNeeded(registry: ServerRegistry): vscode.Disposable {
  const subscription = registry.onDidChangeState(({ id, state, previous }) => {
    if (state.kind !== 'needsSignIn' || previous.kind === 'needsSignIn') return;
    void notifyWarning(`MCP server "${id}" needs you to sign in.`, 'Sign In').then((choice) => {
      if (choice === 'Sign In') void vscode.commands.executeCommand(SIGN_IN_COMMAND, id);
    });
  });
  return { dispose: () => subscription.dispose() };
}
