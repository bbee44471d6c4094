// The one table of programs that matter to anyone reading a command line, shared by approvals (command
// signatures) and trust (danger flags): wrappers that run the command in their arguments, privilege
// elevators, shells, and interpreters with every option that runs or loads code.
// A program is found here by its bare name only: `./env` or `/tmp/x/sudo` is a file of that name, not
// the program these rows describe.

/**
 * Programs that only run the command in their arguments, and how their own options are read. Deny by
 * default: an option in none of the lists is not understood, so the command is never auto-approved.
 * Long options match their unique prefixes (`--chd` is `--chdir`), as GNU getopt_long reads them;
 * short options cluster (`-iu X`) and take their value attached (`-uX`) or as the next word.
 */
export interface WrapperSpec {
  /** Options without a value, known to change nothing about what runs (GNU and BSD/macOS spellings). */
  flags?: readonly string[];
  /** Options that take a value and change nothing about what runs. */
  valueOptions?: readonly string[];
  /** Options that make the wrapper do more than run the command unchanged, with the reason. */
  neverOptions?: Readonly<Record<string, string>>;
  /** `-NUMBER` is an option of its own (`nice -5`). */
  numberOption?: boolean;
  /** Operands of the wrapper itself before the command (timeout's DURATION). */
  operands?: number;
  /** `NAME=value` words before the command set its environment (env). */
  assignments?: boolean;
  /** Options after which nothing runs: the wrapper only looks the command up (`command -v`). */
  lookupOptions?: readonly string[];
  /**
   * What it runs is not the system's program of that name (busybox's own applets, cmd's `call` of a
   * batch file): danger flags look through it, approvals sign it by its exact words.
   */
  opaque?: boolean;
}

const RUNS_ELSEWHERE = 'runs the command in another folder';
const SPLITS = 'splits its argument into a command of its own';
const WRITES_REPORT = 'writes its report into a file';
const INPUT_IN_WORDS = 'puts its input into the words of the command, where it can become the program or its options';

// Audit (GNU coreutils/findutils/util-linux and the BSD/macOS manuals): the flags and values listed change
// signals, priorities, buffering, sessions or how input is split — never which program runs or where.
export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: {
    assignments: true,
    flags: ['-i', '--ignore-environment', '-0', '--null', '-v', '--debug'],
    valueOptions: ['-u', '--unset'],
    neverOptions: {
      '-S': SPLITS, '--split-string': SPLITS, '-C': RUNS_ELSEWHERE, '--chdir': RUNS_ELSEWHERE,
      '-P': 'looks the command up in the folders given as its value (BSD)', '--argv0': 'runs the command under another name',
      '-a': 'runs the command under another name',
    },
  },
  timeout: {
    operands: 1,
    flags: ['--preserve-status', '--foreground', '-v', '--verbose', '-f', '-p'],
    valueOptions: ['-s', '--signal', '-k', '--kill-after'],
  },
  nice: { numberOption: true, valueOptions: ['-n', '--adjustment'] },
  // nohup writes nohup.out into the folder when its output is a terminal: as wide as its words.
  nohup: { opaque: true },
  time: {
    flags: ['-p', '--portability', '-v', '--verbose', '-q', '--quiet', '-l'],
    valueOptions: ['-f', '--format'],
    neverOptions: { '-o': WRITES_REPORT, '--output': WRITES_REPORT, '-a': WRITES_REPORT, '--append': WRITES_REPORT },
  },
  command: { lookupOptions: ['-v', '-V'], flags: ['-v', '-V'], neverOptions: { '-p': 'looks the command up in a default search path instead of the one shown' } },
  builtin: {},
  exec: { flags: ['-c'], neverOptions: { '-a': 'runs the command under another name, which changes what multi-call programs do', '-l': 'runs the command as a login shell, which reads profile scripts' } },
  stdbuf: { valueOptions: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  setsid: { flags: ['-c', '--ctty', '-f', '--fork', '-w', '--wait'] },
  ionice: { flags: ['-t', '--ignore'], valueOptions: ['-c', '--class', '-n', '--classdata'] },
  xargs: {
    flags: ['-0', '--null', '-r', '--no-run-if-empty', '-t', '--verbose', '-x', '--exit', '-p', '--interactive', '-o', '--open-tty'],
    valueOptions: ['-L', '-n', '-P', '-s', '-d', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--max-lines'],
    neverOptions: {
      '-I': INPUT_IN_WORDS, '-i': INPUT_IN_WORDS, '-J': INPUT_IN_WORDS, '-R': INPUT_IN_WORDS, '--replace': INPUT_IN_WORDS,
      '--process-slot-var': 'sets a variable of its choosing in the environment of the command',
    },
  },
  busybox: { opaque: true },
  call: { opaque: true },
};

/** Programs that run another command with more privileges, and the options of theirs that take a value. */
export const ELEVATORS: Readonly<Record<string, readonly string[]>> = {
  sudo: ['-u', '--user', '-g', '--group', '-C', '--close-from', '-h', '--host', '-p', '--prompt', '-U', '--other-user', '-r', '--role', '-t', '--type', '-D', '--chdir', '-T', '--command-timeout', '-R', '--chroot'],
  doas: ['-u', '-C'],
  su: ['-c', '--command', '-s', '--shell', '-g', '--group', '-G', '--supp-group'],
  pkexec: ['--user'],
  run0: ['-u', '--user', '-g', '--group', '-D', '--chdir'],
  gsudo: ['-u', '--user', '-d', '--direct'],
  runas: ['/user', '/profile'],
};

/** Whether `name` is a privilege elevator. */
export function isElevator(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(ELEVATORS, name);
}

/** Shells whose `-c` script is bash-compatible, so it is read with the same grammar. */
export const POSIX_SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'ash']);
/** Unix shells of other languages: `-c` takes a command line, but not one the bash grammar reads. */
export const FOREIGN_SHELLS: ReadonlySet<string> = new Set(['zsh', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'nu', 'xonsh']);
/** Windows PowerShell and PowerShell 7 (`powershell_ise` for completeness). */
export const POWERSHELLS: ReadonlySet<string> = new Set(['powershell', 'pwsh', 'powershell_ise']);

/** Whether `name` is a shell of any kind (cmd included). */
export function isShell(name: string): boolean {
  return POSIX_SHELLS.has(name) || FOREIGN_SHELLS.has(name) || POWERSHELLS.has(name) || name === 'cmd';
}

/**
 * How an interpreter's options are read. Every option is in one list; an option in none of them is not
 * understood, so a command using it is never auto-approved. Short options cluster (`-Bc`, `-lane`), and
 * a short option that takes a value takes the rest of its cluster (`-cCODE`, `-Mmod`) or the next word.
 */
export interface InterpreterSpec {
  /** Options whose value is code to run. */
  code: readonly string[];
  /** Options that load code, or settings that can load code, named in their value. */
  preload: readonly string[];
  /** Options with a value that changes where code is found; the option and value join the signature. */
  signed?: readonly string[];
  /** Options with a value that changes nothing about which code runs. */
  values?: readonly string[];
  /** Options without a value, known not to change which code runs. */
  flags: readonly string[];
  /** `-m MODULE`: the module is what runs (`python -m pytest`). */
  module?: string;
  /** Options that choose a mode rather than a script (`node --test`, `node --run build`): 0 or 1 value. */
  modes?: Readonly<Record<string, 0 | 1>>;
}

const PYTHON: InterpreterSpec = {
  code: ['-c'],
  preload: [],
  // -W names a warning category, which Python imports; -X options can name a module too.
  signed: ['-W', '-X'],
  values: ['--check-hash-based-pycs'],
  // Not -O/-OO (asserts guard code), -x (skips the script's first line), -S or -d: each changes which
  // code runs, so it asks. -E, -I, -s and -P only leave out places code would be loaded from.
  flags: ['-b', '-B', '-E', '-h', '-I', '-P', '-q', '-R', '-s', '-u', '-v', '-V', '-3', '--help', '--version', '--help-env', '--help-xoptions', '--help-all'],
  module: '-m',
};

const NODE: InterpreterSpec = {
  code: ['-e', '--eval', '-p', '--print'],
  // An env file may set NODE_OPTIONS; a reporter or loader is a module.
  preload: ['-r', '--require', '--import', '--loader', '--experimental-loader', '--env-file', '--env-file-if-exists', '--test-reporter', '--experimental-config-file', '--inspect', '--inspect-brk', '--inspect-wait'],
  values: [
    '--max-old-space-size', '--max-semi-space-size', '--stack-size', '--stack-trace-limit', '--test-name-pattern', '--test-skip-pattern',
    // Not --conditions/-C: a condition chooses which file of a package's exports loads.
    '--test-concurrency', '--test-timeout', '--test-shard', '--unhandled-rejections', '--title', '--input-type',
    '--watch-path', '--disable-warning',
  ],
  flags: [
    '--watch', '--enable-source-maps', '--no-warnings', '--trace-warnings', '--trace-uncaught', '--trace-deprecation', '--throw-deprecation',
    '--no-deprecation', '--pending-deprecation', '--experimental-vm-modules', '--experimental-strip-types', '--experimental-transform-types',
    '--no-experimental-strip-types', '--experimental-test-coverage', '--test-only', '--test-force-exit', '--test-update-snapshots',
    '--abort-on-uncaught-exception', '--expose-gc', '--version', '-v',
    '--help', '-h', '--frozen-intrinsics', '--no-addons', '--disallow-code-generation-from-strings', '--experimental-detect-module',
  ],
  modes: { '--test': 0, '--run': 1 },
};

const PERL: InterpreterSpec = {
  code: ['-e', '-E'],
  // -M/-m turn their value into `use …;`, which runs whatever follows a `;`; -d loads a debugger module.
  preload: ['-M', '-m', '-d'],
  signed: ['-I'],
  // Not -c: a syntax check, which a rule must not turn into a run of the script.
  flags: ['-w', '-W', '-X', '-T', '-t', '-n', '-p', '-a', '-s', '-l', '-0', '-v', '-h'],
};

const RUBY: InterpreterSpec = {
  code: ['-e'],
  preload: ['-r', '--require'],
  signed: ['-I', '-C'],
  values: ['-E', '--encoding', '-F'],
  flags: ['-w', '-W', '-v', '-d', '-n', '-p', '-a', '-l', '-s', '--version', '--help', '-h', '--disable-gems', '--verbose', '--yjit', '--jit'],
};

const TS_RUNNER: InterpreterSpec = {
  code: ['-e', '--eval', '-p', '--print'],
  preload: ['-r', '--require', '--import', '--loader'],
  signed: ['--tsconfig', '-P', '--project'],
  flags: ['--no-cache', '-T', '--transpile-only', '--version', '-v', '--help', '-h'],
};

const INTERPRETERS: Readonly<Record<string, InterpreterSpec>> = {
  node: NODE,
  nodejs: NODE,
  perl: PERL,
  ruby: RUBY,
  php: { code: ['-r', '-B', '-R', '-E', '-F'], preload: ['-d', '-c', '-z'], flags: ['-n', '-v', '-h', '-q', '-H'] },
  lua: { code: ['-e'], preload: ['-l'], flags: ['-v', '-E', '-W'] },
  luajit: { code: ['-e'], preload: ['-l', '-j'], flags: ['-v', '-E'] },
  Rscript: { code: ['-e'], preload: ['--default-packages'], flags: ['--vanilla', '--version', '--verbose', '--no-environ', '--no-site-file', '--no-init-file'] },
  osascript: { code: ['-e'], preload: [], values: ['-l', '-s'], flags: [] },
  tsx: TS_RUNNER,
  'ts-node': TS_RUNNER,
  source: { code: [], preload: [], flags: [] },
  '.': { code: [], preload: [], flags: [] },
};

/** The interpreter spec for a bare program name (`python3.12` is python), or undefined. */
export function interpreterSpec(name: string): InterpreterSpec | undefined {
  if (/^(?:python|pypy)[\d.]*$/.test(name) || name === 'py') return PYTHON;
  return Object.prototype.hasOwnProperty.call(INTERPRETERS, name) ? INTERPRETERS[name] : undefined;
}
