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

/**
 * How a program spells its options. `getopt` is GNU getopt_long and the parsers that copy it (git's
 * parse-options, Python's argparse, npm's nopt, Ruby's OptionParser): short options cluster (`-nf F`)
 * and take their value attached (`-eCMD`) or as the next word; long options take `=value` or the next
 * word, and may be abbreviated. `pflag` is the same without abbreviations (Go's cobra/pflag, Rust's
 * clap). `go` is Go's flag package: one dash or two, no clusters, `-name=value` or `-name value`.
 */
export type OptionStyle = 'getopt' | 'pflag' | 'go';

/** A program's table of options: what each known option is, and how its words are spelled. */
export interface OptionGrammar {
  style?: OptionStyle;
  /** Options without a value that change nothing about which code runs or what is written. */
  flags?: readonly string[];
  /** Options that take a value (attached or the next word) and change nothing about which code runs. */
  values?: readonly string[];
  /** Options whose value can only be attached (GNU optional arguments: `-i.bak`, `--in-place=.bak`). */
  optionalValues?: readonly string[];
  /** Options whose value names the folder, file or package the program works with: both join the signature. */
  signed?: readonly string[];
  /** Options that run or load code, or read configuration that can name code, with the reason. */
  never?: Readonly<Record<string, string>>;
  /**
   * The table lists every option of the program, so an abbreviation that is the prefix of one listed
   * option is that option (as getopt reads it). Otherwise only an exact name is trusted to be inert:
   * an unlisted option of the program may be spelled by the same prefix.
   */
  complete?: boolean;
  /** Optional values also taken from the next word when it is a number (GNU make's `-j 4`). */
  numericValues?: readonly string[];
  /** `-NUMBER` is an option of its own (`head -20`, `git log -5`). */
  numbers?: boolean;
}

/** What one option word (with the value it takes) is, as the program's grammar reads it. */
export type OptionWord =
  /** A listed option; `value` is its value when it takes one, `words` how many words it spans. */
  | { kind: 'known'; option: string; role: 'flag' | 'value' | 'signed' | 'never'; value?: string; words: number; exact: boolean }
  /** An option the table does not list (or an abbreviation it cannot resolve); it may take the next word. */
  | { kind: 'unknown'; option: string; words: 1 }
  /** The value of `option` comes from an expansion or is missing. */
  | { kind: 'no-value'; option: string; words: number }
  | { kind: 'operand' }
  /** `--`: every word after it is an operand. */
  | { kind: 'end' };

type Role = 'flag' | 'value' | 'optional' | 'signed' | 'never';

function roleOf(grammar: OptionGrammar, option: string): Role | undefined {
  if (grammar.never !== undefined && has(grammar.never, option)) return 'never';
  if (grammar.signed?.includes(option) === true) return 'signed';
  if (grammar.values?.includes(option) === true) return 'value';
  if (grammar.optionalValues?.includes(option) === true) return 'optional';
  if (grammar.flags?.includes(option) === true) return 'flag';
  return undefined;
}

function knownLongOptions(grammar: OptionGrammar): string[] {
  const all = [...(grammar.flags ?? []), ...(grammar.values ?? []), ...(grammar.optionalValues ?? []), ...(grammar.signed ?? []), ...Object.keys(grammar.never ?? {})];
  return all.filter((option) => option.startsWith('--'));
}

/**
 * The listed long option that `name` spells: itself, or — where the style abbreviates — the one option
 * it is a prefix of. A prefix of a code-loading option is read as that option whatever else it could
 * be, since the program reads it so or refuses it as ambiguous; `exact` says whether the name was whole.
 */
export function resolveLong(name: string, grammar: OptionGrammar): { option: string; exact: boolean } | undefined {
  const known = knownLongOptions(grammar);
  if (known.includes(name)) return { option: name, exact: true };
  const style = grammar.style ?? 'getopt';
  const candidates = known.filter((option) => option.startsWith(name) && name.length > 2);
  const dangerous = candidates.find((option) => roleOf(grammar, option) === 'never') ?? candidates.find((option) => roleOf(grammar, option) === 'signed');
  // Danger is found by prefix whatever the style: asking too often is the safe side.
  if (dangerous !== undefined) return { option: dangerous, exact: false };
  if (style !== 'getopt' || candidates.length !== 1) return undefined;
  return { option: candidates[0], exact: false };
}

/** Reads the word at `i` (its value known) as `grammar` reads an option word there. */
export function readOptionWord(words: ShellWord[], i: number, grammar: OptionGrammar): OptionWord {
  const value = words[i].value ?? '';
  if (value === '--') return { kind: 'end' };
  if (!value.startsWith('-') || value === '-') return { kind: 'operand' };
  if (grammar.numbers === true && /^-\d+$/.test(value)) return { kind: 'known', option: value, role: 'flag', words: 1, exact: true };
  const style = grammar.style ?? 'getopt';
  if (value.startsWith('--') || style === 'go') return readLong(words, i, grammar);
  return readCluster(words, i, grammar);
}

function readLong(words: ShellWord[], i: number, grammar: OptionGrammar): OptionWord {
  const value = words[i].value ?? '';
  const eq = value.indexOf('=');
  const spelled = eq > 0 ? value.slice(0, eq) : value;
  // Go reads `--name` as `-name`; the table spells Go options with one dash.
  const name = grammar.style === 'go' ? `-${spelled.replace(/^--?/, '')}` : spelled;
  const attached = eq > 0 ? value.slice(eq + 1) : undefined;
  const resolved = grammar.style === 'go' ? (roleOf(grammar, name) !== undefined ? { option: name, exact: true } : undefined) : resolveLong(name, grammar);
  if (resolved === undefined) return { kind: 'unknown', option: name, words: 1 };
  const { option, exact } = resolved;
  const role = roleOf(grammar, option)!;
  const trusted = exact || grammar.complete === true || role === 'never' || role === 'signed';
  if (!trusted) return { kind: 'unknown', option: name, words: 1 };
  if (role === 'optional' && attached === undefined) return numericNext(words, i, grammar, option, exact);
  if (role === 'flag' || role === 'optional') {
    // A flag given `=value` is refused by getopt; Go accepts `-v=true`.
    if (attached !== undefined && role === 'flag' && grammar.style !== 'go') return { kind: 'unknown', option: name, words: 1 };
    return { kind: 'known', option, role: role === 'optional' ? 'value' : role, value: attached, words: 1, exact };
  }
  if (attached !== undefined) return { kind: 'known', option, role, value: attached, words: 1, exact };
  const next = words[i + 1];
  if (next?.value === undefined) return { kind: 'no-value', option, words: next === undefined ? 1 : 2 };
  return { kind: 'known', option, role, value: next.value, words: 2, exact };
}

function readCluster(words: ShellWord[], i: number, grammar: OptionGrammar): OptionWord {
  const value = words[i].value ?? '';
  // `-name` where the table lists it whole (pflag's `-rf` is a cluster; find-like `-name` is not read here).
  const whole = roleOf(grammar, value);
  if (whole !== undefined && value.length > 2) return knownShort(words, i, value, '', whole);
  for (let k = 1; k < value.length; k++) {
    const option = `-${value[k]}`;
    const role = roleOf(grammar, option);
    if (role === undefined) {
      // The letters after an unknown one may be its value or more options: a code-loading letter counts.
      const risky = [...value.slice(k + 1)].map((letter) => `-${letter}`).find((later) => roleOf(grammar, later) === 'never');
      if (risky !== undefined) return { kind: 'known', option: risky, role: 'never', words: 1, exact: false };
      return { kind: 'unknown', option, words: 1 };
    }
    if (role === 'flag') continue;
    if (role === 'optional' && k === value.length - 1) return numericNext(words, i, grammar, option, true);
    return knownShort(words, i, option, value.slice(k + 1), role);
  }
  return { kind: 'known', option: value.length === 2 ? value : `-${value[value.length - 1]}`, role: 'flag', words: 1, exact: true };
}

function knownShort(words: ShellWord[], i: number, option: string, rest: string, role: Role): OptionWord {
  if (role === 'flag') return { kind: 'known', option, role, words: 1, exact: true };
  if (role === 'optional') return { kind: 'known', option, role: 'value', value: rest === '' ? undefined : rest, words: 1, exact: true };
  if (rest !== '') return { kind: 'known', option, role, value: rest, words: 1, exact: true };
  const next = words[i + 1];
  if (next?.value === undefined) return { kind: 'no-value', option, words: next === undefined ? 1 : 2 };
  return { kind: 'known', option, role, value: next.value, words: 2, exact: true };
}

/** An optional value given alone: GNU make takes the next word when it is a number, getopt never does. */
function numericNext(words: ShellWord[], i: number, grammar: OptionGrammar, option: string, exact: boolean): OptionWord {
  const next = words[i + 1]?.value;
  if (grammar.numericValues?.includes(option) === true && next !== undefined && /^\d+(?:\.\d+)?$/.test(next)) {
    return { kind: 'known', option, role: 'value', value: next, words: 2, exact };
  }
  return { kind: 'known', option, role: 'value', words: 1, exact };
}
