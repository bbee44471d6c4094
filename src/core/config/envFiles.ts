// A project server's env file is part of what it launches: `NODE_OPTIONS=--require …` in a file the
// repository ships is code execution. So when the configuration is read, the env file of every
// project server is read too and its variables are recorded in the launch definition (names, and a
// salted digest of each value: never a value), where the fingerprint, the danger flags and the trust
// prompt see them. The launch later refuses a file whose variables differ from what was recorded.
// The same holds for a local or user server whose env file lies inside a workspace folder: the file is
// the repository's, so the server needs trust for it like a project server.
import { resolvePath } from '../trust/workspacePaths';
import { folderHolding } from './runnerConfig';
import type { ConfigProblem, ConfigRead, Layer, ServerEntry } from './types';
import { problemAt } from './positions';

/** Env files larger than this are reported instead of read: a real one is a few KiB. */
export const MAX_ENV_FILE_BYTES = 256 * 1024;

/** What reading env files needs from the host. */
export interface EnvFileSupport {
  /**
   * The workspace folders (absolute): an env file inside one is repository content, read and checked
   * whatever the scope of the server that names it. Default: none.
   */
  workspaceFolders?: readonly string[];
  /** Reads a file as text (the config file system's read). */
  read(file: string, maxBytes: number): Promise<ConfigRead>;
  /** Parses dotenv text (KEY=VALUE, quotes, comments, `export `); throws on what it cannot read. */
  parse(text: string): Record<string, string>;
  /** The salted digest of one value. */
  digest(value: string): string;
}

/** The absolute path of a server's env file, or undefined when it cannot be known before launch (an unresolved `${input:…}`). */
export function envFilePath(server: Pick<ServerEntry, 'folder' | 'launch'>, userHome: string): string | undefined {
  const file = server.launch.envFile;
  if (file === undefined || /\$\{input:/.test(file)) return undefined;
  return resolvePath(server.folder ?? userHome, file);
}

/**
 * Which servers' env files are read: every project server's, and any other server's whose env file
 * lies inside a workspace folder (a repository wrote it, whoever named it).
 */
export function readsEnvFile(server: Pick<ServerEntry, 'scope' | 'launch' | 'folder'>, userHome = '', workspaceFolders: readonly string[] = []): boolean {
  if (server.launch.type !== 'stdio' || server.launch.envFile === undefined) return false;
  return server.scope === 'project' || envFileFolder(server, userHome, workspaceFolders) !== undefined;
}

/** The workspace folder that holds the server's env file, if any. */
export function envFileFolder(server: Pick<ServerEntry, 'folder' | 'launch'>, userHome: string, workspaceFolders: readonly string[]): string | undefined {
  const file = envFilePath(server, userHome);
  return file === undefined ? undefined : folderHolding(file, workspaceFolders);
}

/**
 * The layer with `envFileVars` set on every project server whose env file could be read, and a
 * warning for each one that could not (the server then cannot start until it can). Never throws.
 */
export async function withEnvFileVars(layer: Layer, support: EnvFileSupport): Promise<Layer> {
  const home = layer.spec.vars.userHome;
  const folders = support.workspaceFolders ?? [];
  const reads = (server: ServerEntry): boolean => readsEnvFile(server, home, folders);
  if (!layer.servers.some(reads)) return layer;
  const problems: ConfigProblem[] = [];
  const servers = await Promise.all(layer.servers.map(async (original): Promise<ServerEntry> => {
    if (!reads(original)) return original;
    // A server the person wrote that reads a repository's env file needs trust for it (and gets it checked).
    const repository = original.scope === 'project' ? undefined : envFileFolder(original, home, folders);
    const server = repository === undefined ? original : { ...original, repositoryFolder: original.repositoryFolder ?? repository };
    const file = envFilePath(server, home);
    const outcome = file === undefined
      ? { problem: `its path uses \${input:…}, which is only known at launch, so its variables cannot be checked before you trust the server; write a plain path` }
      : await readVars(file, support);
    if ('problem' in outcome) {
      problems.push(problemAt(server.source, 'warning', 'env-file-unreadable',
        `The envFile of ${server.scope} server "${server.name}" was not read: ${outcome.problem}. The server cannot start until it can be read and trusted.`));
      return server;
    }
    return { ...server, launch: { ...server.launch, envFileVars: outcome.vars } };
  }));
  return { ...layer, servers, problems: [...layer.problems, ...problems] };
}

async function readVars(file: string, support: EnvFileSupport): Promise<{ vars: Record<string, string> } | { problem: string }> {
  let read: ConfigRead;
  try {
    read = await support.read(file, MAX_ENV_FILE_BYTES);
  } catch (error) {
    read = { kind: 'unreadable', message: error instanceof Error ? error.message : String(error) };
  }
  switch (read.kind) {
    case 'missing': return { problem: `${file} does not exist` };
    case 'directory': return { problem: `${file} is a folder, not a file` };
    case 'tooLarge': return { problem: `${file} is larger than ${MAX_ENV_FILE_BYTES} bytes` };
    case 'unreadable': return { problem: `cannot read ${file} (${read.message})` };
    case 'text': break;
  }
  try {
    const parsed = support.parse(read.text);
    // Object.fromEntries defines own properties, so a variable named "__proto__" is kept as a name.
    return { vars: Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, support.digest(value)])) };
  } catch (error) {
    return { problem: `cannot parse ${file} (${error instanceof Error ? error.message : String(error)})` };
  }
}
