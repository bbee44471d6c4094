// The text the instruction patterns read, made the way a model reads it rather than the way it is
// spelt: compatibility forms folded (NFKC: fullwidth and mathematical letters become plain ones),
// invisible characters dropped, accents on Latin letters dropped (so one pattern reads "précédentes"
// and "precedentes"), and look-alike letters of another script folded into the script of the word
// they hide in ("ignоre" with a Cyrillic о reads "ignore"; "игнoрируй" with a Latin o reads Russian).
// Which letters look alike is Unicode's confusables table (UTS #39), from the unhomoglyph package.

let confusables: Readonly<Record<string, string>> | undefined;

/** The confusables table, read at its first use: most texts are ASCII and never need it, and activation should not pay for it. */
function confusableTable(): Readonly<Record<string, string>> {
  // A require, not an import: the bundler then evaluates the 100 kB table when it is first asked for.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  confusables ??= require('unhomoglyph/data.json') as Readonly<Record<string, string>>;
  return confusables;
}

/** Invisible code points: zero-width, bidi controls, tags, blank fillers, variation selectors, the soft hyphen. */
export const INVISIBLE = rangeClass([
  [0x00ad, 0x00ad], [0x034f, 0x034f], [0x061c, 0x061c], [0x115f, 0x1160], [0x17b4, 0x17b5], [0x180e, 0x180e], [0x200b, 0x200f],
  [0x202a, 0x202e], [0x2060, 0x2064], [0x2066, 0x206f], [0x3164, 0x3164], [0xfe00, 0xfe0f], [0xfeff, 0xfeff], [0xffa0, 0xffa0],
  [0xfff9, 0xfffb], [0x1d173, 0x1d17a], [0xe0000, 0xe007f], [0xe0100, 0xe01ef],
], 'gu');

/** A character class of code point ranges (escaped, so no combining character stands in the source). */
function rangeClass(ranges: readonly (readonly [number, number])[], flags: string): RegExp {
  const hex = (cp: number): string => `\\u{${cp.toString(16)}}`;
  return new RegExp(`[${ranges.map(([low, high]) => `${hex(low)}-${hex(high)}`).join('')}]`, flags);
}

/** A word: letters with their marks. */
const WORD = /[\p{L}\p{M}]+/gu;
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const NON_ASCII = /[^\p{ASCII}]/u;
/** Combining marks on a Latin letter (after NFKD), dropped: patterns are written without accents. */
const LATIN_MARKS = /(\p{Script=Latin})\p{M}+/gu;

/** The prototype a character folds to, following the table's chains (`〈` → `❬` → `<`). */
export function prototypeOf(ch: string): string | undefined {
  const CONFUSABLES = confusableTable();
  let current = CONFUSABLES[ch];
  for (let step = 0; current !== undefined && step < 4; step++) {
    const next = Array.from(current).length === 1 ? CONFUSABLES[current] : undefined;
    if (next === undefined || next === current) break;
    current = next;
  }
  return current;
}

let toLatin: Map<string, string> | undefined;
let toCyrillic: Map<string, string> | undefined;

/** The ASCII letter a non-ASCII letter looks like, if any (a lower-case one first: patterns ignore case). */
function latinOf(ch: string): string | undefined {
  toLatin ??= new Map();
  let found = toLatin.get(ch);
  if (found === undefined) {
    const candidates = [prototypeOf(ch.toLowerCase()), prototypeOf(ch)];
    found = candidates.find((candidate) => candidate !== undefined && /^[A-Za-z]$/.test(candidate)) ?? '';
    toLatin.set(ch, found);
  }
  return found === '' ? undefined : found;
}

/** The Russian letter each ASCII letter looks like (а for a, о for o, р for p, …), from the same table. */
function cyrillicOf(ch: string): string | undefined {
  if (toCyrillic === undefined) {
    toCyrillic = new Map();
    // The Russian alphabet only: a look-alike from another Cyrillic language would not match a Russian pattern.
    for (let cp = 0x0430; cp <= 0x044f; cp++) {
      const letter = String.fromCodePoint(cp);
      const latin = latinOf(letter);
      if (latin !== undefined && !toCyrillic.has(latin.toLowerCase())) toCyrillic.set(latin.toLowerCase(), letter);
    }
  }
  return toCyrillic.get(ch.toLowerCase());
}

type WordScript = 'latin' | 'cyrillic' | 'other';

/** Whether every letter of `word` is Latin, or looks like a Latin letter. */
function allLatinLooking(word: string): boolean {
  for (const ch of word) if (!LATIN.test(ch) && latinOf(ch) === undefined && !/\p{M}/u.test(ch)) return false;
  return true;
}

/** The word with its letters from a minority script folded into the majority's (ties go to Latin). */
function foldWord(word: string, neighbourLatin: boolean): string {
  let latin = 0;
  let cyrillic = 0;
  let other = 0;
  for (const ch of word) {
    if (LATIN.test(ch)) latin++;
    else if (CYRILLIC.test(ch)) cyrillic++;
    else if (!/\p{M}/u.test(ch)) other++;
  }
  const mixed = [latin, cyrillic, other].filter((count) => count > 0).length > 1;
  let script: WordScript | undefined;
  if (mixed) script = latin >= cyrillic && latin >= other ? 'latin' : cyrillic >= other ? 'cyrillic' : 'other';
  // A word written wholly in look-alikes between Latin words ("сору" in Cyrillic) is read as Latin.
  else if (latin === 0 && neighbourLatin && allLatinLooking(word)) script = 'latin';
  if (script === 'latin') return Array.from(word, (ch) => (LATIN.test(ch) ? ch : latinOf(ch) ?? ch)).join('');
  if (script === 'cyrillic') return Array.from(word, (ch) => (LATIN.test(ch) ? cyrillicOf(ch) ?? ch : ch)).join('');
  return word;
}

/** Whether a word is written in Latin letters only (for the neighbours of a look-alike word). */
function isLatinWord(word: string | undefined): boolean {
  return word !== undefined && /^[A-Za-z]+$/.test(word);
}

/** `text` as the patterns read it (see the file comment); blanks are collapsed to one space. */
export function foldForMatching(text: string): string {
  if (!NON_ASCII.test(text)) return text.replace(/\s+/g, ' ');
  const visible = text.normalize('NFKD').replace(INVISIBLE, '').replace(LATIN_MARKS, '$1').normalize('NFC');
  const words = visible.match(WORD) ?? [];
  let index = 0;
  const folded = !NON_ASCII.test(visible) ? visible : visible.replace(WORD, (word) => {
    const i = index++;
    if (!NON_ASCII.test(word)) return word;
    return foldWord(word, isLatinWord(words[i - 1]) || isLatinWord(words[i + 1]));
  });
  return folded
    .replace(/[\u2018\u2019\u02bc\u2032\uff07]/g, "'")
    .replace(/\s+/g, ' ');
}

/**
 * The ASCII character `ch` reads as — itself when ASCII, its compatibility form (`＜` → `<`), or the
 * ASCII letter or sign it looks like (`Е` → `E`, `‹` → `<`) — or undefined for an invisible character
 * or a combining mark, and `ch` unchanged when it resembles nothing in ASCII.
 */
export function asciiLookAlike(ch: string): string | undefined {
  if (ch.length === 1 && ch.charCodeAt(0) < 0x80) return ch;
  if (INVISIBLE_ONE.test(ch) || MARK.test(ch)) return undefined;
  const compatible = ch.normalize('NFKC');
  if (/^\p{ASCII}+$/u.test(compatible)) return compatible;
  const letter = latinOf(ch);
  if (letter !== undefined) return letter;
  const sign = prototypeOf(ch);
  return sign !== undefined && /^[\x21-\x7e]$/.test(sign) ? sign : ch;
}

const INVISIBLE_ONE = new RegExp(`^(?:${INVISIBLE.source})$`, 'u');
const MARK = /^\p{M}$/u;
