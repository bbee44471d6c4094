// What the signature rules know about particular programs, as data: which words after a program select
// what it does (its subcommands), which programs only wrap another command, which run code given on
// their command line, and which environment variables change what runs. A program not listed here is
// its own signature: `ls -la` is `ls`.
import { INJECTION_ENV_VARS } from '../trust';

/**
 * How the words after a program are read. `depth` subcommand words (1 when omitted) are part of its
 * signature; `nested` goes one level deeper for some of them (`docker compose up`), says that the rest
 * is a command of its own (`npx jest`, `uv run pytest`), that its first operand is the script it runs
 * (`deno run x.ts`), or that the subcommand runs code (`never`).
 */
export interface ToolSpec {
  depth?: number;
  nested?: Record<string, ToolSpec | 'command' | 'script' | { never: string }>;
  /** Options that take the next word as their value (`git -C DIR`). */
  valueOptions?: string[];
  /** Options that make the program run code or programs named in their value, with the reason. */
  neverOptions?: Record<string, string>;
  /** The rest of the words, after the options, is a command of its own (`npx`). */
  command?: boolean;
  /** Operands holding `=` (variable overrides such as make's `CC=clang`) are skipped, not subcommands. */
  skipAssignments?: boolean;
  /** Words starting with `+` are options too (`cargo +nightly test`). */
  plusOptions?: boolean;
}

const RUNS_CONFIG = 'sets configuration that can name programs to run';
const PACKAGE_MANAGER_OPTIONS = ['--prefix', '-w', '--workspace', '-C', '--dir', '--filter', '-F', '--userconfig', '--cache', '--cwd'];
const RUNS_MAKEFILE = 'runs the recipes of the makefile it names';
const RUNS_SHELL_CODE = { '-c': 'runs the shell command given as its value', '--call': 'runs the shell command given as its value' };

/** Programs whose first words after the options select what they do. */
export const TOOLS: Readonly<Record<string, ToolSpec>> = {
  git: {
    valueOptions: ['-C', '--git-dir', '--work-tree', '--namespace', '--super-prefix'],
    neverOptions: { '-c': RUNS_CONFIG, '--config-env': RUNS_CONFIG, '--exec-path': 'chooses where git finds the programs it runs' },
    nested: {
      stash: {}, remote: {}, worktree: {}, lfs: {}, notes: {}, 'sparse-checkout': {}, flow: {},
      submodule: { nested: { foreach: { never: 'runs a shell command in every submodule' } } },
      bisect: { nested: { run: { never: 'runs a command at every bisection step' } } },
    },
  },
  npm: {
    valueOptions: PACKAGE_MANAGER_OPTIONS,
    neverOptions: { '--node-options': 'passes options that can load code to node', '--script-shell': 'chooses the shell that runs scripts' },
    nested: { run: {}, 'run-script': {}, exec: 'command', x: 'command', explore: { never: 'runs a shell command in a package folder' } },
  },
  npx: { command: true, valueOptions: ['-p', '--package'], neverOptions: RUNS_SHELL_CODE },
  pnpm: { valueOptions: PACKAGE_MANAGER_OPTIONS, nested: { run: {}, exec: 'command', dlx: 'command' } },
  pnpx: { command: true, valueOptions: ['-p', '--package'], neverOptions: RUNS_SHELL_CODE },
  yarn: { valueOptions: PACKAGE_MANAGER_OPTIONS, nested: { run: {}, exec: 'command', dlx: 'command' } },
  bun: { nested: { run: 'script', x: 'command' }, neverOptions: { '-e': 'runs code given on its command line', '--eval': 'runs code given on its command line', '-p': 'runs code given on its command line', '--print': 'runs code given on its command line' } },
  bunx: { command: true },
  deno: { nested: { run: 'script', eval: { never: 'runs code given on its command line' } } },
  docker: {
    valueOptions: ['--context', '-c', '-H', '--host', '--config', '-l', '--log-level'],
    nested: {
      compose: { valueOptions: ['-f', '--file', '-p', '--project-name', '--profile', '--env-file', '--project-directory'] },
      container: {}, image: {}, network: {}, volume: {}, system: {}, buildx: {}, context: {}, builder: {}, manifest: {},
    },
  },
  podman: { valueOptions: ['--connection', '-c', '--url'], nested: { compose: {}, container: {}, image: {}, network: {}, volume: {}, system: {}, machine: {} } },
  'docker-compose': { valueOptions: ['-f', '--file', '-p', '--project-name', '--profile', '--env-file', '--project-directory'] },
  kubectl: { valueOptions: ['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server'], nested: { config: {}, rollout: {}, auth: {} } },
  helm: { valueOptions: ['-n', '--namespace', '--kube-context', '--kubeconfig'], nested: { repo: {}, plugin: {} } },
  cargo: { plusOptions: true, valueOptions: ['-C', '-Z'], neverOptions: { '--config': RUNS_CONFIG } },
  rustup: { nested: { toolchain: {}, component: {}, target: {}, run: { never: 'runs a command given as its arguments' } } },
  go: { valueOptions: ['-C'], nested: { run: 'script', mod: {}, tool: {}, work: {} } },
  pip: {}, pip3: {},
  uv: { valueOptions: ['--directory', '--project', '-p', '--python'], nested: { run: 'command', pip: {}, tool: { nested: { run: 'command' } }, python: {} } },
  uvx: { command: true, valueOptions: ['--from', '--with', '-p', '--python'] },
  pipx: { nested: { run: 'command' } },
  poetry: { nested: { run: 'command', env: {}, self: {} } },
  pipenv: { nested: { run: 'command' } },
  hatch: { nested: { run: 'command', env: {} } },
  pdm: { nested: { run: 'command' } },
  conda: { valueOptions: ['-n', '--name', '-p', '--prefix'], nested: { env: {}, run: 'command' } },
  mamba: { valueOptions: ['-n', '--name', '-p', '--prefix'], nested: { env: {}, run: 'command' } },
  bundle: { nested: { exec: 'command' } },
  gem: {}, rake: {}, dotnet: { nested: { tool: {} } }, mvn: {}, mvnw: {}, gradle: {}, gradlew: {},
  make: {
    skipAssignments: true,
    valueOptions: ['-C', '--directory', '-I', '--include-dir', '-o', '--old-file', '-W', '--what-if', '-j', '--jobs', '-l', '--load-average'],
    neverOptions: { '-f': RUNS_MAKEFILE, '--file': RUNS_MAKEFILE, '--makefile': RUNS_MAKEFILE },
  },
  terraform: { nested: { state: {}, workspace: {} } }, tofu: { nested: { state: {}, workspace: {} } },
  gh: { depth: 2 }, az: { depth: 2 }, aws: { depth: 2, valueOptions: ['--profile', '--region', '--output'] }, gcloud: { depth: 3 },
  systemctl: {}, brew: { nested: { services: {} } }, apt: {}, 'apt-get': {}, dnf: {}, yum: {}, snap: {}, flatpak: {}, nix: {},
  turbo: { nested: { run: {} } }, nx: {}, lerna: { nested: { run: {} } }, ng: {}, pulumi: {}, vercel: {}, firebase: {},
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
  rg: { '--pre': RUNS_COMMAND },
  tar: {
    '-I': RUNS_COMMAND, '--use-compress-program': RUNS_COMMAND, '--to-command': RUNS_COMMAND,
    '--checkpoint-action': RUNS_COMMAND, '--info-script': RUNS_COMMAND, '--new-volume-script': RUNS_COMMAND, '-F': RUNS_COMMAND,
  },
  rsync: { '-e': RUNS_COMMAND, '--rsh': RUNS_COMMAND, '--rsync-path': RUNS_COMMAND },
  scp: { '-S': RUNS_COMMAND, '-o': 'sets ssh options, which can run a command (ProxyCommand)' },
  sort: { '--compress-program': RUNS_COMMAND },
  zip: { '-TT': RUNS_COMMAND, '--unzip-command': RUNS_COMMAND },
};

/** Builtins that set the variables their arguments name (`read PATH`, `printf -v PATH …`). */
export const ASSIGNING_BUILTINS = new Set(['read', 'mapfile', 'readarray', 'printf', 'getopts']);

/** Programs that only run the command in their arguments, and how their own options are read. */
export interface WrapperSpec {
  valueOptions?: string[];
  neverOptions?: Record<string, string>;
  /** Operands of the wrapper itself before the command (timeout's DURATION). */
  operands?: number;
  /** `NAME=value` words before the command set its environment (env). */
  assignments?: boolean;
  /** Options after which nothing runs: the wrapper only looks the command up (`command -v`). */
  lookupOptions?: string[];
}

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: {
    assignments: true,
    valueOptions: ['-u', '--unset', '-C', '--chdir'],
    neverOptions: { '-S': 'splits its argument into a command of its own', '--split-string': 'splits its argument into a command of its own' },
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
    valueOptions: ['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--max-lines', '--eof', '--process-slot-var'],
  },
};

/** Programs that run another command with more privileges: never auto-approved, whatever they run. */
export const PRIVILEGED = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0', 'runas']);

/** Programs whose arguments are code or a command line run some other way; they are never unwrapped. */
export const RUNS_ARGUMENTS: Readonly<Record<string, string>> = {
  watch: 'runs its arguments through a shell, again and again',
  parallel: 'builds commands from its arguments and input and runs them through a shell',
  trap: 'runs its first argument as shell code when a signal arrives',
  alias: 'defines an alias that changes what a later command runs',
  ssh: 'runs its arguments as a command on another machine',
  coproc: 'runs a command as a coprocess, a form these rules do not read',
};

/** Shells whose `-c` script is read with the same grammar, so it can be unwrapped. */
export const POSIX_SHELLS = new Set(['sh', 'bash', 'dash', 'ash']);
/** Other shells: their `-c` scripts are in another language and are never auto-approved. */
export const OTHER_SHELLS = new Set(['zsh', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'pwsh', 'powershell', 'cmd', 'nu', 'xonsh']);

/** Interpreters: the script they run is part of the signature (`node scripts/build.js`). */
export interface InterpreterSpec {
  codeOptions: string[];
  preloadOptions?: string[];
  valueOptions?: string[];
  /** `-m MODULE`: the module is what runs (`python -m pytest`). */
  moduleOption?: string;
  /** Options that choose a mode rather than a script (`node --test`, `node --run build`). */
  modeOptions?: Record<string, 0 | 1>;
}

const PYTHON: InterpreterSpec = { codeOptions: ['-c'], valueOptions: ['-W', '-X', '-Q'], moduleOption: '-m' };
const NODE: InterpreterSpec = {
  codeOptions: ['-e', '--eval', '-p', '--print'],
  preloadOptions: ['-r', '--require', '--import', '--loader', '--experimental-loader'],
  valueOptions: ['--input-type', '-C', '--conditions', '--env-file', '--title'],
  modeOptions: { '--test': 0, '--run': 1 },
};

/** The interpreter spec for a program name (`python3.12` is python). */
export function interpreterSpec(name: string): InterpreterSpec | undefined {
  if (/^(python|pypy)[\d.]*$/.test(name)) return PYTHON;
  if (name === 'node' || name === 'nodejs') return NODE;
  if (name === 'perl') return { codeOptions: ['-e', '-E'], valueOptions: ['-I', '-M', '-m'] };
  if (name === 'ruby') return { codeOptions: ['-e'], valueOptions: ['-I', '-r'] };
  if (name === 'php') return { codeOptions: ['-r', '-B', '-R', '-E', '-F'], valueOptions: ['-c', '-d'] };
  if (name === 'lua' || name === 'luajit') return { codeOptions: ['-e'], valueOptions: ['-l'] };
  if (name === 'Rscript') return { codeOptions: ['-e'] };
  if (name === 'osascript') return { codeOptions: ['-e'] };
  if (name === 'tsx' || name === 'ts-node') return { codeOptions: ['-e', '--eval', '-p', '--print'] };
  if (name === 'source' || name === '.') return { codeOptions: [] };
  return undefined;
}

const EXTRA_INJECTION_VARS = [
  'SHELL', 'ENV', 'PROMPT_COMMAND', 'PS4', 'SHELLOPTS', 'BASHOPTS', 'HOME', 'XDG_CONFIG_HOME', 'ZDOTDIR',
  'EDITOR', 'VISUAL', 'PAGER', 'BROWSER', 'CC', 'CXX', 'CPP', 'LD', 'AR', 'AS', 'FC', 'MAKE', 'MAKEFLAGS',
  'RUSTC', 'RUSTC_WRAPPER', 'RUSTFLAGS', 'PERL5DB', 'GIT_*', 'NPM_CONFIG_*', 'YARN_*', 'CARGO_*', 'PIP_*',
];

/** Whether setting `name` can change which program runs or load code into it (`PATH`, `LD_PRELOAD`, `GIT_SSH_COMMAND`…). */
export function changesWhatRuns(name: string): boolean {
  const upper = name.toUpperCase();
  return [...INJECTION_ENV_VARS, ...EXTRA_INJECTION_VARS].some((pattern) =>
    pattern.endsWith('*') ? upper.startsWith(pattern.slice(0, -1)) : upper === pattern);
}
