// The files where large tool results are kept for the person (and the model) to read whole: readable
// by their owner only, since a result can carry anything a server returned (file contents, tokens,
// personal data), and removed once older than the retention period, so the storage does not keep
// every large result forever.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** The folder's mode: its owner only. */
export const FOLDER_MODE = 0o700;
/** Each file's mode: its owner may read and write it, nobody else anything. */
export const FILE_MODE = 0o600;

/** Creates `dir` (owner only) if needed, and narrows it to its owner if it was wider. */
export async function ownerOnlyFolder(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: FOLDER_MODE });
  await fs.chmod(dir, FOLDER_MODE);
}

/** Writes a new file `name` in `dir` that only its owner can read; resolves with its path. */
export async function writeOwnerOnly(dir: string, name: string, text: string): Promise<string> {
  await ownerOnlyFolder(dir);
  const file = path.join(dir, name);
  // `wx`: a new file, never one that was there (with other permissions, or a link placed there).
  await fs.writeFile(file, text, { encoding: 'utf8', mode: FILE_MODE, flag: 'wx' });
  return file;
}

/** Deletes the files of `dir` last written more than `retentionMs` before `now`; resolves with their names. */
export async function removeExpired(dir: string, retentionMs: number, now: number = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    const stat = await fs.lstat(file).catch(() => undefined);
    if (!stat?.isFile() || now - stat.mtimeMs <= retentionMs) continue;
    await fs.rm(file, { force: true });
    removed.push(name);
  }
  return removed;
}
