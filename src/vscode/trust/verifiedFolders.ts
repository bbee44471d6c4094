// Which workspace folders are verified repositories: their git origin matches one of the person's
// `switchboard.trustedRepositories` globs. The setting is application-scoped, and only its user (or
// default) value is read, never a workspace's: a repository can never verify itself. Recomputed when the
// setting or the workspace folders change.
import * as vscode from 'vscode';
import { matchesTrustedRepository, normalizeGitRemote } from '../../core/trust';
import { readGitOrigin } from '../../node/gitOrigin';

export const TRUSTED_REPOSITORIES_SETTING = 'switchboard.trustedRepositories';

/** The person's globs: the user-settings value or the default, whatever a workspace or folder says. */
export function trustedRepositoryGlobs(): string[] {
  const inspected = vscode.workspace.getConfiguration().inspect<unknown>(TRUSTED_REPOSITORIES_SETTING);
  const value = inspected?.globalValue ?? inspected?.defaultValue;
  return Array.isArray(value) ? value.filter((glob): glob is string => typeof glob === 'string' && glob.trim() !== '') : [];
}

export class VerifiedFolders implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a folder became verified or stopped being so. */
  readonly onDidChange = this.changed.event;
  /** Verified folder → its normalised origin. */
  private verified = new Map<string, string>();
  private refreshing: Promise<void> = Promise.resolve();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly folders: () => readonly string[], private readonly log: vscode.LogOutputChannel) {
    this.subscriptions = [
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration(TRUSTED_REPOSITORIES_SETTING)) void this.refresh(); }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => { void this.refresh(); }),
    ];
  }

  isVerified(folder: string): boolean {
    return this.verified.has(folder);
  }

  /** Reads every folder's origin again; refreshes run one after another. */
  refresh(): Promise<void> {
    this.refreshing = this.refreshing.then(() => this.compute()).catch((error: unknown) => {
      this.log.warn(`trust: could not check the trusted repositories: ${error instanceof Error ? error.message : String(error)}`);
    });
    return this.refreshing;
  }

  /** Resolves once the last requested refresh is done. */
  idle(): Promise<void> {
    return this.refreshing;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private async compute(): Promise<void> {
    const globs = trustedRepositoryGlobs();
    const next = new Map<string, string>();
    if (globs.length > 0) {
      await Promise.all(this.folders().map(async (folder) => {
        const origin = await readGitOrigin(folder);
        const normalized = origin === undefined ? undefined : normalizeGitRemote(origin);
        if (normalized !== undefined && matchesTrustedRepository(normalized, globs)) next.set(folder, normalized);
      }));
    }
    const same = next.size === this.verified.size && [...next].every(([folder, origin]) => this.verified.get(folder) === origin);
    if (same) return;
    for (const [folder, origin] of next) if (!this.verified.has(folder)) this.log.info(`trust: ${folder} is a verified repository (origin ${origin})`);
    for (const folder of this.verified.keys()) if (!next.has(folder)) this.log.info(`trust: ${folder} is no longer a verified repository`);
    this.verified = next;
    this.changed.fire();
  }
}
