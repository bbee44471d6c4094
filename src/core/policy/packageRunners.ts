// Package runners other than npm's, each read with its own table of options (pnpm dlx, yarn dlx, bunx,
// uvx / `uv tool run`, `pipx run`). They stop reading options at the first operand, and none accepts an
// abbreviated option, so an option missing from a table is refused by name. Options are sorted by what
// they do to the package: inert, naming packages, fetching or running them from elsewhere (unvouched),
// or making what runs unknowable.
import type { LaunchedPackage, Packages } from './launchReading';
import { npmPackage, withPackages } from './npmSpecs';
import { firstOf, readOptions, valuesOf, type OptionTable } from './optionReader';
import { normalizePypiName, pypiPackage } from './pypiSpecs';

interface RunnerSpec {
  table: OptionTable;
  /** Options whose values are the packages that run (the first operand is then a command). */
  packageOptions: readonly string[];
  /** Options whose values are more packages installed beside the one that runs (uv's `--with`, comma lists). */
  extraOptions?: readonly string[];
  /** Options after which what runs is not determined, with why. */
  unknowable?: Readonly<Record<string, string>>;
  /** Options that fetch or run the named package from elsewhere, with why. */
  elsewhere?: Readonly<Record<string, string>>;
  /** Whether the value of an option is fine where its name alone is not (`--python 3.12`, not `--python ./x`). */
  inertValue?: (option: string, value: string) => boolean;
  registry: 'npm' | 'pypi';
}

const SCRIPT = 'runs a shell script with the packages, not a package';
const INDEX = 'fetches packages from another index';
const CONFIG = 'reads settings that can change where packages come from';

const PNPM_DLX: RunnerSpec = {
  registry: 'npm',
  table: { flags: ['-s', '--silent', '-c', '--shell-mode'], values: ['--package', '--allow-build', '--loglevel', '--reporter'] },
  packageOptions: ['--package'],
  unknowable: { '-c': SCRIPT, '--shell-mode': SCRIPT },
  elsewhere: { '--allow-build': 'lets the install scripts of the packages it names run' },
};

const YARN_DLX: RunnerSpec = { registry: 'npm', table: { flags: ['-q', '--quiet'], values: ['-p', '--package'] }, packageOptions: ['-p', '--package'] };

const BUNX: RunnerSpec = { registry: 'npm', table: { flags: ['--bun', '--silent', '--verbose', '--no-install'], values: ['-p', '--package'] }, packageOptions: ['-p', '--package'] };

// uv's global options may stand before `tool run` too, so they are in this table.
const UV_TOOL_RUN: RunnerSpec = {
  registry: 'pypi',
  table: {
    flags: ['-q', '--quiet', '-v', '--verbose', '-n', '--no-cache', '--no-progress', '--native-tls', '--no-config', '--no-env-file', '--isolated', '--refresh', '--offline'],
    values: [
      '--from', '--with', '-p', '--python', '--color', '--cache-dir', '--index', '--default-index', '-i', '--index-url', '--extra-index-url',
      '-f', '--find-links', '--with-requirements', '--with-editable', '--env-file', '--config-file', '--directory', '--project',
    ],
  },
  packageOptions: ['--from'],
  extraOptions: ['--with'],
  unknowable: { '--with-requirements': 'installs the packages a file lists', '--with-editable': 'installs a folder of the disk' },
  elsewhere: {
    '--index': INDEX, '--default-index': INDEX, '-i': INDEX, '--index-url': INDEX, '--extra-index-url': INDEX, '-f': INDEX, '--find-links': INDEX,
    '--env-file': CONFIG, '--config-file': CONFIG, '--directory': CONFIG, '--project': CONFIG, '--offline': 'runs what the cache holds without asking the index',
    '-p': 'runs the packages with an interpreter the entry names', '--python': 'runs the packages with an interpreter the entry names',
  },
  // A version request (`3.12`, `cpython3.12`, `pypy@3.10`) picks one of uv's interpreters; a path picks any program.
  inertValue: (option, value) => (option === '-p' || option === '--python') && /^(?:(?:c?python|pypy)[@-]?)?3(?:\.\d+){0,2}$/.test(value),
};

const PIPX_RUN: RunnerSpec = {
  registry: 'pypi',
  table: {
    flags: ['-q', '--quiet', '-v', '--verbose', '--no-cache', '--pypackages', '--system-site-packages', '--path', '-e', '--editable'],
    values: ['--spec', '--python', '-i', '--index-url', '--pip-args'],
  },
  packageOptions: ['--spec'],
  unknowable: { '--path': 'runs a file of the disk', '-e': 'installs a folder of the disk', '--editable': 'installs a folder of the disk' },
  elsewhere: { '-i': INDEX, '--index-url': INDEX, '--pip-args': 'gives pip options of its own', '--python': 'runs the package with an interpreter the entry names' },
};

/** The runner a program and its first words are, and where its own words start. */
export function runnerOf(program: string, args: readonly string[]): { spec: RunnerSpec; start: number } | { unknown: string } | undefined {
  switch (program) {
    case 'pnpx': return { spec: PNPM_DLX, start: 0 };
    case 'bunx': return { spec: BUNX, start: 0 };
    case 'uvx': return { spec: UV_TOOL_RUN, start: 0 };
    case 'pnpm': return subcommand(program, args, { dlx: PNPM_DLX }, ['run', 'start', 'test', 'restart', 'stop']);
    case 'yarn': return subcommand(program, args, { dlx: YARN_DLX }, ['run', 'start', 'test']);
    case 'bun': return subcommand(program, args, { x: BUNX }, ['run']);
    case 'pipx': return subcommand(program, args, { run: PIPX_RUN }, []);
    case 'uv': {
      // `uv [options] tool run …`: uv's global options first.
      const read = readOptions(args, 0, UV_TOOL_RUN.table);
      if ('unknown' in read) return { unknown: read.unknown };
      if (read.operands[0] === 'tool' && read.operands[1] === 'run') return { spec: UV_TOOL_RUN, start: args.length - read.operands.length + 2 };
      return { unknown: `uv ${read.operands.slice(0, 2).join(' ')} (a command the policy does not read)` };
    }
    default: return undefined;
  }
}

function subcommand(program: string, args: readonly string[], runners: Record<string, RunnerSpec>, projectScripts: readonly string[]): { spec: RunnerSpec; start: number } | { unknown: string } {
  const word = args[0];
  if (word !== undefined && Object.prototype.hasOwnProperty.call(runners, word)) return { spec: runners[word], start: 1 };
  if (word !== undefined && projectScripts.includes(word)) return { spec: PROJECT, start: 1 };
  return { unknown: `${[program, word].filter((w) => w !== undefined).join(' ')} (a command the policy does not read)` };
}

/** A script of the project's own package.json: no registry package. */
const PROJECT: RunnerSpec = { registry: 'npm', table: { flags: [], values: [] }, packageOptions: [] };

/** The packages a runner's words from `start` run. */
export function readRunner(spec: RunnerSpec, args: readonly string[], start: number): Packages {
  if (spec === PROJECT) return { packages: [] };
  const read = readOptions(args, start, spec.table);
  if ('unknown' in read) return read;
  const unknowable = firstOf(read.options, spec.unknowable ?? {});
  if (unknowable !== undefined) return { unknown: unknowable };
  const elsewhere = read.options.find((option) => Object.prototype.hasOwnProperty.call(spec.elsewhere ?? {}, option.name) && !(spec.inertValue?.(option.name, option.value ?? '') ?? false));
  const parse = spec.registry === 'npm' ? npmPackage : pypiPackage;
  const own = spec.registry === 'npm' ? undefined : normalizePypiName;
  const main = withPackages(valuesOf(read.options, spec.packageOptions), read.operands[0], parse, own === undefined ? undefined : (name) => own(name));
  if ('unknown' in main) return main;
  const extras: LaunchedPackage[] = [];
  for (const value of valuesOf(read.options, spec.extraOptions ?? []).flatMap((list) => list.split(','))) {
    const one = parse(value.trim());
    if ('unknown' in one) return one;
    extras.push(one);
  }
  const packages = [...main.packages, ...extras];
  return elsewhere === undefined ? { packages } : { packages, unvouched: `${elsewhere.name} ${spec.elsewhere![elsewhere.name]}` };
}
