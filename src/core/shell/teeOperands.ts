// tee: every operand that is not an option is a file it writes its input into.
import { HARMLESS_TARGETS, never, quoteWords, type Reading } from './reading';
import type { ShellWord } from './words';

/** tee's options, none of which names a file: anything else is a file it writes into. */
const TEE_OPTIONS = new Set(['-a', '--append', '-i', '--ignore-interrupts', '-p', '--output-error', '--help', '--version']);

/** tee writes its input into every file it names, and every word after `--` names one. */
export function readTee(program: string, words: ShellWord[]): Reading {
  const self = [quoteWords([program])];
  let options = true;
  for (const word of words.slice(1)) {
    const value = word.value;
    if (options && value === '--') {
      options = false;
      continue;
    }
    if (value !== undefined && !word.pattern) {
      if (options && (TEE_OPTIONS.has(value) || /^--output-error=(?:warn|warn-nopipe|exit|exit-nopipe)$/.test(value) || /^-[aip]+$/.test(value))) continue;
      if (HARMLESS_TARGETS.has(value)) continue;
    }
    return never(`\`tee\` writes its input into the file ${word.text}`, self);
  }
  return { signatures: self };
}
