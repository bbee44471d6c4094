// What the signature rules know about particular programs, as data: which words after a program select
// what it does (its subcommands), which programs only wrap another command, which run code given on
// their command line, and which options change what code runs or where. Wrappers, elevators, shells,
// interpreters and the variables that change what runs are in the one shell table (core/shell). A
// program named in neither is signed by its exact words: an "Always allow" on `xvfb-run -a npm test`
// covers that command and nothing else.

import { NPM_NEVER, PIP_NEVER } from './toolTables';

export { TOOLS, type ToolSpec } from './toolTables';

/**
 * Programs whose arguments are data — files to read, patterns, text to print — and none of whose
 * options runs a command or loads code (those that do are in COMMAND_OPTIONS, those that write files in
 * WRITE_OPTIONS): they are signed by their name alone, so "Always allow" on `ls -la` covers `ls src`.
 */
export const PLAIN_PROGRAMS: ReadonlySet<string> = new Set([
  'ls', 'cat', 'echo', 'printf', 'pwd', 'true', 'false', 'wc', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg', 'sort', 'uniq', 'cut', 'tr',
  'diff', 'cmp', 'comm', 'basename', 'dirname', 'realpath', 'readlink', 'stat', 'file', 'du', 'df', 'tree', 'which', 'type', 'whoami',
  'date', 'uname', 'id', 'jq', 'sleep', 'wait', 'read', 'seq', 'nl', 'column', 'paste', 'fold', 'tac', 'rev', 'od', 'xxd', 'hexdump',
  'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'cksum', 'base64', 'printenv', 'nproc',
]);

const WRITES = 'writes its output into the file given as its value';

/** Options that write into a file named in their value, wherever they stand (a write like `> F`). */
export const WRITE_OPTIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  git: { '--output': WRITES },
  // Audit of PLAIN_PROGRAMS (GNU and BSD/macOS manuals): the options below write files; the rest of each
  // listed program only reads its files and prints. tree -R writes 00Tree.html into every folder, file -C
  // compiles a magic file into the current folder, base64 -o (macOS) and date -s (sets the clock). xxd's
  // and uniq's second operand is an output file, read in segmentRules. Also audited without a write or
  // exec option: ls, cat, wc, head, tail, grep, cut, tr, diff, cmp, comm, stat, du, df, jq (-L loads jq
  // modules, which cannot run commands or write), od, hexdump, the sum tools.
  tree: { '-o': WRITES, '-R': 'writes an HTML listing into every folder it visits' },
  file: { '-C': 'compiles a magic file and writes it into the current folder', '--compile': 'compiles a magic file and writes it into the current folder' },
  base64: { '-o': WRITES, '--output': WRITES },
  date: { '-s': 'sets the system clock', '--set': 'sets the system clock' },
  'git format-patch': { '-o': 'writes its patches into the folder given as its value', '--output-directory': 'writes its patches into the folder given as its value' },
  'git archive': { '-o': WRITES },
  sort: { '-o': WRITES, '--output': WRITES },
};

const RUNS_COMMAND = 'runs the command given as its value';

/**
 * Options that make a program run a command named in their value, wherever they stand among its
 * arguments (`git rebase -x CMD`, `rg --pre CMD`, `tar -I CMD`): the segment is never auto-approved.
 * A key `program subcommand` holds the options that mean this only with that subcommand.
 */
export const COMMAND_OPTIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  git: {
    '--exec': RUNS_COMMAND, '--extcmd': RUNS_COMMAND, '--upload-pack': RUNS_COMMAND, '--receive-pack': RUNS_COMMAND,
    '--ext-diff': 'runs the external diff program the configuration names',
  },
  'git rebase': { '-x': RUNS_COMMAND },
  'git difftool': { '-x': RUNS_COMMAND },
  'git clone': { '-u': RUNS_COMMAND },
  'git grep': { '-O': 'opens the files it finds in the program given as its value', '--open-files-in-pager': 'opens the files it finds in the program given as its value' },
  'git send-email': { '--sendmail-cmd': RUNS_COMMAND, '--to-cmd': RUNS_COMMAND, '--cc-cmd': RUNS_COMMAND, '--header-cmd': RUNS_COMMAND, '--smtp-server': 'may name a program to run as its value' },
  tar: {
    '-I': RUNS_COMMAND, '--use-compress-program': RUNS_COMMAND, '--to-command': RUNS_COMMAND,
    '--checkpoint-action': RUNS_COMMAND, '--info-script': RUNS_COMMAND, '--new-volume-script': RUNS_COMMAND, '-F': RUNS_COMMAND,
  },
  rsync: { '-e': RUNS_COMMAND, '--rsh': RUNS_COMMAND, '--rsync-path': RUNS_COMMAND },
  scp: { '-S': RUNS_COMMAND, '-o': 'sets ssh options, which can run a command (ProxyCommand)' },
  sort: { '--compress-program': RUNS_COMMAND },
  npm: NPM_NEVER, pnpm: NPM_NEVER, yarn: NPM_NEVER,
  pip: PIP_NEVER, pip3: PIP_NEVER, 'uv pip': PIP_NEVER,
  // go's flag package spells every option with one dash or two, its value attached by `=` or next.
  go: { '-toolexec': RUNS_COMMAND, '--toolexec': RUNS_COMMAND, '-exec': RUNS_COMMAND, '--exec': RUNS_COMMAND },
  rg: { '--pre': RUNS_COMMAND, '--hostname-bin': RUNS_COMMAND },
  zip: { '-TT': RUNS_COMMAND, '--unzip-command': RUNS_COMMAND },
};

/** Builtins that set the variables their arguments name (`read PATH`, `printf -v PATH …`). */
export const ASSIGNING_BUILTINS = new Set(['read', 'mapfile', 'readarray', 'printf', 'getopts', 'wait']);

/** Programs whose arguments are code or a command line run some other way; they are never unwrapped. */
export const RUNS_ARGUMENTS: Readonly<Record<string, string>> = {
  watch: 'runs its arguments through a shell, again and again',
  parallel: 'builds commands from its arguments and input and runs them through a shell',
  trap: 'runs its first argument as shell code when a signal arrives',
  alias: 'defines an alias that changes what a later command runs',
  ssh: 'runs its arguments as a command on another machine',
  coproc: 'runs a command as a coprocess, a form these rules do not read',
  let: 'evaluates its arguments as arithmetic, which can run commands hidden in variables',
  hash: 'changes which file a later command name runs',
  enable: 'turns builtins on and off, or loads new ones from a file',
};

