// `npx`, `npm exec` and `npm x` read as npm reads them. npx first rewrites its words into `npm exec …`
// (its own short options, and a `--` before the first operand), then npm reads every option with nopt
// and its table of options (@npmcli/config): which take a value, booleans, `--key=value`, clusters of
// short options, unique abbreviations. An option outside that table, or a value nopt refuses, leaves the
// package undetermined; an option of the table that is not known to be inert leaves it unvouched.
import { onFirstUse, type Packages } from './launchReading';
import { withPackages } from './npmSpecs';

interface NoptParsed {
  [key: string]: unknown;
  argv: { remain: string[] };
}
interface NoptLib {
  nopt(args: string[], options: {
    types: Record<string, unknown>; shorthands: Record<string, string[]>; typeDefs: Record<string, unknown>;
    unknownHandler(key: string): void; invalidHandler(key: string, value: unknown): void; abbrevHandler(short: string, long: string): void;
  }): NoptParsed;
}

/** npm's option table, its short options, nopt's reader with npm's type definitions, and npx's switches. */
const npm = onFirstUse(() => {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { definitions, shorthands } = require('@npmcli/config/lib/definitions') as typeof import('@npmcli/config/lib/definitions');
  const typeDefs = require('@npmcli/config/lib/type-defs') as typeof import('@npmcli/config/lib/type-defs');
  const nopt = (require('nopt') as { lib: NoptLib }).lib;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const types: Record<string, unknown> = Object.fromEntries(Object.entries(definitions).map(([key, definition]) => [key, definition.type]));
  const booleans = Object.entries(types).filter(([, type]) => type === Boolean || (Array.isArray(type) && type.includes(Boolean))).map(([key]) => key);
  return { types, shorthands, typeDefs, nopt, npxSwitches: new Set([...booleans, ...NPX_SWITCHES]) };
});

// npm's options known to change neither which package runs nor where it comes from: output, logs,
// retries, and the answer to "install it?". Every other option of npm's table leaves the package unvouched.
const INERT = new Set([
  'yes', 'loglevel', 'color', 'progress', 'unicode', 'update-notifier', 'fund', 'audit', 'timing', 'usage', 'heading',
  'parseable', 'json', 'long', 'cache', 'logs-dir', 'logs-max', 'fetch-retries', 'fetch-retry-factor',
  'fetch-retry-mintimeout', 'fetch-retry-maxtimeout', 'fetch-timeout', 'prefer-online', 'foreground-scripts', 'ignore-scripts',
]);
// npx's own words (npm's bin/npx-cli.js): options npx removed, and the ones it reads before npm does.
const NPX_REMOVED = new Set(['always-spawn', 'ignore-existing', 'shell-auto-fallback', 'npm', 'node-arg', 'n']);
const NPX_SWITCHES = ['no-install', 'quiet', 'q', 'version', 'v', 'help', 'h'];
const NPX_VALUES = new Set(['package', 'p', 'cache', 'userconfig', 'call', 'c', 'shell']);
/** npm's words for `exec`: the command, its alias, and its only abbreviation no other command shares. */
const EXEC_WORDS = new Set(['exec', 'x', 'exe']);
/** npm commands that run a script of the project's own package.json, not a package from the registry. */
const PROJECT_SCRIPTS = new Set(['run', 'run-script', 'rum', 'urn', 'start', 'stop', 'restart', 'test', 't', 'tst']);

/** The packages `npx ARGS` runs. */
export function readNpx(args: readonly string[]): Packages {
  const { shorthands, npxSwitches } = npm();
  const words = [...args];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === '--') break;
    if (!word.startsWith('-')) {
      words.splice(i, 0, '--');
      break;
    }
    const [key, ...value] = word.replace(/^-+/, '').split('=');
    if (NPX_REMOVED.has(key)) return { unknown: `${word} (an option npx no longer has)` };
    if (key === 'p') words[i] = ['--package', ...value].join('=');
    else if (key === 'shell') words[i] = ['--script-shell', ...value].join('=');
    else if (key === 'no-install') words[i] = '--yes=false';
    else if (Object.prototype.hasOwnProperty.call(shorthands, key)) {
      words.splice(i, 1, ...shorthands[key], ...(value.length > 0 ? [value.join('=')] : []));
      i--;
      continue;
    }
    if (value.length === 0 && !npxSwitches.has(key) && (NPX_VALUES.has(key) || !(words[i + 1] ?? '').startsWith('-'))) i++;
  }
  return readNpm(['exec', ...words]);
}

/** The packages `npm ARGS` runs: those of `npm exec` / `npm x`; none for a script of the project's own. */
export function readNpm(args: readonly string[]): Packages {
  const { types, shorthands, typeDefs, nopt } = npm();
  const problems: string[] = [];
  const parsed = nopt.nopt([...args], {
    types, shorthands, typeDefs,
    unknownHandler: (key) => problems.push(`${key} (an option npm does not have)`),
    invalidHandler: (key, value) => problems.push(`--${key} ${JSON.stringify(value)} (a value npm refuses)`),
    abbrevHandler: () => undefined,
  });
  if (problems.length > 0) return { unknown: problems[0] };
  const [command, ...operands] = parsed.argv.remain;
  if (command === undefined) return { unknown: 'npm (no command)' };
  if (PROJECT_SCRIPTS.has(command)) return { packages: [] };
  if (!EXEC_WORDS.has(command)) return { unknown: `npm ${command} (a command the policy does not read)` };
  if (typeof parsed.call === 'string') return { unknown: `--call ${JSON.stringify(parsed.call)} (a script npm runs with the packages)` };
  const given = parsed.package === undefined ? [] : ([] as unknown[]).concat(parsed.package).map(String);
  const unvouching = Object.keys(parsed).find((key) => key !== 'argv' && key !== 'package' && !INERT.has(key));
  const read = withPackages(given, operands[0]);
  if ('unknown' in read || unvouching === undefined) return read;
  return { ...read, unvouched: read.unvouched ?? `--${unvouching} (an npm option that changes where npm finds or how it runs packages)` };
}
