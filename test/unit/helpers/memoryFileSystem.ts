// An in-memory file tree for the preview's file-system port: folders, UTF-8 files and symbolic links,
// with POSIX paths, resolved the way realpath(3) does (ENOENT, ENOTDIR, ELOOP with Node's messages).
import * as path from 'node:path';
import { FileSystemError, type EntryKind, type PreviewFileSystem } from '../../../src/core/approvals/preview';

type Entry = { kind: 'directory' } | { kind: 'file'; text: string } | { kind: 'symlink'; target: string };

const MESSAGES: Record<string, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many symbolic links encountered',
  EISDIR: 'illegal operation on a directory',
};

export class MemoryFileSystem implements PreviewFileSystem {
  private readonly entries = new Map<string, Entry>([['/', { kind: 'directory' }]]);
  /** Every path a method was asked about, to check that nothing outside is touched. */
  readonly reads: string[] = [];

  /** Adds a folder and its parents. */
  dir(target: string): this {
    const parent = path.dirname(target);
    if (parent !== target) this.dir(parent);
    if (!this.entries.has(target)) this.entries.set(target, { kind: 'directory' });
    return this;
  }

  file(target: string, text: string): this {
    this.dir(path.dirname(target));
    this.entries.set(target, { kind: 'file', text });
    return this;
  }

  link(target: string, pointsTo: string): this {
    this.dir(path.dirname(target));
    this.entries.set(target, { kind: 'symlink', target: pointsTo });
    return this;
  }

  realpath(target: string): Promise<string> {
    this.reads.push(target);
    return settle(() => this.resolve(target, 'realpath'));
  }

  readDirectory(target: string): Promise<string[]> {
    this.reads.push(target);
    return settle(() => {
      const real = this.resolve(target, 'scandir');
      if (this.entries.get(real)?.kind !== 'directory') throw fail('ENOTDIR', 'scandir', target);
      const prefix = real === '/' ? '/' : `${real}/`;
      return [...this.entries.keys()].filter((key) => key !== real && key.startsWith(prefix) && !key.slice(prefix.length).includes('/')).map((key) => key.slice(prefix.length));
    });
  }

  entryKind(target: string): Promise<EntryKind | undefined> {
    this.reads.push(target);
    return settle(() => {
      let parent: string;
      try {
        parent = this.resolve(path.dirname(target), 'lstat');
      } catch {
        return undefined;
      }
      return this.entries.get(path.join(parent, path.basename(target)))?.kind;
    });
  }

  readText(target: string): Promise<string> {
    this.reads.push(target);
    return settle(() => {
      const entry = this.entries.get(this.resolve(target, 'open'));
      if (entry?.kind === 'directory') throw new FileSystemError('EISDIR', 'EISDIR: illegal operation on a directory, read');
      if (entry?.kind !== 'file') throw fail('ENOENT', 'open', target);
      return entry.text;
    });
  }

  private resolve(target: string, syscall: string, depth = 0): string {
    if (depth > 40) throw fail('ELOOP', syscall, target);
    let current = '/';
    const parts = path.resolve(target).split('/').filter((part) => part !== '');
    for (const [index, part] of parts.entries()) {
      const here = this.entries.get(current);
      if (here?.kind !== 'directory') throw fail('ENOTDIR', syscall, target);
      const next = path.join(current, part);
      const entry = this.entries.get(next);
      if (entry === undefined) throw fail('ENOENT', syscall, target);
      if (entry.kind === 'symlink') {
        const rest = parts.slice(index + 1);
        return this.resolve(path.join(path.resolve(current, entry.target), ...rest), syscall, depth + 1);
      }
      current = next;
    }
    return current;
  }
}

function fail(code: string, syscall: string, target: string): FileSystemError {
  return new FileSystemError(code, `${code}: ${MESSAGES[code]}, ${syscall} '${target}'`);
}

function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}
