// `switchboard config`: the effective servers of a workspace, where each comes from, what it shadows,
// and every problem found — the same config core as the extension, no server is started.
import type { EffectiveServer, MergedConfig, ShadowedServer, SourceRange } from '../core/config/types';
import { REDACTED, redactArgs, redactCommandLine, redactText, redactUrl, secretsOf } from '../core/lifecycle';
import { evaluatePolicy, type Policy } from '../core/policy';
import { formatLaunchChange } from '../core/trust';
import { PROGRAM, type Command } from './command';
import { tableRenderer } from './table';
import { cliTrust, dangerFlagLine, envFileLine, runnerConfigLines, TRUST_STORE_FLAGS, TRUST_STORE_HELP, type CliTrust } from './trust';
import { problemLine, readWorkspaceConfig, WORKSPACE_FLAGS, WORKSPACE_HELP } from './workspace';

const CONFIG_HELP = `Usage: ${PROGRAM} config --workspace DIR [--workspace DIR ...] [options]

Reads every .mcp.json scope the extension reads, merges them and prints the effective
servers, the entries they shadow and every problem found, with file:line:column.

Options:
${WORKSPACE_HELP}
${TRUST_STORE_HELP}
  --json           Print JSON (stable format, below) instead of a table.
  -h, --help       Show this help.

Scopes, highest precedence first: local, project, user, plugin. When a name is
defined in several scopes the highest wins whole; the others are listed as shadowed.

Names: when two workspace folders define the same server name, both are kept under
a folder-qualified name "<folder name>/<server>". The NAME column and the JSON
"name" field always hold this unique name, so every listed server can be told apart;
the folder itself is in "folder".

Variables (\${VAR}, \${VAR:-default}, \${env:VAR}) expand from this process's
environment, \${workspaceFolder} to the server's workspace folder, \${userHome} to
--home. Paths in the output are absolute.

JSON: { "servers": [ { "name", "scope", "folder", "type", "command", "args", "env",
          "envFile", "envFileVariables", "cwd", "url", "headers", "fingerprint",
          "needsTrust", "policy": { "verdict", "rule", "reason" },
          "source": { "file", "line", "column" } } ],
        "shadowed": [ { "name", "scope", "source", "shadowedBy": { "scope", "file" } } ],
        "problems": [ { "file", "line", "column", "severity", "message" } ],
        "dangerFlags": { "<name>": [ "<flag id>", ... ] },
        "approvalLock": { "mode", "origin" } or null }
Every key is always present; absent values are null, empty maps {} and lists [].
Secrets are masked as *** in both forms: env and header values, what \${VAR} and
\${env:VAR} brought in from the environment (in args, url, headers, command, cwd), URL
credentials and secret query parameters, and secret arguments (--api-key=V,
--token V, KEY=V, Authorization: V). "envFileVariables" lists the names a server's
envFile defines when it was read (a project server's, or another server's whose
envFile is inside a workspace folder; null otherwise). The fingerprint covers a
salted digest of those values, and of the package runner configuration (.npmrc,
.yarnrc.yml, bunfig.toml, uv.toml …) found between a package runner's working
directory and its workspace folder (the table lists each file with the names of the
settings it makes): the salt is kept next to --trust-store FILE, or is new for each
run without it. A local or user server that reads such files needs trust like a
project server.

"policy" is the administrator's policy's effect (see --policy): "verdict" "allowed" or
"denied" (a denied server is never started), "rule" the rule that decided, or null,
and "reason" a sentence. Servers of the policy file's own "mcpServers" are in the
"managed" scope, above every other, and always allowed. "approvalLock" is the
approval mode the policy fixes ("approvalMode"), or null.

"needsTrust" is true when the server would not start by itself: without
--trust-store, every project server (and every server that reads workspace files,
above); with it, such a server whose current definition is not trusted in FILE
(never trusted, changed since, or refused).

"dangerFlags" has an entry for every listed server with at least one flag (a server
without flags has none), in the order of "servers"; each list is in this order:
pipe-to-shell, sudo, rm-rf, encoded-powershell, env-override, outside-workspace,
private-address, plaintext-credentials, typosquat. The table shows each flag with
its reason.

Exit status: 0 when the configuration was read, whatever problems it has;
2 for a usage error.
`;

export const configCommand: Command = {
  name: 'config',
  summary: 'Print the effective MCP servers of a workspace, where each comes from, and all config problems',
  help: CONFIG_HELP,
  flags: { ...WORKSPACE_FLAGS, ...TRUST_STORE_FLAGS, json: { kind: 'boolean' } },
  async run(args, io) {
    const config = await readWorkspaceConfig(args, io, 'config');
    const trust = await cliTrust(io, config);
    io.out(args.has('json') ? `${JSON.stringify(toJson(config.merged, trust, config.policy), null, 2)}\n` : formatTable(config.merged, config.files, trust, config.policy));
    return 0;
  },
};

/** The stable JSON shape: every key present, in this order. */
function toJson(merged: MergedConfig, trust: CliTrust, policy: Policy): unknown {
  return {
    servers: merged.servers.map((server) => {
      const { launch } = server;
      const secrets = secretsOf(launch);
      return {
        name: server.id,
        scope: server.scope,
        folder: server.folder ?? null,
        type: launch.type,
        command: launch.command === undefined ? null : redactText(launch.command, secrets),
        args: redactArgs(launch.args, secrets),
        env: masked(launch.env),
        envFile: launch.envFile === undefined ? null : redactText(launch.envFile, secrets),
        envFileVariables: launch.envFileVars === undefined ? null : Object.keys(launch.envFileVars),
        cwd: launch.cwd === undefined ? null : redactText(launch.cwd, secrets),
        url: launch.url === undefined ? null : redactUrl(launch.url, secrets),
        headers: masked(launch.headers),
        fingerprint: server.fingerprint,
        needsTrust: trust.decide(server).state !== 'allowed',
        policy: policyJson(policy, server),
        source: sourceJson(server.source),
      };
    }),
    shadowed: merged.shadowed.map((entry) => ({
      name: entry.name,
      scope: entry.scope,
      source: sourceJson(entry.source),
      shadowedBy: { scope: entry.shadowedBy.scope, file: entry.shadowedBy.file },
    })),
    problems: merged.problems.map((problem) => ({
      file: problem.file,
      line: problem.line,
      column: problem.column,
      severity: problem.severity,
      message: problem.message,
    })),
    dangerFlags: Object.fromEntries(merged.servers
      .map((server) => [server.id, trust.flags(server).map((flag) => flag.id)] as const)
      .filter(([, ids]) => ids.length > 0)),
    approvalLock: policy.approvalMode === undefined ? null : { mode: policy.approvalMode.mode, origin: policy.approvalMode.origin },
  };
}

/** The policy's verdict on one server, in the JSON's shape. */
function policyJson(policy: Policy, server: EffectiveServer): { verdict: string; rule: string | null; reason: string } {
  const verdict = evaluatePolicy(policy, server);
  return { verdict: verdict.verdict, rule: verdict.rule ?? null, reason: verdict.reason };
}

/** Names kept, every value masked. */
function masked(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(record).map((key) => [key, REDACTED]));
}

function sourceJson(source: SourceRange): { file: string; line: number; column: number } {
  return { file: source.file, line: source.line, column: source.column };
}

function formatTable(merged: MergedConfig, files: string[], trust: CliTrust, policy: Policy): string {
  const lines: string[] = [];
  if (merged.servers.length === 0) {
    lines.push('No servers. Files read:', ...files.map((file) => `  ${file}`));
  } else {
    const header = ['NAME', 'SCOPE', 'TYPE', 'COMMAND/URL', 'SOURCE'];
    const rows = merged.servers.map((server) => [
      server.id, server.scope, server.launch.type, launchText(server), location(server.source),
    ]);
    const render = tableRenderer(header, rows);
    lines.push(render(header));
    merged.servers.forEach((server, index) => {
      lines.push(render(rows[index]));
      const verdict = evaluatePolicy(policy, server);
      if (verdict.verdict === 'denied') lines.push(`    not started: ${verdict.reason}`);
      lines.push(...detailLines(server, trust).map((detail) => `    ${detail}`));
    });
  }

  lines.push('', section('Shadowed', merged.shadowed.map(shadowedLine)));
  lines.push('', section('Problems', merged.problems.map(problemLine)));
  return `${lines.join('\n')}\n`;
}

function section(title: string, entries: string[]): string {
  if (entries.length === 0) return `${title}: none`;
  return [`${title} (${entries.length}):`, ...entries.map((entry) => `  ${entry}`)].join('\n');
}

function shadowedLine(entry: ShadowedServer): string {
  return `${entry.name} (${entry.scope}) ${location(entry.source)}  shadowed by ${entry.shadowedBy.scope} ${entry.shadowedBy.file}`;
}

function location(source: SourceRange): string {
  return `${source.file}:${source.line}:${source.column}`;
}

function launchText(server: EffectiveServer): string {
  const { command, args, url } = server.launch;
  const secrets = secretsOf(server.launch);
  if (command !== undefined) return redactCommandLine(command, args, secrets);
  return url !== undefined ? redactUrl(url, secrets) : '';
}

/** Env and header values are often secrets: the table shows names only. */
function detailLines(server: EffectiveServer, trust: CliTrust): string[] {
  const details: string[] = [];
  const masked = (map: Record<string, string>) => Object.keys(map).map((key) => `${key}=***`).join(' ');
  if (Object.keys(server.launch.env).length > 0) details.push(`env: ${masked(server.launch.env)}`);
  if (Object.keys(server.launch.headers).length > 0) details.push(`headers: ${masked(server.launch.headers)}`);
  if (server.launch.envFile !== undefined) details.push(envFileLine(server));
  details.push(...runnerConfigLines(server));
  if (server.launch.cwd !== undefined) details.push(`cwd: ${redactText(server.launch.cwd, secretsOf(server.launch))}`);
  details.push(...trustLines(server, trust));
  for (const flag of trust.flags(server)) details.push(dangerFlagLine(server, flag));
  return details;
}

/** Why a server would not start by itself, and what changed since its name was last trusted. */
function trustLines(server: EffectiveServer, trust: CliTrust): string[] {
  const decision = trust.decide(server);
  switch (decision.state) {
    case 'allowed': return [];
    case 'restricted': return [`not started: ${decision.reason}`];
    case 'refused': return [`refused: ${decision.reason}`];
    case 'needsTrust': {
      if (decision.changedFrom === undefined) return ['needs trust before it can start'];
      const secrets = secretsOf(server.launch);
      const changes = (decision.changes ?? []).map((change) => `  ${redactText(formatLaunchChange(change), secrets)}`);
      return ['needs trust before it can start: changed since it was trusted', ...changes];
    }
  }
}

