// Tool outputs are untrusted input. A reviewed server can still hand the model a web page or a README
// that someone else wrote, with instructions hidden in it. Results that bring outside content are read
// by the same scanner as tool definitions, with a profile for pages people write for people: what is
// ordinary in documentation (a docs page naming `~/.ssh`, "you are now ready", "send a POST request to
// https://…", "supersedes", direction marks in Arabic text) is not a finding; text addressed to the
// model, requests to read or send secret files, and hidden characters are. A result is read as the
// model reads it: all its texts as one (an order split across two blocks is still one order), folded
// (normalise.ts), in the languages of outputPatterns/, with base64 and hex runs decoded, and with the
// images and links that would carry data away (dataLinks.ts).
import type { TransportKind } from '../config/types';
import type { ToolInfo } from '../lifecycle/types';
import { findDataLinks } from './dataLinks';
import { decodedRuns } from './encodedRuns';
import { INVISIBLE } from './normalise';
import { LANGUAGE_PATTERNS } from './outputPatterns';
import { POISONING_PATTERNS, scanText, type PoisoningPattern, type ScanProfile } from './poisoning';

/** One suspicious thing in a tool's result or a resource's contents. */
export interface OutputFinding {
  kind: 'hidden-characters' | 'instructions' | 'data-url';
  /** The hidden-character class or pattern id that matched. */
  id: string;
  reason: string;
  match: string;
}

/** The definition patterns that read the same in any page and any language (tags and tokens that imitate the conversation). */
const KEPT = new Set(['prompt-tags', 'chat-template-tokens']);

/** The patterns a page is read with. */
export const OUTPUT_PATTERNS: readonly PoisoningPattern[] = [
  ...POISONING_PATTERNS.filter((pattern) => KEPT.has(pattern.id)).map((pattern) => ({ ...pattern, pattern: new RegExp(pattern.pattern.source, 'iu') })),
  ...LANGUAGE_PATTERNS,
];

/** How outputs are scanned (see the file comment). */
export const OUTPUT_SCAN: ScanProfile = { patterns: OUTPUT_PATTERNS, allowDirectionMarks: true };

/** Words in a tool's name or title that say it brings content from elsewhere (fetch, browse, read a remote page). */
const OUTSIDE_WORDS = /(?:^|[^a-z])(?:fetch|browse|browser|crawl|scrape|download|http|https|url|web|webpage|page|navigate|remote|search|rss|feed|github|gitlab|issue|issues|email|mail|inbox|slack|readme)(?:$|[^a-z])/i;

/** Why a tool's result is scanned, or undefined when it stays on this machine by every sign we read. */
export function outsideContentReason(tool: Pick<ToolInfo, 'name' | 'title' | 'annotations'>): string | undefined {
  const openWorld = tool.annotations?.openWorldHint;
  if (openWorld === true) return 'its server says it reaches beyond this machine (openWorldHint)';
  if (openWorld === undefined) return 'its server does not say it stays on this machine (no openWorldHint: false)';
  const words = `${tool.name} ${tool.title ?? ''}`.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_.-]/g, ' ');
  if (OUTSIDE_WORDS.test(words)) return 'its name says it fetches, browses or reads remote content';
  return undefined;
}

/** Why a resource's contents are scanned: it comes from a remote server, or its URI is a web address. */
export function outsideResourceReason(transport: TransportKind, uri: string): string | undefined {
  if (transport !== 'stdio') return `it comes from a remote server (${transport})`;
  if (/^(?:https?|wss?|ftp):/i.test(uri)) return 'its address is on the web';
  return undefined;
}

/** What a data-carrying image or link is reported as. */
const DATA_URL_REASONS = {
  image: 'has an image whose address would send data to another site when the chat shows it',
  link: 'has a link whose address has a slot for the model to fill with data',
} as const;

/** Every finding in `texts` (what a result brings, in the order the model reads it), each pattern or class once. */
export function scanOutputTexts(texts: readonly string[]): OutputFinding[] {
  const whole = texts.join('\n');
  const findings: OutputFinding[] = [];
  const seen = new Set<string>();
  const add = (finding: OutputFinding): void => {
    if (seen.has(finding.id)) return;
    seen.add(finding.id);
    findings.push(finding);
  };
  for (const finding of scanText(whole, OUTPUT_SCAN)) add({ kind: finding.kind, id: finding.id, reason: finding.reason, match: finding.match });
  for (const decoded of decodedRuns(whole)) {
    for (const finding of scanText(decoded, OUTPUT_SCAN)) {
      add({ kind: finding.kind, id: finding.id, reason: `${finding.reason}, in text encoded as base64 or hex`, match: finding.match });
    }
  }
  // Fullwidth brackets and invisible characters inside an address read as the plain ones a chat renders.
  for (const link of findDataLinks(whole.normalize('NFKC').replace(INVISIBLE, ''))) {
    add({ kind: 'data-url', id: `data-url-${link.kind}`, reason: DATA_URL_REASONS[link.kind], match: clipped(link.url) });
  }
  return findings;
}

function clipped(text: string): string {
  return text.length <= 120 ? text : `${text.slice(0, 119)}…`;
}
