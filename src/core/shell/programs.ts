// The one table of programs that matter to anyone reading a command line, shared by approvals (command
// signatures) and trust (danger flags): wrappers that run the command in their arguments, privilege
// elevators, shells, interpreters with every option that runs or loads code, and the environment
// variables that change which program runs or make a program run a command of their choosing.
// A program is found here by its bare name only: `./env` or `/tmp/x/sudo` is a file of that name, not
// the program these rows describe.

/** Programs that only run the command in their arguments, and how their own options are read. */
export interface WrapperSpec {
  /** Options that take the next word as their value. */
  valueOptions?: readonly string[];
  /** Options that make the wrapper do more than run the command unchanged, with the reason. */
  neverOptions?: Readonly<Record<string, string>>;
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

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: {
    assignments: true,
    valueOptions: ['-u', '--unset'],
    neverOptions: {
      '-S': 'splits its argument into a command of its own', '--split-string': 'splits its argument into a command of its own',
      '-C': RUNS_ELSEWHERE, '--chdir': RUNS_ELSEWHERE,
    },
  },
  timeout: { operands: 1, valueOptions: ['-s', '--signal', '-k', '--kill-after'] },
  nice: { valueOptions: ['-n', '--adjustment'] },
  nohup: {},
  time: { valueOptions: ['-f', '--format'], neverOptions: { '-o': 'writes its report into a file', '--output': 'writes its report into a file' } },
  command: { lookupOptions: ['-v', '-V'] },
  builtin: {},
  exec: { valueOptions: ['-a'] },
  stdbuf: { valueOptions: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  setsid: {},
  ionice: { valueOptions: ['-c', '--class', '-n', '--classdata'] },
  xargs: {
    valueOptions: ['-I', '-i', '-L', '-n', '-P', '-s', '-d', '-E', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--max-lines', '--eof', '--process-slot-var'],
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
  flags: ['-b', '-B', '-d', '-E', '-h', '-I', '-O', '-P', '-q', '-R', '-s', '-S', '-u', '-v', '-V', '-x', '-3', '--help', '--version', '--help-env', '--help-xoptions', '--help-all'],
  module: '-m',
};

const NODE: InterpreterSpec = {
  code: ['-e', '--eval', '-p', '--print'],
  // An env file may set NODE_OPTIONS; a reporter or loader is a module.
  preload: ['-r', '--require', '--import', '--loader', '--experimental-loader', '--env-file', '--env-file-if-exists', '--test-reporter', '--experimental-config-file', '--inspect', '--inspect-brk', '--inspect-wait'],
  values: [
    '--max-old-space-size', '--max-semi-space-size', '--stack-size', '--stack-trace-limit', '--test-name-pattern', '--test-skip-pattern',
    '--test-concurrency', '--test-timeout', '--test-shard', '--unhandled-rejections', '--title', '--input-type', '--conditions', '-C',
    '--watch-path', '--disable-warning',
  ],
  flags: [
    '--watch', '--enable-source-maps', '--no-warnings', '--trace-warnings', '--trace-uncaught', '--trace-deprecation', '--throw-deprecation',
    '--no-deprecation', '--pending-deprecation', '--experimental-vm-modules', '--experimental-strip-types', '--experimental-transform-types',
    '--no-experimental-strip-types', '--experimental-test-coverage', '--test-only', '--test-force-exit', '--test-update-snapshots',
    '--preserve-symlinks', '--preserve-symlinks-main', '--abort-on-uncaught-exception', '--expose-gc', '--check', '-c', '--version', '-v',
    '--help', '-h', '--frozen-intrinsics', '--no-addons', '--disallow-code-generation-from-strings', '--experimental-detect-module',
  ],
  modes: { '--test': 0, '--run': 1 },
};

const PERL: InterpreterSpec = {
  code: ['-e', '-E'],
  // -M/-m turn their value into `use …;`, which runs whatever follows a `;`; -d loads a debugger module.
  preload: ['-M', '-m', '-d'],
  signed: ['-I'],
  flags: ['-w', '-W', '-X', '-c', '-T', '-t', '-n', '-p', '-a', '-s', '-l', '-0', '-v', '-h'],
};

const RUBY: InterpreterSpec = {
  code: ['-e'],
  preload: ['-r', '--require'],
  signed: ['-I', '-C'],
  values: ['-E', '--encoding', '-F'],
  flags: ['-w', '-W', '-v', '-c', '-d', '-n', '-p', '-a', '-l', '-s', '--version', '--help', '-h', '--disable-gems', '--verbose', '--yjit', '--jit'],
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
  php: { code: ['-r', '-B', '-R', '-E', '-F'], preload: ['-d', '-c', '-z'], flags: ['-l', '-n', '-v', '-h', '-q', '-H'] },
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

/**
 * Environment variables that change which program runs, inject code into it, make it run a command of
 * their choosing (pagers, editors, askpass helpers, `LESSOPEN`), or change where a package runner
 * downloads from. Matched without regard to case, as Windows does; a trailing `*` matches a prefix.
 */
export const EXEC_VARIABLES: readonly string[] = [
  'PATH', 'PATHEXT', 'CDPATH', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_*', 'NODE_OPTIONS', 'NODE_PATH',
  'ELECTRON_RUN_AS_NODE', 'NPM_CONFIG_*', 'YARN_*', 'BUN_CONFIG_*',
  'PYTHONPATH', 'PYTHONHOME', 'PYTHONSTARTUP', 'PYTHONUSERBASE', 'PYTHONBREAKPOINT', 'PYTHONWARNINGS', 'PIP_*',
  'UV_INDEX', 'UV_INDEX_URL', 'UV_EXTRA_INDEX_URL', 'UV_DEFAULT_INDEX', 'UV_FIND_LINKS',
  'PERL5LIB', 'PERL5OPT', 'PERL5DB', 'RUBYOPT', 'RUBYLIB', 'BASH_ENV', 'ENV', 'ZDOTDIR', 'PROMPT_COMMAND', 'PS4', 'SHELLOPTS', 'BASHOPTS', 'SHELL',
  'GIT_*', 'SSH_ASKPASS', 'SUDO_ASKPASS',
  'PAGER', 'MANPAGER', 'SYSTEMD_PAGER', 'BAT_PAGER', 'LESS', 'LESSOPEN', 'LESSCLOSE', 'LESSKEY', 'LESSKEYIN', 'MORE',
  'EDITOR', 'VISUAL', 'FCEDIT', 'BROWSER', 'TAR_OPTIONS', 'RIPGREP_CONFIG_PATH',
  'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'COMSPEC',
  'HOME', 'XDG_CONFIG_HOME', 'CC', 'CXX', 'CPP', 'LD', 'AR', 'AS', 'FC', 'MAKE', 'MAKEFLAGS', 'RUSTC', 'RUSTC_WRAPPER', 'RUSTFLAGS', 'CARGO_*',
];

/** Whether setting `name` can change which program runs, load code into it, or make it run a command. */
export function isExecVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return EXEC_VARIABLES.some((pattern) => (pattern.endsWith('*') ? upper.startsWith(pattern.slice(0, -1)) : upper === pattern));
}
