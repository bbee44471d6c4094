// Shared helpers for the integration suites: real temp folders, waiting for conditions, and running
// the built CLI as a child process.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The repository root (tests run from out/test/integration). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Creates temp folders and removes them all in `cleanup()`. */
export class TempDirs {
  private readonly dirs: string[] = [];

  /** A fresh, empty folder under the OS temp dir (realpath, so macOS /var vs /private/var never differs). */
  make(prefix = 'switchboard-it-'): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
    this.dirs.push(dir);
    return dir;
  }

  cleanup(): void {
    for (const dir of this.dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes a file, creating its folders. */
export function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** Writes a JSON file (2-space indented). */
export function writeJson(file: string, value: unknown): string {
  return write(file, `${JSON.stringify(value, null, 2)}\n`);
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `condition` until it holds; fails with `what` after `timeoutMs`. Returns the elapsed time. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 3000): Promise<number> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await delay(10);
  }
  return Date.now() - start;
}

export const CLI_PATH = path.join(REPO_ROOT, 'dist', 'cli.js');

/** Throws a clear message when the CLI bundle has not been built. */
export function requireBuiltCli(): void {
  if (!fs.existsSync(CLI_PATH)) {
    throw new Error(`${path.relative(REPO_ROOT, CLI_PATH)} is missing: build it first with \`node esbuild.mjs\` (npm run build).`);
  }
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI with `args`; `env` is added to this process's environment (undefined removes a variable). */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, cwd?: string): CliResult {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
  const result = spawnSync(process.execPath, [CLI_PATH, ...args], {
    encoding: 'utf8',
    env: childEnv as NodeJS.ProcessEnv,
    cwd,
    timeout: 15000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
