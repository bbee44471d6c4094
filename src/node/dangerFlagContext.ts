// What danger flags need to know about this machine: the workspace folders, the home folder and the
// PATH a server would be started with, and whether a bare command name is found on that PATH. Shared by
// the extension and the CLI, so both flag the same definitions.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ShellParser } from '../core/shell/syntax';
import type { DangerFlagContext } from '../core/trust/dangerFlags';

export interface DangerFlagContextOptions {
  workspaceFolders: string[];
  userHome: string;
  env: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  /** The bash parser (loadBashParser) command lines are read with. */
  shellParser: ShellParser;
}

/** The context for `dangerFlags`; PATH lookups are cached for the life of the context. */
export function dangerFlagContext(options: DangerFlagContextOptions): DangerFlagContext {
  const { env } = options;
  const platform = options.platform ?? process.platform;
  const pathDirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter((dir) => dir !== '');
  const found = new Map<string, boolean>();
  const extensions = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';')] : [''];
  return {
    workspaceFolders: options.workspaceFolders,
    pathDirs,
    userHome: options.userHome,
    shellParser: options.shellParser,
    isPathCommand: (command) => {
      let hit = found.get(command);
      if (hit === undefined) {
        hit = pathDirs.some((dir) => extensions.some((ext) => isFile(path.join(dir, command + ext))));
        found.set(command, hit);
      }
      return hit;
    },
    pathExists: (file) => {
      try {
        fs.statSync(file);
        return true;
      } catch {
        return false;
      }
    },
  };
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
