// Turns "spawn npx ENOENT" into a message a user can act on: which command, which PATH was searched,
// which folder is missing, which file is not executable.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** At most this many PATH folders are listed in a message. */
const MAX_LISTED_DIRS = 25;

/** Rejects with a user-facing Error when `cwd` is not an existing folder. */
export async function checkWorkingDirectory(cwd: string): Promise<void> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(cwd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new Error(`working directory does not exist: ${cwd}`);
    throw new Error(`cannot use working directory ${cwd}: ${(error as Error).message}`);
  }
  if (!stat.isDirectory()) throw new Error(`working directory is not a folder: ${cwd}`);
}

export interface SpawnContext {
  command: string;
  env: NodeJS.ProcessEnv;
  cwd?: string;
  platform?: NodeJS.Platform;
}

/** The user-facing Error for a failed spawn. */
export function describeSpawnError(error: unknown, context: SpawnContext): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const { command } = context;
  const platform = context.platform ?? process.platform;
  const hasDir = /[\\/]/.test(command);
  const found = hasDir ? existingFile(path.resolve(context.cwd ?? process.cwd(), command)) : findOnPath(command, context.env, platform);
  switch (code) {
    case 'ENOENT': {
      // The file exists, so what is missing is the interpreter named on its #! line.
      if (found) return new Error(`cannot run ${command} (${found}): its interpreter was not found${shebangHint(found)}`);
      if (hasDir) return new Error(`command not found: ${command} (no such file${context.cwd && !path.isAbsolute(command) ? ` relative to ${context.cwd}` : ''})`);
      return new Error(`command not found: ${command} (${describePath(context.env, platform)})`);
    }
    case 'EACCES':
      return new Error(`permission denied: ${command}${found ? ` (${found} is not executable; make it executable, e.g. chmod +x)` : ''}`);
    case 'ENOTDIR':
    case 'EISDIR':
      return new Error(`cannot run ${command}: it is a folder, not a program`);
    default:
      return new Error(`cannot start ${command}: ${(error as Error | undefined)?.message ?? String(error)}`);
  }
}

/** "PATH searched: /usr/bin, /bin" (or says that PATH is empty). */
export function describePath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const dirs = pathDirs(env, platform);
  if (dirs.length === 0) return 'PATH is empty';
  const listed = dirs.slice(0, MAX_LISTED_DIRS).join(', ');
  const more = dirs.length > MAX_LISTED_DIRS ? `, … and ${dirs.length - MAX_LISTED_DIRS} more` : '';
  return `PATH searched: ${listed}${more}`;
}

/** The first file named `command` on the PATH of `env` (with PATHEXT on Windows). */
export function findOnPath(command: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  const extensions = platform === 'win32' ? ['', ...(envValue(env, 'PATHEXT', platform) ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
  for (const dir of pathDirs(env, platform)) {
    for (const ext of extensions) {
      const file = existingFile(path.join(dir, command + ext));
      if (file) return file;
    }
  }
  return undefined;
}

function pathDirs(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  const delimiter = platform === 'win32' ? ';' : ':';
  return (envValue(env, 'PATH', platform) ?? '').split(delimiter).filter((dir) => dir !== '');
}

function envValue(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

function existingFile(file: string): string | undefined {
  try {
    return fs.statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

function shebangHint(file: string): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const head = Buffer.alloc(256);
      const n = fs.readSync(fd, head, 0, head.length, 0);
      const first = head.subarray(0, n).toString('utf8').split('\n')[0];
      return first.startsWith('#!') ? ` (its first line is "${first.trim()}")` : '';
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}
