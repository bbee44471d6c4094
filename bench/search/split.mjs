// Leave servers out: which half of the catalog's servers the ranking may be tuned on ("seen") and which
// half it never is ("held"), fixed before any tuning. The rule: order the 16 servers by the FNV-1a
// hash (32 bits) of their name; the first 8 are seen, the other 8 held. A look-alike product of the
// large catalog is neither: it only competes.
//
//   seen: firecrawl playwright github google-maps kubernetes puppeteer context7 memory
//   held: notion sequential-thinking everything postgres brave-search gitlab filesystem slack

/** FNV-1a, 32 bits, of the UTF-8 bytes of `text`. */
export function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The servers split in two by the rule above. */
export function splitServers(servers) {
  const ordered = [...servers].sort((a, b) => fnv1a(a) - fnv1a(b) || (a < b ? -1 : 1));
  const half = Math.floor(ordered.length / 2);
  return { seen: new Set(ordered.slice(0, half)), held: new Set(ordered.slice(half)) };
}

/**
 * Which half a query is about: the servers of its expected tools (or its own `server` field) all in
 * one half; "mixed" when they straddle both (counted in the totals only).
 */
export function halfOf(query, split) {
  const servers = new Set(query.server ? [query.server] : query.expected.map((ref) => ref.slice(0, ref.indexOf('/'))));
  if ([...servers].every((server) => split.held.has(server))) return 'held';
  if ([...servers].every((server) => split.seen.has(server))) return 'seen';
  return 'mixed';
}
