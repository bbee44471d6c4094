// Install links: the URI handler of `vscode://mcp-switchboard.mcp-switchboard/install?…` and the
// command **Install Server from Link…** (a pasted link of ours, VS Code's `vscode:mcp/install?…` or its
// web redirect). Both open review and install with the whole definition: nothing is written before the
// person clicks Install, and the scope is always theirs to pick (user first), never the link's.
import * as vscode from 'vscode';
import { InstallLinkError, installLinkQuery, parseInstallLink, type LinkedServer } from '../../core/gallery';
import { reviewAndInstall, type InstallCandidate, type InstallDeps, type InstallOutcome, type InstallUi } from './installReview';
import { ScriptedInstallUi, VscodeInstallUi, type ScriptedInstallAnswers } from './installUi';
import { notifyError } from '../ui/notify';

export const INSTALL_FROM_LINK_COMMAND = 'switchboard.installFromLink';
/** Test-only: handle a URI as the handler would, with scripted answers (extension test runs only). */
const SCRIPT_COMMAND = '_switchboard.test.handleInstallUri';

/** How an install from a link ended: installed (or cancelled), the link refused, or the install failed. */
type LinkInstall = { outcome: InstallOutcome | undefined } | { refused: string } | { failed: string };

/** The candidate a link gives. */
export function linkCandidate(server: LinkedServer): InstallCandidate {
  return { name: server.name, entry: server.entry, inputs: server.inputs, origin: 'an install link', needs: [], leftOut: server.leftOut };
}

/** Installs what a link gives, after the review; a refused or failed install is announced, and returned. */
async function install(deps: InstallDeps, read: () => LinkedServer, ui: InstallUi = new VscodeInstallUi()): Promise<LinkInstall> {
  let server: LinkedServer;
  try {
    server = read();
  } catch (error) {
    if (!(error instanceof InstallLinkError)) throw error;
    deps.log.warn(`install link refused: ${error.message}`);
    void notifyError(`MCP Switchboard: this install link cannot be used: ${error.message}. Nothing was installed.`);
    return { refused: error.message };
  }
  try {
    return { outcome: await reviewAndInstall(deps, linkCandidate(server), ui) };
  } catch (error) {
    deps.log.error('Install from link failed:', error instanceof Error ? error : String(error));
    void notifyError(`MCP Switchboard: installing failed: ${error instanceof Error ? error.message : String(error)}`);
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}

function fromUri(uri: vscode.Uri): () => LinkedServer {
  return () => {
    if (uri.path !== '/install') throw new InstallLinkError(`${uri.path} is not a link MCP Switchboard handles (only /install)`);
    return parseInstallLink(uri.query, { decoded: true });
  };
}

/** Handles a `vscode://…/install?…` link (the URI handler, registered at activation, imports this on first use). */
export async function handleInstallUri(deps: InstallDeps, uri: vscode.Uri): Promise<void> {
  await install(deps, fromUri(uri));
}

/** Registers the command (and, under tests, the script hook). */
export function registerInstallLinks(deps: InstallDeps & { testing: boolean }): vscode.Disposable {
  const disposables = [
    vscode.commands.registerCommand(INSTALL_FROM_LINK_COMMAND, async (given?: unknown) => {
      const link = typeof given === 'string' ? given : await vscode.window.showInputBox({
        title: 'Install Server from Link', prompt: 'Paste an install link: vscode:mcp/install?… or vscode://mcp-switchboard.mcp-switchboard/install?…',
        ignoreFocusOut: true,
      });
      if (link === undefined || link.trim() === '') return undefined;
      return install(deps, () => parseInstallLink(installLinkQuery(link)));
    }),
  ];
  if (deps.testing) {
    disposables.push(vscode.commands.registerCommand(SCRIPT_COMMAND, async (uri: string, answers: ScriptedInstallAnswers) => {
      const ui = new ScriptedInstallUi(answers);
      const result = await install(deps, fromUri(vscode.Uri.parse(uri)), ui);
      return { ...result, shown: ui.shown };
    }));
  }
  return vscode.Disposable.from(...disposables);
}
