// Reading the options of a launcher that stops at its first operand (docker's pflag with interspersed
// options off, clap, clipanion, bun's reader): `--name=value` and `--name value`, short clusters with
// an attached or a separate value (`-it`, `-eX=1`, `-e X=1`), `--` ending the options. Long options are
// matched exactly: these launchers accept no abbreviation, and one this table does not know is refused.
import { own } from './launchReading';

/** The options of one launcher, each by every spelling (`-p`, `--package`). */
export interface OptionTable {
  /** Options without a value. */
  flags: readonly string[];
  /** Options that take a value. */
  values: readonly string[];
  /** A flag may be written `--flag=true` / `--flag=false` (pflag). */
  boolValues?: boolean;
}

/** One option as read: its spelling and its value, if it takes one. */
export interface ReadOption {
  name: string;
  value?: string;
}

/** What reading the options found: the options and the words from the first operand on, or the word it does not understand. */
export type ReadOptions = { options: ReadOption[]; operands: string[] } | { unknown: string };

/** Reads `args` from `start` against `table`, deny by default. */
export function readOptions(args: readonly string[], start: number, table: OptionTable): ReadOptions {
  const options: ReadOption[] = [];
  const isFlag = (name: string): boolean => table.flags.includes(name);
  const takesValue = (name: string): boolean => table.values.includes(name);
  for (let i = start; i < args.length; i++) {
    const word = args[i];
    if (word === '--') return { options, operands: args.slice(i + 1) };
    if (!word.startsWith('-') || word === '-') return { options, operands: args.slice(i) };
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = eq < 0 ? word : word.slice(0, eq);
      const attached = eq < 0 ? undefined : word.slice(eq + 1);
      if (isFlag(name)) {
        if (attached !== undefined && !(table.boolValues === true && /^(true|false)$/.test(attached))) return { unknown: `${word} (a value given to an option that takes none)` };
        options.push({ name });
      } else if (takesValue(name)) {
        const value = attached ?? args[++i];
        if (value === undefined) return { unknown: `${name} (its value is missing)` };
        options.push({ name, value });
      } else return { unknown: `${name} (an option this reader does not know)` };
      continue;
    }
    for (let k = 1; k < word.length; k++) {
      const name = `-${word[k]}`;
      if (isFlag(name)) {
        options.push({ name });
        continue;
      }
      if (!takesValue(name)) return { unknown: `${name} (an option this reader does not know${word.length > 2 ? `, in ${word}` : ''})` };
      const value = k < word.length - 1 ? word.slice(k + 1) : args[++i];
      if (value === undefined) return { unknown: `${name} (its value is missing)` };
      options.push({ name, value });
      break;
    }
  }
  return { options, operands: [] };
}

/** The values of every option in `names` (`-p a --package=b` → a, b). */
export function valuesOf(options: readonly ReadOption[], names: readonly string[]): string[] {
  return options.filter((option) => names.includes(option.name) && option.value !== undefined).map((option) => option.value!);
}

/** The first option of `options` that `reasons` names, with its reason. */
export function firstOf(options: readonly ReadOption[], reasons: Readonly<Record<string, string>>): string | undefined {
  const found = options.find((option) => own(reasons, option.name));
  return found === undefined ? undefined : `${found.name} ${reasons[found.name]}`;
}
