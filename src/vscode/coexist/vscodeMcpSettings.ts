// VS Code's own MCP settings, read as the facts the coexistence core needs, and the one setting
// Switchboard writes: `chat.mcp.access` at workspace scope.
import * as vscode from 'vscode';
import { parseVscodeMcpAccess, parseVscodeServerMatchers, type VscodeMcpAccess, type VscodeMcpSettings } from '../../core/coexist';

const SECTION = 'chat.mcp';

/** VS Code's MCP settings as they apply in this window. */
export function readVscodeMcpSettings(): VscodeMcpSettings {
  const mcp = vscode.workspace.getConfiguration(SECTION);
  const access = mcp.inspect<unknown>('access');
  const effective = parseVscodeMcpAccess(mcp.get<unknown>('access')) ?? 'all';
  const workspace = parseVscodeMcpAccess(access?.workspaceValue);
  const user = parseVscodeMcpAccess(access?.globalValue) ?? parseVscodeMcpAccess(access?.defaultValue) ?? 'all';
  // The extension API shows no policy value: a value in effect that none of the layers gives is a policy's.
  const locked = effective !== (workspace ?? user);
  return {
    // A VS Code that knows this setting reads a folder's root .mcp.json; 1.139 reads it whatever the value.
    readsRootMcpJson: mcp.inspect<unknown>('workspaceRootConfig.enabled')?.defaultValue !== undefined,
    access: { effective, ...(workspace !== undefined ? { workspace } : {}), withoutWorkspace: locked ? effective : user, locked },
    denied: parseVscodeServerMatchers(mcp.get<unknown>('deniedServers')) ?? [],
    allowed: parseVscodeServerMatchers(mcp.get<unknown>('allowedServers')),
  };
}

/** Fires when any of VS Code's MCP settings changed. */
export function onDidChangeVscodeMcpSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(SECTION)) listener();
  });
}

/**
 * The file a workspace-scope setting is written to, as a person finds it: the `.code-workspace` file of
 * a multi-root workspace, else the folder's `.vscode/settings.json`.
 */
export function workspaceSettingsFile(): string {
  const file = vscode.workspace.workspaceFile;
  if (file !== undefined && file.scheme === 'file') return file.fsPath;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json').fsPath : '.vscode/settings.json';
}

/** Sets (or with `undefined` removes) the workspace's own `chat.mcp.access`. */
export async function setWorkspaceMcpAccess(value: VscodeMcpAccess | undefined): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('access', value, vscode.ConfigurationTarget.Workspace);
}
