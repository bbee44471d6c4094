// The workspace options every server-related command takes (--workspace, --home, --local, --plugin),
// and reading them into the merged configuration exactly as the extension does.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { mergeLayers, parseLayer, standardLayerSpecs } from '../core/config';
import { MAX_CONFIG_BYTES } from '../core/config/ports';
import type { ConfigProblem, MergedConfig } from '../core/config/types';
import type { Root } from '../core/lifecycle';
import { NodeConfigFileSystem } from '../node/configFileSystem';
import { UsageError, type Args, type FlagSpec, type Io } from './command';

export const WORKSPACE_FLAGS: Record<string, FlagSpec> = {
  workspace: { kind: 'string', repeat: true, meta: 'DIR' },
  home: { kind: 'string', meta: 'DIR' },
  local: { kind: 'string', meta: 'FILE' },
  plugin: { kind: 'string', repeat: true, meta: 'FILE' },
};

/** Help text of WORKSPACE_FLAGS, shared by the commands' help. */
export const WORKSPACE_HELP = `  --workspace DIR  A workspace folder; DIR/.mcp.json is its project scope. Repeat it
                   for a multi-root workspace. At least one is required.
  --home DIR       The user's home: the user scope is DIR/.mcp.json and \${userHome}
                   expands to DIR. Default: the current user's home directory.
  --local FILE     The local (private) scope file of the first workspace.
  --plugin FILE    A file in .mcp.json shape read as plugin scope, labelled with its
                   file name. Repeatable.`;

export interface WorkspaceConfig {
  merged: MergedConfig;
  /** Every file read, in precedence order. */
  files: string[];
  /** The --workspace folders, absolute, in the order given. */
  folders: string[];
  /** The user's home (--home, or the current user's). */
  home: string;
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
    plugins: args.strings('plugin').map((file) => ({ file: path.resolve(io.cwd, file), label: path.basename(file) })),
  });
  const files = new NodeConfigFileSystem();
  const layers = await Promise.all(specs.map(async (spec) =>
    parseLayer(spec, spec.inline !== undefined ? { kind: 'text', text: spec.inline } : await files.read(spec.file, MAX_CONFIG_BYTES))));
  return { merged: mergeLayers(layers), files: specs.map((spec) => spec.file), folders: workspaces, home };
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
