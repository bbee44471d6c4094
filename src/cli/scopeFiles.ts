// The scope files the writing commands (import --write, add, add-json, remove) change: which file a
// scope is for this invocation, reading it, checking that the new text still reads as a configuration,
// and replacing it atomically.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scopeTextErrors } from '../core/config/scopeWriter';
import { writeFileAtomic } from '../node/atomicWrite';
import type { Scope } from '../core/config/types';
import { PROGRAM, UsageError, type Args, type FlagSpec, type Io } from './command';

/** The scopes a person writes (plugin servers come from extensions, managed ones from the administrator's policy). */
export type WritableScope = Exclude<Scope, 'plugin' | 'managed'>;
export const WRITABLE_SCOPES: readonly WritableScope[] = ['user', 'local', 'project'];

export const SCOPE_FILE_FLAGS: Record<string, FlagSpec> = {
  workspace: { kind: 'string', meta: 'DIR' },
  home: { kind: 'string', meta: 'DIR' },
  local: { kind: 'string', meta: 'FILE' },
};

/** Help text of SCOPE_FILE_FLAGS. */
export const SCOPE_FILE_HELP = `  --workspace DIR  The workspace folder: the project scope is DIR/.mcp.json.
  --home DIR       The user's home: the user scope is DIR/.mcp.json. Default: the
                   current user's home directory (the extension's setting
                   switchboard.userConfigPath is not read).
  --local FILE     The local (private) scope file of the workspace folder (the
                   extension keeps it in its storage: MCP Switchboard: Open Local
                   Servers shows where).`;

/** The scope named by `--flag`, or `fallback`; anything else is a usage error. */
export function scopeFlag(args: Args, flag: string, command: string, fallback?: WritableScope): WritableScope | undefined {
  const value = args.string(flag) ?? fallback;
  if (value === undefined) return undefined;
  if (!(WRITABLE_SCOPES as readonly string[]).includes(value)) throw new UsageError(`--${flag} ${value}: expected user, local or project`, command);
  return value as WritableScope;
}

/** The absolute file of a scope for this invocation. */
export function scopeFile(scope: WritableScope, args: Args, io: Io, command: string): string {
  switch (scope) {
    case 'user': return path.join(path.resolve(io.cwd, args.string('home') ?? os.homedir()), '.mcp.json');
    case 'project': {
      const workspace = args.string('workspace');
      if (workspace === undefined) throw new UsageError('the project scope needs --workspace DIR', command);
      const dir = path.resolve(io.cwd, workspace);
      if (!isDirectory(dir)) throw new UsageError(`--workspace ${dir}: not a directory`, command);
      return path.join(dir, '.mcp.json');
    }
    case 'local': {
      const local = args.string('local');
      if (local === undefined) throw new UsageError('the local scope needs --local FILE (the local servers file of the workspace folder)', command);
      return path.resolve(io.cwd, local);
    }
  }
}

/** The text of a scope file, undefined when it does not exist. */
export function readScopeText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file}: ${(error as Error).message}`);
  }
}

/** A scope file that could not be written, said for a person (exit 1, no stack). */
export class ScopeWriteError extends Error {}

/**
 * Writes `text` to `file` atomically after checking that it still reads as a configuration whose
 * servers `names` have no error.
 */
export async function writeScopeText(file: string, text: string, scope: WritableScope, names: readonly string[]): Promise<void> {
  const errors = scopeTextErrors(file, text, scope, path.dirname(file));
  if (errors.length > 0) {
    throw new ScopeWriteError(`${file}: with ${names.join(', ')} the file would not read as a configuration (${errors.join('; ')}); nothing was written`);
  }
  await writeFileAtomic(file, text);
}

/** What to tell a person who just wrote project servers. */
export function projectTrustNote(names: readonly string[], file: string): string {
  return `Project servers need trust before they start: the extension asks when it next reads ${file};\n` +
    `from the command line, '${PROGRAM} trust ${names.join(' ')} --workspace ${path.dirname(file)} --trust-store FILE'.\n`;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
