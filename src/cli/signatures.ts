// `switchboard signatures [--always 'CMD']... -- 'COMMAND'`: the command signatures that "Always allow"
// on a shell-like tool is scoped to, and whether COMMAND would be auto-approved after "Always allow" was
// clicked on each CMD, with the current directory as the workspace. Prints one JSON object; other tools
// read it, so its shape is fixed.
import { alwaysAllowRules, isAutoApproved } from '../core/shell';
import { loadBashParser } from '../node/bashParser';
import { PROGRAM, type Command } from './command';

const SIGNATURES_HELP = `Usage: ${PROGRAM} signatures [--always 'CMD']... [--] 'COMMAND'

Prints the signatures of the shell command COMMAND and whether it is auto-approved
when "Always allow" was clicked on each CMD before (the signatures of the CMDs are
the rules). A segment of a known program is signed by the words that select what
it does ('git commit', 'npm run build', 'python -m pytest') plus the options that
say where or which code runs ('git -C sub status', 'npx -p pkg jest'); a program
the rules do not know, or one given as a path ('./env', 'xvfb-run'), is signed by
its exact words; a segment after 'cd DIR' is signed 'cd DIR && …'.

COMMAND is auto-approved only when every one of its signatures is allowed and
every part of it is understood as inert: literal words, quotes, plain $NAME and
\${NAME}, redirections to /dev/null, lists, pipelines and groups of such
commands. Anything else always asks: arithmetic ($((…)), ((…)), \${v:x}),
indirect or transforming expansions (\${!x}, \${x@P}, \${x/a/b}), [[ … ]] and
[ … ], $(…), backticks, <(…), heredocs, function definitions, output written
into a file (also through flags such as git --output or sort -o), text that is
not valid shell syntax, brace expansions ({a,b}), here-strings (<<<), any
environment variable outside a short list of inert ones (colour, locale, time
zone, CI, NODE_ENV…: NO_COLOR=1 npm test is fine, MAKEFILES=x make asks; a
plain shell variable may have a lower-case name only), sudo, code or preload
options in any spelling (python -c, perl -e/-M, node -e/--import…), another
registry or index (--registry, --index-url), and a cd that leaves the workspace
(an absolute path, .., ~ or an expansion). The workspace is the current
directory. sh -c/bash -c scripts, eval, env, timeout, nice, nohup, time, xargs
and find -exec are read for the command they run.

Scripts given to programs are code. sed scripts, awk programs, find
expressions, jq filters and sqlite3 SQL are read by readers of their own
grammars (and their options as each program reads them): the program is
approved only when every command of its script is known to be inert (sed 'e',
'w', 'r', s///e and -i, awk system(), pipes, getline and print > F, find -exec
{} and -delete, jq -L and import, sqlite3 .shell, ATTACH and writes ask). ed,
ex, vim and emacs always ask; other programs are signed by their exact words.
Words from input (xargs, find -exec ... {}, while read) are approved only
after a literal -- of a program that only reads its operands
(xargs grep -n foo --); otherwise the command asks.

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
    // The workspace a `cd` may move inside is the folder the command is checked from.
    const options = { workspace: io.cwd };
    const rules = alwaysAllowRules(args.strings('always'), parser, options);
    const check = isAutoApproved(args.positionals[0], rules, parser, options);
    io.out(`${JSON.stringify({ command: check.command, signatures: check.signatures, autoApproved: check.autoApproved, reason: check.reason })}\n`);
    return 0;
  },
};
