// Patterns read in one pass: most texts match none of a scan's patterns, and one union of them says
// so in a single pass instead of one pass per pattern.

/** One instruction-like pattern: matched case-insensitively on text with invisible characters removed, NFKC-folded and whitespace collapsed. */
export interface PoisoningPattern {
  id: string;
  reason: string;
  pattern: RegExp;
  /** A script the pattern cannot match without (Cyrillic for Russian): a text without it skips the pattern. */
  needs?: RegExp;
}

const unions = new WeakMap<readonly PoisoningPattern[], RegExp | null>();

/**
 * One expression that matches a text exactly when one of `patterns` does, or null where a union would
 * not be exactly that — patterns with differing or stateful flags (g, y), or with back-references (a
 * union renumbers the groups) — or would be slower than the patterns one by one: with the `u` flag
 * (property classes and lookbehinds in each alternative), V8 reads a union hundreds of times slower.
 * Built once per list.
 */
export function patternUnion(patterns: readonly PoisoningPattern[]): RegExp | null {
  let union = unions.get(patterns);
  if (union === undefined) {
    const flags = patterns[0]?.pattern.flags;
    const exact = flags !== undefined && !/[gyu]/.test(flags)
      && patterns.every(({ pattern }) => pattern.flags === flags && !/\\(?:[1-9]|k<)/.test(pattern.source));
    union = exact ? new RegExp(patterns.map(({ pattern }) => `(?:${pattern.source})`).join('|'), flags) : null;
    unions.set(patterns, union);
  }
  return union;
}

const groups = new WeakMap<readonly PoisoningPattern[], Map<string, RegExp | null>>();

/** The union (patternUnion) of each group of `patterns` that share their flags, by flags. Built once per list. */
export function groupUnions(patterns: readonly PoisoningPattern[]): Map<string, RegExp | null> {
  let byFlags = groups.get(patterns);
  if (byFlags === undefined) {
    const members = new Map<string, PoisoningPattern[]>();
    for (const pattern of patterns) members.set(pattern.pattern.flags, [...(members.get(pattern.pattern.flags) ?? []), pattern]);
    byFlags = new Map([...members].map(([flags, group]) => [flags, patternUnion(group)]));
    groups.set(patterns, byFlags);
  }
  return byFlags;
}

