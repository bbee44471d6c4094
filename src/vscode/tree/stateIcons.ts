// How a server's lifecycle state looks in the workbench: one icon and colour per state, shared by the
// Servers view and the status bar tooltip.
import * as vscode from 'vscode';
import { assertNever, type ServerState } from '../../core/lifecycle';

/** The codicon and theme colour of a state (`undefined` state: the lifecycle does not know the server yet). */
export function stateIconParts(state: ServerState | undefined): { id: string; color?: string } {
  if (!state) return { id: 'circle-outline', color: 'descriptionForeground' };
  switch (state.kind) {
    case 'ready': return { id: 'pass', color: 'testing.iconPassed' };
    case 'starting': case 'restarting': return { id: 'loading~spin' };
    // Still spinning (the process is going), dimmed: on its way down, not up.
    case 'stopping': return { id: 'loading~spin', color: 'descriptionForeground' };
    case 'failed': case 'crashed': return { id: 'error', color: 'problemsErrorIcon.foreground' };
    case 'needsTrust': return { id: 'shield', color: 'problemsWarningIcon.foreground' };
    case 'needsSignIn': return { id: 'account', color: 'problemsWarningIcon.foreground' };
    case 'disabled': return { id: 'circle-slash', color: 'disabledForeground' };
    case 'stopped': return { id: 'circle-outline', color: 'descriptionForeground' };
    default: return assertNever(state);
  }
}

/** A ready server with a warning (a listing failed): ready, but look. */
export const WARNING_ICON_PARTS = { id: 'warning', color: 'problemsWarningIcon.foreground' } as const;

/** The icon of a state; `warned`: a ready server with a warning gets the warning icon instead. */
export function stateIcon(state: ServerState | undefined, warned = false): vscode.ThemeIcon {
  const { id, color } = warned && state?.kind === 'ready' ? WARNING_ICON_PARTS : stateIconParts(state);
  return new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
}

/** The first line of a reason, cut to fit a description or a status line. */
export function shortReason(reason: string, max = 80): string {
  const line = reason.split(/\r?\n/, 1)[0]?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
