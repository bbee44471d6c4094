// Everything a launch reads from a workspace besides the configuration itself — env files and package
// runner configuration — read with the layer that names it, recorded in the launch definition, and
// listed so the config service watches it. A server of another scope that reads such files gets
// `repositoryFolder`: it needs trust for them like a project server.
import { envFilePath, readsEnvFile, withEnvFileVars, type EnvFileSupport } from './envFiles';
import { folderHolding, launchCwd, readRunnerConfig, runnerConfigCandidates } from './runnerConfig';
import type { Layer, ServerEntry } from './types';

/** The layer with its servers' env files and package runner configuration read. Never throws. */
export async function withWorkspaceReads(layer: Layer, support: EnvFileSupport): Promise<Layer> {
  return withRunnerConfig(await withEnvFileVars(layer, support), support);
}

/**
 * The layer with `runnerConfig` (and `runnerConfigRoot`) set on every stdio server that starts a
 * package runner in a workspace folder. Never throws: a file that cannot be read is recorded as such.
 */
export async function withRunnerConfig(layer: Layer, support: Pick<EnvFileSupport, 'read' | 'digest' | 'workspaceFolders'>): Promise<Layer> {
  const folders = support.workspaceFolders ?? [];
  if (folders.length === 0) return layer;
  const home = layer.spec.vars.userHome;
  const servers = await Promise.all(layer.servers.map(async (server): Promise<ServerEntry> => {
    const where = runnerPlace(server, home, folders);
    if (where === undefined) return server;
    const files = await readRunnerConfig(runnerConfigCandidates(server.launch, where.cwd, where.root, home), support);
    const next: ServerEntry = { ...server, runnerConfigRoot: where.root };
    if (files.length > 0) {
      next.launch = { ...server.launch, runnerConfig: files };
      if (server.scope !== 'project') next.repositoryFolder = server.repositoryFolder ?? where.root;
    }
    return next;
  }));
  return { ...layer, servers };
}

/** Where a server's package runner looks for configuration: its cwd and the workspace folder holding it, if it starts one there. */
function runnerPlace(server: ServerEntry, home: string, folders: readonly string[]): { cwd: string; root: string } | undefined {
  const cwd = launchCwd(server, home);
  const root = cwd === undefined ? undefined : folderHolding(cwd, folders);
  if (cwd === undefined || root === undefined) return undefined;
  return runnerConfigCandidates(server.launch, cwd, root, home).length > 0 ? { cwd, root } : undefined;
}

/** Every file outside the configuration whose change changes this server's launch: to be watched. */
export function workspaceReadFiles(server: ServerEntry, home: string, folders: readonly string[]): string[] {
  const files: string[] = [];
  const envFile = readsEnvFile(server, home, folders) ? envFilePath(server, home) : undefined;
  if (envFile !== undefined) files.push(envFile);
  const cwd = launchCwd(server, home);
  if (server.runnerConfigRoot !== undefined && cwd !== undefined) {
    for (const { file } of runnerConfigCandidates(server.launch, cwd, server.runnerConfigRoot, home)) if (!files.includes(file)) files.push(file);
  }
  return files;
}
