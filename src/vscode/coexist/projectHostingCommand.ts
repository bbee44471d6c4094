// "MCP Switchboard: Choose Who Hosts Project Servers…": the choice between Switchboard and VS Code's own
// MCP for the servers of this workspace's `.mcp.json`, made or changed at any time.
import * as vscode from 'vscode';
import { VSCODE_ACCESS_KEY, VSCODE_COPY_OFF, names, type ProjectHost } from '../../core/coexist';
import { CHOOSE_HOST_COMMAND, type ProjectHosting } from './projectHosting';
import { workspaceSettingsFile } from './vscodeMcpSettings';

interface HostItem extends vscode.QuickPickItem {
  host: ProjectHost;
}

/** Registers the command; it resolves to the host chosen (undefined when the pick was dismissed). */
export function registerProjectHostingCommand(hosting: ProjectHosting): vscode.Disposable {
  return vscode.commands.registerCommand(CHOOSE_HOST_COMMAND, async (): Promise<ProjectHost | undefined> => {
    const { record } = hosting;
    const plan = hosting.plan();
    const current = (host: ProjectHost): string | undefined => (record.host === host ? 'current choice' : undefined);
    const items: HostItem[] = [
      {
        host: 'switchboard',
        label: '$(server-process) Switchboard hosts them',
        description: current('switchboard'),
        detail: `VS Code's copy is turned off for this workspace: writes "${VSCODE_ACCESS_KEY}": "${VSCODE_COPY_OFF}" to ${workspaceSettingsFile()} (VS Code then runs only servers installed from its MCP registry here).`,
      },
      {
        host: 'vscode',
        label: '$(vm) VS Code hosts them',
        description: current('vscode'),
        detail: `Writes nothing (removes the ${VSCODE_ACCESS_KEY} Switchboard wrote, if any); Switchboard does not start the servers of .mcp.json that VS Code runs; they show as hosted by VS Code.`,
      },
    ];
    const overlap = plan.overlap.length > 0
      ? `VS Code's own MCP would also run ${names(plan.overlap)}.`
      : 'VS Code\'s own MCP runs none of this workspace\'s .mcp.json servers as its settings are now.';
    const picked = await vscode.window.showQuickPick(items, { title: 'Who hosts the servers of this workspace\'s .mcp.json?', placeHolder: overlap });
    if (!picked) return undefined;
    await hosting.choose(picked.host);
    return picked.host;
  });
}
