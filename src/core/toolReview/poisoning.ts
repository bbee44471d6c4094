// Tool poisoning: a tool's name, description or schema is read by the model, not the person, so a
// server can hide instructions there (invisible characters, text addressed to the model). This scan
// finds both kinds for the sidebar to show. Ordinary text in any language, and emoji sequences that
// legitimately use joiners, pass.
import type { ToolInfo } from '../lifecycle/types';
import { MAX_SCANNED_CHARS, MAX_SCHEMA_DEPTH, MAX_SCHEMA_STRINGS } from '../schema/jsonBounds';
import { foldForMatching } from './normalise';
import { groupUnions, type PoisoningPattern } from './patternUnion';

export { patternUnion } from './patternUnion';

export type PoisonKind = 'hidden-characters' | 'instructions';
export type PoisonField = 'name' | 'title' | 'description' | 'inputSchema' | 'annotations';

/** One suspicious thing in a tool definition. */
export interface PoisonFinding {
  kind: PoisonKind;
  /** The hidden-character class or pattern that matched (see HIDDEN_CHARACTER_CLASSES, POISONING_PATTERNS). */
  id: string;
  reason: string;
  field: PoisonField;
  /** For hidden characters, their code points (`U+200B U+E0041`); for instructions, the text that matched. */
  match: string;
  /** Where inside `inputSchema` or `annotations` (a JSON Pointer; a property name's pointer for a key). */
  path?: string;
}

/** A class of invisible character and why it is flagged. */
export interface HiddenCharacterClass {
  id: 'zero-width' | 'bidi' | 'tags' | 'invisible' | 'variation-selectors';
  reason: string;
}

/** The classes of hidden characters, in the order findings are reported. */
export const HIDDEN_CHARACTER_CLASSES: readonly HiddenCharacterClass[] = [
  { id: 'zero-width', reason: 'zero-width characters, invisible when displayed' },
  { id: 'bidi', reason: 'bidirectional controls, which change the order text is displayed in' },
  { id: 'tags', reason: 'Unicode tag characters, which can carry invisible text' },
  { id: 'invisible', reason: 'other invisible formatting characters or blank letters' },
  { id: 'variation-selectors', reason: 'a run of variation selectors, which can carry invisible data' },
];

const RANGES: Record<Exclude<HiddenCharacterClass['id'], 'variation-selectors'>, readonly (readonly [number, number])[]> = {
  'zero-width': [[0x200b, 0x200d], [0x2060, 0x2064], [0xfeff, 0xfeff], [0x180e, 0x180e]],
  bidi: [[0x200e, 0x200f], [0x061c, 0x061c], [0x202a, 0x202e], [0x2066, 0x2069]],
  tags: [[0xe0000, 0xe007f]],
  invisible: [[0x034f, 0x034f], [0x115f, 0x1160], [0x17b4, 0x17b5], [0x206a, 0x206f], [0x3164, 0x3164], [0xffa0, 0xffa0], [0xfff9, 0xfffb], [0x1d173, 0x1d17a]],
};

/** RANGES as a list, walked per code point without building it again. */
const CLASS_RANGES = Object.entries(RANGES) as [Exclude<HiddenCharacterClass['id'], 'variation-selectors'>, readonly (readonly [number, number])[]][];
const VARIATION_SELECTORS: readonly (readonly [number, number])[] = [[0xfe00, 0xfe0f], [0xe0100, 0xe01ef]];

/** A character class of these ranges, for one regular-expression test over a whole text. */
function rangeClass(ranges: readonly (readonly [number, number])[]): RegExp {
  const hex = (cp: number): string => `\\u{${cp.toString(16)}}`;
  return new RegExp(`[${ranges.map(([low, high]) => `${hex(low)}-${hex(high)}`).join('')}]`, 'u');
}

/** Any code point a hidden-character class or a variation selector covers: almost every text has none, and is then scanned without a walk per character. */
const ANY_HIDDEN = rangeClass([...Object.values(RANGES).flat(), ...VARIATION_SELECTORS]);

export type { PoisoningPattern } from './patternUnion';

/** Text aimed at the model rather than the person. Each is a reason to read the description, not proof of an attack. */
export const POISONING_PATTERNS: readonly PoisoningPattern[] = [
  {
    id: 'ignore-instructions',
    reason: 'tells the model to ignore its earlier instructions',
    pattern: /\b(?:ignore|forget|override|bypass)\s+(?:(?:all|any|the|your|of|these|those|my)\s+)*(?:previous|prior|above|earlier|preceding|former|original|system|other|existing)\s+(?:instructions?|prompts?|rules?|directions?|directives?|guidelines?|messages?|context)\b/i,
  },
  {
    id: 'disregard-instructions',
    reason: 'tells the model to disregard instructions or rules',
    pattern: /\bdisregard\s+(?:[\w'-]+\s+){0,4}?(?:instructions?|rules?|guidelines?|prompts?|polic(?:y|ies)|directions?|safety|warnings?)\b/i,
  },
  {
    id: 'hide-from-user',
    reason: 'tells the model to keep something from the user',
    pattern: /\b(?:do\s+not|don't|dont|never|must\s+not|should\s+not|shouldn't|avoid)\s+(?:ever\s+)?(?:tell|inform|mention|reveal|show|notif|alert|disclos|report|let)\w*\b(?:\s+[\w'-]+){0,6}?\s+(?:the\s+)?(?:user|human|operator)s?\b(?!'s|\s+(?:name|id|password|email|data|input|account)\b)/i,
  },
  {
    id: 'without-user-knowing',
    reason: 'asks for something to be done without the user knowing',
    pattern: /\bwithout\s+(?:(?:the|a|any)\s+)?(?:user|human|operator|anyone|them)(?:'s|s)?\s+(?:knowing|knowledge|noticing|seeing|awareness|being\s+aware|realizing|consent|permission|approval)\b|\bwithout\s+(?:telling|informing|notifying|alerting|asking)\s+(?:the\s+)?(?:user|human|operator|anyone|them)\b/i,
  },
  {
    id: 'secretly',
    reason: 'asks for something to be done secretly',
    pattern: /\b(?:secretly|covertly|surreptitiously|stealthily)\b/i,
  },
  {
    id: 'prompt-tags',
    reason: 'uses tags that imitate system or high-priority instructions',
    pattern: /<\s*\/?\s*(?:important|system|sys|instructions?|secret|admin|priority|critical|hidden|prompt|system[_-]?prompt)\s*>/i,
  },
  {
    id: 'chat-template-tokens',
    reason: 'contains chat-template control tokens that imitate the conversation format',
    pattern: /<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id)\|>|\[\/?INST\]|<<\/?SYS>>/i,
  },
  {
    id: 'sensitive-files',
    reason: 'names a file that holds keys, passwords or other secrets',
    pattern: /(?:^|[\s'"`(/\\~])\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws[\\/](?:credentials|config)\b|\.npmrc\b|\.pypirc\b|\.netrc\b|\.git-credentials\b|\.pgpass\b|\.docker[\\/]config\.json|\.kube[\\/]config\b|\/etc\/(?:passwd|shadow|sudoers)\b|(?:^|[\s'"`([{,;:=/\\~])\.env(?:\.[\w-]+)?(?=$|[\s'"`)\]},;:.!?/\\])|\bcredentials\.json\b|\.cursor[\\/]mcp\.json|claude_desktop_config\.json/i,
  },
  {
    id: 'read-secrets',
    reason: 'asks to read or pass along credentials, keys or passwords',
    pattern: /\b(?:read|cat|include|attach|collect|gather|extract|dump|copy|send|upload|forward|leak|steal|harvest)\w*\s+(?:[\w'./~-]+\s+){0,5}?(?:credentials?|private\s+keys?|ssh\s+keys?|secret\s+keys?|api\s+keys?|passwords?|access\s+tokens?|auth(?:entication)?\s+tokens?|session\s+cookies?|keychain)\b/i,
  },
  {
    id: 'exfiltrate',
    reason: 'asks to send data to a web address, or to exfiltrate it',
    pattern: /\bexfiltrat\w*|\b(?:send|post|upload|transmit|forward|leak|beacon|submit|report|copy)\w*\b[^.\n]{0,80}?\b(?:to|into|at)\s+(?:https?|wss?|ftp):\/\/\S+/i,
  },
  {
    id: 'tool-shadowing',
    reason: 'tells the model to do something else first whenever a tool is used (tool shadowing)',
    pattern: /\bbefore\s+(?:using|calling|invoking|running|executing|you\s+(?:use|call|invoke|run))\s+(?:(?:this|that|the|any|other|another|every|each)\s+)?(?:[\w-]+\s+){0,3}?tools?\b[\s,:;-]*(?:(?:you\s+)?(?:must|should|need\s+to|have\s+to|always|first|please|make\s+sure\s+to)\s+)*(?:read|call|invoke|run|use|execute|fetch|send|pass|include)\b/i,
  },
  {
    id: 'tool-override',
    reason: 'claims to replace, update or take precedence over another tool',
    pattern: /\bthis\s+tool\s+(?:has\s+been|was|is\s+now)\s+(?:updated|replaced|upgraded|modified|changed|superseded)\b|\bsupersede[sd]?\b|\binstead\s+of\s+(?:using\s+)?(?:the\s+|any\s+)?[\w.-]+\s+tool\b|\breplaces?\s+(?:the\s+)?[\w.-]+\s+tool\b|\b(?:takes?|has)\s+(?:precedence|priority)\s+over\b/i,
  },
  {
    id: 'skip-confirmation',
    reason: 'tells the model not to ask the user for confirmation',
    pattern: /\b(?:without|do\s+not|don't|never|no\s+need\s+to)\s+(?:ask|asking|request|requesting|seek|seeking|wait|waiting|prompt|prompting|get|getting)\s+(?:for\s+)?(?:the\s+)?(?:user'?s?\s+|their\s+)?(?:confirmation|permission|approval|consent)\b/i,
  },
  {
    id: 'role-override',
    reason: 'tries to give the model a new role or new rules',
    pattern: /\byou\s+are\s+now\b|\b(?:new|updated|real|actual|hidden)\s+(?:system\s+)?instructions?\s*:|\bfrom\s+now\s+on,?\s+you\b/i,
  },
];

/**
 * Bounds, so a hostile schema cannot make the scan slow. They are the catalog's too (see
 * core/lifecycle/toolBounds): a tool past them is refused there, and a longer description is cut to
 * MAX_SCANNED_CHARS; a text is read whole however long it is (scanText), so nothing the model gets
 * went unread here.
 */
const MAX_DEPTH = MAX_SCHEMA_DEPTH;
const MAX_STRINGS = MAX_SCHEMA_STRINGS;
const MAX_MATCH_CHARS = 120;

/** Every finding in a tool's name, title, description, input schema (keys and values at any depth) and annotations. */
export function scanTool(tool: ToolInfo): PoisonFinding[] {
  const findings: PoisonFinding[] = [];
  const seen = new Set<string>();
  const add = (finding: PoisonFinding): void => {
    const key = `${finding.id}\u0000${finding.field}\u0000${finding.path ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.push(finding);
  };
  const scan = (text: string, field: PoisonField, path?: string): void => {
    for (const finding of scanText(text)) add(path === undefined ? { ...finding, field } : { ...finding, field, path });
  };
  if (typeof tool.name === 'string') scan(tool.name, 'name');
  if (typeof tool.title === 'string') scan(tool.title, 'title');
  if (typeof tool.description === 'string') scan(tool.description, 'description');
  walkStrings(tool.inputSchema, (text, path) => scan(text, 'inputSchema', path));
  if (tool.annotations !== undefined) walkStrings(tool.annotations, (text, path) => scan(text, 'annotations', path));
  return findings;
}

/** What a scan looks for: the patterns, and whether direction marks (LRM, RLM, ALM) count as hidden. */
export interface ScanProfile {
  readonly patterns: readonly PoisoningPattern[];
  /**
   * Right-to-left text on ordinary pages carries direction marks to order punctuation; only the
   * embedding, override and isolate controls (which reorder what is shown) stay flagged then.
   */
  readonly allowDirectionMarks: boolean;
}

/** The profile for tool definitions: every pattern, every hidden character. */
export const DEFINITION_SCAN: ScanProfile = { patterns: POISONING_PATTERNS, allowDirectionMarks: false };

/** Overlap between windows, so a phrase cut at a window's edge is still read whole once. */
const WINDOW_OVERLAP = 2_000;

/**
 * The findings in one string (without a field), each pattern or class once. The whole string is read,
 * however long, in windows of MAX_SCANNED_CHARS that overlap: nothing the model may be sent is skipped.
 */
export function scanText(input: string, profile: ScanProfile = DEFINITION_SCAN): Omit<PoisonFinding, 'field'>[] {
  if (input.length <= MAX_SCANNED_CHARS) return scanWindow(input, profile);
  const findings: Omit<PoisonFinding, 'field'>[] = [];
  const seen = new Set<string>();
  for (let start = 0; start < input.length; start += MAX_SCANNED_CHARS - WINDOW_OVERLAP) {
    for (const finding of scanWindow(input.slice(start, start + MAX_SCANNED_CHARS), profile)) {
      if (seen.has(finding.id)) continue;
      seen.add(finding.id);
      findings.push(finding);
    }
    if (start + MAX_SCANNED_CHARS >= input.length) break;
  }
  return findings;
}

function scanWindow(text: string, profile: ScanProfile): Omit<PoisonFinding, 'field'>[] {
  const findings: Omit<PoisonFinding, 'field'>[] = [];
  // Printable ASCII has no hidden character and is its own NFKC form: only the patterns are left to
  // read, on blanks collapsed. Most results are such text, and every result of an open-world tool is scanned.
  if (PRINTABLE_ASCII.test(text)) {
    matchPatterns(text.replace(BLANKS, ' '), profile, findings);
    return findings;
  }
  const hidden = findHiddenCharacters(text, profile.allowDirectionMarks);
  for (const found of hidden) {
    const tagText = found.id === 'tags' && found.tagText !== '' ? `; hidden text: ${JSON.stringify(clip(found.tagText))}` : '';
    findings.push({ kind: 'hidden-characters', id: found.id, reason: `${found.count} × ${found.reason}${tagText}`, match: formatCodePoints(found.codePoints) });
  }
  const visible = foldForMatching(text);
  const tagTexts = hidden.filter((found) => found.tagText !== '').map((found) => found.tagText);
  for (const candidate of [visible, ...tagTexts]) matchPatterns(candidate, profile, findings);
  return findings;
}

/** Text of printable ASCII and ordinary blanks only (tab, line feed, carriage return). */
const PRINTABLE_ASCII = /^[\x20-\x7e\t\n\r]*$/;
const BLANKS = /\s+/g;

function matchPatterns(candidate: string, profile: ScanProfile, findings: Omit<PoisonFinding, 'field'>[]): void {
  // Most texts match no pattern: one pass of a group's union says so, instead of one pass per pattern.
  const unions = groupUnions(profile.patterns);
  const matched = new Map<string, boolean>();
  const present = new Map<RegExp, boolean>();
  for (const { id, reason, pattern, needs } of profile.patterns) {
    if (findings.some((finding) => finding.id === id)) continue;
    const union = unions.get(pattern.flags);
    if (union) {
      if (!matched.has(pattern.flags)) matched.set(pattern.flags, union.test(candidate));
      if (matched.get(pattern.flags) === false) continue;
    }
    if (needs !== undefined) {
      if (!present.has(needs)) present.set(needs, needs.test(candidate));
      if (present.get(needs) === false) continue;
    }
    const match = pattern.exec(candidate);
    if (match) findings.push({ kind: 'instructions', id, reason, match: clip(match[0].trim()) });
  }
}

interface HiddenRun {
  id: HiddenCharacterClass['id'];
  reason: string;
  count: number;
  codePoints: number[];
  /** ASCII carried by tag characters. */
  tagText: string;
}

const EXTENDED_PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
/** Scripts that use ZWJ/ZWNJ inside words (Persian, Indic conjuncts, Sinhala, …). */
const JOINING_SCRIPT = /[\p{scx=Arabic}\p{scx=Syriac}\p{scx=Nko}\p{scx=Mongolian}\p{scx=Thaana}\p{scx=Devanagari}\p{scx=Bengali}\p{scx=Gurmukhi}\p{scx=Gujarati}\p{scx=Oriya}\p{scx=Tamil}\p{scx=Telugu}\p{scx=Kannada}\p{scx=Malayalam}\p{scx=Sinhala}\p{scx=Myanmar}\p{scx=Khmer}]/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
/** The subdivision flags (England, Scotland, Wales): the only emoji that are spelt with tag characters. */
const FLAG_TAG_SEQUENCES = new Set(['gbeng', 'gbsct', 'gbwls']);

/** Left-to-right mark, right-to-left mark, Arabic letter mark. */
const DIRECTION_MARKS = new Set([0x200e, 0x200f, 0x061c]);

function findHiddenCharacters(text: string, allowDirectionMarks: boolean): HiddenRun[] {
  if (!ANY_HIDDEN.test(text)) return [];
  const chars = Array.from(text);
  const points = chars.map((ch) => ch.codePointAt(0) ?? 0);
  const legit = legitimateFlagTags(points);
  const runs = new Map<HiddenCharacterClass['id'], HiddenRun>();
  const note = (id: HiddenCharacterClass['id'], cp: number): void => {
    const cls = HIDDEN_CHARACTER_CLASSES.find((c) => c.id === id) as HiddenCharacterClass;
    const run = runs.get(id) ?? { id, reason: cls.reason, count: 0, codePoints: [], tagText: '' };
    run.count++;
    if (!run.codePoints.includes(cp)) run.codePoints.push(cp);
    if (id === 'tags' && cp >= 0xe0020 && cp <= 0xe007e) run.tagText += String.fromCharCode(cp - 0xe0000);
    runs.set(id, run);
  };
  for (let i = 0; i < points.length; i++) {
    const cp = points[i];
    if (legit.has(i) || (allowDirectionMarks && DIRECTION_MARKS.has(cp))) continue;
    if (isVariationSelector(cp)) {
      // One selector after a base picks a glyph; a run of them (or one with no base) is a data channel.
      if (i === 0 || isVariationSelector(points[i - 1]) || isVariationSelector(points[i + 1] ?? -1)) note('variation-selectors', cp);
      continue;
    }
    if ((cp === 0x200d || cp === 0x200c) && isLegitimateJoiner(points, i)) continue;
    const id = classOf(cp);
    if (id !== undefined) note(id, cp);
  }
  return HIDDEN_CHARACTER_CLASSES.map((cls) => runs.get(cls.id)).filter((run): run is HiddenRun => run !== undefined);
}

function classOf(cp: number): Exclude<HiddenCharacterClass['id'], 'variation-selectors'> | undefined {
  for (const [id, ranges] of CLASS_RANGES) {
    for (const [low, high] of ranges) if (cp >= low && cp <= high) return id;
  }
  return undefined;
}

function isVariationSelector(cp: number): boolean {
  return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

/** ZWJ inside an emoji sequence (👩‍💻, 🏳️‍🌈), or ZWJ/ZWNJ after a letter of a script that uses them in words. */
function isLegitimateJoiner(points: number[], i: number): boolean {
  let before = i - 1;
  // Skip the emoji presentation selector and skin-tone modifiers between the pictograph and the joiner.
  while (before >= 0 && (points[before] === 0xfe0f || (points[before] >= 0x1f3fb && points[before] <= 0x1f3ff))) before--;
  const prev = before >= 0 ? String.fromCodePoint(points[before]) : '';
  const next = i + 1 < points.length ? String.fromCodePoint(points[i + 1]) : '';
  if (points[i] === 0x200d && EXTENDED_PICTOGRAPHIC.test(prev) && EXTENDED_PICTOGRAPHIC.test(next)) return true;
  const prevChar = i > 0 ? String.fromCodePoint(points[i - 1]) : '';
  const nextIsHidden = next !== '' && (classOf(points[i + 1]) !== undefined || isVariationSelector(points[i + 1]));
  return LETTER_OR_MARK.test(prevChar) && JOINING_SCRIPT.test(prevChar) && !nextIsHidden;
}

/** Indexes of tag characters that spell one of the subdivision flags after 🏴. */
function legitimateFlagTags(points: number[]): Set<number> {
  const legit = new Set<number>();
  for (let i = 0; i < points.length; i++) {
    if (points[i] !== 0x1f3f4) continue;
    let j = i + 1;
    let spelled = '';
    while (j < points.length && points[j] >= 0xe0020 && points[j] <= 0xe007e) spelled += String.fromCharCode(points[j++] - 0xe0000);
    if (points[j] === 0xe007f && FLAG_TAG_SEQUENCES.has(spelled)) for (let k = i + 1; k <= j; k++) legit.add(k);
  }
  return legit;
}

/** Calls `visit` for every string in a JSON value: object keys and string values at any depth. */
function walkStrings(value: unknown, visit: (text: string, path: string) => void): void {
  let budget = MAX_STRINGS;
  const seen = new WeakSet<object>();
  const walk = (node: unknown, path: string, depth: number): void => {
    if (budget <= 0) return;
    if (typeof node === 'string') {
      budget--;
      visit(node, path);
      return;
    }
    if (typeof node !== 'object' || node === null || depth >= MAX_DEPTH || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${path}/${index}`, depth + 1));
      return;
    }
    for (const [key, child] of Object.entries(node)) {
      const childPath = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      budget--;
      visit(key, childPath);
      walk(child, childPath, depth + 1);
    }
  };
  walk(value, '', 0);
}

function formatCodePoints(points: number[]): string {
  const shown = points.slice(0, 12).map((cp) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
  return points.length > 12 ? `${shown.join(' ')} …` : shown.join(' ');
}

function clip(text: string): string {
  return text.length <= MAX_MATCH_CHARS ? text : `${text.slice(0, MAX_MATCH_CHARS - 1)}…`;
}
