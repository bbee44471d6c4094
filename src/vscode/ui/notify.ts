// The one place that shows a non-modal notification. Every message goes through plainText first, since
// most carry text a server, a repository or an authorization server chose (tool names, server ids,
// errors, elicitation messages), and VS Code turns `[label](command:…)` in a notification into a
// live command link. Modal dialogs are not here: VS Code shows their message and detail as plain text.
// The last messages are kept, as shown, for the tests.
import * as vscode from 'vscode';
import { plainText } from './plainText';

const KEEP = 50;
const shown: string[] = [];

export const NOTIFICATIONS_TEST_COMMAND = '_switchboard.test.notifications';

function recorded(text: string): string {
  shown.push(text);
  if (shown.length > KEEP) shown.splice(0, shown.length - KEEP);
  return text;
}

/** An information notification of `message`, as plain text, with these buttons. */
export function notifyInfo(message: string, ...buttons: string[]): Thenable<string | undefined> {
  return vscode.window.showInformationMessage(recorded(plainText(message)), ...buttons);
}

/** A warning notification of `message`, as plain text, with these buttons. */
export function notifyWarning(message: string, ...buttons: string[]): Thenable<string | undefined> {
  return vscode.window.showWarningMessage(recorded(plainText(message)), ...buttons);
}

/** An error notification of `message`, as plain text, with these buttons. */
export function notifyError(message: string, ...buttons: string[]): Thenable<string | undefined> {
  return vscode.window.showErrorMessage(recorded(plainText(message)), ...buttons);
}

/** The notifications shown so far (as shown, oldest first): for the test-only command. */
export function shownNotifications(): string[] {
  return [...shown];
}
