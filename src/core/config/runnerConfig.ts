// A package runner (npx, pnpm dlx, yarn dlx, bunx, uvx …) reads configuration from the folder it runs
// in and from that folder's parents: a `.npmrc` with `node-options=--require ./evil.js` that a
// repository adds later runs the repository's code inside a server the person trusted as `npx pkg`.
// So those files are part of the launch, like an env file: when the configuration is read, every
// candidate between the server's working directory and the workspace folder that holds it is read,
// and each one found is recorded in the launch definition (its path, a salted digest of what counts
// and the names of the settings it makes — never a value), where the fingerprint, the danger flags
// and the trust prompt see it. The candidates are watched, and the launch checks them again.
//
// Why cover and not neutralise: npm has no switch that skips the project `.npmrc` short of global mode
// (which changes which package runs), yarn and bun read theirs unconditionally, and a team's own
// registry setting is legitimate — so the files stay in effect, and a person trusts what they say.
import type { ConfigRead, LaunchDefinition, RunnerConfigFile } from './types';
import { isWithin, resolvePath } from '../trust/workspacePaths';

/** How a candidate file is read: whole, or only the part a runner acts on. */
export type RunnerFileFormat =
  /** `key=value` lines (`.npmrc`, yarn 1's `.yarnrc` also `key "value"`). */
  | 'ini'
  /** YAML, top-level keys (`.yarnrc.yml`, `pnpm-workspace.yaml`). */
  | 'yaml'
  /** TOML, `table.key` names (`bunfig.toml`, `uv.toml`, `pyproject.toml`). */
  | 'toml'
  /** dotenv, variable names (the `.env` files bun loads by itself). */
  | 'dotenv'
  /** JavaScript the runner executes (`.pnpmfile.cjs`): every byte counts, and it always runs code. */
  | 'code'
  /** One line naming an interpreter (`.python-version`). */
  | 'version'
  /** Only `package.json`'s `packageManager` field, which decides the yarn or pnpm that corepack runs. */
  | 'packageManager';

/** One file name a runner reads in its working directory and each parent. */
export interface RunnerFileKind {
  name: string;
  format: RunnerFileFormat;
}

/** A package runner: the programs that start it and the per-folder configuration it reads. */
export interface PackageRunner {
  id: string;
  programs: readonly string[];
  files: readonly RunnerFileKind[];
}

/**
 * What each runner reads from its working directory and the folders above it. Files in the home
 * folder or the runner's own install are the person's, not the repository's, and are not here.
 */
export const PACKAGE_RUNNERS: readonly PackageRunner[] = [
  // npm's project config is the `.npmrc` of the nearest folder above the working directory with a
  // package.json or node_modules (or of a workspace root above that): any of them can be it.
  { id: 'npm', programs: ['npx', 'npm', 'npx-cli', 'npm-cli'], files: [{ name: '.npmrc', format: 'ini' }] },
  // pnpm reads .npmrc and pnpm-workspace.yaml settings, runs .pnpmfile hooks; corepack picks its version.
  {
    id: 'pnpm', programs: ['pnpm', 'pnpx'], files: [
      { name: '.npmrc', format: 'ini' }, { name: 'pnpm-workspace.yaml', format: 'yaml' },
      { name: '.pnpmfile.cjs', format: 'code' }, { name: '.pnpmfile.mjs', format: 'code' },
      { name: 'package.json', format: 'packageManager' },
    ],
  },
  // yarn 2+ reads .yarnrc.yml (its yarnPath runs a file as yarn), yarn 1 .yarnrc and .npmrc.
  {
    id: 'yarn', programs: ['yarn', 'yarnpkg'], files: [
      { name: '.yarnrc.yml', format: 'yaml' }, { name: '.yarnrc', format: 'ini' }, { name: '.npmrc', format: 'ini' },
      { name: 'package.json', format: 'packageManager' },
    ],
  },
  // bun reads bunfig.toml (preload runs code), .npmrc, and loads .env files into what it runs.
  {
    id: 'bun', programs: ['bun', 'bunx'], files: [
      { name: 'bunfig.toml', format: 'toml' }, { name: '.npmrc', format: 'ini' },
      { name: '.env', format: 'dotenv' }, { name: '.env.local', format: 'dotenv' },
      { name: '.env.production', format: 'dotenv' }, { name: '.env.development', format: 'dotenv' }, { name: '.env.test', format: 'dotenv' },
    ],
  },
  // uv reads uv.toml or pyproject.toml's [tool.uv] (indexes, find-links, python), and .python-version
  // may name an interpreter by path. pyproject.toml is covered whole: its other tables are build input.
  {
    id: 'uv', programs: ['uv', 'uvx'], files: [
      { name: 'uv.toml', format: 'toml' }, { name: 'pyproject.toml', format: 'toml' }, { name: '.python-version', format: 'version' },
    ],
  },
  // pipx, and the pip it runs, read configuration only from the person's own and global folders
  // (pip.conf under the home folder, /etc, the virtualenv pipx made) and PIP_* variables.
  { id: 'pipx', programs: ['pipx'], files: [] },
];

/** Candidate files larger than this are recorded as unreadable (a real one is a few KiB). */
export const MAX_RUNNER_FILE_BYTES = 256 * 1024;

/** What reading runner configuration needs from the host. */
export interface RunnerConfigSupport {
  read(file: string, maxBytes: number): Promise<ConfigRead>;
  /** The salted digest of a file's counted text. */
  digest(value: string): string;
}

/**
 * The runners a stdio launch starts: any word of its command line (split at spaces and shell
 * punctuation, so `sh -c "npx pkg"` and `cmd /c npx pkg` count) whose file name is a runner's program.
 */
export function runnersOf(launch: Pick<LaunchDefinition, 'type' | 'command' | 'args'>): PackageRunner[] {
  if (launch.type !== 'stdio' || launch.command === undefined) return [];
  const names = new Set<string>();
  for (const text of [launch.command, ...launch.args]) {
    for (const word of text.split(/[\s;&|()<>`'"=]+/)) {
      const base = word.split(/[\\/]/).pop() ?? '';
      names.add(base.toLowerCase().replace(/\.(?:exe|cmd|bat|ps1|js|cjs|mjs)$/, ''));
    }
  }
  return PACKAGE_RUNNERS.filter((runner) => runner.programs.some((program) => names.has(program)));
}

/** The folder the launch runs in: its `cwd` (from its workspace folder, else the home folder), as the launch resolves it. */
export function launchCwd(server: { folder?: string; launch: Pick<LaunchDefinition, 'cwd'> }, userHome: string): string | undefined {
  const base = server.folder ?? userHome;
  return server.launch.cwd ? resolvePath(base, server.launch.cwd) : base;
}

/** The workspace folder holding `dir` (the innermost when folders nest), if any. */
export function folderHolding(dir: string, folders: readonly string[]): string | undefined {
  return folders.filter((folder) => isWithin(folder, dir)).sort((a, b) => b.length - a.length)[0];
}

/**
 * Every file the runners of the launch could read, from `cwd` up to and including `root`: the
 * nearest first, each file name in the runners' order. Files that do not exist are candidates too.
 * The home folder's own files (`~/.npmrc`) are the person's configuration, read by every launch
 * wherever it runs, so they are left out even when a workspace folder holds the home folder.
 */
export function runnerConfigCandidates(launch: Pick<LaunchDefinition, 'type' | 'command' | 'args'>, cwd: string, root: string, userHome?: string): { file: string; kind: RunnerFileKind }[] {
  const kinds = new Map<string, RunnerFileKind>();
  for (const runner of runnersOf(launch)) for (const kind of runner.files) if (!kinds.has(kind.name)) kinds.set(kind.name, kind);
  if (kinds.size === 0 || !isWithin(root, cwd)) return [];
  const result: { file: string; kind: RunnerFileKind }[] = [];
  for (let dir: string | undefined = cwd; dir !== undefined && isWithin(root, dir);) {
    const home = userHome !== undefined && isWithin(dir, userHome) && isWithin(userHome, dir);
    if (!home) for (const kind of kinds.values()) result.push({ file: resolvePath(dir, kind.name)!, kind });
    const parent = resolvePath(dir, '..');
    dir = parent === dir ? undefined : parent;
  }
  return result;
}

/**
 * What the candidates hold right now: one entry per file found (or unreadable), in candidate order.
 * Used both when the configuration is read and when the launch checks it.
 */
export async function readRunnerConfig(candidates: readonly { file: string; kind: RunnerFileKind }[], support: RunnerConfigSupport): Promise<RunnerConfigFile[]> {
  const found = await Promise.all(candidates.map(async ({ file, kind }) => {
    let read: ConfigRead;
    try {
      read = await support.read(file, MAX_RUNNER_FILE_BYTES);
    } catch (error) {
      read = { kind: 'unreadable', message: error instanceof Error ? error.message : String(error) };
    }
    return describeRunnerFile(file, kind, read, support.digest);
  }));
  return found.filter((entry): entry is RunnerConfigFile => entry !== undefined);
}

/** One candidate as recorded: undefined when it is absent (or, for `packageManager`, names none). */
export function describeRunnerFile(file: string, kind: RunnerFileKind, read: ConfigRead, digest: (value: string) => string): RunnerConfigFile | undefined {
  switch (read.kind) {
    case 'missing':
    case 'directory':
      return undefined;
    case 'tooLarge':
    case 'unreadable':
      // The runner may well read what we cannot: recorded, so it needs trust and a later change shows.
      return { file, digest: digest(`unreadable:${read.kind}`), settings: [], unreadable: true };
    case 'text':
      break;
  }
  const text = read.text.replace(/^\uFEFF/, '');
  if (kind.format === 'packageManager') {
    const value = packageManagerOf(text);
    return value === undefined ? undefined : { file, digest: digest(`packageManager=${value}`), settings: [`packageManager=${value}`] };
  }
  return { file, digest: digest(text), settings: settingNames(kind.format, text) };
}

/** The names of the settings a file makes, in order, each once (values never; `.python-version` keeps its request). */
export function settingNames(format: Exclude<RunnerFileFormat, 'packageManager'>, text: string): string[] {
  const names: string[] = [];
  const add = (name: string): void => { if (name !== '' && !names.includes(name)) names.push(name); };
  const lines = text.split(/\r?\n/);
  switch (format) {
    case 'ini':
      for (const line of lines) {
        const match = /^\s*([^\s#;=][^=]*?)\s*(?:=|\s)/.exec(`${line} `);
        if (match && !/^\s*[#;]/.test(line)) add(match[1].trim());
      }
      return names;
    case 'dotenv':
      for (const line of lines) {
        const match = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)\s*=/.exec(line);
        if (match) add(match[1]);
      }
      return names;
    case 'yaml':
      for (const line of lines) {
        const match = /^(?:"([^"]+)"|'([^']+)'|([^\s#:'"-][^:#]*?))\s*:(?:\s|$)/.exec(line);
        if (match) add(match[1] ?? match[2] ?? match[3]);
      }
      return names;
    case 'toml': {
      let table = '';
      for (const line of lines) {
        const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line);
        if (header) { table = header[1].replace(/\s+/g, '').replace(/"/g, ''); add(`[${table}]`); continue; }
        const key = /^\s*([A-Za-z0-9_."'-]+?)\s*=/.exec(line);
        if (key) add(table === '' ? key[1].replace(/["']/g, '') : `${table}.${key[1].replace(/["']/g, '')}`);
      }
      return names;
    }
    case 'version': {
      const request = lines.map((line) => line.trim()).find((line) => line !== '' && !line.startsWith('#'));
      return request === undefined ? [] : [request];
    }
    case 'code':
      return [];
  }
}

/** The `packageManager` field of a package.json text, or undefined when there is none (or it is not JSON). */
function packageManagerOf(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const value = (parsed as Record<string, unknown>).packageManager;
    return value === undefined ? undefined : JSON.stringify(value);
  } catch {
    // A package.json the runner cannot parse makes it fail, not pick another version.
    return undefined;
  }
}

/** The file kind of a recorded entry, by its name (the format decides how its settings are judged). */
export function runnerFileKind(file: string): RunnerFileKind | undefined {
  const name = file.split(/[\\/]/).pop() ?? '';
  for (const runner of PACKAGE_RUNNERS) for (const kind of runner.files) if (kind.name === name) return kind;
  return undefined;
}
