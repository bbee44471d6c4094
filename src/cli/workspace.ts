// The workspace options every server-related command takes (--workspace, --home, --local, --plugin),
// and reading them into the merged configuration exactly as the extension does.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { mergeLayers, parseLayer, standardLayerSpecs, withWorkspaceReads } from '../core/config';
import { MAX_CONFIG_BYTES } from '../core/config/ports';
import type { ConfigProblem, MergedConfig } from '../core/config/types';
import type { Root } from '../core/lifecycle';
import { saltedDigest, type SecretDigest } from '../core/trust/secretDigest';
import { NodeConfigFileSystem } from '../node/configFileSystem';
import { installDigest } from '../node/installSalt';
import { parseEnvFile } from '../node/process/environment';
import { UsageError, type Args, type FlagSpec, type Io } from './command';
import { cliPolicyFiles, POLICY_FLAGS, POLICY_HELP, readCliPolicy } from './policy';
import type { Policy } from '../core/policy';

export const WORKSPACE_FLAGS: Record<string, FlagSpec> = {
  workspace: { kind: 'string', repeat: true, meta: 'DIR' },
  home: { kind: 'string', meta: 'DIR' },
  local: { kind: 'string', meta: 'FILE' },
  plugin: { kind: 'string', repeat: true, meta: 'FILE' },
  ...POLICY_FLAGS,
};

/** Help text of WORKSPACE_FLAGS, shared by the commands' help. */
export const WORKSPACE_HELP = `  --workspace DIR  A workspace folder; DIR/.mcp.json is its project scope. Repeat it
                   for a multi-root workspace. At least one is required.
  --home DIR       The user's home: the user scope is DIR/.mcp.json and \${userHome}
                   expands to DIR. Default: the current user's home directory.
  --local FILE     The local (private) scope file of the first workspace.
  --plugin FILE    A file in .mcp.json shape read as plugin scope, labelled with its
                   file name. Repeatable.
${POLICY_HELP}`;

export interface WorkspaceConfig {
  merged: MergedConfig;
  /** Every file read, in precedence order. */
  files: string[];
  /** The --workspace folders, absolute, in the order given. */
  folders: string[];
  /** The user's home (--home, or the current user's). */
  home: string;
  /** The absolute --trust-store FILE, when given (never inside a workspace folder). */
  trustStore?: string;
  /**
   * The salted digest of env file values and trust records: the salt kept next to --trust-store
   * (the one the extension uses when that is its store), else a fresh one for this run only.
   */
  digest: SecretDigest;
  /** The administrator's policy (its problems are in `merged.problems`). */
  policy: Policy;
}

/** Reads and merges every scope the options name. Throws UsageError for a missing or wrong --workspace. */
export async function readWorkspaceConfig(args: Args, io: Io, command: string): Promise<WorkspaceConfig> {
  const workspaces = args.strings('workspace').map((dir) => path.resolve(io.cwd, dir));
  if (workspaces.length === 0) throw new UsageError('missing --workspace DIR', command);
  for (const dir of workspaces) {
    if (!isDirectory(dir)) throw new UsageError(`--workspace ${dir}: not a directory`, command);
  }
  const home = path.resolve(io.cwd, args.string('home') ?? os.homedir());
  const local = args.string('local');

  const specs = standardLayerSpecs({
    folders: workspaces.map((folder, index) => ({
      path: folder,
      localFile: index === 0 && local !== undefined ? path.resolve(io.cwd, local) : undefined,
    })),
    userFile: path.join(home, '.mcp.json'),
    userHome: home,
    env: io.env,
    managedFiles: cliPolicyFiles(args, io),
    plugins: args.strings('plugin').map((file) => ({ file: path.resolve(io.cwd, file), label: path.basename(file) })),
  });
  const trustStore = trustStorePath(args, io, workspaces, command);
  const warn = (message: string): void => io.err(`switchboard: warning: ${message}\n`);
  const digest = trustStore !== undefined ? await installDigest(path.dirname(trustStore), warn) : saltedDigest(randomBytes(32));
  const files = new NodeConfigFileSystem();
  const envFiles = { read: files.read.bind(files), parse: parseEnvFile, digest: digest.digest, workspaceFolders: workspaces };
  const layers = await Promise.all(specs.map(async (spec) => withWorkspaceReads(
    parseLayer(spec, spec.inline !== undefined ? { kind: 'text', text: spec.inline } : await files.read(spec.file, MAX_CONFIG_BYTES)), envFiles)));
  const policy = readCliPolicy(args, io);
  const merged = mergeLayers(layers);
  merged.problems.push(...policy.problems);
  return {
    merged, files: specs.map((spec) => spec.file), folders: workspaces, home, digest, policy: policy.policy,
    ...(trustStore !== undefined ? { trustStore } : {}),
  };
}

/**
 * The absolute --trust-store FILE, if given. One inside a workspace folder is a usage error: a
 * repository could ship its own decisions (and salt) and trust itself.
 */
function trustStorePath(args: Args, io: Io, folders: readonly string[], command: string): string | undefined {
  const given = args.string('trust-store');
  if (given === undefined) return undefined;
  const file = path.resolve(io.cwd, given);
  const folder = folders.find((dir) => isInside(file, dir));
  if (folder !== undefined) {
    throw new UsageError(`--trust-store ${file} is inside the workspace folder ${folder}: a repository could bring its own trust decisions; keep the store outside it`, command);
  }
  return file;
}

/** Whether `file` is `dir` or below it, also through symbolic links of the folders that exist. */
function isInside(file: string, dir: string): boolean {
  const within = (child: string, parent: string): boolean => {
    const relative = path.relative(parent, child);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  };
  return within(file, dir) || within(path.join(realDir(path.dirname(file)), path.basename(file)), realDir(dir));
}

/** The real path of `dir`, resolving its nearest existing ancestor (the store's folder may not exist yet). */
function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    const parent = path.dirname(dir);
    return parent === dir ? dir : path.join(realDir(parent), path.basename(dir));
  }
}

/** The --workspace folders as MCP roots (what the extension sends for the workspace folders). */
export function workspaceRoots(args: Args, io: Io): Root[] {
  return args.strings('workspace').map((dir) => {
    const folder = path.resolve(io.cwd, dir);
    return { uri: pathToFileURL(folder).href, name: path.basename(folder) };
  });
}

/** `file:line:column severity message`, the way compilers print it. */
export function problemLine(problem: ConfigProblem): string {
  return `${problem.file}:${problem.line}:${problem.column} ${problem.severity} ${problem.message}`;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
