// `switchboard trust NAME… --workspace DIR --trust-store FILE [--refuse | --revoke]`: records a person's
// trust decision about project servers in a trust store, the file the extension keeps in its global
// storage. Also what every server command shares about trust: the --trust-store option, the decision
// for each server and the start gate (the extension's own TrustGate) and its danger flags.
import type { EffectiveServer } from '../core/config/types';
import { redactLaunch, redactText, secretsOf } from '../core/lifecycle';
import type { GateAnswer } from '../core/lifecycle';
import {
  formatLaunchChange, launchDangerFlags, needsTrustDecision, runnerConfigSummary, trustKey, TrustGate, TrustStore,
  type DangerFlag, type DangerFlagContext, type LaunchChange, type TrustDecision, type TrustLookup,
} from '../core/trust';
import type { ShellParser } from '../core/shell/syntax';
import { loadBashParser } from '../node/bashParser';
import { dangerFlagContext } from '../node/dangerFlagContext';
import { JsonFileStore } from '../node/jsonFileStore';
import { PROGRAM, UsageError, type Command, type FlagSpec, type Io } from './command';
import { readWorkspaceConfig, WORKSPACE_FLAGS, WORKSPACE_HELP, type WorkspaceConfig } from './workspace';

export const TRUST_STORE_FLAGS: Record<string, FlagSpec> = {
  'trust-store': { kind: 'string', meta: 'FILE' },
};

/** Help text of TRUST_STORE_FLAGS. */
export const TRUST_STORE_HELP = `  --trust-store FILE
                   The trust decisions written by '${PROGRAM} trust' (the same format
                   the extension keeps in its global storage). A project server whose
                   exact definition is trusted there counts as trusted; a changed
                   definition needs trust again.`;

/** A store without a decision: without --trust-store nothing was ever trusted or refused. */
const NO_DECISIONS: TrustLookup = { get: () => undefined, lastTrusted: () => undefined, changesSince: () => undefined };

/** The trust decisions and danger flags of one workspace, as the CLI sees them. */
export class CliTrust {
  private readonly flagCache = new Map<EffectiveServer, DangerFlag[]>();
  /** The extension's start gate, with what the CLI knows: never Restricted Mode, no verified repositories. */
  private readonly trustGate: TrustGate;

  constructor(readonly store: TrustStore | undefined, private readonly context: DangerFlagContext) {
    this.trustGate = new TrustGate(store ?? NO_DECISIONS, { isRestricted: () => false, isVerified: () => false, dangerFlags: (server) => this.flags(server) });
  }

  /** The extension's decision for a server; without a trust store every server that needs trust needs it still. */
  decide(server: EffectiveServer): TrustDecision {
    return this.trustGate.decide(server);
  }

  /** The start gate's answer, as the registry asks it. */
  gate(server: EffectiveServer): GateAnswer {
    return this.trustGate.gate(server);
  }

  /** The server's danger flags (computed once per server). */
  flags(server: EffectiveServer): DangerFlag[] {
    let flags = this.flagCache.get(server);
    if (flags === undefined) {
      flags = launchDangerFlags(server, this.context);
      this.flagCache.set(server, flags);
    }
    return flags;
  }
}

/**
 * Opens --trust-store (when given) and builds the danger flag context; a store it cannot use is a
 * warning on stderr. A store inside a workspace folder is a usage error: a repository could ship its
 * own decisions and trust itself.
 */
export async function cliTrust(io: Io, config: WorkspaceConfig): Promise<CliTrust> {
  const warn = (message: string): void => io.err(`${PROGRAM}: warning: ${message}\n`);
  // readWorkspaceConfig checked that the store is outside every workspace folder.
  const store = config.trustStore === undefined ? undefined
    : await TrustStore.load(new JsonFileStore(config.trustStore, { onProblem: warn }), { onProblem: warn, digest: config.digest });
  return new CliTrust(store, cliDangerFlagContext(config, io, await loadBashParser()));
}

/** Danger flags see the --workspace folders, --home and this process's PATH (what a server would be started with). */
function cliDangerFlagContext(config: WorkspaceConfig, io: Io, shellParser: ShellParser): DangerFlagContext {
  return dangerFlagContext({ workspaceFolders: config.folders, userHome: config.home, env: io.env, shellParser });
}

/** One flag as a line for people; any secret value of the launch is masked in the detail. */
export function dangerFlagLine(server: EffectiveServer, flag: DangerFlag): string {
  const detail = flag.detail === undefined ? '' : ` (${redactText(flag.detail, secretsOf(server.launch))})`;
  return `! ${flag.id}: ${flag.reason}${detail}`;
}

// The parser takes a fixed list of positional names; this many servers in one call is plenty.
const MAX_NAMES = 64;

const TRUST_HELP = `Usage: ${PROGRAM} trust NAME [NAME ...] --workspace DIR --trust-store FILE [options]

Trusts the project servers NAME (the NAME that '${PROGRAM} config' prints) of the
workspace: their current definition (command, args, env, envFile and the variables it
defines, cwd, url, headers after variable expansion, as its fingerprint) is written to
the trust store FILE. From
then on '${PROGRAM} status' and '${PROGRAM} call' with --trust-store FILE start them
without --allow-project, until the definition changes. Prints what was trusted,
with its danger flags and what changed since a definition trusted before.

Options:
${WORKSPACE_HELP}
  --trust-store FILE
                   The trust store to write (created if missing, mode 0600). Keep it
                   outside the repository.
  --refuse         Record "don't trust" for the current definitions instead: they
                   are not asked about again until they change.
  --revoke         Forget every decision about NAME in the workspace folder.
  -h, --help       Show this help.

A NAME may also be a local or user server that reads files of the workspace: an envFile
inside a workspace folder, or package runner configuration (.npmrc, .yarnrc.yml,
bunfig.toml, uv.toml …) between its working directory and the workspace folder.

The store keeps no secret: arguments and URLs as printed (secrets masked, also what
\${VAR} and \${env:VAR} brought in), env, header and env file values only as digests
salted with a random value kept next to FILE (install-salt), package runner files as
digests and setting names. Editing a project server's envFile, or adding or editing a
package runner file it reads, needs trust again.

Exit status: 0 when the store was written; 2 for a usage error (including a NAME that
is not a project server of the workspace).
`;

export const trustCommand: Command = {
  name: 'trust',
  summary: 'Trust (or refuse, or revoke) project servers of a workspace in a trust store',
  help: TRUST_HELP,
  flags: { ...WORKSPACE_FLAGS, ...TRUST_STORE_FLAGS, refuse: { kind: 'boolean' }, revoke: { kind: 'boolean' } },
  positionals: { names: new Array<string>(MAX_NAMES).fill('NAME'), required: 1 },
  async run(args, io) {
    if (args.string('trust-store') === undefined) throw new UsageError('missing --trust-store FILE', 'trust');
    if (args.has('refuse') && args.has('revoke')) throw new UsageError('--refuse and --revoke cannot be combined', 'trust');
    const config = await readWorkspaceConfig(args, io, 'trust');
    const trust = await cliTrust(io, config);
    const store = trust.store!;
    const names = [...new Set(args.positionals)];

    if (args.has('revoke')) {
      const targets = names.map((name) => revokeTarget(name, config, store));
      for (const { folder, name } of targets) {
        await store.revoke(folder, name);
        io.out(`revoked ${name} (${folder})\n`);
      }
      return 0;
    }

    const servers = names.map((name) => projectServer(name, config));
    for (const server of servers) {
      const key = trustKey(server)!;
      const changes = store.changesSince(key.folder, key.name, server.launch);
      const already = store.get(key.folder, key.name, server.fingerprint);
      if (args.has('refuse')) await store.refuse(server);
      else await store.trust(server);
      io.out(describe(server, args.has('refuse') ? 'refused' : 'trusted', trust.flags(server), already === 'trusted' ? undefined : changes));
    }
    return 0;
  },
};

/**
 * The effective server with this NAME (its unique id) that needs trust — a project server, or one of
 * another scope that reads a workspace folder's files — or a usage error that lists the candidates.
 */
function projectServer(name: string, config: WorkspaceConfig): EffectiveServer {
  const server = config.merged.servers.find((candidate) => candidate.id === name);
  const projectNames = config.merged.servers.filter((candidate) => candidate.scope === 'project').map((candidate) => candidate.id);
  const known = `project servers: ${projectNames.length > 0 ? projectNames.join(', ') : 'none'}`;
  if (server === undefined) throw new UsageError(`unknown server '${name}' (${known})`, 'trust');
  if (!needsTrustDecision(server) || trustKey(server) === undefined) {
    throw new UsageError(`'${name}' is a ${server.scope} server (${server.source.file}): only project servers need trust (${known})`, 'trust');
  }
  return server;
}

/** A configured server that needs trust, or a name the store has decisions about in one of the --workspace folders. */
function revokeTarget(name: string, config: WorkspaceConfig, store: TrustStore): { folder: string; name: string } {
  const server = config.merged.servers.find((candidate) => candidate.id === name && needsTrustDecision(candidate));
  const key = server === undefined ? undefined : trustKey(server);
  if (key !== undefined) return key;
  const stored = store.list().filter((workspace) => config.folders.includes(workspace.folder))
    .flatMap((workspace) => workspace.servers.filter((entry) => entry.name === name).map(() => ({ folder: workspace.folder, name })));
  if (stored.length === 1) return stored[0];
  if (stored.length > 1) throw new UsageError(`'${name}' has decisions in several workspace folders; give one --workspace`, 'trust');
  throw new UsageError(`no project server and no decision named '${name}' in the workspace`, 'trust');
}

/** What was decided, the full (masked) launch, the danger flags and what changed since the definition trusted before. */
function describe(server: EffectiveServer, verb: 'trusted' | 'refused', flags: DangerFlag[], changes: LaunchChange[] | undefined): string {
  const secrets = secretsOf(server.launch);
  const lines = [`${verb} ${server.id}: ${redactLaunch(server.launch)}`];
  lines.push(`    fingerprint ${server.fingerprint}`);
  if (server.launch.cwd !== undefined) lines.push(`    cwd: ${redactText(server.launch.cwd, secrets)}`);
  if (server.launch.envFile !== undefined) lines.push(`    ${envFileLine(server)}`);
  lines.push(...runnerConfigLines(server).map((line) => `    ${line}`));
  for (const flag of flags) lines.push(`    ${dangerFlagLine(server, flag)}`);
  if (changes !== undefined && changes.length > 0) {
    lines.push('    changed since the definition trusted before:', ...changes.map((change) => `      ${redactText(formatLaunchChange(change), secrets)}`));
  }
  return `${lines.join('\n')}\n`;
}

/** The env file of a server and the names it defines (never a value). */
export function envFileLine(server: EffectiveServer): string {
  const { envFile, envFileVars } = server.launch;
  const file = redactText(envFile ?? '', secretsOf(server.launch));
  if (envFileVars === undefined) return `envFile: ${file}${server.scope === 'project' ? ' (not read: the server cannot start until it can be)' : ''}`;
  const names = Object.keys(envFileVars);
  return `envFile: ${file} (${names.length === 0 ? 'defines nothing' : `defines ${names.join(', ')}`})`;
}

/** The package runner configuration the launch reads from the workspace, one line per file (setting names, never values). */
export function runnerConfigLines(server: EffectiveServer): string[] {
  const secrets = secretsOf(server.launch);
  return (server.launch.runnerConfig ?? []).map((entry) => `package runner config: ${redactText(entry.file, secrets)} (${runnerConfigSummary(entry)})`);
}
