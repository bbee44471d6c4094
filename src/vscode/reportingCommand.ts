// The one way a command of ours fails: its error goes to the log and to the person as an error
// notification (VS Code only logs the rejection of a command run from a menu or the palette, so a
// command that just threw would fail in silence). Under an extension test run the command rejects
// too, so that a test's executeCommand fails where a person would have seen the notification.
import * as vscode from 'vscode';
import { notifyError } from './ui/notify';

export interface FailureReporting {
  log: vscode.LogOutputChannel;
  /** Under an extension test run (ExtensionMode.Test): a failed command also rejects with its error. */
  testing: boolean;
}

/**
 * Registers `run` as command `id`. When it throws, the error is logged and shown (with a way to the
 * log); the command then resolves to undefined, or, under test, rejects with the error.
 */
export function registerReportingCommand<A extends unknown[], R>(
  id: string,
  run: (...args: A) => Promise<R> | R,
  reporting: FailureReporting,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: A): Promise<R | undefined> => {
    try {
      return await run(...args);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      reporting.log.error(`${id} failed: ${message}`);
      void showError(message, reporting.log);
      if (reporting.testing) throw error;
      return undefined;
    }
  });
}

/** An error notification with a way to the log. */
export async function showError(message: string, log: vscode.LogOutputChannel): Promise<void> {
  const choice = await notifyError(`MCP Switchboard: ${message}`, 'Show Logs');
  if (choice === 'Show Logs') log.show();
}
