// Helpers shared by the config tests of the extension-host tier: the extension's API, the Servers
// view's rows, the fixture files (restored after each test that changes them) and polling waits.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ConfigSnapshot } from '../../src/core/config';
import type { SwitchboardApi } from '../../src/extension';
import type { ServerItemData } from '../../src/vscode/tree/serversTree';

export const EXTENSION_ID = 'mcp-switchboard.mcp-switchboard';
export const SERVER_ITEMS_COMMAND = '_switchboard.serverItems';
export const DIAGNOSTIC_SOURCE = 'MCP Switchboard';

/** Activates the extension (if its activation events have not already) and returns its API. */
export async function switchboardApi(): Promise<SwitchboardApi> {
  const extension = vscode.extensions.getExtension<SwitchboardApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed in this VS Code`);
  const api = extension.isActive ? extension.exports : await extension.activate();
  // Activation returns before the configuration is read; the tests start from a read configuration.
  await api.ready();
  return api;
}

/** The Servers view's rows, as the registered tree provider has them now. */
export async function serverItems(): Promise<ServerItemData[]> {
  const items = await vscode.commands.executeCommand<ServerItemData[] | undefined>(SERVER_ITEMS_COMMAND);
  if (!Array.isArray(items)) throw new Error(`${SERVER_ITEMS_COMMAND} returned ${String(items)}`);
  return items;
}

/** The row of a server by its id ("memory", or "folder/memory" when folder-qualified). */
export function serverRow(items: ServerItemData[], id: string): ServerItemData | undefined {
  return items.find((item) => item.kind === 'server' && item.label === id);
}

/** The labels of a row's shadowed-entry children (a ready server also has catalog children). */
export function shadowedLabels(row: ServerItemData | undefined): string[] {
  return (row?.children ?? []).filter((child) => child.kind === 'shadowed').map((child) => child.label);
}

export function fixtureWorkspace(): string {
  return process.env.SWITCHBOARD_FIXTURE_WORKSPACE ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
}

export function fixtureHome(): string {
  return process.env.SWITCHBOARD_FIXTURE_HOME ?? os.homedir();
}

/**
 * The fixture's declarative extension (test/fixtures/vscode/plugin-extension), loaded as a development
 * extension beside the one under test: its `contributes.mcpServers` are the plugin scope.
 */
export const PLUGIN_EXTENSION_ID = 'switchboard-fixtures.plugin-servers';

/**
 * Its folder in the copied fixture, beside the workspace. VS Code may know it by another path (the
 * runner links it into a folder of development extensions): compare real paths.
 */
export function pluginExtensionFolder(): string {
  return path.join(path.dirname(fixtureWorkspace()), 'plugin-extension');
}

export function projectFile(): string {
  return path.join(fixtureWorkspace(), '.mcp.json');
}

export function userFile(): string {
  return path.join(fixtureHome(), '.mcp.json');
}

/** Polls `probe` until it returns something other than undefined/false; fails after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000, intervalMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Waits until the API's snapshot satisfies `check`, and returns that snapshot. */
export function waitForConfig(api: SwitchboardApi, what: string, check: (config: ConfigSnapshot) => boolean, timeoutMs = 5000): Promise<ConfigSnapshot> {
  return waitFor(what, () => { const config = api.getConfig(); return check(config) && config; }, timeoutMs);
}

/**
 * Resolves once the extension's registry has settled: no server is starting, stopping, crashed or
 * waiting to restart. A server that is not running then cannot start without a new cause (a setting,
 * an edit, a decision), so a test checks what did not start after this instead of after a sleep.
 */
export async function serversSettled(): Promise<void> {
  await vscode.commands.executeCommand('_switchboard.test.serversSettled');
}

/** The ids of the fixture's servers (test/fixtures/vscode/README.md), sorted. */
export const FIXTURE_SERVERS = ['chatty', 'docs', 'everything', 'filesystem', 'memory', 'missing-command', 'ok', 'plugin-echo', 'roots'];

/** The fixture's user-scope servers that reach `ready` on activation. */
export const READY_SERVERS = ['chatty', 'everything', 'ok', 'roots'];
/** Its project-scope servers: they wait for trust. */
export const PROJECT_SERVERS = ['docs', 'filesystem', 'memory'];
/** Its servers that fail to start: a command that does not exist, a script that does not exist. */
export const FAILING_SERVERS = ['missing-command', 'plugin-echo'];

/** `scope:id` of every effective server of the user and plugin scopes, sorted (tests add the project ones they expect). */
export const OTHER_SCOPE_IDS = ['plugin:plugin-echo', 'user:chatty', 'user:everything', 'user:missing-command', 'user:ok', 'user:roots'];

/**
 * The fixture's shadowed entries as [name, scope, scope of the winner], in the order of the snapshot
 * (by scope, then name): the user `memory` loses to the project, the plugin `everything` to the user.
 */
export const FIXTURE_SHADOWED: [string, string, string][] = [['memory', 'user', 'project'], ['everything', 'plugin', 'user']];

/** `shadowed` of a snapshot in the shape of FIXTURE_SHADOWED. */
export function shadowedSummary(config: ConfigSnapshot): [string, string, string][] {
  return config.shadowed.map((s) => [s.name, s.scope, s.shadowedBy.scope]);
}

/** Waits until the configuration is the fixture's again (after a test changed and restored files). */
export function fixtureIsLoaded(api: SwitchboardApi, timeoutMs = 5000): Promise<ConfigSnapshot> {
  return waitForConfig(api, 'the fixture configuration', (config) =>
    config.servers.map((s) => s.id).sort().join() === FIXTURE_SERVERS.join()
    && JSON.stringify(shadowedSummary(config)) === JSON.stringify(FIXTURE_SHADOWED)
    && config.problems.length === 0, timeoutMs);
}

/** Our diagnostics for a file. */
export function switchboardDiagnostics(file: string): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(vscode.Uri.file(file)).filter((d) => d.source === DIAGNOSTIC_SOURCE);
}

/** The 0-based position of the first occurrence of `needle` in `text` (as VS Code counts it). */
export function positionOf(text: string, needle: string): vscode.Position {
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`"${needle}" not found`);
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return new vscode.Position(before.length - 1, before[before.length - 1].length);
}

/**
 * Remembers files as they are (or that they are absent) and puts them back. Used from `afterEach`
 * so that a failing test still leaves the fixture as it found it.
 */
export class FileRestorer {
  private readonly saved = new Map<string, string | undefined>();

  /** Records `file` the first time it is named; later calls keep the first recording. */
  keep(file: string): string {
    if (!this.saved.has(file)) this.saved.set(file, fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
    return file;
  }

  /** Writes `text` to `file`, after recording it. */
  write(file: string, text: string): void {
    this.keep(file);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }

  /** Restores every recorded file; returns true when anything had to be changed back. */
  restore(): boolean {
    let changed = false;
    for (const [file, text] of this.saved) {
      const now = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
      if (now === text) continue;
      changed = true;
      if (text === undefined) fs.rmSync(file, { force: true });
      else fs.writeFileSync(file, text);
    }
    this.saved.clear();
    return changed;
  }
}

/** Closes every editor, without saving (tests never leave dirty editors they mean to keep). */
export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
