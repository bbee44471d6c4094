// "Did you mean …": the known names closest to a mistyped one, by edit distance.
import { distance } from 'fastest-levenshtein';

const MAX_SUGGESTIONS = 3;

/** `; did you mean 'a'?` (or `'a' or 'b'`) when some known names are close to `name`, else undefined. */
export function didYouMean(name: string, known: readonly string[]): string | undefined {
  const close = closestNames(name, known);
  if (close.length === 0) return undefined;
  return `; did you mean ${close.map((candidate) => `'${candidate}'`).join(' or ')}?`;
}

/**
 * The known names a person most likely meant: the same name in another case, names within a few
 * edits (a third of the length, at least one), and names that contain it or that it contains.
 */
export function closestNames(name: string, known: readonly string[]): string[] {
  const wanted = name.toLowerCase();
  const budget = Math.max(1, Math.floor(name.length / 3));
  const scored: { name: string; score: number }[] = [];
  for (const candidate of new Set(known)) {
    if (candidate === name) continue;
    const lower = candidate.toLowerCase();
    const edits = distance(wanted, lower);
    const contains = (wanted.length >= 3 && lower.includes(wanted)) || (lower.length >= 3 && wanted.includes(lower));
    if (edits <= budget || contains) scored.push({ name: candidate, score: edits });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, MAX_SUGGESTIONS).map((entry) => entry.name);
}
