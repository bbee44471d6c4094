// Which files make up the configuration, computed from VS Code's state: the workspace folders (project
// and local files), the user file setting, other extensions' `contributes.mcpServers`, and servers
// registered through this extension's API. Fires when any of those change.
import { createHash } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { standardLayerSpecs } from '../../core/config';
import { PROJECT_SKILL_DIRS, skillLayerSpecs, USER_SKILL_DIRS } from '../../core/skills/locations';
import { watchSkillRoots } from '../../node/skillFolderWatch';
import { skillFolders } from '../../node/skillFolders';
import type { LayerSpec } from '../../core/config/types';
import type { Disposable } from '../../core/disposable';

export const USER_CONFIG_SETTING = 'switchboard.userConfigPath';

/** The folder, inside the extension's global storage, that holds the private per-folder files. */
const LOCAL_SERVERS_DIR = 'local-servers';

/** The prefix of the virtual file names of servers registered through the API. */
export const API_FILE_PREFIX = 'api:';

export interface ConfigSourcesOptions {
  /** `context.globalStorageUri`: where the local (private) files live. */
  globalStorage: vscode.Uri;
  /** This extension's id, so that its own manifest is not read as a plugin. */
  ownExtensionId: string;
  /** The administrator's policy files, whose servers are the managed scope. */
  managedFiles?: string[];
}

export class ConfigSources implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the set of files (or the API registrations) changed, so the specs must be recomputed. */
  readonly onDidChange = this.changed.event;
  private readonly registrations = new Map<string, { token: object; servers: Record<string, unknown> }>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The skills directories watched, and for which roots (recreated when the workspace folders change). */
  private skillWatch: { key: string; watch: Disposable } | undefined;
  private disposed = false;

  constructor(private readonly options: ConfigSourcesOptions) {
    const fire = () => this.changed.fire();
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeWorkspaceFolders(fire),
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration(USER_CONFIG_SETTING)) fire(); }),
      vscode.extensions.onDidChange(fire),
    );
  }

  /** The layer specs for the current state, in no particular order (the merge orders them by scope). */
  specs(): LayerSpec[] {
    // The skill folders are watched from the first read on (a skill added before it is in that read),
    // and again for a new set of workspace folders.
    this.watchSkillFolders();
    const env: Record<string, string | undefined> = { ...process.env };
    return [
      ...standardLayerSpecs({
        folders: this.folders().map((folder) => ({ path: folder.uri.fsPath, localFile: this.localFile(folder) })),
        userFile: this.userSetting(),
        userHome: os.homedir(),
        env,
        managedFiles: this.options.managedFiles ?? [],
        plugins: [...this.extensionPlugins(), ...this.apiPlugins()],
      }),
      // Each SKILL.md is a layer of its own: its frontmatter's servers, started only when the skill is used.
      ...skillLayerSpecs({ folders: this.folders().map((folder) => folder.uri.fsPath), userHome: os.homedir(), env, skillFolders }),
    ];
  }

  /**
   * A skill added or removed changes the set of layers (an edit of a SKILL.md is the config service's
   * to see). The workspace's skill folders and the person's are watched with node:fs (see
   * src/node/skillFolderWatch.ts for why not VS Code's watcher), including folders created later.
   */
  private watchSkillFolders(): void {
    if (this.disposed) return;
    const roots = [
      ...this.folders().flatMap((folder) => PROJECT_SKILL_DIRS.map((dir) => path.join(folder.uri.fsPath, dir))),
      ...USER_SKILL_DIRS.map((dir) => path.join(os.homedir(), dir)),
    ];
    const key = roots.join('\n');
    if (this.skillWatch?.key === key) return;
    this.skillWatch?.watch.dispose();
    this.skillWatch = { key, watch: watchSkillRoots(roots, () => this.changed.fire()) };
  }

  /** Workspace folders on disk (other schemes cannot hold a config the extension host can read). */
  folders(): readonly vscode.WorkspaceFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  }

  /** `<folder>/.mcp.json`. */
  projectFile(folder: vscode.WorkspaceFolder): string {
    return path.join(folder.uri.fsPath, '.mcp.json');
  }

  /**
   * The private file of a folder: `<global storage>/local-servers/<hash of the folder uri>/<folder name>.mcp.json`.
   * The hash keeps two folders with the same name apart; the name makes the file recognisable in a tab.
   */
  localFile(folder: vscode.WorkspaceFolder): string {
    const hash = createHash('sha256').update(folder.uri.toString()).digest('hex').slice(0, 16);
    const name = path.basename(folder.uri.fsPath) || 'workspace';
    return path.join(this.options.globalStorage.fsPath, LOCAL_SERVERS_DIR, hash, `${name}.mcp.json`);
  }

  /** The user file: the setting (`~` and `${userHome}` expanded by the core), `~/.mcp.json` when empty. */
  userFile(): string {
    const spec = standardLayerSpecs({ folders: [], userFile: this.userSetting(), userHome: os.homedir(), env: {} })
      .find((s) => s.scope === 'user');
    return spec?.file ?? path.join(os.homedir(), '.mcp.json');
  }

  private userSetting(): string {
    return vscode.workspace.getConfiguration().get<string>(USER_CONFIG_SETTING) ?? '';
  }

  /**
   * Adds plugin-scope servers under a virtual file `api:<source>`. A second registration from the same
   * source replaces the first; disposing a registration that was replaced does nothing.
   */
  registerServers(source: string, servers: Record<string, unknown>): vscode.Disposable {
    if (typeof source !== 'string' || source.trim() === '') throw new TypeError('registerServers: source must be a non-empty string');
    if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
      throw new TypeError('registerServers: servers must be an object keyed by server name');
    }
    const token = {};
    // A copy, so that later changes to the caller's object do not leak in unnoticed.
    this.registrations.set(source, { token, servers: JSON.parse(JSON.stringify(servers)) as Record<string, unknown> });
    this.changed.fire();
    let disposed = false;
    return new vscode.Disposable(() => {
      if (disposed) return;
      disposed = true;
      if (this.registrations.get(source)?.token !== token) return;
      this.registrations.delete(source);
      this.changed.fire();
    });
  }

  dispose(): void {
    this.disposed = true;
    this.skillWatch?.watch.dispose();
    this.skillWatch = undefined;
    for (const d of this.disposables.splice(0).reverse()) d.dispose();
    this.registrations.clear();
  }

  private extensionPlugins(): { file: string; root: string[]; label: string; extensionPath: string }[] {
    const plugins: { file: string; root: string[]; label: string; extensionPath: string }[] = [];
    for (const extension of vscode.extensions.all) {
      if (extension.id.toLowerCase() === this.options.ownExtensionId.toLowerCase()) continue;
      if (extension.extensionUri.scheme !== 'file') continue;
      const contributes = (extension.packageJSON as { contributes?: { mcpServers?: unknown } } | undefined)?.contributes;
      if (contributes?.mcpServers === undefined) continue;
      plugins.push({
        file: path.join(extension.extensionPath, 'package.json'),
        root: ['contributes'],
        label: extension.id,
        extensionPath: extension.extensionPath,
      });
    }
    return plugins.sort((a, b) => a.label.localeCompare(b.label));
  }

  private apiPlugins(): { file: string; label: string; inline: string }[] {
    return [...this.registrations.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([source, { servers }]) => ({
        file: `${API_FILE_PREFIX}${source}`,
        label: source,
        inline: JSON.stringify({ mcpServers: servers }, null, 2),
      }));
  }
}

/** True for the virtual files of API registrations, which have no document to open or mark. */
export function isVirtualFile(file: string): boolean {
  return file.startsWith(API_FILE_PREFIX);
}
