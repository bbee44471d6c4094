// What `status` and `tools` share: start a workspace's servers as the extension would (project ones
// only with --allow-project or when trusted), and how long to wait for them to settle.
import type { EffectiveServer } from '../core/config/types';
import { DEFAULT_LIFECYCLE_SETTINGS } from '../core/lifecycle';
import { evaluatePolicy, type Policy } from '../core/policy';
import type { Args, FlagSpec, Io } from './command';
import { CliHost } from './host';
import { cliTrust, TRUST_STORE_FLAGS, type CliTrust } from './trust';
import { workspaceRoots, WORKSPACE_FLAGS, type WorkspaceConfig } from './workspace';

/** The flags of a command that starts the workspace's servers. */
export const WORKSPACE_SERVERS_FLAGS: Record<string, FlagSpec> = {
  ...WORKSPACE_FLAGS,
  ...TRUST_STORE_FLAGS,
  'allow-project': { kind: 'boolean' },
  timeout: { kind: 'string', meta: 'MS' },
  json: { kind: 'boolean' },
};

/** A host over the workspace's servers: project servers start only with --allow-project or when trusted. */
export async function workspaceServersHost(args: Args, io: Io, config: WorkspaceConfig, options: { startupTimeoutMs: number; verbose: boolean }): Promise<{ host: CliHost; trust: CliTrust }> {
  const trust = await cliTrust(io, config);
  const allowProject = args.has('allow-project');
  const host = new CliHost({
    io,
    verbose: options.verbose,
    startupTimeoutMs: options.startupTimeoutMs,
    // Listing a catalog is bounded like startup: a report should not hang on one server.
    requestTimeoutMs: options.startupTimeoutMs,
    gate: (server) => (allowProject ? 'allowed' : trust.gate(server)),
    blocked: (server) => policyBlock(config.policy, server),
    roots: workspaceRoots(args, io),
    envFileDigest: config.digest.digest,
  });
  return { host, trust };
}

/** Long enough for the slowest startup timeout (a server's own `timeout` included), the staged kill of a hung server and one catalog listing. */
export function settleBudget(servers: readonly EffectiveServer[], startupTimeoutMs: number): number {
  const slowest = Math.max(startupTimeoutMs, ...servers.map((server) => server.timeout ?? 0));
  return 2 * slowest + DEFAULT_LIFECYCLE_SETTINGS.shutdownGraceMs;
}

/** Why the policy blocks a server, or undefined when it may run. */
export function policyBlock(policy: Policy, server: EffectiveServer): string | undefined {
  const verdict = evaluatePolicy(policy, server);
  return verdict.verdict === 'denied' ? verdict.reason : undefined;
}
