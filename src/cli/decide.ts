// `switchboard decide --mode MODE --rules FILE --tool-json FILE --args 'JSON'`: the approval policy's
// decision about one call, with its reason, taken on the extension's own decision path (decideCall):
// a shell-like tool's command is read by the real shell parser and checked against the signature
// rules, a file-writing call's effect is predicted against the current directory as the one workspace
// root. It only reads.
import * as os from 'node:os';
import * as path from 'node:path';
import { decideCall, type CallDecisionContext, type CallToDecide } from '../core/approvals/callDecision';
import { APPROVAL_MODES, isApprovalMode, type Decision } from '../core/approvals/policy';
import { parseRules } from '../core/approvals/rules';
import type { Scope } from '../core/config/types';
import type { ToolAnnotations } from '../core/lifecycle/types';
import { loadBashParser } from '../node/bashParser';
import { nodePreviewFileSystem } from '../node/previewFileSystem';
import { PROGRAM, readFlagJson, UsageError, type Args, type Command, type Io } from './command';

const NAME = 'decide';

const HELP = `Usage: ${PROGRAM} ${NAME} --mode MODE --rules FILE --tool-json FILE --args JSON

Prints the approval policy's decision about one tool call as one JSON object:
  { "decision": "allow" | "ask" | "deny", "reason": "…", "decidedBy": { "kind": … } }

The decision is taken as the extension takes it: the command of a tool that runs
shell commands is read by the same shell parser and checked against the rules'
signatures; what a file-writing tool would write is predicted with the current
directory as the one workspace folder (a write outside it always asks).

Options:
  --mode MODE      ${APPROVAL_MODES.join(' | ')}
  --rules FILE     a JSON array of rules (or { "rules": [...] }), each
                   { "effect": "allow" | "deny", "server", "tool" (or "*"),
                     "signatures"?: [...], "scope"?: "session" | "workspace" | "global", "id"?,
                     "serverScope"?, "serverFile"?, "arguments"?: [conditions] }
                   A condition is { "kind": "path", "argument", "glob" } (an absolute glob
                   with / separators, e.g. "/home/me/proj/notes/**") or { "kind": "equals",
                   "argument", "value" }; a rule with conditions holds only for calls that meet
                   every one (relative paths are read against the current directory).
                   A rule with serverScope and serverFile applies to that server only; a
                   rule with a name alone applies only to a user- or local-scope server.
  --tool-json FILE the tool as the server lists it ({ "name", "annotations"?, "inputSchema"? })
                   plus what the extension knows: "server" (name), "serverScope" ("user"
                   (default) | "local" | "project" | "plugin"), "serverFile" (the file that
                   defines it), "serverInfo" ({ "name" } from its initialize answer:
                   "secure-filesystem-server" predicts server-filesystem's writes exactly),
                   "serverTrusted" (default false), "pinnedState" ("accepted" (default) |
                   "new" | "changed": a changed tool's calls are refused before any policy,
                   as the extension's call gate does), "flagged"
  --args JSON      the call's arguments, a JSON object

Exit code 0 whatever the decision; 2 on a usage error.
`;

export const decideCommand: Command = {
  name: NAME,
  summary: 'the approval policy\'s decision about one tool call',
  help: HELP,
  flags: {
    mode: { kind: 'string', meta: 'MODE' },
    rules: { kind: 'string', meta: 'FILE' },
    'tool-json': { kind: 'string', meta: 'FILE' },
    args: { kind: 'string', meta: 'JSON' },
  },
  async run(args: Args, io: Io): Promise<number> {
    const { call, context, changed } = readInput(args, io.cwd);
    const { decision, reason, decidedBy } = changed ? changedTool(call.tool.name) : (await decideCall(call, context)).decision;
    io.out(`${JSON.stringify({ decision, reason, decidedBy })}\n`);
    return 0;
  },
};

/** What the call gate answers for a changed tool: it refuses the call before the policy decides anything. */
function changedTool(tool: string): Decision {
  return { decision: 'deny', reason: `the definition of "${tool}" changed since it was pinned; its calls are refused until you review and accept the change`, decidedBy: { kind: 'review' } };
}

function required(args: Args, name: string): string {
  const value = args.string(name);
  if (value === undefined) throw new UsageError(`missing --${name}`, NAME);
  return value;
}

const SCOPES: readonly Scope[] = ['user', 'local', 'project', 'plugin', 'managed'];

function readInput(args: Args, cwd: string): { call: CallToDecide; context: CallDecisionContext; changed: boolean } {
  const mode = required(args, 'mode');
  if (!isApprovalMode(mode)) throw new UsageError(`--mode ${mode}: expected ${APPROVAL_MODES.join(', ')}`, NAME);
  let rules;
  try {
    rules = parseRules(readFlagJson(path.resolve(cwd, required(args, 'rules')), 'rules', NAME));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--rules: ${(error as Error).message}`, NAME);
  }
  const tool = readFlagJson(path.resolve(cwd, required(args, 'tool-json')), 'tool-json', NAME);
  if (typeof tool !== 'object' || tool === null || Array.isArray(tool)) throw new UsageError('--tool-json: expected a JSON object', NAME);
  const record = tool as Record<string, unknown>;
  if (typeof record.name !== 'string' || record.name === '') throw new UsageError('--tool-json: "name" must be a non-empty string', NAME);
  const pinned = record.pinnedState ?? 'accepted';
  if (pinned !== 'accepted' && pinned !== 'new' && pinned !== 'changed') throw new UsageError('--tool-json: "pinnedState" must be "accepted", "new" or "changed"', NAME);
  let callArgs: unknown;
  try {
    callArgs = JSON.parse(required(args, 'args'));
  } catch (error) {
    throw new UsageError(`--args: not JSON (${(error as Error).message})`, NAME);
  }
  if (typeof callArgs !== 'object' || callArgs === null || Array.isArray(callArgs)) throw new UsageError('--args: expected a JSON object', NAME);
  const serverScope = record.serverScope ?? 'user';
  if (typeof serverScope !== 'string' || !(SCOPES as readonly string[]).includes(serverScope)) throw new UsageError(`--tool-json: "serverScope" must be one of ${SCOPES.join(', ')}`, NAME);
  const serverInfoName = (record.serverInfo as { name?: unknown } | undefined)?.name;
  const call: CallToDecide = {
    // A server the CLI is told about runs here (stdio), like the servers of a workspace.
    server: {
      name: typeof record.server === 'string' ? record.server : '',
      scope: serverScope as Scope,
      source: { file: typeof record.serverFile === 'string' ? record.serverFile : '', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
      launch: { type: 'stdio' },
    },
    tool: {
      name: record.name,
      inputSchema: typeof record.inputSchema === 'object' && record.inputSchema !== null ? record.inputSchema as Record<string, unknown> : {},
      ...(typeof record.annotations === 'object' && record.annotations !== null ? { annotations: record.annotations as ToolAnnotations } : {}),
    },
    arguments: callArgs as Record<string, unknown>,
  };
  const context: CallDecisionContext = {
    mode,
    rules,
    serverTrusted: record.serverTrusted === true,
    pinnedState: pinned === 'new' ? 'new' : 'accepted',
    flagged: record.flagged === true,
    shellParser: loadBashParser,
    files: { roots: [cwd], fs: nodePreviewFileSystem, home: os.homedir(), ...(typeof serverInfoName === 'string' ? { serverInfoName } : {}) },
  };
  return { call, context, changed: pinned === 'changed' };
}
