// Counts as people write them: "1 resource", "14 tools", "0 prompts", "1,007 tools". One helper for
// every surface that shows a count (the Servers tree and its tooltips, the status bar, the sidebar,
// notifications, the chat), so none says "1 resources" or "tool(s)". Pure: the host and the webview
// both import it.

/** The noun for `n` (singular for exactly one, else the plural: `noun + "s"` unless given). */
export function nounFor(n: number, noun: string, plural = `${noun}s`): string {
  return n === 1 ? noun : plural;
}

/** `n` and its noun: "1 tool", "14 tools", "1,007 tools"; `plural` for nouns that do not take an "s". */
export function counted(n: number, noun: string, plural?: string): string {
  // Below 1,000 there is no separator to place: the first toLocaleString loads the locale data (tens of
  // milliseconds in a fresh extension host), which a count on the activation path should not pay.
  const digits = Number.isInteger(n) && Math.abs(n) >= 1000 ? n.toLocaleString('en-US') : String(n);
  return `${digits} ${nounFor(n, noun, plural)}`;
}

/** The counts of a list of (count, noun) pairs joined as a phrase: "14 tools, 1 resource and 2 prompts". */
export function countedList(items: readonly (readonly [number, string, string?])[]): string {
  const parts = items.map(([n, noun, plural]) => counted(n, noun, plural));
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
