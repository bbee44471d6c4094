// Trust is bound to what a server will actually launch, so the hash must not change with formatting,
// comments or key order, and must change with any value that alters the launch.
import { createHash } from 'node:crypto';
import type { LaunchDefinition } from './types';

/** JSON with object keys sorted recursively and undefined fields left out, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    // JSON.stringify gives undefined for undefined/functions; inside arrays they become null, as in JSON.
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((key) => record[key] !== undefined).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

/**
 * The sha256 (hex) of a launch definition's canonical JSON; empty env/headers count as absent. The
 * envFile counts by its path and, when it was read (project scope), by the names and salted value
 * digests of what it defines: an empty file is not the same as one that could not be read. Package
 * runner configuration found in the workspace counts by path, digest and setting names.
 */
export function fingerprint(launch: LaunchDefinition): string {
  const covered = {
    type: launch.type,
    command: launch.command,
    args: launch.args,
    env: isEmpty(launch.env) ? undefined : launch.env,
    envFile: launch.envFile,
    envFileVars: launch.envFileVars,
    cwd: launch.cwd,
    url: launch.url,
    headers: isEmpty(launch.headers) ? undefined : launch.headers,
    // Which client signs in where is part of what the server is; absent for servers without `oauth`.
    oauth: launch.oauth,
    // Package runner configuration found in the workspace; absent when none, so other launches keep their hash.
    runnerConfig: launch.runnerConfig === undefined || launch.runnerConfig.length === 0 ? undefined : launch.runnerConfig,
    // The folders it is given to work on; absent (the workspace folders) keeps other launches' hash.
    roots: launch.roots,
  };
  return createHash('sha256').update(canonicalJson(covered)).digest('hex');
}

function isEmpty(record: Record<string, string> | undefined): boolean {
  return record === undefined || Object.keys(record).length === 0;
}
