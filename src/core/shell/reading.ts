// What reading a command gives, and the small helpers every reader shares.

/** What a segment (or a whole command) contributes: its signatures, and why it can never be auto-approved, if it cannot. */
export interface Reading {
  signatures: string[];
  never?: string;
}

/** A reading that can never be auto-approved, for `reason`. */
export function never(reason: string, signatures: string[] = []): Reading {
  return { signatures, never: reason };
}

/** Words joined as a person would type them: quoted only when they need it. */
export function quoteWords(words: string[]): string {
  return words.map((word) => (/^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Files a command may write to without it counting as a write. */
export const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
