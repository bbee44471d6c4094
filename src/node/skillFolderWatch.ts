// Sees skills added and removed in skills directories (`<folder>/.claude/skills`, `~/.agents/skills`, …)
// whatever made the change: an editor, a shell, `git checkout`. Why not VS Code's file watcher: a
// RelativePattern on a folder that does not exist yet never fires, not even once it is created (the
// personal skill folders usually do not exist), and the workspace's recursive watcher reports a folder
// made with `mkdir -p` but can miss the SKILL.md written into it before the new folder is watched. So
// each directory is watched with `node:fs`, non-recursively, at every level that matters: the chain
// down to the skills directory (the config file system's watch follows folders as they appear), the
// skills directory itself (its skill folders come and go), and each skill folder's SKILL.md. On any
// event the directory is listed again; `onChange` fires when the set of skills changed or a SKILL.md
// was written. The config service watches each file it reads too, but in VS Code 1.139 (code-server)
// its watcher on a skill folder made after start missed the edits of the SKILL.md in it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConfigFileSystem } from '../core/config/ports';
import type { Disposable } from '../core/disposable';
import { SKILL_FILE } from '../core/skills/locations';
import { NodeConfigFileSystem } from './configFileSystem';
import { skillFolders } from './skillFolders';

/** Calls `onChange` when a skill (a folder holding a SKILL.md) appears in, changes in or leaves one of `roots`. */
export function watchSkillRoots(roots: readonly string[], onChange: () => void, files: ConfigFileSystem = new NodeConfigFileSystem()): Disposable {
  const watches = roots.map((root) => new SkillRootWatch(path.resolve(root), onChange, files));
  return { dispose: () => { for (const watch of watches.splice(0)) watch.dispose(); } };
}

class SkillRootWatch implements Disposable {
  /** Follows the skills directory itself: created, deleted, or a folder on the way to it. */
  private readonly chain: Disposable;
  private children: fs.FSWatcher | undefined;
  /** The SKILL.md watch of each sub-folder, including those that hold none yet. */
  private readonly skillFiles = new Map<string, Disposable>();
  private known: string;
  private disposed = false;

  constructor(private readonly root: string, private readonly onChange: () => void, private readonly files: ConfigFileSystem) {
    this.known = this.skills();
    this.chain = files.watch(root, () => this.refresh(true));
    this.refresh(true);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.chain.dispose();
    this.closeChildren();
    for (const watch of this.skillFiles.values()) watch.dispose();
    this.skillFiles.clear();
  }

  /** Lists the directory again, follows its sub-folders, and reports a changed set of skills. */
  private refresh(rewatchRoot: boolean, skillFileChanged = false): void {
    if (this.disposed) return;
    // The directory may have been replaced (deleted and made again): a watch on the old one is dead.
    if (rewatchRoot || !this.children) this.watchChildren();
    const folders = this.subFolders();
    for (const [name, watch] of this.skillFiles) {
      if (folders.includes(name)) continue;
      watch.dispose();
      this.skillFiles.delete(name);
    }
    for (const name of folders) {
      if (!this.skillFiles.has(name)) this.skillFiles.set(name, this.files.watch(path.join(this.root, name, SKILL_FILE), () => this.refresh(false, true)));
    }
    const now = this.skills();
    if (now === this.known && !skillFileChanged) return;
    this.known = now;
    this.onChange();
  }

  private watchChildren(): void {
    this.closeChildren();
    try {
      const watcher = fs.watch(this.root, { persistent: false }, () => this.refresh(false));
      watcher.on('error', () => this.refresh(true));
      this.children = watcher;
    } catch {
      // Missing (the chain watch reports its creation) or not watchable: the chain and the SKILL.md
      // watches still see what they cover.
    }
  }

  private closeChildren(): void {
    const watcher = this.children;
    this.children = undefined;
    if (!watcher) return;
    watcher.removeAllListeners();
    watcher.on('error', () => undefined); // a late error after close must not crash the host
    watcher.close();
  }

  private subFolders(): string[] {
    try {
      return fs.readdirSync(this.root, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    } catch {
      return [];
    }
  }

  private skills(): string {
    return skillFolders(this.root).sort().join('\n');
  }
}
