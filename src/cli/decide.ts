// `switchboard decide --mode MODE --rules FILE --tool-json FILE --args 'JSON'`: the approval policy's
// decision about one call, with its reason, as the extension would take it — headlessly, for testing
// the pure policy. It only reads.
import * as path from 'node:path';
import { APPROVAL_MODES, decide, isApprovalMode, type PinnedState, type PolicyInput } from '../core/approvals/policy';
import { parseRules } from '../core/approvals/rules';
import type { ToolAnnotations } from '../core/lifecycle/types';
import { PROGRAM, readFlagJson, UsageError, type Args, type Command, type Io } from './command';

const NAME = 'decide';

const HELP = `Usage: ${PROGRAM} ${NAME} --mode MODE --rules FILE --tool-json FILE --args JSON

Prints the approval policy's decision about one tool call as one JSON object:
  { "decision": "allow" | "ask" | "deny", "reason": "…", "decidedBy": { "kind": … } }

Options:
  --mode MODE      ${APPROVAL_MODES.join(' | ')}
  --rules FILE     a JSON array of rules (or { "rules": [...] }), each
                   { "effect": "allow" | "deny", "server", "tool" (or "*"),
                     "signatures"?: [...], "scope"?: "session" | "workspace" | "global", "id"? }
  --tool-json FILE the tool as the server lists it ({ "name", "annotations"?, "inputSchema"? })
                   plus what the extension knows: "server" (name), "serverTrusted" (default
                   false), "pinnedState" ("accepted" (default) | "new" | "changed"), "flagged"
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
    const input = readInput(args, io.cwd);
    const { decision, reason, decidedBy } = decide(input);
    io.out(`${JSON.stringify({ decision, reason, decidedBy })}\n`);
    return 0;
  },
};

function required(args: Args, name: string): string {
  const value = args.string(name);
  if (value === undefined) throw new UsageError(`missing --${name}`, NAME);
  return value;
}

function readInput(args: Args, cwd: string): PolicyInput {
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
  return {
    mode,
    server: typeof record.server === 'string' ? record.server : '',
    tool: record.name,
    annotations: typeof record.annotations === 'object' && record.annotations !== null ? record.annotations as ToolAnnotations : undefined,
    serverTrusted: record.serverTrusted === true,
    pinnedState: pinned as PinnedState,
    flagged: record.flagged === true,
    rules,
    args: callArgs as Record<string, unknown>,
  };
}
