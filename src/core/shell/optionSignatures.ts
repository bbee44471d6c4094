// Which option words join a signature. An option the program's table lists as inert is dropped, so an
// "Always allow" on `git log --oneline` covers `git log -n 5`; one that names a folder, file or package
// is kept with its value; one that runs or loads code refuses; and any other option word — one the
// table does not know, by name or by value form — is kept verbatim, with the word after it (which may
// be its value), so a rule covers it only when it had exactly that option.
import { has, readOptionWord, SPLIT_VALUE, type OptionGrammar } from './optionWords';
import type { ToolSpec } from './toolTables';
import type { ShellWord } from './words';

/** What reading option words found: the words that join the signature, or why the command asks. */
export type OptionReading =
  | { signed: string[]; next: number; unknown?: number; ended?: boolean }
  | { option: string; why: string };

/** How the words are read: up to the first operand (before a subcommand), or all of them (after it). */
export interface ReadMode {
  /** Read every word to the end (options among operands, as GNU getopt permutes them), not up to the first operand. */
  all: boolean;
  /** Operands join the signature too (make targets, gradle tasks). */
  signOperands?: boolean;
  /** A word bash expands is read as an operand: the program's options beyond its hazard tables are all inert. */
  expansionsAreOperands?: boolean;
  /** Words starting with `+` are options (`cargo +nightly test`), inert. */
  plusOptions?: boolean;
}

const UNKNOWN_EXPANSION = 'may expand into an option that is not in its table';

/** Reads the option words from `start` with `grammar`, as `mode` says. */
export function readOptionWords(words: ShellWord[], start: number, grammar: OptionGrammar, mode: ReadMode): OptionReading {
  const signed: string[] = [];
  let i = start;
  while (i < words.length) {
    const word = words[i];
    if (word.value === undefined) {
      const prefix = word.prefix ?? '';
      if (prefix.startsWith('-')) {
        // `--out=$F`: an inert option's value may come from anywhere; any other option's may not.
        const eq = prefix.indexOf('=');
        const read = eq > 0 ? readOptionWord([{ text: prefix, value: prefix, pattern: false }], 0, grammar) : undefined;
        if (read?.kind !== 'known' || (read.role !== 'flag' && read.role !== 'value')) return { option: word.text, why: 'is an option whose value comes from an expansion' };
        i++;
        continue;
      }
      if (!mode.all) return { signed, next: i };
      if (!mode.expansionsAreOperands) return { option: word.text, why: UNKNOWN_EXPANSION };
      if (mode.signOperands) return { option: word.text, why: 'is an operand that comes from an expansion, and its operands are part of its signature' };
      i++;
      continue;
    }
    // `--include=*.ts` can only become `--include=…` words: a pattern in an inert option's value is read as that option.
    if (word.pattern && word.value.startsWith('-') && !inertPatternValue(word.value, grammar)) return { option: word.text, why: 'is a pattern bash expands into other words, options included' };
    if (mode.plusOptions === true && word.value.startsWith('+') && word.value.length > 1) {
      // `+nightly` names an installed toolchain; `+./x` or `+/x` is a toolchain folder, whose programs run.
      if (!/^\+[\w.-]+$/.test(word.value) || word.value.includes('..')) signed.push(word.value);
      i++;
      continue;
    }
    const read = readOptionWord(words, i, grammar);
    if (read.kind === 'end') return { signed, next: i + 1, ended: true };
    if (read.kind === 'operand') {
      if (!mode.all) return { signed, next: i };
      if (mode.signOperands === true) {
        if (word.pattern) return { option: word.text, why: 'is a pattern bash expands, and its operands are part of its signature' };
        signed.push(word.value);
      }
      i++;
      continue;
    }
    if (read.kind === 'unknown') {
      if (!mode.all) return { signed, next: i, unknown: i };
      signed.push(word.value);
      const next = words[i + 1];
      // The word after it may be its value: it joins the signature too, so the rule is what was seen.
      const attached = word.value.startsWith('--') && word.value.includes('=');
      if (!attached && next !== undefined && (next.value === undefined || !next.value.startsWith('-'))) {
        if (next.value === undefined || next.pattern) return { option: read.option, why: `is an option these rules do not know, and the word after it (${next.text}) comes from an expansion` };
        signed.push(next.value);
        i += 2;
      } else i++;
      continue;
    }
    if (read.kind === 'no-value') {
      const why = grammar.never !== undefined && has(grammar.never, read.option) ? grammar.never[read.option] : undefined;
      if (why !== undefined) return { option: read.option, why };
      const next = words[i + 1];
      if (next === undefined) {
        // A folder option with no value still changes where the program works: it is kept as written.
        if ((grammar.signed ?? []).includes(read.option)) signed.push(word.value);
        i++;
        continue;
      }
      // One double-quoted expansion stays one word; an unquoted one may split into options.
      if (/^"[^"]*"$/.test(next.text) && read.option !== undefined && !(grammar.signed ?? []).includes(read.option)) {
        i += 2;
        continue;
      }
      return { option: read.option, why: SPLIT_VALUE };
    }
    if (read.role === 'never') return { option: read.option, why: grammar.never![read.option] };
    if (read.role === 'signed') signed.push(...words.slice(i, i + read.words).map((taken) => taken.value!));
    i += read.words;
  }
  return { signed, next: i };
}

/** Whether `--name=PATTERN` names an inert value option before any pattern character. */
function inertPatternValue(value: string, grammar: OptionGrammar): boolean {
  const eq = value.indexOf('=');
  if (!value.startsWith('--') || eq < 0 || /[*?[{]/.test(value.slice(0, eq))) return false;
  const read = readOptionWord([{ text: value, value, pattern: false }], 0, grammar);
  return read.kind === 'known' && read.exact && read.role === 'value';
}

/** The options a level of a tool reads before its subcommand. */
export function grammarOf(specs: ToolSpec[]): OptionGrammar {
  const pick = (key: 'flags' | 'valueOptions' | 'optionalValues' | 'signedOptions' | 'numericValues'): string[] => specs.flatMap((spec) => spec[key] ?? []);
  return {
    style: specs[0]?.style,
    numbers: specs.some((spec) => spec.numbers === true),
    flags: pick('flags'),
    values: pick('valueOptions'),
    optionalValues: pick('optionalValues'),
    numericValues: pick('numericValues'),
    signed: pick('signedOptions'),
    never: Object.assign({}, ...specs.map((spec) => spec.neverOptions ?? {})) as Record<string, string>,
  };
}

/** The options read after the subcommand: the subcommand's own, and those of every level that permutes. */
export function grammarAfter(chain: ToolSpec[]): OptionGrammar {
  const last = chain[chain.length - 1];
  const levels = [last, ...chain.slice(0, -1).filter((spec) => spec.permutes === true)];
  return { ...grammarOf(levels), style: chain[0].style };
}
