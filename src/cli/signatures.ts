// `switchboard signatures [--always 'CMD']... -- 'COMMAND'`: the command signatures that "Always allow"
// on a shell-like tool is scoped to, and whether COMMAND would be auto-approved after "Always allow" was
// clicked on each CMD. Prints one JSON object; other tools read it, so its shape is fixed.
import { alwaysAllowRules, isAutoApproved } from '../core/approvals';
import { loadBashParser } from '../node/bashParser';
import { PROGRAM, type Command } from './command';

const SIGNATURES_HELP = `Usage: ${PROGRAM} signatures [--always 'CMD']... [--] 'COMMAND'

Prints the signatures of the shell command COMMAND — each segment's program plus
the words that select what it does ('git commit', 'npm run build', 'python -m
pytest'), never its file or flag arguments — and whether it is auto-approved
when "Always allow" was clicked on each CMD before (the signatures of the CMDs
are the rules). COMMAND is auto-approved only when every one of its signatures
is allowed and it holds nothing that is never auto-approved: \`$(…)\`, backticks,
\`<(…)\`, heredocs, output written into a file (other than /dev/null), text
that is not valid shell syntax, an environment variable that changes what runs
(PATH, LD_PRELOAD, NODE_OPTIONS…), sudo, or code given on the command line
(python -c, node -e…). sh -c/bash -c scripts, eval, env, timeout, nice, nohup,
time, xargs and find -exec are read for the command they run.

Options:
  --always CMD     A command on which "Always allow" was clicked (repeatable).
  -h, --help       Show this help.

Output (one line of JSON, keys in this order):
  { "command": COMMAND, "signatures": ["…", …], "autoApproved": true|false,
    "reason": "a sentence saying why" }

Exit status: 0 whether COMMAND is approved or not; 2 for a usage error.
`;

export const signaturesCommand: Command = {
  name: 'signatures',
  summary: 'The signatures of a shell command, and whether "Always allow" rules approve it',
  help: SIGNATURES_HELP,
  flags: { always: { kind: 'string', repeat: true, meta: 'CMD' } },
  positionals: { names: ['COMMAND'], required: 1 },
  async run(args, io) {
    const parser = await loadBashParser();
    const rules = alwaysAllowRules(args.strings('always'), parser);
    const check = isAutoApproved(args.positionals[0], rules, parser);
    io.out(`${JSON.stringify({ command: check.command, signatures: check.signatures, autoApproved: check.autoApproved, reason: check.reason })}\n`);
    return 0;
  },
};
