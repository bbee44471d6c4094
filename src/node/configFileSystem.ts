// The config service's file system on plain Node: bounded reads that never throw, and watches that
// survive atomic saves and folders that do not exist yet. Used by the CLI and the integration tests;
// the extension can use it too where VS Code's watcher is not wanted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConfigFileSystem } from '../core/config/ports';
import type { ConfigRead } from '../core/config/types';
import type { Disposable } from '../core/disposable';

export interface NodeConfigFileSystemOptions {
  /** Interval of the stat-polling fallback, used only where `fs.watch` is unavailable. Default 300 ms. */
  pollIntervalMs?: number;
  /** Always poll instead of using `fs.watch` (tests, file systems known to drop events). */
  forcePolling?: boolean;
}

/** Reads and watches config files with `node:fs`. */
export class NodeConfigFileSystem implements ConfigFileSystem {
  constructor(private readonly options: NodeConfigFileSystemOptions = {}) {}

  /** Reads `file` as UTF-8 (a BOM is kept so the parser can report it); never throws. */
  async read(file: string, maxBytes: number): Promise<ConfigRead> {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch (error) {
      return readFailure(error);
    }
    if (stat.isDirectory()) return { kind: 'directory' };
    // A FIFO or a device would block or never end: only regular files are config files.
    if (!stat.isFile()) return { kind: 'unreadable', message: `not a regular file: ${file}` };
    if (stat.size > maxBytes) return { kind: 'tooLarge', size: stat.size };

    let handle: fs.promises.FileHandle | undefined;
    try {
      handle = await fs.promises.open(file, 'r');
      // Read at most maxBytes + 1 bytes, to EOF: the file may have grown or shrunk since the stat.
      const chunks: Buffer[] = [];
      let total = 0;
      for (;;) {
        const want = Math.min(Math.max(stat.size - total, 0) + 4096, maxBytes + 1 - total);
        if (want <= 0) break;
        const chunk = Buffer.allocUnsafe(want);
        const { bytesRead } = await handle.read(chunk, 0, want, total);
        if (bytesRead === 0) break;
        chunks.push(chunk.subarray(0, bytesRead));
        total += bytesRead;
      }
      if (total > maxBytes) {
        const size = (await handle.stat()).size;
        return { kind: 'tooLarge', size: Math.max(size, total) };
      }
      return { kind: 'text', text: Buffer.concat(chunks, total).toString('utf8') };
    } catch (error) {
      return readFailure(error);
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }

  /** Calls `onChange` when `file` is created, changed or deleted, including inside folders created later. */
  watch(file: string, onChange: () => void): Disposable {
    const target = path.resolve(file);
    if (this.options.forcePolling) return new PollingWatch(target, onChange, this.pollInterval());
    return new DirectoryWatch(target, onChange, this.pollInterval());
  }

  private pollInterval(): number {
    return this.options.pollIntervalMs ?? 300;
  }
}

function readFailure(error: unknown): ConfigRead {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
  if (code === 'EISDIR') return { kind: 'directory' };
  return { kind: 'unreadable', message: error instanceof Error ? error.message : String(error) };
}

// Why the watch looks at a directory and not at the file:
// - editors save atomically (write a temp file, rename it over the target); a watch on the file
//   follows the old inode and goes silent after the first save;
// - a file that does not exist yet (or whose folder does not exist yet) cannot be watched at all.
// So we watch the nearest existing ancestor directory, non-recursively, and keep only events for the
// next path component on the way down to the file. When that component appears the watch moves
// down; when the watched directory disappears (or is replaced) it moves up. A non-recursive
// directory watch is one inotify watch / FSEvents stream / ReadDirectoryChangesW handle on
// Linux / macOS / Windows, and it sees renames, creations and deletions of its direct children.
// Stat polling (fs.watchFile) is the fallback only where fs.watch fails (inotify limit reached,
// some network and virtual file systems): it costs a stat per interval, adds latency, and can miss
// two same-size writes within one timestamp tick on coarse file systems.

const caseInsensitive = process.platform === 'win32' || process.platform === 'darwin';

function sameName(a: string, b: string): boolean {
  return caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** Identity of a directory, so a deleted-and-recreated folder is noticed (the old watch is dead). */
function identity(dir: string): string | undefined {
  try {
    const stat = fs.statSync(dir, { bigint: true });
    return stat.isDirectory() ? `${stat.dev}:${stat.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The realpath of `file` when it is a symbolic link (dotfile setups), else undefined. */
function linkTarget(file: string): string | undefined {
  try {
    if (!fs.lstatSync(file).isSymbolicLink()) return undefined;
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}

class DirectoryWatch implements Disposable {
  private watcher: fs.FSWatcher | undefined;
  private fallback: PollingWatch | undefined;
  /** Watches the file a symbolic link points to: edits there make no event beside the link. */
  private link: { target: string; watch: Disposable } | undefined;
  private dir = '';
  private dirId: string | undefined;
  /** The child of `dir` on the way to the file (the file's own name when `dir` is its parent). */
  private next = '';
  private existed: boolean;
  private disposed = false;

  constructor(
    private readonly file: string,
    private readonly onChange: () => void,
    private readonly pollIntervalMs: number,
  ) {
    this.existed = exists(file);
    this.arm();
    this.updateLink();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.closeWatcher();
    this.fallback?.dispose();
    this.fallback = undefined;
    this.link?.watch.dispose();
    this.link = undefined;
  }

  private get watchingParent(): boolean {
    return this.dir === path.dirname(this.file);
  }

  /** Watches the nearest existing ancestor of the file; retries while folders appear underneath. */
  private arm(): void {
    for (let attempt = 0; attempt < 64 && !this.disposed; attempt++) {
      this.closeWatcher();
      const { dir, next } = nearestExistingAncestor(this.file);
      this.dir = dir;
      this.next = next;
      this.dirId = identity(dir);
      try {
        const watcher = fs.watch(dir, { persistent: true }, (eventType, filename) => this.onEvent(eventType, filename));
        watcher.on('error', () => this.onWatcherError());
        this.watcher = watcher;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') continue; // removed meanwhile: look again
        this.startPolling();
        return;
      }
      // The next folder may have been created between the lookup and the watch: then go down.
      if (this.watchingParent || identity(path.join(dir, next)) === undefined) return;
    }
    if (!this.watcher && !this.disposed) this.startPolling();
  }

  private onEvent(eventType: string, filename: string | Buffer | null): void {
    if (this.disposed) return;
    const name = filename == null ? undefined : filename.toString();
    // A rename may be the watched directory itself going away (Linux reports its own name).
    if (eventType === 'rename' && identity(this.dir) !== this.dirId) {
      this.rearm();
      return;
    }
    if (name !== undefined && !sameName(name, this.next)) return;
    if (this.watchingParent) {
      this.existed = exists(this.file);
      this.updateLink();
      this.onChange();
    } else {
      // Some platforms send no name: then re-check, which costs a few stats.
      this.rearm();
    }
  }

  private onWatcherError(): void {
    // Windows reports EPERM when the watched directory is deleted; elsewhere the watch is lost.
    if (!this.disposed) this.rearm();
  }

  /** Moves the watch after the folder chain changed, and reports the file if it may have changed meanwhile. */
  private rearm(): void {
    this.arm();
    const now = exists(this.file);
    const changed = now || this.existed;
    this.existed = now;
    this.updateLink();
    if (changed && !this.disposed) this.onChange();
  }

  private updateLink(): void {
    if (this.disposed) return;
    const target = linkTarget(this.file);
    if (target === this.link?.target) return;
    this.link?.watch.dispose();
    this.link = target === undefined
      ? undefined
      : { target, watch: new DirectoryWatch(target, () => { if (!this.disposed) this.onChange(); }, this.pollIntervalMs) };
  }

  private startPolling(): void {
    this.closeWatcher();
    this.fallback ??= new PollingWatch(this.file, this.onChange, this.pollIntervalMs);
  }

  private closeWatcher(): void {
    const watcher = this.watcher;
    this.watcher = undefined;
    if (!watcher) return;
    watcher.removeAllListeners();
    watcher.on('error', () => undefined); // a late error after close must not crash the process
    watcher.close();
  }
}

/** The deepest existing directory on the way to `file`, and the name of its child towards `file`. */
function nearestExistingAncestor(file: string): { dir: string; next: string } {
  let next = path.basename(file);
  let dir = path.dirname(file);
  for (;;) {
    if (identity(dir) !== undefined) return { dir, next };
    const parent = path.dirname(dir);
    if (parent === dir) return { dir, next }; // a missing drive root: the watch fails and falls back to polling
    next = path.basename(dir);
    dir = parent;
  }
}

/** Polls the file's stat; sees creation and deletion even in folders that do not exist yet. */
class PollingWatch implements Disposable {
  private readonly listener = (current: fs.Stats, previous: fs.Stats) => {
    if (current.mtimeMs !== previous.mtimeMs || current.size !== previous.size
      || current.ino !== previous.ino || current.nlink !== previous.nlink || current.ctimeMs !== previous.ctimeMs) {
      this.onChange();
    }
  };

  constructor(private readonly file: string, private readonly onChange: () => void, interval: number) {
    fs.watchFile(file, { interval, persistent: true }, this.listener);
  }

  dispose(): void {
    fs.unwatchFile(this.file, this.listener);
  }
}
