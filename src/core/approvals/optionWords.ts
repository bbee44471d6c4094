// How option words are matched against a program's option lists. GNU getopt_long, git's parse-options,
// npm's nopt and make accept any unique prefix of a long option (`--outp=F` is `--output=F`), so a
// dangerous long option is found by its prefixes too. Wrappers are read deny by default: an option in
// none of their lists is not understood and refuses, named.
import type { WrapperSpec } from '../shell/programs';
import type { ShellWord } from '../shell/words';

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
