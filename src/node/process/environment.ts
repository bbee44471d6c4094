// The environment and working directory of a stdio server. The rules, chosen on purpose:
//
//  1. Start from the editor's own environment, so a server sees HOME, LANG, proxies… as it would in
//     a terminal.
//  2. When the editor looks GUI-started (macOS/Linux without TERM and SHLVL; or loginShell: 'always'),
//     complete PATH with the login shell's PATH, resolved once per ServerEnvironment: the login
//     shell's folders first (the user's order), then any of ours it lacks. So npx/uvx installed with
//     nvm, asdf or Homebrew are found.
//  3. Apply `envFile` (dotenv format: KEY=VALUE, quotes, # comments, `export ` prefix), then the
//     entry's `env`, which wins over envFile.
//  4. PATH is the exception: the PATH given by the entry (or by envFile when the entry has none) is
//     APPENDED to the inherited PATH, never replacing it: inherited folders first, then each given
//     folder not already present. Replacing PATH is the classic way to make `node` vanish. To prefer
//     another version of a tool, use its full path as `command`.
//  5. cwd: the entry's `cwd` (a relative one is taken from the workspace folder), else the workspace
//     folder, else the user's home. A relative `envFile` is taken from the same folder.
//  6. A project server's envFile must define exactly what it defined when the configuration was read
//     (names and salted value digests, `launch.envFileVars`), because that is what the person trusted:
//     an edited file is refused here until the reloaded configuration has been trusted again. The same
//     holds for a server of another scope whose env file lies in a workspace folder (`repositoryFolder`).
//  7. A server that starts a package runner (npx, pnpm, yarn, bunx, uvx …) in a workspace folder
//     (`runnerConfigRoot`) starts only while the runner's configuration files between its cwd and that
//     folder are exactly those recorded with its definition (`launch.runnerConfig`): a `.npmrc` added
//     later is refused here — also for an automatic restart — until the new definition is trusted.
//
// On Windows variable names are case-insensitive: `Path` and `PATH` are one variable.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as util from 'node:util';
import { readRunnerConfig, runnerConfigCandidates } from '../../core/config/runnerConfig';
import type { LaunchDefinition, ServerEntry } from '../../core/config/types';
import { isWithin } from '../../core/trust/workspacePaths';
import { NodeConfigFileSystem } from '../configFileSystem';
import { defaultShell, looksGuiStarted, resolveLoginShellPath } from './loginShellPath';

export type LoginShellMode = 'auto' | 'always' | 'never';

export interface ServerEnvironmentOptions {
  /** The environment servers inherit; default process.env. */
  baseEnv?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Default os.homedir(). */
  homeDir?: string;
  /** When to ask the login shell for PATH; default 'auto' (only when the editor looks GUI-started). */
  loginShell?: LoginShellMode;
  /** Asks the login shell for its PATH; default resolveLoginShellPath with $SHELL. Replaced in tests. */
  loginShellPath?: () => Promise<string | undefined>;
  /** Default 3000 ms. */
  loginShellTimeoutMs?: number;
  /** Diagnostics nobody needs to see unless something is wrong (e.g. why the login shell PATH was not used). */
  debug?: (message: string) => void;
  /**
   * The salted digest the configuration used for env file values (rule 6). Without it, a project
   * server's env file cannot be checked, and such a server does not start.
   */
  envFileDigest?: (value: string) => string;
}

/** The parts of a server entry that decide its environment and working directory. */
export type StdioLaunchSettings = Pick<ServerEntry, 'folder'> & Partial<Pick<ServerEntry, 'scope' | 'runnerConfigRoot' | 'repositoryFolder'>> & {
  launch: Pick<LaunchDefinition, 'env' | 'cwd' | 'envFile' | 'envFileVars'> & Partial<Pick<LaunchDefinition, 'type' | 'command' | 'args' | 'runnerConfig'>>;
};

export interface ResolvedStdioLaunch {
  env: Record<string, string>;
  cwd: string;
  /** What the env file defined (secrets to scrub from everything the server prints). */
  fromEnvFile: Record<string, string>;
}

/**
 * Builds the environment and cwd of stdio servers. Keep one per extension (or CLI run): it asks the
 * login shell at most once and remembers the answer.
 */
export class ServerEnvironment {
  private readonly platform: NodeJS.Platform;
  private readonly baseEnv: NodeJS.ProcessEnv;
  private loginPath: Promise<string | undefined> | undefined;

  constructor(private readonly options: ServerEnvironmentOptions = {}) {
    this.platform = options.platform ?? process.platform;
    this.baseEnv = options.baseEnv ?? process.env;
  }

  /** Environment and cwd for one server. Rejects with a user-facing Error when its envFile cannot be read. */
  async resolve(server: StdioLaunchSettings): Promise<ResolvedStdioLaunch> {
    const home = this.options.homeDir ?? os.homedir();
    const base = server.folder ?? home;
    const cwd = server.launch.cwd ? path.resolve(base, server.launch.cwd) : base;
    const envFile = server.launch.envFile ? path.resolve(base, server.launch.envFile) : undefined;
    const fromFile = envFile !== undefined ? await readEnvFile(envFile) : {};
    const repositoryEnvFile = envFile !== undefined && server.repositoryFolder !== undefined && isWithin(server.repositoryFolder, envFile);
    if (envFile !== undefined && (server.scope === 'project' || server.launch.envFileVars !== undefined || repositoryEnvFile)) {
      checkEnvFile(envFile, fromFile, server.launch.envFileVars, this.options.envFileDigest);
    }
    if (server.runnerConfigRoot !== undefined) await checkRunnerConfig(server, cwd, server.runnerConfigRoot, this.options.envFileDigest, home);
    const env = buildEnvironment({
      base: this.baseEnv,
      loginShellPath: await this.loginShellPath(),
      envFile: fromFile,
      env: server.launch.env,
      platform: this.platform,
    });
    return { env, cwd, fromEnvFile: fromFile };
  }

  /** The login shell's PATH when it should be used (asked once, then cached); otherwise undefined. */
  loginShellPath(): Promise<string | undefined> {
    const mode = this.options.loginShell ?? 'auto';
    const wanted = mode === 'always' || (mode === 'auto' && looksGuiStarted(this.baseEnv, this.platform));
    if (!wanted || this.platform === 'win32') return Promise.resolve(undefined);
    this.loginPath ??= (this.options.loginShellPath ?? (() => resolveLoginShellPath({
      shell: defaultShell(this.baseEnv, this.platform),
      env: this.baseEnv,
      timeoutMs: this.options.loginShellTimeoutMs,
      debug: this.options.debug,
    })))().catch((error: unknown) => {
      this.options.debug?.(`login shell PATH not used: ${(error as Error).message}`);
      return undefined;
    });
    return this.loginPath;
  }
}

/** Rule 6: throws a user-facing Error unless the file defines exactly the checked names and values. */
export function checkEnvFile(file: string, vars: Record<string, string>, checked: Record<string, string> | undefined, digest: ((value: string) => string) | undefined): void {
  if (checked === undefined) {
    throw new Error(`envFile ${file} was not readable when the configuration was read, so its variables were never checked: `
      + 'reload the configuration once it is readable; the server starts after you trust it');
  }
  if (digest === undefined) throw new Error(`envFile ${file} cannot be checked against what was trusted (no digest configured)`);
  const names = [...new Set([...Object.keys(vars), ...Object.keys(checked)])].sort();
  const changed = names.filter((name) => !Object.hasOwn(vars, name) || !Object.hasOwn(checked, name) || digest(vars[name]) !== checked[name]);
  if (changed.length > 0) {
    throw new Error(`envFile ${file} changed since its variables were checked (${changed.join(', ')}): `
      + 'the server starts with it only after you trust the new definition');
  }
}

/**
 * Rule 7: throws a user-facing Error unless the package runner configuration between `cwd` and `root`
 * is exactly what the configuration recorded (the same files, the same digests): a `.npmrc` added or
 * edited since is repository content nobody trusted yet.
 */
export async function checkRunnerConfig(server: StdioLaunchSettings, cwd: string, root: string, digest: ((value: string) => string) | undefined, userHome?: string): Promise<void> {
  const launch = { type: server.launch.type ?? 'stdio', command: server.launch.command, args: server.launch.args ?? [] };
  const candidates = runnerConfigCandidates(launch, cwd, root, userHome);
  if (candidates.length === 0) return;
  if (digest === undefined) throw new Error(`the package runner configuration under ${root} cannot be checked against what was trusted (no digest configured)`);
  const files = new NodeConfigFileSystem();
  const now = await readRunnerConfig(candidates, { read: (file, maxBytes) => files.read(file, maxBytes), digest });
  const recorded = server.launch.runnerConfig ?? [];
  const changed = [...new Set([...now, ...recorded].map((entry) => entry.file))].filter((file) =>
    now.find((entry) => entry.file === file)?.digest !== recorded.find((entry) => entry.file === file)?.digest);
  if (changed.length > 0) {
    throw new Error(`package runner configuration changed since the server's definition was read (${changed.join(', ')}): `
      + 'the server starts with it only after you trust the new definition');
  }
}

export interface EnvironmentParts {
  base: NodeJS.ProcessEnv;
  /** The login shell's PATH, when it is to be merged in. */
  loginShellPath?: string;
  envFile?: Record<string, string>;
  env?: Record<string, string>;
  platform?: NodeJS.Platform;
}

/** Applies rules 1–4 above. Pure. */
export function buildEnvironment(parts: EnvironmentParts): Record<string, string> {
  const platform = parts.platform ?? process.platform;
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(parts.base)) if (value !== undefined) setVariable(result, key, value, platform);

  const pathKey = findKey(result, 'PATH', platform) ?? 'PATH';
  if (parts.loginShellPath) setVariable(result, pathKey, mergePath(parts.loginShellPath, result[pathKey], platform), platform);
  const inheritedPath = getVariable(result, 'PATH', platform);

  let givenPath: string | undefined;
  for (const layer of [parts.envFile ?? {}, parts.env ?? {}]) {
    for (const [key, value] of Object.entries(layer)) {
      if (key.toUpperCase() === 'PATH' && (platform === 'win32' || key === 'PATH')) givenPath = value;
      else setVariable(result, key, value, platform);
    }
  }
  if (givenPath !== undefined) {
    const key = findKey(result, 'PATH', platform) ?? 'PATH';
    setVariable(result, key, mergePath(inheritedPath, givenPath, platform), platform);
  }
  return result;
}

/** `first`'s folders, then `second`'s folders not already present (empty entries dropped). */
export function mergePath(first: string | undefined, second: string | undefined, platform: NodeJS.Platform = process.platform): string {
  const delimiter = platform === 'win32' ? ';' : ':';
  const normalize = (dir: string) => (platform === 'win32' ? dir.toLowerCase().replace(/[\\/]+$/, '') : dir.replace(/\/+$/, '') || '/');
  const seen = new Set<string>();
  const dirs: string[] = [];
  for (const dir of [...(first ?? '').split(delimiter), ...(second ?? '').split(delimiter)]) {
    if (dir === '' || seen.has(normalize(dir))) continue;
    seen.add(normalize(dir));
    dirs.push(dir);
  }
  return dirs.join(delimiter);
}

/** Parses dotenv text with Node's own parser (util.parseEnv, Node 20.12+): KEY=VALUE, quotes, comments, `export `. */
export function parseEnvFile(text: string): Record<string, string> {
  const parseEnv = (util as { parseEnv?: (content: string) => NodeJS.Dict<string> }).parseEnv;
  if (typeof parseEnv !== 'function') throw new Error(`envFile needs Node.js 20.12 or later (this is ${process.version})`);
  const parsed = parseEnv(text.replace(/^\uFEFF/, ''));
  const result: Record<string, string> = {};
  for (const [rawKey, value] of Object.entries(parsed)) {
    // Node 20 keeps the whitespace of `export  KEY=` / `export\tKEY=` in the key.
    const key = rawKey.trim().replace(/^export\s+/, '');
    if (value !== undefined && key !== '') result[key] = value;
  }
  return result;
}

/** Reads and parses an env file; rejects with a user-facing Error. */
export async function readEnvFile(file: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`envFile not found: ${file} (create it, or remove "envFile" from the server's entry)`);
    if (code === 'EISDIR') throw new Error(`envFile is a folder, not a file: ${file}`);
    throw new Error(`cannot read envFile ${file}: ${(error as Error).message}`);
  }
  return parseEnvFile(text);
}

function findKey(env: Record<string, string>, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return Object.hasOwn(env, name) ? name : undefined;
  return Object.keys(env).find((key) => key.toUpperCase() === name.toUpperCase());
}

function getVariable(env: Record<string, string>, name: string, platform: NodeJS.Platform): string | undefined {
  const key = findKey(env, name, platform);
  return key === undefined ? undefined : env[key];
}

/** Sets a variable; on Windows it replaces any differently-cased spelling (keeping the existing one). */
function setVariable(env: Record<string, string>, key: string, value: string, platform: NodeJS.Platform): void {
  env[findKey(env, key, platform) ?? key] = value;
}
