// The preview's read-only file-system port on Node: the same calls server-filesystem makes (promise
// realpath, readdir, lstat, readFile as UTF-8), so a failure carries the message the server would see.
import { promises as fs } from 'node:fs';
import { FileSystemError, type EntryKind, type PreviewFileSystem } from '../core/approvals/preview';

/** Node's file system, read only, for predictions. */
export const nodePreviewFileSystem: PreviewFileSystem = {
  realpath: (target) => wrap(() => fs.realpath(target)),
  readDirectory: (target) => wrap(() => fs.readdir(target)),
  readText: (target) => wrap(() => fs.readFile(target, 'utf-8')),
  readBytes: (target) => wrap(() => fs.readFile(target)),
  async entryKind(target): Promise<EntryKind | undefined> {
    try {
      const stats = await fs.lstat(target);
      if (stats.isSymbolicLink()) return 'symlink';
      if (stats.isDirectory()) return 'directory';
      return stats.isFile() ? 'file' : 'other';
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw toFileSystemError(error);
    }
  },
};

async function wrap<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toFileSystemError(error);
  }
}

function toFileSystemError(error: unknown): FileSystemError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return new FileSystemError(typeof code === 'string' ? code : 'EUNKNOWN', error instanceof Error ? error.message : String(error));
}
