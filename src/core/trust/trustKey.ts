// Which servers a trust decision is about, and where the store keeps it: every project server, and a
// server the person wrote whose launch reads a workspace folder's files (see config/workspaceReads.ts).
import type { EffectiveServer } from '../config/types';

/**
 * Whether a server's start depends on a person's trust: every project server, and a server of another
 * scope whose launch reads files of a workspace folder (an env file, package runner configuration).
 */
export function needsTrustDecision(server: Pick<EffectiveServer, 'scope' | 'repositoryFolder'>): boolean {
  return server.scope === 'project' || server.repositoryFolder !== undefined;
}

/**
 * Where the trust store keeps decisions about a server: a project server under its workspace folder;
 * a server of another scope that reads a workspace folder's files under `<scope>:<folder>` (never an
 * absolute path, so never a project server's key). Undefined when it has no folder.
 */
export function trustKey(server: Pick<EffectiveServer, 'scope' | 'folder' | 'repositoryFolder' | 'name'>): { folder: string; name: string } | undefined {
  if (server.scope === 'project') return server.folder === undefined ? undefined : { folder: server.folder, name: server.name };
  return server.repositoryFolder === undefined ? undefined : { folder: `${server.scope}:${server.repositoryFolder}`, name: server.name };
}
