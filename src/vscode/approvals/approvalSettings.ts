// The approval settings. Both are read from the person's own (user) settings only: a repository's
// `.vscode/settings.json` must not be able to let its own servers' calls through without asking, nor
// to tell the preview where a tool writes.
import * as vscode from 'vscode';
import { isApprovalMode, type ApprovalMode } from '../../core/approvals';
import type { FileWriteToolsSetting, ServerFileTools } from '../../core/approvals/preview';

export const APPROVAL_MODE_SETTING = 'approvals.mode';
export const FILE_WRITE_TOOLS_SETTING = 'approvals.fileWriteTools';
export const DEFAULT_APPROVAL_MODE: ApprovalMode = 'askBeforeEdits';

const section = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('switchboard');

/** `switchboard.approvals.mode` from the user settings; the default (ask before edits) when unset or not a mode. */
export function readApprovalMode(warn?: (message: string) => void): ApprovalMode {
  const value = section().inspect<unknown>(APPROVAL_MODE_SETTING)?.globalValue;
  if (value === undefined || isApprovalMode(value)) return value ?? DEFAULT_APPROVAL_MODE;
  warn?.(`switchboard.${APPROVAL_MODE_SETTING}: ${JSON.stringify(value)} is not a mode (askBeforeEdits, acceptEdits, acceptEverything); asking before edits`);
  return DEFAULT_APPROVAL_MODE;
}

/** Sets the mode in the user settings (what the sidebar's mode picker does). */
export async function writeApprovalMode(mode: ApprovalMode): Promise<void> {
  await section().update(APPROVAL_MODE_SETTING, mode === DEFAULT_APPROVAL_MODE ? undefined : mode, vscode.ConfigurationTarget.Global);
}

/**
 * `switchboard.approvals.fileWriteTools` from the user settings: server name → tool → the names of its
 * path and content arguments. Entries that are not that shape are skipped with a warning.
 */
export function readFileWriteTools(warn?: (message: string) => void): FileWriteToolsSetting {
  const value = section().inspect<unknown>(FILE_WRITE_TOOLS_SETTING)?.globalValue;
  const result: FileWriteToolsSetting = {};
  if (value === undefined) return result;
  if (!isObject(value)) {
    warn?.(`switchboard.${FILE_WRITE_TOOLS_SETTING}: expected an object of server names`);
    return result;
  }
  for (const [server, tools] of Object.entries(value)) {
    if (!isObject(tools)) {
      warn?.(`switchboard.${FILE_WRITE_TOOLS_SETTING}.${server}: expected an object of tool names`);
      continue;
    }
    const entry: ServerFileTools = {};
    for (const [tool, names] of Object.entries(tools)) {
      if (isObject(names) && typeof names.path === 'string' && names.path !== '' && typeof names.content === 'string' && names.content !== '') {
        entry[tool] = { path: names.path, content: names.content };
      } else {
        warn?.(`switchboard.${FILE_WRITE_TOOLS_SETTING}.${server}.${tool}: expected { "path": "<argument>", "content": "<argument>" }`);
      }
    }
    result[server] = entry;
  }
  return result;
}

/** Calls `listener` when an approval setting changed. */
export function onDidChangeApprovalSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration('switchboard.approvals')) listener();
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
