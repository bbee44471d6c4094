// "Did you mean …" for a config file's mistyped keys and values: the one known name a typo most likely
// was, so its problem can say it and a Quick Fix can write it. One suggestion or none: two names equally
// close are a guess, and a Quick Fix must not guess.
import { distance } from 'fastest-levenshtein';
import type { ConfigFix } from './types';

/**
 * How many edits a typo may be from the name it was meant to be: one for names of up to three
 * characters (so "x" is not taken for "ws"), else a third of the length, and at least two (a swap of
 * two letters, "stdoi" for "stdio", is two edits).
 */
function editBudget(name: string): number {
  return name.length <= 3 ? 1 : Math.max(2, Math.floor(name.length / 3));
}

/** The one known name closest to `name` within the budget (case aside), or undefined when none or a tie. */
export function closestKnown(name: string, known: readonly string[]): string | undefined {
  if (known.includes(name)) return undefined;
  const wanted = name.toLowerCase();
  const budget = editBudget(name);
  let best: string | undefined;
  let bestEdits = Infinity;
  let tie = false;
  for (const candidate of new Set(known)) {
    const edits = distance(wanted, candidate.toLowerCase());
    if (edits > budget) continue;
    if (edits < bestEdits) {
      best = candidate;
      bestEdits = edits;
      tie = false;
    } else if (edits === bestEdits) tie = true;
  }
  return tie ? undefined : best;
}

/** `did you mean "command"?`, for a problem's message. */
export function didYouMean(suggestion: string): string {
  return `did you mean "${suggestion}"?`;
}

/** The Quick Fix that writes `suggestion` in place of a mistyped key or string value. */
export function renameFix(suggestion: string, what: 'key' | 'value'): ConfigFix {
  return { title: what === 'key' ? `Rename to "${suggestion}"` : `Change to "${suggestion}"`, text: JSON.stringify(suggestion) };
}
