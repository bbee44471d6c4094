// The administrator's policy as the command line sees it: the platform's managed file, a file the
// environment names (SWITCHBOARD_POLICY_FILE) and --policy FILE, all added together (VS Code's
// settings are not read here). Its problems become config problems at their positions.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConfigProblem } from '../core/config/types';
import { combinePolicies, managedPolicyFile, parsePolicyFile, type Policy } from '../core/policy';
import type { Args, FlagSpec, Io } from './command';

export const POLICY_FLAGS: Record<string, FlagSpec> = { policy: { kind: 'string', repeat: true, meta: 'FILE' } };

/** Help text of POLICY_FLAGS. */
export const POLICY_HELP = `  --policy FILE    An administrator's policy file read with the managed one
                   (${managedPolicyFile('linux', {})} on Linux) and
                   $SWITCHBOARD_POLICY_FILE: their rules add up. Repeatable.`;

/** The policy files of this invocation, in order (their `mcpServers` are the managed scope). */
export function cliPolicyFiles(args: Args, io: Io): string[] {
  return [managedPolicyFile(process.platform, io.env), io.env.SWITCHBOARD_POLICY_FILE, ...args.strings('policy').map((file) => path.resolve(io.cwd, file))]
    .filter((file): file is string => file !== undefined && file !== '');
}

/** The policy in effect for this invocation, and what is wrong in its files. */
export function readCliPolicy(args: Args, io: Io): { policy: Policy; problems: ConfigProblem[] } {
  const files = cliPolicyFiles(args, io);
  const policies: Policy[] = [];
  const problems: ConfigProblem[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      policies.push({ allowed: [], denied: [], unreadable: `${file} cannot be read` });
      problems.push(problem(file, 1, 1, `The policy file cannot be read (${(error as Error).message}); no server runs until it can be`));
      continue;
    }
    const parsed = parsePolicyFile(file, text);
    policies.push(parsed.policy);
    problems.push(...parsed.problems.map((p) => problem(p.file, p.line, p.column, p.message)));
  }
  return { policy: combinePolicies(...policies), problems };
}

function problem(file: string, line: number, column: number, message: string): ConfigProblem {
  return { file, line, column, endLine: line, endColumn: column, severity: 'error', code: 'policy', message };
}
