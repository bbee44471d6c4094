// tee: every operand that is not an option is a file it writes its input into.
import { HARMLESS_TARGETS, never, quoteWords, type Reading } from './reading';
import type { ShellWord } from './words';

/** tee writes its input into every file it names. */
export function readTee(program: string, words: ShellWord[]): Reading {
  const self = [quoteWords([program])];
  for (const word of words.slice(1)) {
    if (word.value !== undefined && (word.value.startsWith('-') || HARMLESS_TARGETS.has(word.value))) continue;
    return never(`\`tee\` writes its input into the file ${word.text}`, self);
  }
  return { signatures: self };
}

