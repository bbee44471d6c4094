// How option words are matched against a program's option lists. GNU getopt_long, git's parse-options,
// npm's nopt and make accept any unique prefix of a long option (`--outp=F` is `--output=F`), so a
// dangerous long option is found by its prefixes too. Wrappers are read deny by default: an option in
// none of their lists is not understood and refuses, named. A known program's options are skipped to
// its operands, with the ones that join its signature kept and the ones that can never be approved named.
import type { WrapperSpec } from './programs';
import type { ShellWord } from './words';

/** Name of an option word: `--file=x` is `--file`. */
export function optionName(value: string): string {
  const eq = value.indexOf('=');
  return value.startsWith('--') && eq > 0 ? value.slice(0, eq) : value;
}

/**
 * The long option of `options` that `name` (`--outp`) spells, exactly or as a prefix; a prefix of
 * several gives the first, since a reader of danger treats any of them as meant.
 */
export function longMatch(name: string, options: Iterable<string>): string | undefined {
  if (!name.startsWith('--') || name.length < 3) return undefined;
  let prefixOf: string | undefined;
  for (const option of options) {
    if (option === name) return option;
    if (option.startsWith('--') && option.startsWith(name)) prefixOf ??= option;
  }
  return prefixOf;
}

/** What reading a wrapper's options found: where its operands start, or the option that refuses and why. */
export type WrapperOptions = { next: number; seen: string[] } | { option: string; why: string };

/** `nice -n $x ls` with x='5 sh -c id' runs sh: an unquoted expansion splits into more words. */
export const SPLIT_VALUE = 'is given a value that comes from an expansion, which can split into more words, a command among them';
const UNKNOWN = 'is an option these rules do not know, so what it makes the wrapper do is not known';

/** Reads the options of a wrapper from `start`, deny by default. */
export function readWrapperOptions(words: ShellWord[], start: number, spec: WrapperSpec): WrapperOptions {
  const flags = spec.flags ?? [];
  const values = spec.valueOptions ?? [];
  const never = spec.neverOptions ?? {};
  const all = [...flags, ...values, ...Object.keys(never)];
  const seen: string[] = [];
  let i = start;
  while (i < words.length) {
    const word = words[i];
    const value = word.value;
    if (value === undefined) {
      if ((word.prefix ?? word.text).startsWith('-')) return { option: word.text, why: 'may expand into any option' };
      break;
    }
    if (word.pattern && value.startsWith('-')) return { option: word.text, why: 'is a pattern bash expands into other words, options included' };
    if (value === '--') return { next: i + 1, seen };
    if (!value.startsWith('-') || value === '-') break;
    if (spec.numberOption === true && /^-\d+$/.test(value)) {
      i++;
      continue;
    }
    if (value.startsWith('--')) {
      const option = longMatch(optionName(value), all);
      if (option === undefined) return { option: optionName(value), why: UNKNOWN };
      if (Object.prototype.hasOwnProperty.call(never, option)) return { option, why: never[option] };
      seen.push(option);
      if (values.includes(option) && !value.includes('=')) {
        if (words[i + 1]?.value === undefined) return { option, why: SPLIT_VALUE };
        i += 2;
      } else if (values.includes(option)) i++;
      else if (value.includes('=')) return { option, why: 'is given a value it does not take' };
      else i++;
      continue;
    }
    let taken = 1;
    for (let k = 1; k < value.length; k++) {
      const option = `-${value[k]}`;
      if (Object.prototype.hasOwnProperty.call(never, option)) return { option, why: never[option] };
      seen.push(option);
      if (values.includes(option)) {
        if (k === value.length - 1) taken = 2;
        if (taken === 2 && words[i + 1]?.value === undefined) return { option, why: SPLIT_VALUE };
        break;
      }
      if (!flags.includes(option)) return { option, why: UNKNOWN };
    }
    i += taken;
  }
  return { next: i, seen };
}

/** The option of `table` that the word `value` is or starts with (`--out=x`, `-oF`, `-uo`). */
export function optionIn(value: string, table: Readonly<Record<string, string>>): string | undefined {
  const name = optionName(value);
  if (has(table, name)) return name;
  if (value.startsWith('--config.') && has(table, '--config.')) return '--config.';
  if (value.startsWith('--')) return longMatch(name, Object.keys(table));
  const single = value.split('=')[0]; // go's `-toolexec=CMD`
  if (has(table, single)) return single;
  if (!value.startsWith('-')) return undefined;
  if (has(table, value.slice(0, 3))) return value.slice(0, 3); // `-TT` of zip
  for (const letter of value.slice(1)) if (has(table, `-${letter}`)) return `-${letter}`;
  return undefined;
}

/** Whether `table` has its own entry `key` (not one inherited from Object). */
export function has(table: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(table, key);
}

export interface OptionSpec {
  valueOptions?: readonly string[];
  signedOptions?: readonly string[];
  neverOptions?: Readonly<Record<string, string>>;
  plusOptions?: boolean;
}

export type Skipped = { next: number; signed: string[] } | { option: string; why: string };

/**
 * Skips the options from `start`; gives the index of the first operand and the words of the options
 * that join the signature, or why an option can never be approved.
 */
export function skipOptions(words: ShellWord[], start: number, spec: OptionSpec): Skipped {
  const signed: string[] = [];
  let i = start;
  while (i < words.length) {
    const value = words[i].value;
    if (value === undefined) break;
    if (value === '--') return { next: i + 1, signed };
    const isOption = (value.startsWith('-') && value.length > 1) || (spec.plusOptions === true && value.startsWith('+'));
    if (!isOption) break;
    const neverOptions = spec.neverOptions ?? {};
    // `--dir=sub` is make's `--directory=sub`, `--reg=…` npm's `--registry=…`.
    const name = longMatch(optionName(value), [...Object.keys(neverOptions), ...(spec.signedOptions ?? []), ...(spec.valueOptions ?? [])]) ?? optionName(value);
    const attached = !value.startsWith('--') && value.length > 2 ? value.slice(0, 2) : undefined;
    const dotted = value.startsWith('--config.') ? '--config.' : undefined; // pnpm's `--config.key=value`
    for (const candidate of [name, attached, dotted, ...clusterLetters(value, spec)]) {
      if (candidate !== undefined && has(neverOptions, candidate)) {
        return { option: candidate, why: neverOptions[candidate] };
      }
    }
    const signedName = [name, attached].find((candidate) => candidate !== undefined && spec.signedOptions?.includes(candidate) === true);
    if (signedName !== undefined) {
      if (value.includes('=') || (!value.startsWith('--') && value.length > 2)) signed.push(value); // `--git-dir=x`, `-Cdir`
      else {
        const optionValue = words[i + 1]?.value;
        if (optionValue === undefined) return { option: signedName, why: 'is given a value that is missing or comes from an expansion' };
        signed.push(value, optionValue);
        i++;
      }
      i++;
      continue;
    }
    if (spec.valueOptions?.includes(name) === true && !value.includes('=')) {
      // `docker --context $x ps` with x='y run …': the value splits into a subcommand of its own.
      if (words[i + 1] !== undefined && words[i + 1].value === undefined) return { option: name, why: SPLIT_VALUE };
      i += 2;
    } else i++;
  }
  return { next: i, signed };
}

/** The short options of a cluster (`-yc` is `-y -c`), up to the first that takes the rest as its value. */
function clusterLetters(value: string, spec: OptionSpec): string[] {
  if (value.startsWith('--') || !value.startsWith('-')) return [];
  const letters: string[] = [];
  for (const letter of value.slice(1)) {
    const option = `-${letter}`;
    letters.push(option);
    if (spec.signedOptions?.includes(option) === true || spec.valueOptions?.includes(option) === true) break;
  }
  return letters;
}
