// Tool outputs are untrusted input. A reviewed server can still hand the model a web page or a README
// that someone else wrote, with instructions hidden in it. Results that bring outside content are read
// by the same scanner as tool definitions, with a profile for pages people write for people: what is
// ordinary in documentation (a docs page naming `~/.ssh`, "you are now ready", "send a POST request to
// https://…", "supersedes", direction marks in Arabic text) is not a finding; text addressed to the
// model, requests to read or send secret files, and hidden characters are.
import type { TransportKind } from '../config/types';
import type { ToolInfo } from '../lifecycle/types';
import { MAX_SCANNED_CHARS } from '../schema/jsonBounds';
import { POISONING_PATTERNS, scanText, type PoisoningPattern, type ScanProfile } from './poisoning';

/** One suspicious thing in a tool's result or a resource's contents. */
export interface OutputFinding {
  kind: 'hidden-characters' | 'instructions';
  /** The hidden-character class or pattern id that matched. */
  id: string;
  reason: string;
  match: string;
}

/** The definition patterns that read the same in a page as in a tool description. */
const KEPT = new Set(['ignore-instructions', 'hide-from-user', 'without-user-knowing', 'prompt-tags', 'chat-template-tokens']);

/** Files that hold keys or passwords, named exactly (`.env.example` and `~/.ssh` alone are ordinary in docs). */
const SECRET_FILE = String.raw`(?:~?[\\/]?\.ssh[\\/](?:id_\w+|authorized_keys|known_hosts|config)\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\.aws[\\/](?:credentials|config)\b|\.npmrc\b|\.pypirc\b|\.netrc\b|\.git-credentials\b|\.pgpass\b|\.docker[\\/]config\.json|\.kube[\\/]config\b|\/etc\/(?:passwd|shadow|sudoers)\b|\.env(?:\.(?:local|production|prod|development|dev|staging))?(?![\w.-]*\w)|\bcredentials\.json\b|claude_desktop_config\.json|\.cursor[\\/]mcp\.json)`;

/** Patterns narrowed for pages: each asks the model to act, not merely mentions a thing. */
const NARROWED: readonly PoisoningPattern[] = [
  {
    id: 'disregard-instructions',
    reason: 'tells the model to disregard instructions or rules',
    pattern: /\bdisregard\s+(?:[\w'-]+\s+){0,4}?(?:instructions?|rules?|guidelines?|prompts?|polic(?:y|ies)|directives?)\b/i,
  },
  {
    id: 'sensitive-file-request',
    reason: 'asks to read or pass along a file that holds keys, passwords or other secrets',
    pattern: new RegExp(String.raw`\b(?:read|cat|open|print|dump|copy|paste|include|attach|send|upload|post|forward|leak|share|output|reveal|exfiltrat\w*|email|transmit)\w*\s+(?:(?:the|full|entire|whole|raw|contents?|text|data|values?|of|file|files|from|in|at|your|my|user's|and)\s+){0,5}\S*?` + SECRET_FILE, 'i'),
  },
  {
    id: 'read-secrets',
    reason: 'asks to pass along credentials, keys or passwords',
    pattern: /\b(?:steal|harvest|leak|exfiltrat\w*|dump)\w*\s+(?:[\w'./~-]+\s+){0,5}?(?:credentials?|private\s+keys?|ssh\s+keys?|secret\s+keys?|api\s+keys?|passwords?|access\s+tokens?|session\s+cookies?|keychain)\b|\b(?:reveal|paste|print|include|put|write)\s+(?:[\w'./~-]+\s+){0,5}?(?:credentials?|private\s+keys?|secret\s+keys?|api\s+keys?|passwords?|tokens?)\s+(?:in|into)\s+(?:your|the)\s+(?:next\s+)?(?:answer|reply|response|message|output)\b/i,
  },
  {
    id: 'exfiltrate',
    reason: 'asks to send data to a web address, or to exfiltrate it',
    pattern: /\bexfiltrat\w*|\b(?:send|post|upload|transmit|forward|leak|beacon|submit|copy)\w*\s+(?:them|it|(?:the|this|these|those|all|your|their|any)\s+(?:[\w'-]+\s+){0,3}?(?:contents?|files?|data|keys?|credentials?|tokens?|secrets?|history|conversation|messages?|variables?|values?|answers?))\b[^.\n]{0,60}?\b(?:to|into|at)\s+(?:https?|wss?|ftp):\/\/\S+/i,
  },
  {
    id: 'tool-shadowing',
    reason: 'tells the model to do something else first whenever a tool is used (tool shadowing)',
    pattern: /\bbefore\s+(?:using|calling|invoking|running|executing|you\s+(?:use|call|invoke|run))\s+(?:any|every|each|another|other|any\s+other)\s+(?:[\w-]+\s+){0,2}?tools?\b[\s,:;-]*(?:(?:you\s+)?(?:must|should|need\s+to|have\s+to|always|first|please|make\s+sure\s+to)\s+)+(?:read|call|invoke|run|use|execute|fetch|send|pass|include)\b/i,
  },
  {
    id: 'skip-confirmation',
    reason: 'tells the model not to ask the user for confirmation',
    pattern: /\bwithout\s+(?:asking|requesting|seeking|getting|waiting\s+for)\s+(?:the\s+)?(?:user|human|operator)(?:'s|s)?\s+(?:for\s+)?(?:confirmation|permission|approval|consent)\b|\b(?:do\s+not|don't|never|no\s+need\s+to)\s+(?:ask|prompt|check\s+with)\s+the\s+(?:user|human|operator)\b/i,
  },
  {
    id: 'role-override',
    reason: 'tries to give the model a new role or new rules',
    pattern: /\byou\s+are\s+now\s+(?:a|an|my|DAN|in\s+(?:[\w-]+\s+)?mode)\b|\b(?:new|updated|real|actual|hidden)\s+(?:system\s+)?instructions?\s*:|\bfrom\s+now\s+on,?\s+you\s+(?:are|must|will|shall|should)\b(?!\s+(?:be\s+able|see|find|get))/i,
  },
];

/** The patterns a page is read with. */
export const OUTPUT_PATTERNS: readonly PoisoningPattern[] = [
  ...POISONING_PATTERNS.filter((pattern) => KEPT.has(pattern.id)),
  ...NARROWED,
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

/** Overlap between windows, so a phrase cut at a window's edge is still read whole once. */
const WINDOW_OVERLAP = 2_000;

/** Every finding in `texts` (a result's text parts), each pattern or class reported once. */
export function scanOutputTexts(texts: readonly string[]): OutputFinding[] {
  const findings: OutputFinding[] = [];
  const seen = new Set<string>();
  for (const text of texts) {
    for (let start = 0; start < text.length || start === 0; start += MAX_SCANNED_CHARS - WINDOW_OVERLAP) {
      for (const finding of scanText(text.slice(start, start + MAX_SCANNED_CHARS), OUTPUT_SCAN)) {
        if (seen.has(finding.id)) continue;
        seen.add(finding.id);
        findings.push({ kind: finding.kind, id: finding.id, reason: finding.reason, match: finding.match });
      }
      if (start + MAX_SCANNED_CHARS >= text.length) break;
    }
  }
  return findings;
}
