// How the programs whose arguments hold a script (sed, awk, jq, sqlite3) read their options: getopt
// clusters with attached or separate values (`-nf F`, `-eCMD`), GNU long options in any unique
// abbreviation (`--expr=` is `--expression=`), `=` and separate-value forms, `--`, and for GNU getopt
// options after operands too. Deny by default: an option not in the grammar is named, and so is a word
// that bash may turn into an option where one can stand (an expansion, a pattern starting with `-`).
import type { ShellWord } from './words';

/** How an option takes its value; a string is the reason the option is never approved. */
export type OptionKind = 'flag' | 'value' | 'optional' | { never: string };

/** A program's options: short ones by letter, long ones by full name (without the dashes). */
export interface OptionGrammar {
  short: Readonly<Record<string, OptionKind>>;
  long: Readonly<Record<string, OptionKind>>;
  /** GNU getopt: options may follow operands (`sed s/a/b/ f -i`), until `--`. */
  permutes: boolean;
  /** Long options spelled with one dash too (`sqlite3 -readonly`, `jq -arg`): tried before short clusters. */
  singleDashLong?: boolean;
}

/** One option read: its canonical name (`-e`, `--expression`) and its value, when it takes one. */
export interface ReadOption {
  name: string;
  /** The value; undefined when the option takes none, or its word comes from an expansion. */
  value?: string;
  /** Whether the value's word is a fixed word (no expansion, no pattern). */
  fixed: boolean;
  word: ShellWord;
}

/** The options and operands of a command's words, or the first word that rules auto-approval out. */
export type OptionReading = { options: ReadOption[]; operands: ShellWord[] } | { problem: string };

/**
 * Whether bash may turn `word` into a word starting with `-`: an expansion (unless it sits inside double
 * quotes after a fixed first character), or a pattern whose first character is not fixed.
 */
export function mayBeOption(word: ShellWord): boolean {
  if (word.value !== undefined) return word.value.startsWith('-') || (word.pattern && /^[*?[{]/.test(word.value));
  return !/^"[^-$`\\"]/.test(word.text);
}

/** Reads the options of `words` (program first) by `grammar`; `name` names the program in a reason. */
export function readOptions(name: string, words: ShellWord[], grammar: OptionGrammar): OptionReading {
  const options: ReadOption[] = [];
  const operands: ShellWord[] = [];
  let i = 1;
  let ended = false;
  const valueAt = (k: number): { value?: string; fixed: boolean; word: ShellWord } | undefined => {
    const word = words[k];
    if (word === undefined) return undefined;
    return { value: word.value, fixed: word.value !== undefined && !word.pattern, word };
  };
  for (; i < words.length; i++) {
    const word = words[i];
    const value = word.value;
    if (ended || (operands.length > 0 && !grammar.permutes)) {
      operands.push(word);
      continue;
    }
    if (value === '--') {
      ended = true;
      continue;
    }
    if (mayBeOption(word) && (value === undefined || word.pattern)) {
      return { problem: `\`${word.text}\` may expand into an option of \`${name}\`, which is not known in advance` };
    }
    if (value === undefined || !value.startsWith('-') || value === '-') {
      operands.push(word);
      continue;
    }
    const long = value.startsWith('--') ? value.slice(2) : grammar.singleDashLong === true && value.length > 2 ? value.slice(1) : undefined;
    const longName = long === undefined ? undefined : matchLong(long.split('=')[0], grammar.long, grammar.singleDashLong === true && !value.startsWith('--'));
    if (long !== undefined && (longName !== undefined || value.startsWith('--'))) {
      if (longName === undefined) return { problem: `\`${name} ${value.split('=')[0]}\` is an option these rules do not know` };
      const kind = grammar.long[longName];
      const shown = `--${longName}`;
      if (typeof kind === 'object') return { problem: `\`${name} ${shown}\` ${kind.never}` };
      const eq = long.indexOf('=');
      if (kind === 'flag') {
        if (eq >= 0) return { problem: `\`${name} ${shown}\` takes no value, and is given one` };
        options.push({ name: shown, fixed: true, word });
      } else if (eq >= 0) options.push({ name: shown, value: long.slice(eq + 1), fixed: !word.pattern, word });
      else if (kind === 'optional') options.push({ name: shown, fixed: true, word });
      else {
        const next = valueAt(++i);
        if (next === undefined) return { problem: `\`${name} ${shown}\` is given no value` };
        options.push({ name: shown, ...next });
      }
      continue;
    }
    // A cluster of short options: each letter a flag until one that takes a value takes the rest.
    for (let k = 1; k < value.length; k++) {
      const letter = value[k];
      const kind = Object.prototype.hasOwnProperty.call(grammar.short, letter) ? grammar.short[letter] : undefined;
      const shown = `-${letter}`;
      if (kind === undefined) return { problem: `\`${name} ${shown}\` is an option these rules do not know` };
      if (typeof kind === 'object') return { problem: `\`${name} ${shown}\` ${kind.never}` };
      if (kind === 'flag') {
        options.push({ name: shown, fixed: true, word });
        continue;
      }
      const rest = value.slice(k + 1);
      if (rest !== '' || kind === 'optional') options.push({ name: shown, value: rest === '' ? undefined : rest, fixed: !word.pattern, word });
      else {
        const next = valueAt(++i);
        if (next === undefined) return { problem: `\`${name} ${shown}\` is given no value` };
        options.push({ name: shown, ...next });
      }
      break;
    }
  }
  return { options, operands };
}

/** The long option `given` spells: itself, or the one option it is a unique prefix of. */
function matchLong(given: string, long: Readonly<Record<string, OptionKind>>, exactOnly: boolean): string | undefined {
  if (given === '') return undefined;
  if (Object.prototype.hasOwnProperty.call(long, given)) return given;
  if (exactOnly) return undefined;
  const matches = Object.keys(long).filter((option) => option.startsWith(given));
  // Several matches: getopt_long refuses an ambiguous prefix, unless all mean the same; asking is the safe side.
  return matches.length === 1 ? matches[0] : undefined;
}
