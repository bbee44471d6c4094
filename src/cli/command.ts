// What every subcommand of the CLI shares: where it writes, how it reports a wrong invocation, the one
// argument parser (`--name value`, `--name=value`, boolean `--name`, positionals, `--`, on Node's
// parseArgs), and how a file named by a flag is read.
import * as fs from 'node:fs';
import { parseArgs as parseArgv } from 'node:util';

export const PROGRAM = 'switchboard';

/** Where a command writes, and what it sees of its process. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
  env: Record<string, string | undefined>;
}

/** A wrong invocation: reported on one line with a hint, exit code 2. */
export class UsageError extends Error {
  constructor(message: string, readonly command?: string) {
    super(message);
  }
}

export type FlagSpec = { kind: 'boolean' } | { kind: 'string'; repeat?: boolean; meta: string };

/** The positional arguments a command takes, by name (for messages); the optional ones come last. */
export interface PositionalSpec {
  names: string[];
  required: number;
}

/** The parsed command line of one command. */
export class Args {
  constructor(
    private readonly values: Record<string, string[] | boolean | undefined>,
    readonly positionals: string[],
  ) {}

  /** Every value of a string flag, in order. */
  strings(name: string): string[] {
    const value = this.values[name];
    return Array.isArray(value) ? value : [];
  }

  string(name: string): string | undefined {
    return this.strings(name)[0];
  }

  has(name: string): boolean {
    return this.values[name] === true;
  }
}

export interface Command {
  name: string;
  summary: string;
  help: string;
  flags: Record<string, FlagSpec>;
  positionals?: PositionalSpec;
  run(args: Args, io: Io): Promise<number>;
}

/**
 * Parses `--name value`, `--name=value`, boolean `--name` and positionals; `-h`/`--help` everywhere;
 * after `--` everything is positional. Node's parseArgs splits the command line into tokens; the walk
 * below keeps this CLI's own rules and messages: a value never starts with `--`, a single-dash word
 * other than `-h` is a positional, a string flag is given once unless it repeats.
 */
export function parseArgs(command: Command, argv: string[]): Args | 'help' {
  const values: Record<string, string[] | boolean | undefined> = {};
  const positionals: string[] = [];
  const maxPositionals = command.positionals?.names.length ?? 0;
  const options = Object.fromEntries(Object.entries(command.flags).map(([name, spec]) => [name, { type: spec.kind }] as const));
  const { tokens } = parseArgv({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: false, allowPositionals: true, tokens: true });
  const positional = (arg: string): void => {
    if (positionals.length >= maxPositionals) throw new UsageError(`unexpected argument '${arg}'`, command.name);
    positionals.push(arg);
  };
  let shortWordAt = -1;
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positional(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') {
      if (maxPositionals === 0) throw new UsageError("unknown option '--'", command.name);
      continue;
    }
    if (token.rawName === '-h' && argv[token.index] === '-h') return 'help';
    if (!token.rawName.startsWith('--')) {
      // One word of single-dash letters (`-1`, `-xy`) comes as one token per letter: one positional.
      if (token.index !== shortWordAt) positional(argv[token.index]);
      shortWordAt = token.index;
      continue;
    }
    const { name } = token;
    if (name === 'help' && !token.inlineValue) return 'help';
    const spec = Object.prototype.hasOwnProperty.call(command.flags, name) ? command.flags[name] : undefined;
    if (spec === undefined) throw new UsageError(`unknown option '--${name}'`, command.name);
    if (spec.kind === 'boolean') {
      if (token.inlineValue) throw new UsageError(`option '--${name}' takes no value`, command.name);
      values[name] = true;
      continue;
    }
    const value = token.inlineValue || !token.value?.startsWith('--') ? token.value : undefined;
    if (value === undefined || value === '') throw new UsageError(`option '--${name}' needs a value (${spec.meta})`, command.name);
    const previous = values[name] as string[] | undefined;
    if (previous !== undefined && !spec.repeat) throw new UsageError(`option '--${name}' given twice`, command.name);
    values[name] = [...(previous ?? []), value];
  }
  const spec = command.positionals;
  if (spec !== undefined && positionals.length < spec.required) {
    throw new UsageError(`missing ${spec.names[positionals.length]}`, command.name);
  }
  return new Args(values, positionals);
}

/** A `--name MS` flag as a positive whole number of milliseconds, or `fallback` when absent. */
export function millisecondsFlag(args: Args, name: string, fallback: number, command: string): number {
  const text = args.string(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value <= 0) {
    throw new UsageError(`--${name} ${text}: expected a positive number of milliseconds`, command);
  }
  return value;
}

/** The text of the file `--flag` names (absolute); a missing or unreadable file is a usage error naming the flag. */
export function readFlagFile(file: string, flag: string, command: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--${flag} ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`, command);
  }
}

/** The JSON of the file `--flag` names (absolute); unreadable or not JSON is a usage error naming the flag. */
export function readFlagJson(file: string, flag: string, command: string): unknown {
  const text = readFlagFile(file, flag, command);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--${flag} ${file}: not JSON (${(error as Error).message})`, command);
  }
}
