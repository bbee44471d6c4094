// The little of the file system a preview reads. Never writes: predicting a call must not change what
// it predicts. The Node implementation is src/node/previewFileSystem.ts; unit tests use a fake.

/** What is at a path itself (a final symbolic link is not followed). */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

/** A failed file-system operation: the errno code (`ENOENT`, `ENOTDIR`, `ELOOP`…) and the platform's message. */
export class FileSystemError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'FileSystemError';
  }
}

/** The read-only file-system port of previews; every method rejects with a FileSystemError. */
export interface PreviewFileSystem {
  /** The path with every symbolic link resolved (the path must exist). */
  realpath(path: string): Promise<string>;
  /** The names of a folder's entries. */
  readDirectory(path: string): Promise<string[]>;
  /** What is at `path` (not following a final link), or undefined when nothing is. */
  entryKind(path: string): Promise<EntryKind | undefined>;
  /** A file's bytes decoded as UTF-8 the way Node's `readFile(path, 'utf-8')` does (invalid bytes become U+FFFD, a BOM stays). */
  readText(path: string): Promise<string>;
  /** A file's bytes as they are (lets a preview show bytes the server would replace when it re-encodes the file). */
  readBytes?(path: string): Promise<Uint8Array>;
}

/** The errno code of a rejection from the port, or undefined for anything else. */
export function errorCode(error: unknown): string | undefined {
  return error instanceof FileSystemError ? error.code : undefined;
}

/** The message of a rejection, for an `error` the card shows. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
