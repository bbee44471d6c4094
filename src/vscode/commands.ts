// The commands of the Servers view and the palette: open (creating when absent) each scope's file,
// reload, and reveal a server's definition. Each returns what it opened, which tests use.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConfigAdapter } from './config/configAdapter';
import { isVirtualFile, type ConfigSources } from './config/configSources';
import { toRange } from './config/diagnostics';
import { count, type Feedback } from './ui/feedback';
import { localFileTemplate, PROJECT_FILE_TEMPLATE, USER_FILE_TEMPLATE } from './config/serverFileTemplates';
import { REVEAL_SOURCE_COMMAND, type ServersTreeProvider, type SourceLocation } from './tree/serversTree';
import { notifyError, notifyInfo } from './ui/notify';
import { registerReportingCommand } from './reportingCommand';

export const COMMANDS = {
  openProjectServers: 'switchboard.openProjectServers',
  openUserServers: 'switchboard.openUserServers',
  openLocalServers: 'switchboard.openLocalServers',
  refresh: 'switchboard.refresh',
  revealServerSource: REVEAL_SOURCE_COMMAND,
  /** Internal (the leading `_` keeps it out of the palette and getCommands(true)): the Servers view's rows as plain data, for tests. */
  serverItems: '_switchboard.serverItems',
} as const;

export interface CommandDeps {
  sources: ConfigSources;
  config: ConfigAdapter;
  tree: ServersTreeProvider;
  log: vscode.LogOutputChannel;
  /** Where Reload says what it read. */
  feedback: Feedback;
  /** Under an extension test run: a failed command rejects (see registerReportingCommand). */
  testing: boolean;
}

export function registerCommands(deps: CommandDeps): vscode.Disposable {
  const { sources, config, tree, log, feedback } = deps;
  const register = <A extends unknown[], R>(id: string, run: (...args: A) => Promise<R> | R) =>
    registerReportingCommand(id, run, deps);

  return vscode.Disposable.from(
    register(COMMANDS.openProjectServers, async (target?: unknown) => {
      const folder = await pickFolder(sources, target, 'Open project servers of which folder?',
        'Open a folder first: project servers live in the folder\'s .mcp.json.');
      if (!folder) return undefined;
      return openCreating(sources.projectFile(folder), PROJECT_FILE_TEMPLATE, log);
    }),
    register(COMMANDS.openUserServers, () => openCreating(sources.userFile(), USER_FILE_TEMPLATE, log)),
    register(COMMANDS.openLocalServers, async (target?: unknown) => {
      const folder = await pickFolder(sources, target, 'Open local (private) servers of which folder?',
        'Open a folder first: local servers are kept per workspace folder.');
      if (!folder) return undefined;
      return openCreating(sources.localFile(folder), localFileTemplate(folder.name), log);
    }),
    register(COMMANDS.refresh, async () => {
      await config.reload();
      const { servers, problems } = config.current;
      feedback.show(`$(refresh) MCP Switchboard: configuration reloaded: ${count(servers.length, 'server')}, ${count(problems.length, 'problem')}`, log);
      return config.current.version;
    }),
    register(COMMANDS.revealServerSource, (target?: unknown) => revealSource(config, target)),
    register(COMMANDS.serverItems, () => tree.getServerItems()),
  );
}

/** The folder named by `target` (a Uri or a WorkspaceFolder), the only folder, or the one the user picks. */
async function pickFolder(sources: ConfigSources, target: unknown, placeHolder: string, noneMessage: string): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = sources.folders();
  const wanted = target instanceof vscode.Uri ? target : (target as vscode.WorkspaceFolder | undefined)?.uri;
  if (wanted instanceof vscode.Uri) {
    const match = folders.find((f) => f.uri.toString() === wanted.toString()) ?? vscode.workspace.getWorkspaceFolder(wanted);
    if (match) return match;
  }
  if (folders.length === 0) {
    void notifyError(noneMessage);
    return undefined;
  }
  if (folders.length === 1) return folders[0];
  return vscode.window.showWorkspaceFolderPick({ placeHolder, ignoreFocusOut: true });
}

/** Opens `file` in an editor, first creating it (and its folder) with `template` when it does not exist. */
async function openCreating(file: string, template: string, log: vscode.LogOutputChannel): Promise<vscode.Uri> {
  const uri = vscode.Uri.file(file);
  if (!(await exists(uri))) {
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(file)));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(template));
    log.info(`created ${file}`);
  }
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: false });
  return uri;
}

/** Opens a server's definition (by id, location or tree row) with its key selected; throws when there is none. */
export async function revealSource(config: ConfigAdapter, target: unknown): Promise<vscode.Uri | undefined> {
  const location = resolveLocation(config, target);
  if (!location) {
    throw new Error(typeof target === 'string' ? `No MCP server with the id "${target}".` : 'No server definition to open.');
  }
  if (isVirtualFile(location.file)) {
    void notifyInfo(
      `This server was registered by another extension through the API (${location.file}); it has no file to open.`);
    return undefined;
  }
  const uri = vscode.Uri.file(location.file);
  const range = toRange({
    line: location.line, column: location.column,
    endLine: location.endLine ?? location.line, endColumn: location.endColumn ?? location.column,
  });
  const editor = await vscode.window.showTextDocument(uri, { selection: range, preview: true });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return uri;
}

/** Accepts a server id, a location, or a tree row (as passed by a context menu). */
function resolveLocation(config: ConfigAdapter, target: unknown): SourceLocation | undefined {
  if (typeof target === 'string') {
    const server = config.current.servers.find((s) => s.id === target)
      ?? config.current.servers.find((s) => s.name === target);
    return server?.source;
  }
  if (isLocation(target)) return target;
  const fromRow = (target as { data?: { location?: unknown } } | undefined)?.data?.location;
  return isLocation(fromRow) ? fromRow : undefined;
}

function isLocation(value: unknown): value is SourceLocation {
  const v = value as Partial<SourceLocation> | undefined;
  return typeof v?.file === 'string' && typeof v.line === 'number' && typeof v.column === 'number';
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
