// What the signature rules know about particular programs, as data: which words after a program select
// what it does (its subcommands), which programs only wrap another command, which run code given on
// their command line, and which options change what code runs or where. Wrappers, elevators, shells,
// interpreters and the variables that change what runs are in the one shell table (core/shell). A
// program named in neither is signed by its exact words: an "Always allow" on `xvfb-run -a npm test`
// covers that command and nothing else.

/**
 * How the words after a program are read. `depth` subcommand words (1 when omitted) are part of its
 * signature; `nested` goes one level deeper for some of them (`docker compose up`), says that the rest
 * is a command of its own (`npx jest`, `uv run pytest`), that its first operand is the script it runs
 * (`deno run x.ts`), that all its words join the signature (`exact`: `git config core.pager x`, `npm
 * install pkg` — a setting or a package is as wide as its name), or that the subcommand runs code (`never`).
 */
export interface ToolSpec {
  depth?: number;
  nested?: Record<string, ToolSpec | 'command' | 'script' | 'exact' | { never: string }>;
  /** Options that take the next word as their value and change nothing about which code runs. */
  valueOptions?: string[];
  /**
   * Options that take a value naming the folder, repository or package the program works with: the
   * option and its value join the signature (`git -C vendor/x status`), so an "Always allow" covers that
   * folder or package only — what the person saw.
   */
  signedOptions?: string[];
  /** Options that make the program run code or programs that the command does not show, with the reason. */
  neverOptions?: Record<string, string>;
  /** The rest of the words, after the options, is a command of its own (`npx`). */
  command?: boolean;
  /** Operands holding `=` (variable overrides such as make's `CC=clang`) are skipped, not subcommands. */
  skipAssignments?: boolean;
  /** Its never and signed options count after the subcommand or target too (GNU make, cargo). */
  permutes?: boolean;
  /** Words starting with `+` are options too (`cargo +nightly test`). */
  plusOptions?: boolean;
}

// Why each option is signed or refused: a folder, repository or package named in the command is shown
// to the person, so it becomes part of what they allow (signed). Configuration, a registry or an index
// swaps the code that runs for code the command does not show (refused) — as NPM_CONFIG_REGISTRY= or
// PIP_INDEX_URL= in front of the command is refused.
const RUNS_CONFIG = 'sets configuration that can name programs to run';
const SWAPS_REGISTRY = 'downloads packages from another registry or index than the one configured';
const READS_CONFIG = 'reads a configuration file that can name programs to run';
const RUNS_MAKEFILE = 'runs the recipes of the makefile it names';
const RUNS_SHELL_CODE = { '-c': 'runs the shell command given as its value', '--call': 'runs the shell command given as its value' };
const PACKAGE_FOLDERS = ['--prefix', '-w', '--workspace', '-C', '--dir', '--filter', '-F', '--cwd'];
const NPM_NEVER = {
  '--node-options': 'passes options that can load code to node', '--script-shell': 'chooses the shell that runs scripts',
  '--registry': SWAPS_REGISTRY, '--userconfig': READS_CONFIG, '--globalconfig': READS_CONFIG,
  // Any unknown `--key=value` sets that configuration key; these name programs npm runs.
  '--shell': 'chooses the shell that runs commands', '--git': 'chooses the git program npm runs', '--editor': 'chooses the editor npm runs',
  '--browser': 'chooses the browser program npm runs', '--viewer': 'chooses the program that shows help', '--onload-script': 'runs a script when npm loads',
  '--init-module': 'runs a module when a package is initialised', '--config.': 'sets configuration that can name programs to run (pnpm)',
};
const PIP_NEVER = {
  '-i': SWAPS_REGISTRY, '--index-url': SWAPS_REGISTRY, '--extra-index-url': SWAPS_REGISTRY, '-f': SWAPS_REGISTRY, '--find-links': SWAPS_REGISTRY,
  '--index': SWAPS_REGISTRY, '--default-index': SWAPS_REGISTRY, '--config-file': READS_CONFIG,
};
// Settings and installs are as wide as the words that name them: `npm pkg set scripts.test=CMD` and
// `npm config set script-shell CMD` change what later commands run, `npm install pkg` runs pkg's scripts.
const NPM_EXACT: Record<string, 'exact'> = {
  config: 'exact', c: 'exact', set: 'exact', pkg: 'exact', 'set-script': 'exact',
  install: 'exact', i: 'exact', in: 'exact', add: 'exact', isntall: 'exact', 'install-test': 'exact', it: 'exact', link: 'exact', ln: 'exact',
  update: 'exact', up: 'exact', upgrade: 'exact', rebuild: 'exact', dedupe: 'exact',
};
const SHELL_MODE = { '-c': 'runs its command through a shell', '--shell-mode': 'runs its command through a shell' };
const NPX: ToolSpec = { command: true, valueOptions: [], signedOptions: ['-p', '--package'], neverOptions: { ...RUNS_SHELL_CODE, ...NPM_NEVER } };
const PNPM_EXEC: ToolSpec = { command: true, valueOptions: [], neverOptions: { ...SHELL_MODE, ...NPM_NEVER } };
const PIP_EXACT: Record<string, 'exact'> = { install: 'exact', download: 'exact', wheel: 'exact', config: 'exact' };
// `uv run --with pkg` and `uvx --from pkg tool` run the packages named there, so they are signed; an
// env file can set variables that change what runs.
const UV_PACKAGES = ['--from', '--with', '--with-editable', '--with-requirements', '--package', '--directory', '--project', '--script'];
const UV_NEVER = { ...PIP_NEVER, '--env-file': 'loads variables that can change what runs', '--config-file': READS_CONFIG };
const UV_RUN: ToolSpec = { command: true, valueOptions: ['-p', '--python'], signedOptions: UV_PACKAGES, neverOptions: UV_NEVER };
const UVX: ToolSpec = UV_RUN;
const KUBECONFIG = { '--kubeconfig': 'reads a kubeconfig, which can name a program to run for credentials' };

/** Programs whose first words after the options select what they do. */
export const TOOLS: Readonly<Record<string, ToolSpec>> = {
  git: {
    valueOptions: ['--namespace', '--super-prefix'],
    // A folder or repository other than the working one brings its own configuration (core.fsmonitor…).
    signedOptions: ['-C', '--git-dir', '--work-tree'],
    neverOptions: {
      '-c': RUNS_CONFIG, '--config-env': RUNS_CONFIG, '--exec-path': 'chooses where git finds the programs it runs',
      '--bare': 'treats the current folder as the repository, whose config file can name programs to run',
    },
    nested: {
      stash: {}, remote: {}, worktree: {}, lfs: {}, notes: {}, 'sparse-checkout': {}, flow: {},
      // A key such as core.fsmonitor or core.pager makes every later git command run its value.
      config: 'exact', 'update-index': 'exact', 'update-ref': 'exact', 'symbolic-ref': 'exact',
      hook: { nested: { run: { never: 'runs a hook script of the repository' } } },
      'filter-branch': { never: 'runs the shell commands given as its filters' },
      'send-email': 'exact', clone: 'exact', init: 'exact', 'credential': { never: 'runs the credential helpers the configuration names' },
      submodule: { nested: { foreach: { never: 'runs a shell command in every submodule' } } },
      bisect: { nested: { run: { never: 'runs a command at every bisection step' } } },
    },
  },
  npm: { signedOptions: PACKAGE_FOLDERS, neverOptions: NPM_NEVER, nested: { run: {}, 'run-script': {}, exec: NPX, x: NPX, ...NPM_EXACT, explore: { never: 'runs a shell command in a package folder' } } },
  // The package npx installs is what runs, so it is signed (`npx -p typescript tsc`).
  npx: NPX,
  pnpm: { signedOptions: PACKAGE_FOLDERS, neverOptions: { ...NPM_NEVER, ...SHELL_MODE }, nested: { run: {}, exec: PNPM_EXEC, dlx: NPX, ...NPM_EXACT } },
  pnpx: NPX,
  yarn: { signedOptions: PACKAGE_FOLDERS, neverOptions: NPM_NEVER, nested: { run: {}, exec: PNPM_EXEC, dlx: NPX, ...NPM_EXACT } },
  bun: { nested: { run: 'script', x: 'command' }, neverOptions: { '-e': 'runs code given on its command line', '--eval': 'runs code given on its command line', '-p': 'runs code given on its command line', '--print': 'runs code given on its command line', '-r': 'loads code named on its command line', '--preload': 'loads code named on its command line' } },
  bunx: { command: true, signedOptions: ['-p', '--package'] },
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
  kubectl: { valueOptions: ['-n', '--namespace', '--context', '--cluster', '--user', '-s', '--server'], neverOptions: KUBECONFIG, nested: { config: {}, rollout: {}, auth: {} } },
  helm: { valueOptions: ['-n', '--namespace', '--kube-context'], neverOptions: KUBECONFIG, nested: { repo: {}, plugin: {} } },
  cargo: {
    plusOptions: true, permutes: true, signedOptions: ['-C', '--manifest-path'],
    // `-Z` unstable flags include ones that load code or change the build's programs; installs run build scripts.
    neverOptions: { '--config': RUNS_CONFIG, '-Z': 'turns on unstable features, some of which change which programs the build runs' },
    nested: { install: 'exact', config: 'exact' },
  },
  rustup: { nested: { toolchain: {}, component: {}, target: {}, run: { never: 'runs a command given as its arguments' } } },
  go: { signedOptions: ['-C'], nested: { run: 'script', mod: {}, tool: {}, work: {}, install: 'exact', get: 'exact', env: 'exact', generate: { never: 'runs the commands named in //go:generate lines' } } },
  pip: { neverOptions: PIP_NEVER, nested: PIP_EXACT }, pip3: { neverOptions: PIP_NEVER, nested: PIP_EXACT },
  uv: {
    valueOptions: ['-p', '--python'], signedOptions: ['--directory', '--project'], neverOptions: PIP_NEVER,
    nested: { run: UV_RUN, pip: { nested: PIP_EXACT }, tool: { nested: { run: UVX, install: 'exact' } }, python: {}, add: 'exact' },
  },
  uvx: UVX,
  pipx: { nested: { run: 'command' }, neverOptions: PIP_NEVER },
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
    permutes: true,
    valueOptions: ['-I', '--include-dir', '-o', '--old-file', '-W', '--what-if', '-j', '--jobs', '-l', '--load-average'],
    signedOptions: ['-C', '--directory'],
    neverOptions: {
      '-f': RUNS_MAKEFILE, '--file': RUNS_MAKEFILE, '--makefile': RUNS_MAKEFILE,
      '-E': 'evaluates its value as makefile text, which can run shell commands', '--eval': 'evaluates its value as makefile text, which can run shell commands',
    },
  },
  terraform: { nested: { state: {}, workspace: {} } }, tofu: { nested: { state: {}, workspace: {} } },
  gh: { depth: 2 }, az: { depth: 2 }, aws: { depth: 2, valueOptions: ['--profile', '--region', '--output'] }, gcloud: { depth: 3 },
  systemctl: {}, brew: { nested: { services: {} } }, apt: {}, 'apt-get': {}, dnf: {}, yum: {}, snap: {}, flatpak: {}, nix: {},
  turbo: { nested: { run: {} } }, nx: {}, lerna: { nested: { run: {} } }, ng: {}, pulumi: {}, vercel: {}, firebase: {},
};

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

