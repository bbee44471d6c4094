// Words that arrive from input: the operands xargs adds after a command, the file names `find -exec`
// puts where `{}` stands, and the values a `while read` loop gives its variables. Nobody saw them, and a
// committed file named `--pre=sh` becomes an option of `rg`. Such a command is auto-approved only when
// its program is known to read every such word as a plain operand: after a literal `--` that ends its
// options (for the programs in AFTER_DOUBLE_DASH), or anywhere (ANYWHERE: options that change nothing).
import type { ShellWord } from './words';

/**
 * Programs (GNU and BSD getopt) that read every word after `--` as a file to read or text to match,
 * whatever it says: none of them runs, writes or counts its operands (as `uniq` and `xxd`, whose
 * second operand is an output file, or `sed` and `awk`, whose first is a script, do). Beside each, its
 * short options known to take no value in every version: a `--` right after a cluster of those ends the
 * options; after any other letter it may be that option's value.
 */
const AFTER_DOUBLE_DASH: Readonly<Record<string, string>> = {
  grep: 'abcEFGHhIiLlnoPqRrsTUuVvwxyZz', egrep: 'abcEFGHhIiLlnoPqRrsTUuVvwxyZz', fgrep: 'abcEFGHhIiLlnoPqRrsTUuVvwxyZz',
  rg: 'abcFHhIiLlnNopqsSuUvVwxz0', ls: 'aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1', cat: 'AbeEnstTuv', wc: 'clLmw', head: 'qvz', tail: 'fFqvz',
  file: 'bcdhiIkLlNnprsSvz0', stat: 'FLlnqrsx', du: '0abcDhHkLlmPsSx', md5sum: 'bctwz', sha1sum: 'bctwz', sha256sum: 'bctwz',
  sha512sum: 'bctwz', cksum: '', nl: 'p', dirname: 'z', realpath: 'eLmPqsz', readlink: 'efmnqsvz', cmp: 'blshxz', diff: 'abBdeEfhiHlnNpPqrsStTuwyZ', tac: 'br',
};
/** Programs whose every option is harmless, so an input word is harmless wherever it stands. */
const ANYWHERE = new Set(['echo']);

/** Where a command's words come from input: after its last word (xargs), or the words `isInput` picks. */
export interface InputWords {
  /** What puts the words there, for the reason: `xargs`, `find -exec`, `read line`. */
  via: string;
  /** The input words are added after the command's own (xargs). */
  atEnd: boolean;
  /** Which of the command's own words stand for input (`{}`, `"$line"`). */
  isInput(word: ShellWord): boolean;
  /** Whether a word that stands for input is that input alone, not glued to an option (`--file={}`). */
  isWhole(word: ShellWord): boolean;
}

/** Why the command `words` may read an input word as something other than a plain operand, or undefined. */
export function inputWordsProblem(words: ShellWord[], input: InputWords): string | undefined {
  const program = words[0]?.value ?? '';
  const positions = words.flatMap((word, k) => (k > 0 && input.isInput(word) ? [k] : []));
  if (input.atEnd) positions.push(words.length);
  if (positions.length === 0) return undefined;
  const unseen = `\`${input.via}\` gives \`${program}\` words nobody saw`;
  const glued = positions.find((k) => k < words.length && !input.isWhole(words[k]));
  if (glued !== undefined) return `${unseen} inside the word ${words[glued].text}, where they can become an option or its value`;
  if (ANYWHERE.has(program)) return undefined;
  if (!Object.prototype.hasOwnProperty.call(AFTER_DOUBLE_DASH, program)) return `${unseen}, and \`${program}\` is not known to read them only as plain operands (a file named \`--pre=sh\` would be an option)`;
  const end = words.findIndex((word, k) => k > 0 && word.value === '--' && endsOptions(words[k - 1], AFTER_DOUBLE_DASH[program], k === 1));
  if (end < 0 || positions.some((k) => k < end)) {
    return `${unseen}, and they stand where \`${program}\` reads options (a literal \`--\` before them would end its options)`;
  }
  return undefined;
}

/**
 * Whether a `--` after `before` ends the options: it follows the program name, an operand or option
 * value, a `--name=value`, or a cluster of options known to take no value (`-rn`); after `-e` or
 * `--regexp` it is their value.
 */
function endsOptions(before: ShellWord, flags: string, first: boolean): boolean {
  if (first) return true;
  const value = before.value;
  if (value === undefined || before.pattern) return false;
  if (!value.startsWith('-') || value === '-') return true;
  if (value.startsWith('--')) return value.includes('=');
  return [...value.slice(1)].every((letter) => flags.includes(letter));
}
