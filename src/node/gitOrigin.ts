// Reads a workspace folder's git `origin` from the files git keeps, without running git (the folder is
// not trusted yet, and its config could make git run programs). `.git` may be a folder, or a file
// `gitdir: …` (a linked worktree or a submodule); a linked worktree keeps its config in the common dir.
// Only the folder's own `.git` is read: a folder inside someone else's clone is not verified by it.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseGitConfigOrigin } from '../core/trust/gitRemote';

/** Git metadata files are small; anything larger is not one. */
const MAX_BYTES = 1024 * 1024;

/** The `url` of `[remote "origin"]` of the repository whose work tree is `folder`; undefined when there is none or it cannot be read. */
export async function readGitOrigin(folder: string): Promise<string | undefined> {
  const gitDir = await findGitDir(folder);
  if (gitDir === undefined) return undefined;
  const common = await readSmall(path.join(gitDir, 'commondir'));
  const configDir = common !== undefined && common.trim() !== '' ? path.resolve(gitDir, common.trim()) : gitDir;
  const config = await readSmall(path.join(configDir, 'config'));
  return config === undefined ? undefined : parseGitConfigOrigin(config);
}

/** The git directory of the work tree `folder`: `folder/.git`, or where its `gitdir:` file points. */
async function findGitDir(folder: string): Promise<string | undefined> {
  const dotGit = path.join(folder, '.git');
  let stat;
  try {
    stat = await fs.stat(dotGit);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return dotGit;
  if (!stat.isFile()) return undefined;
  const target = parseGitDirFile(await readSmall(dotGit) ?? '');
  return target === undefined ? undefined : path.resolve(folder, target);
}

/** The path in a `.git` file (`gitdir: ../.git/modules/x`), relative paths as written; undefined when it is not one. */
export function parseGitDirFile(text: string): string | undefined {
  const match = /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(text);
  return match ? match[1] : undefined;
}

async function readSmall(file: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile() || stat.size > MAX_BYTES) return undefined;
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
