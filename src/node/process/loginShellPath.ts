// An editor started from the Dock, a desktop launcher or a file manager inherits a bare PATH
// (/usr/bin:/bin:…): the folders of nvm, asdf, pyenv or Homebrew are added by shell startup files,
// which never ran. Then `npx` or `uvx` are "not found" although they work in every terminal.
// So, when the editor looks GUI-started, we ask the user's login shell for its PATH, once.
import { spawn } from 'node:child_process';

/** Marks where PATH starts and ends in the shell's output: startup files may print banners around it. */
const START = '__SWITCHBOARD_PATH_START__';
const END = '__SWITCHBOARD_PATH_END__';
const MAX_OUTPUT_BYTES = 1024 * 1024;
export const DEFAULT_LOGIN_SHELL_TIMEOUT_MS = 3000;

export interface LoginShellPathOptions {
  /** The shell to ask, e.g. /bin/zsh. */
  shell: string;
  /** The environment the shell starts with. */
  env: NodeJS.ProcessEnv;
  /** Default 3000 ms; a shell that takes longer is killed and ignored. */
  timeoutMs?: number;
  debug?: (message: string) => void;
}

/**
 * Heuristic: on macOS and Linux a process started from a terminal has TERM or SHLVL; one started
 * from a GUI has neither. (VS Code resolves the shell environment itself in most GUI launches, which
 * adds SHLVL, and then this says no, correctly.) Never on Windows, where PATH comes from the registry.
 */
export function looksGuiStarted(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'win32') return false;
  return !env.TERM && !env.SHLVL;
}

/** The shell to ask: $SHELL, else /bin/zsh on macOS and /bin/sh elsewhere. */
export function defaultShell(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  return env.SHELL || (platform === 'darwin' ? '/bin/zsh' : '/bin/sh');
}

/** The PATH printed between the markers, or undefined when the output has none. */
export function extractLoginShellPath(output: string): string | undefined {
  const start = output.lastIndexOf(START);
  if (start === -1) return undefined;
  const end = output.indexOf(END, start + START.length);
  if (end === -1) return undefined;
  const value = output.slice(start + START.length, end);
  return value.trim() === '' || /[\r\n\0]/.test(value) ? undefined : value;
}

/**
 * Runs `<shell> -ilc 'printf …PATH…'` and returns the login shell's PATH. Never throws and never takes
 * longer than the timeout: on any failure it returns undefined (and says why through `debug`).
 */
export function resolveLoginShellPath(options: LoginShellPathOptions): Promise<string | undefined> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOGIN_SHELL_TIMEOUT_MS;
  const debug = options.debug ?? (() => {});
  // printf with one %s and three arguments prints them back to back; this works in sh, bash, zsh and fish.
  const script = `printf '%s' '${START}' "$PATH" '${END}'`;
  return new Promise((resolve) => {
    let output = '';
    let settled = false;
    const settle = (path: string | undefined, why?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (why) debug(`login shell PATH not used: ${why}`);
      resolve(path);
    };
    let child: ReturnType<typeof spawn>;
    try {
      // Its own process group, so a startup file that starts something is stopped with it on timeout.
      child = spawn(options.shell, ['-ilc', script], { env: options.env, stdio: ['ignore', 'pipe', 'ignore'], detached: true, windowsHide: true });
    } catch (error) {
      settle(undefined, `${options.shell} could not be started: ${(error as Error).message}`);
      return;
    }
    const timer = setTimeout(() => {
      killGroup(child.pid);
      // The PATH may have been printed by a shell whose output is held open by something it started.
      const path = extractLoginShellPath(output);
      if (path !== undefined) settle(path);
      else settle(undefined, `${options.shell} -ilc did not answer within ${timeoutMs} ms`);
    }, timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (output.length < MAX_OUTPUT_BYTES) output += chunk.toString('utf8');
    });
    child.on('error', (error) => settle(undefined, `${options.shell} could not be started: ${error.message}`));
    child.on('close', (code, signal) => {
      const path = extractLoginShellPath(output);
      if (path !== undefined) settle(path);
      else settle(undefined, `${options.shell} -ilc printed no PATH (exit ${signal ?? code})`);
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
  }
}
