// What the signature rules know about programs with subcommands, as data: which words select what a
// program does, which options say where or which code runs (signed), which run or load code (never),
// and which verbs delete, install or reach another machine, so that every word of theirs is signed.
// The inert options of each level are in optionTables.ts; an option in no list joins the signature.
import type { OptionStyle } from './optionWords';
import { CARGO_LEVEL, DOCKER_READS, GIT_SUBCOMMANDS, GIT_TOP, GO_LEVEL, leaf, level, MAKE_LEVEL, NPM_LEVEL, PYTEST_LEVEL, type OptionLevel } from './optionTables';

/**
 * How the words after a program are read. `depth` subcommand words (1 when omitted, 0 for none) are part
 * of its signature; `nested` goes one level deeper for some of them (`docker compose up`), says that the
 * rest is a command of its own (`npx jest`, `uv run pytest`), that its first operand is the script it
 * runs (`deno run x.ts`), that all its words join the signature (`exact`: `git config core.pager x`,
 * `npm install pkg`, `git clean -fdx` — a setting, a package or a deletion is as wide as its words), or
 * that the subcommand runs code (`never`). A level's options are read before its subcommand and, for
 * the last level, after it: an option in none of its lists joins the signature verbatim.
 */
export interface ToolSpec extends OptionLevel {
  depth?: number;
  nested?: Record<string, ToolSpec | 'command' | 'script' | 'exact' | { never: string }>;
  /** How a subcommand that `nested` does not name is read: by the options of `sub`, or exactly. */
  otherwise?: 'exact';
  /** The options of the subcommands `nested` does not name (none when omitted). */
  sub?: ToolSpec;
  /** How the program spells its options (getopt when omitted). */
  style?: OptionStyle;
  /**
   * Options that take a value naming the folder, repository or package the program works with: the
   * option and its value join the signature (`git -C vendor/x status`), so an "Always allow" covers that
   * folder or package only — what the person saw.
   */
  signedOptions?: string[];
  /** Options that make the program run code or programs that the command does not show, with the reason. */
  neverOptions?: Record<string, string>;
  /** Options that delete, overwrite or reach elsewhere: with one of them, every word joins the signature. */
  exactOptions?: string[];
  /** The rest of the words, after the options, is a command of its own (`npx`). */
  command?: boolean;
  /** Operands holding `=` (variable overrides such as make's `CC=clang`) are skipped, not subcommands. */
  skipAssignments?: boolean;
  /** Its options count after the subcommand or target too (GNU make, cargo, npm's nopt, kubectl). */
  permutes?: boolean;
  /** Words starting with `+` are options too (`cargo +nightly test`). */
  plusOptions?: boolean;
  /** Its operands join the signature: they are what runs (make targets, gradle tasks, rake tasks). */
  signOperands?: boolean;
}

// Why each option is signed or refused: a folder, repository or package named in the command is shown
// to the person, so it becomes part of what they allow (signed). Configuration, a registry or an index
// swaps the code that runs for code the command does not show (refused) — as NPM_CONFIG_REGISTRY= or
// PIP_INDEX_URL= in front of the command is refused.
const RUNS_CONFIG = 'sets configuration that can name programs to run';
const SWAPS_REGISTRY = 'downloads packages from another registry or index than the one configured';
const READS_CONFIG = 'reads a configuration file that can name programs to run';
const RUNS_MAKEFILE = 'runs the recipes of the makefile it names';
const RUNS_CODE = 'runs code given on its command line';
const LOADS_CODE = 'loads code named on its command line';
const RUNS_SHELL_CODE = { '-c': 'runs the shell command given as its value', '--call': 'runs the shell command given as its value' };
const PACKAGE_FOLDERS = ['--prefix', '-w', '--workspace', '-C', '--dir', '--filter', '-F', '--cwd'];
/** npm's options that name a program it runs, a registry or configuration (any `--key=value` sets that key). */
export const NPM_NEVER = {
  '--node-options': 'passes options that can load code to node', '--script-shell': 'chooses the shell that runs scripts',
  '--registry': SWAPS_REGISTRY, '--userconfig': READS_CONFIG, '--globalconfig': READS_CONFIG,
  '--shell': 'chooses the shell that runs commands', '--git': 'chooses the git program npm runs', '--editor': 'chooses the editor npm runs',
  '--browser': 'chooses the browser program npm runs', '--viewer': 'chooses the program that shows help', '--onload-script': 'runs a script when npm loads',
  '--init-module': 'runs a module when a package is initialised', '--config.': 'sets configuration that can name programs to run (pnpm)',
};
/** pip's options that swap the index or read configuration. */
export const PIP_NEVER = {
  '-i': SWAPS_REGISTRY, '--index-url': SWAPS_REGISTRY, '--extra-index-url': SWAPS_REGISTRY, '-f': SWAPS_REGISTRY, '--find-links': SWAPS_REGISTRY,
  '--index': SWAPS_REGISTRY, '--default-index': SWAPS_REGISTRY, '--config-file': READS_CONFIG,
};
// Settings, installs, removals and publishing are as wide as the words that name them: `npm pkg set
// scripts.test=CMD` changes what later commands run, `npm install pkg` runs pkg's scripts.
const NPM_EXACT: Record<string, 'exact'> = Object.fromEntries(
  `config c set pkg set-script install i in add isntall install-test it link ln update up upgrade rebuild dedupe uninstall remove rm r un
   unlink publish unpublish deprecate dist-tag owner access token login adduser logout cache prune`.split(/\s+/).map((verb) => [verb, 'exact']),
);
const SHELL_MODE = { '-c': 'runs its command through a shell', '--shell-mode': 'runs its command through a shell' };
const NPX: ToolSpec = { command: true, flags: ['-y', '--yes', '--no', '--no-install', '-q', '--quiet'], signedOptions: ['-p', '--package'], neverOptions: { ...RUNS_SHELL_CODE, ...NPM_NEVER } };
const PNPM_EXEC: ToolSpec = { command: true, flags: ['-r', '--recursive', '--parallel'], neverOptions: { ...SHELL_MODE, ...NPM_NEVER } };
const JS_PM = (extra: ToolSpec['nested']): ToolSpec => ({
  ...NPM_LEVEL, permutes: true, signedOptions: PACKAGE_FOLDERS, neverOptions: NPM_NEVER,
  nested: { run: {}, 'run-script': {}, test: {}, t: {}, start: {}, ci: {}, ls: {}, list: {}, outdated: {}, why: {}, audit: { nested: { fix: 'exact' } }, ...NPM_EXACT, ...extra },
  sub: {},
});
const PIP_EXACT: Record<string, 'exact'> = { install: 'exact', download: 'exact', wheel: 'exact', config: 'exact', uninstall: 'exact' };
const PIP_READS: ToolSpec['nested'] = {
  list: leaf('-o --outdated -u --uptodate -e --editable -l --local --user --not-required --exclude-editable --include-editable', '--format --exclude'),
  show: leaf('-f --files -v --verbose'), freeze: leaf('-l --local --user --all --exclude-editable', '--exclude'), check: leaf(''),
};
const PIP: ToolSpec = { ...leaf('-q --quiet -v --verbose --no-color --disable-pip-version-check --no-input --isolated'), depth: 1, permutes: true, neverOptions: PIP_NEVER, nested: { ...PIP_READS, ...PIP_EXACT } };
// `uv run --with pkg` and `uvx --from pkg tool` run the packages named there, and `--python ./x` runs
// the interpreter it names: they are signed; an env file can set variables that change what runs.
const UV_PACKAGES = ['--from', '--with', '--with-editable', '--with-requirements', '--package', '--directory', '--project', '--script', '-p', '--python'];
const UV_NEVER = { ...PIP_NEVER, '--env-file': 'loads variables that can change what runs', '--config-file': READS_CONFIG };
const UV_FLAGS = ['--frozen', '--locked', '--no-sync', '--isolated', '--no-project', '--all-extras', '--no-dev', '--dev', '-q', '--quiet', '-v', '--verbose', '--offline', '--no-cache', '--active', '--all-groups', '--all-packages', '--no-progress', '--exact'];
const UV_RUN: ToolSpec = { command: true, style: 'pflag', flags: UV_FLAGS, valueOptions: ['--extra', '--group', '--only-group', '--no-group', '--color'], signedOptions: UV_PACKAGES, neverOptions: UV_NEVER };
const KUBECONFIG = { '--kubeconfig': 'reads a kubeconfig, which can name a program to run for credentials' };
// Each program's verbs that only read are named; any other verb changes the cluster, the machine or the
// remote, so all its words are signed.
const READS = (verbs: Record<string, ToolSpec>, rest: ToolSpec = {}): ToolSpec => ({ ...rest, nested: { ...verbs, ...rest.nested }, otherwise: 'exact' });
const KUBE_GET = leaf('-A --all-namespaces -w --watch --watch-only --show-labels --no-headers --show-kind -i', '-o --output -l --selector --field-selector --sort-by -L --label-columns --chunk-size');
const KUBE_LOGS = leaf('-f --follow -p --previous --timestamps --all-containers --prefix', '-c --container --tail --since --since-time -l --selector --limit-bytes');
const GH_LIST = leaf('-w --web', '-L --limit -s --state --json -q --jq -t --template -l --label -a --assignee -A --author -B --base -H --head -S --search');
const RAKE_NEVER = {
  '-e': RUNS_CODE, '--execute': RUNS_CODE, '-p': RUNS_CODE, '--execute-print': RUNS_CODE, '-E': RUNS_CODE, '--execute-continue': RUNS_CODE,
  '-r': LOADS_CODE, '--require': LOADS_CODE, '-I': LOADS_CODE, '--libdir': LOADS_CODE, '-R': LOADS_CODE, '--rakelibdir': LOADS_CODE,
  '-f': 'runs the tasks of the Rakefile it names', '--rakefile': 'runs the tasks of the Rakefile it names', '-g': LOADS_CODE, '--system': LOADS_CODE,
};
const GRADLE: ToolSpec = {
  style: 'pflag', permutes: true, signOperands: true,
  ...level('-q --quiet -i --info -d --debug -s --stacktrace -S --full-stacktrace --offline --no-daemon --daemon --parallel --no-parallel --continue --build-cache --no-build-cache --rerun-tasks --refresh-dependencies -w --warn --dry-run -m -v --version -h --help --status --stop', '-x --exclude-task --console --warning-mode --max-workers --priority'),
  signedOptions: ['-p', '--project-dir', '--include-build'],
  neverOptions: {
    '-I': 'runs the init script it names', '--init-script': 'runs the init script it names', '-b': 'runs the build file it names', '--build-file': 'runs the build file it names',
    '-c': 'reads the settings script it names', '--settings-file': 'reads the settings script it names', '-g': 'reads init scripts and properties from the folder it names',
    '--gradle-user-home': 'reads init scripts and properties from the folder it names', '--project-cache-dir': 'keeps its build state in the folder it names',
  },
};
const MAVEN: ToolSpec = {
  style: 'pflag', permutes: true, signOperands: true,
  ...level('-q --quiet -B --batch-mode -e --errors -X --debug -o --offline -U --update-snapshots -N --non-recursive -am --also-make -amd --also-make-dependents -ntp --no-transfer-progress -V --show-version -v --version -fae --fail-at-end -ff --fail-fast -fn --fail-never -h --help', '-T --threads -pl --projects -rf --resume-from'),
  signedOptions: ['-f', '--file'],
  neverOptions: { '-s': READS_CONFIG, '--settings': READS_CONFIG, '-gs': READS_CONFIG, '--global-settings': READS_CONFIG, '-t': READS_CONFIG, '--toolchains': READS_CONFIG, '-gt': READS_CONFIG, '--global-toolchains': READS_CONFIG },
};
const PYTEST: ToolSpec = {
  depth: 0, ...PYTEST_LEVEL,
  // The files and folders it is given are the code it imports (a non-test module, a conftest.py it would skip).
  signOperands: true,
  // --rootdir and --confcutdir choose which conftest.py files load; --junitxml writes a file.
  signedOptions: ['--rootdir', '--confcutdir', '--junitxml', '--junit-xml', '-W', '--pythonwarnings', '--cov', '--cov-report'],
  neverOptions: { '-p': 'loads the plugin module it names', '-c': READS_CONFIG, '--config-file': READS_CONFIG, '-o': 'overrides configuration, which can load plugins (addopts)', '--override-ini': 'overrides configuration, which can load plugins (addopts)', '--pyargs': 'imports the installed packages its operands name' },
  // pytest empties its --basetemp folder before the run.
  exactOptions: ['--basetemp'],
};

/** Programs whose first words after the options select what they do. */
export const TOOLS: Readonly<Record<string, ToolSpec>> = {
  git: {
    ...GIT_TOP,
    // A subcommand the table does not read is signed by every word (`git bundle create FILE` writes FILE).
    otherwise: 'exact',
    // A folder or repository other than the working one brings its own configuration (core.fsmonitor…).
    signedOptions: ['-C', '--git-dir', '--work-tree'],
    neverOptions: {
      '-c': RUNS_CONFIG, '--config-env': RUNS_CONFIG, '--exec-path': 'chooses where git finds the programs it runs',
      '--bare': 'treats the current folder as the repository, whose config file can name programs to run',
    },
    nested: {
      ...GIT_SUBCOMMANDS,
      stash: { ...level('-p --patch -q --quiet --stat -u --include-untracked -k --keep-index --name-only', '-m --message'), nested: { drop: 'exact', clear: 'exact', pop: 'exact' } },
      remote: { ...level('-v --verbose'), otherwise: 'exact', nested: { show: {}, 'get-url': {} } },
      worktree: { nested: { list: leaf('-v --porcelain -z') }, otherwise: 'exact' },
      reflog: { nested: { show: {}, expire: 'exact', delete: 'exact' } },
      lfs: {}, notes: {}, 'sparse-checkout': {}, flow: {},
      // A key such as core.fsmonitor or core.pager makes every later git command run its value.
      config: 'exact', 'update-index': 'exact', 'update-ref': 'exact', 'symbolic-ref': 'exact',
      // These delete, discard or overwrite work, or reach a remote: every word is what was allowed.
      clean: 'exact', push: 'exact', reset: 'exact', restore: 'exact', checkout: 'exact', rm: 'exact', mv: 'exact', gc: 'exact', prune: 'exact',
      'filter-repo': 'exact', am: 'exact', apply: 'exact', 'read-tree': 'exact',
      hook: { nested: { run: { never: 'runs a hook script of the repository' } } },
      'filter-branch': { never: 'runs the shell commands given as its filters' },
      'send-email': 'exact', clone: 'exact', init: 'exact', 'credential': { never: 'runs the credential helpers the configuration names' },
      submodule: { nested: { foreach: { never: 'runs a shell command in every submodule' } } },
      bisect: { nested: { run: { never: 'runs a command at every bisection step' } } },
    },
  },
  npm: JS_PM({ exec: NPX, x: NPX, explore: { never: 'runs a shell command in a package folder' } }),
  // The package npx installs is what runs, so it is signed (`npx -p typescript tsc`).
  npx: NPX,
  pnpm: { ...JS_PM({ exec: PNPM_EXEC, dlx: NPX }), neverOptions: { ...NPM_NEVER, ...SHELL_MODE } },
  pnpx: NPX,
  yarn: JS_PM({ exec: PNPM_EXEC, dlx: NPX }),
  bun: { nested: { run: 'script', x: 'command' }, neverOptions: { '-e': RUNS_CODE, '--eval': RUNS_CODE, '-p': RUNS_CODE, '--print': RUNS_CODE, '-r': LOADS_CODE, '--preload': LOADS_CODE } },
  bunx: { command: true, signedOptions: ['-p', '--package'] },
  deno: { nested: { run: 'script', eval: { never: RUNS_CODE } }, sub: { ...level('-q --quiet --no-check --check'), neverOptions: { '--import-map': LOADS_CODE, '-c': READS_CONFIG, '--config': READS_CONFIG, '--preload': LOADS_CODE, '--env-file': 'loads variables that can change what runs' } } },
  docker: READS({
    ...DOCKER_READS,
    compose: READS({ ps: leaf('-a --all -q --quiet', '--format --status'), logs: DOCKER_READS.logs, config: leaf('-q --quiet --services --volumes --images'), ls: leaf('-a --all -q --quiet'), images: leaf('-q --quiet'), top: {}, version: {} }, {
      style: 'pflag', signedOptions: ['-f', '--file', '-p', '--project-name', '--project-directory'], valueOptions: ['--profile', '--ansi', '--progress'],
      neverOptions: { '--env-file': 'loads variables that the compose file puts into what it runs' },
    }),
    container: READS({ ls: DOCKER_READS.ps, list: DOCKER_READS.ps, ps: DOCKER_READS.ps, inspect: DOCKER_READS.inspect, logs: DOCKER_READS.logs, top: {}, port: {}, diff: {}, stats: DOCKER_READS.stats }),
    image: READS({ ls: DOCKER_READS.images, list: DOCKER_READS.images, inspect: DOCKER_READS.inspect, history: DOCKER_READS.history }),
    network: READS({ ls: leaf('-q --quiet --no-trunc', '-f --filter --format'), inspect: DOCKER_READS.inspect }),
    volume: READS({ ls: leaf('-q --quiet', '-f --filter --format'), inspect: DOCKER_READS.inspect }),
    system: READS({ df: leaf('-v --verbose', '--format'), info: DOCKER_READS.info, events: DOCKER_READS.events }),
    context: READS({ ls: leaf('-q --quiet', '--format'), show: {}, inspect: DOCKER_READS.inspect }),
    buildx: READS({ ls: {}, version: {}, inspect: {} }),
  }, {
    style: 'pflag', ...level('-D --debug --tls --tlsverify -v --version', '-l --log-level'),
    // Another daemon is another machine; a config folder can name credential helpers it runs.
    signedOptions: ['--context', '-c', '-H', '--host'], neverOptions: { '--config': 'reads a configuration folder that can name credential helper programs to run' },
  }),
  podman: READS({ ps: DOCKER_READS.ps, images: DOCKER_READS.images, logs: DOCKER_READS.logs, inspect: DOCKER_READS.inspect, version: {}, info: {} }, { style: 'pflag', signedOptions: ['--connection', '-c', '--url'] }),
  'docker-compose': READS({ ps: {}, logs: DOCKER_READS.logs, config: {}, images: {}, top: {}, version: {} }, { signedOptions: ['-f', '--file', '-p', '--project-name', '--project-directory'], valueOptions: ['--profile'], neverOptions: { '--env-file': 'loads variables that the compose file puts into what it runs' } }),
  kubectl: READS({
    // What is read is named by the operands: `kubectl get pods` must not cover `kubectl get secrets -o yaml`.
    get: { ...KUBE_GET, signOperands: true }, describe: { ...leaf('--show-events', '-l --selector'), signOperands: true }, logs: KUBE_LOGS, top: leaf('-A --all-namespaces --no-headers', '-l --selector --sort-by'), explain: leaf('--recursive', '--api-version'),
    'api-resources': leaf('--namespaced --no-headers', '-o --output --api-group --verbs'), 'api-versions': {}, version: leaf('--client', '-o --output'), 'cluster-info': {},
    config: READS({ view: leaf('--minify --raw --flatten', '-o --output'), 'get-contexts': leaf('--no-headers', '-o --output'), 'current-context': {} }),
    rollout: READS({ status: leaf('-w --watch', '--revision --timeout'), history: leaf('', '--revision') }), auth: READS({ 'can-i': leaf('--list -A --all-namespaces'), whoami: {} }),
  }, { style: 'pflag', permutes: true, valueOptions: ['-n', '--namespace', '-v', '--v', '--request-timeout'], signedOptions: ['--context', '--cluster', '--user', '-s', '--server', '--token', '--as'], neverOptions: KUBECONFIG }),
  helm: READS({
    list: leaf('-a --all -A --all-namespaces -q --short --deployed --failed --pending', '-o --output -f --filter'), ls: leaf('-a --all -A --all-namespaces -q --short', '-o --output'),
    status: leaf('', '-o --output --revision'), history: leaf('', '-o --output --max'), get: READS({ values: leaf('-a --all', '-o --output --revision'), manifest: {}, notes: {}, all: {} }),
    show: READS({ chart: {}, values: {}, readme: {}, all: {} }), version: {}, search: READS({ repo: {}, hub: {} }), repo: READS({ list: {} }), env: {}, lint: {},
  }, { style: 'pflag', permutes: true, valueOptions: ['-n', '--namespace'], signedOptions: ['--kube-context'], neverOptions: { ...KUBECONFIG, '--post-renderer': 'runs the program it names on the rendered manifests' } }),
  cargo: {
    style: 'pflag', plusOptions: true, permutes: true, ...CARGO_LEVEL,
    // A target given as a path is a JSON target spec, which names the linker the build runs.
    signedOptions: ['-C', '--manifest-path', '--target-dir', '--target'],
    // `-Z` unstable flags include ones that load code or change the build's programs; installs run build scripts.
    neverOptions: { '--config': RUNS_CONFIG, '-Z': 'turns on unstable features, some of which change which programs the build runs' },
    nested: { install: 'exact', uninstall: 'exact', add: 'exact', remove: 'exact', config: 'exact', publish: 'exact', yank: 'exact', login: 'exact', owner: 'exact' },
  },
  rustup: { nested: { toolchain: {}, component: {}, target: {}, run: { never: 'runs a command given as its arguments' } } },
  go: {
    style: 'go', signedOptions: ['-C'], sub: { ...GO_LEVEL, neverOptions: { '-vettool': 'runs the program it names as the vet tool' } },
    nested: { run: 'script', mod: { nested: { edit: 'exact' } }, tool: {}, work: {}, install: 'exact', get: 'exact', env: 'exact', clean: 'exact', generate: { never: 'runs the commands named in //go:generate lines' } },
  },
  pip: PIP, pip3: PIP,
  uv: {
    // uv's global options are read after the subcommand too.
    style: 'pflag', permutes: true, flags: UV_FLAGS, signedOptions: ['--directory', '--project', '-p', '--python'], neverOptions: UV_NEVER,
    nested: { run: UV_RUN, pip: { nested: PIP_EXACT }, tool: { nested: { run: UV_RUN, install: 'exact', uninstall: 'exact' } }, python: {}, add: 'exact', remove: 'exact', sync: {}, lock: {} },
  },
  uvx: UV_RUN,
  pipx: { nested: { run: 'command', install: 'exact', uninstall: 'exact', inject: 'exact' }, neverOptions: PIP_NEVER },
  poetry: { nested: { run: 'command', env: {}, self: {}, add: 'exact', remove: 'exact', source: 'exact', config: 'exact' } },
  pipenv: { nested: { run: 'command', install: 'exact', uninstall: 'exact' } },
  hatch: { nested: { run: 'command', env: {} } },
  pdm: { nested: { run: 'command', add: 'exact', remove: 'exact' } },
  conda: { valueOptions: ['-n', '--name'], signedOptions: ['-p', '--prefix'], nested: { env: {}, run: 'command', install: 'exact', create: 'exact', remove: 'exact', update: 'exact', config: 'exact' } },
  mamba: { valueOptions: ['-n', '--name'], signedOptions: ['-p', '--prefix'], nested: { env: {}, run: 'command', install: 'exact', create: 'exact', remove: 'exact', update: 'exact' } },
  pytest: PYTEST, 'py.test': PYTEST,
  bundle: { nested: { exec: 'command', install: 'exact', add: 'exact', update: 'exact', remove: 'exact', config: 'exact' } },
  gem: { nested: { install: 'exact', uninstall: 'exact', update: 'exact', sources: 'exact' } },
  rake: {
    permutes: true, signOperands: true, neverOptions: RAKE_NEVER,
    ...level('-q --quiet -s --silent -t --trace -v --verbose -n --dry-run -P --prereqs -A --all -N --no-search --nosearch -G --no-system -X --no-deprecation-warnings -m --multitask -V --version -h --help -H', '', '-T --tasks -D --describe -W --where -j --jobs'),
  },
  dotnet: { nested: { tool: {}, add: 'exact', remove: 'exact', nuget: 'exact' } },
  mvn: MAVEN, mvnw: MAVEN, gradle: GRADLE, gradlew: GRADLE,
  make: {
    skipAssignments: true, permutes: true, signOperands: true, ...MAKE_LEVEL,
    // make resolves `include` in the folders -I names.
    signedOptions: ['-C', '--directory', '-I', '--include-dir'],
    neverOptions: {
      '-f': RUNS_MAKEFILE, '--file': RUNS_MAKEFILE, '--makefile': RUNS_MAKEFILE,
      '-E': 'evaluates its value as makefile text, which can run shell commands', '--eval': 'evaluates its value as makefile text, which can run shell commands',
    },
  },
  // A plan or validation runs the providers and data sources of the configuration: every word is signed.
  terraform: READS({ version: {} }), tofu: READS({ version: {} }),
  gh: READS({
    pr: READS({ list: GH_LIST, view: GH_LIST, status: GH_LIST, diff: leaf('--name-only --patch', '--color'), checks: leaf('--watch --required', '--json') }),
    issue: READS({ list: GH_LIST, view: GH_LIST, status: GH_LIST }), repo: READS({ view: GH_LIST, list: GH_LIST }), run: READS({ list: GH_LIST, view: GH_LIST, watch: {} }),
    release: READS({ list: GH_LIST, view: GH_LIST }), workflow: READS({ list: GH_LIST, view: GH_LIST }), auth: READS({ status: {} }),
    search: READS({ repos: GH_LIST, issues: GH_LIST, prs: GH_LIST, code: GH_LIST, commits: GH_LIST }), status: {},
  }, { style: 'pflag', permutes: true, signedOptions: ['-R', '--repo', '--hostname'] }),
  // Cloud CLIs: a verb's operands name what it deletes or changes, so they are signed.
  az: { depth: 2, signOperands: true }, aws: { depth: 2, signOperands: true, valueOptions: ['--region', '--output'], signedOptions: ['--profile', '--endpoint-url'] }, gcloud: { depth: 3, signOperands: true },
  systemctl: READS({ status: {}, 'list-units': {}, 'list-timers': {}, 'is-active': {}, 'is-enabled': {}, 'is-failed': {}, show: {}, cat: {} }),
  brew: READS({ list: {}, info: {}, search: {}, outdated: {}, doctor: {}, config: {}, deps: {}, services: READS({ list: {}, info: {} }) }),
  apt: READS({ list: {}, search: {}, show: {}, policy: {} }), 'apt-get': READS({}), dnf: READS({ list: {}, info: {}, search: {} }), yum: READS({ list: {}, info: {}, search: {} }),
  snap: READS({ list: {}, info: {}, find: {} }), flatpak: READS({ list: {}, info: {}, search: {} }), nix: READS({}),
  turbo: { nested: { run: {} } }, nx: {}, lerna: { nested: { run: {} } }, ng: {}, pulumi: READS({ version: {}, whoami: {} }), vercel: READS({ whoami: {}, ls: {}, list: {} }), firebase: READS({ projects: {} }),
};
