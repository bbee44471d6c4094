// What the model receives of a result that brings outside content: the result itself, always fenced
// as data (outputFence.ts), after a warning that names what the output scan found when it found
// something. With review set to `hold`, the person decides first whether a flagged result reaches the
// model at all; this file says how the review setting reads and what each answer hands on.
import type { CallToolResult } from '../lifecycle/types';
import { outsideContentReason, scanOutputTexts, type OutputFinding } from '../toolReview/outputScan';
import { fencedOutput } from './outputFence';
import type { OutputPart } from './outputLimit';
import { textOfBlob } from './textBlobs';

export { DEFUSED_MARKER, defuseMarkers, describeFindings, fencedOutput, UNTRUSTED_BEGIN, UNTRUSTED_END } from './outputFence';

/** `switchboard.toolOutputs.review`: warn (the model gets the result with a warning) or hold (it waits in the sidebar). */
export type OutputReviewSetting = 'warn' | 'hold';

/** The setting's value, read leniently: anything but `hold` is the default `warn`. */
export function outputReviewSetting(value: unknown): OutputReviewSetting {
  return value === 'hold' ? 'hold' : 'warn';
}

/** The texts a result brings, in the order the model reads them: text blocks, links' names and descriptions, embedded resources' text (and text blobs), structured content as JSON. */
export function resultTexts(result: CallToolResult): string[] {
  const texts: string[] = [];
  for (const block of result.content ?? []) {
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    if (block.type === 'resource' && typeof block.resource === 'object' && block.resource !== null) {
      const { text, blob, mimeType } = block.resource as { text?: unknown; blob?: unknown; mimeType?: unknown };
      if (typeof text === 'string') texts.push(text);
      const decoded = typeof blob === 'string' ? textOfBlob(blob, mimeType) : undefined;
      if (decoded !== undefined) texts.push(decoded);
    }
    if (block.type === 'resource_link') {
      for (const field of [block.name, block.title, block.description]) if (typeof field === 'string') texts.push(field);
    }
  }
  if (result.structuredContent !== undefined) {
    try { texts.push(JSON.stringify(result.structuredContent)); } catch { /* a value that cannot be written has no text to scan */ }
  }
  return texts;
}

/** The findings in a tool's result, or none when the tool stays on this machine by every sign we read. */
export function scanToolResult(tool: Parameters<typeof outsideContentReason>[0], result: CallToolResult): OutputFinding[] {
  return bringsOutsideContent(tool) ? scanOutputTexts(resultTexts(result)) : [];
}

/** Whether each tool's results are scanned, read once per listed definition (a catalog's tools are not changed in place). */
const outsideContent = new WeakMap<object, boolean>();

function bringsOutsideContent(tool: Parameters<typeof outsideContentReason>[0]): boolean {
  let brings = outsideContent.get(tool);
  if (brings === undefined) {
    brings = outsideContentReason(tool) !== undefined;
    outsideContent.set(tool, brings);
  }
  return brings;
}

/** The findings in output parts as the model would read them: every text together, links' names and descriptions, text data decoded. */
export function scanOutputParts(parts: readonly OutputPart[]): OutputFinding[] {
  return scanOutputTexts(parts.flatMap((part): string[] => {
    switch (part.kind) {
      case 'text': return [part.text];
      case 'reference': return [part.name, part.description].filter((text): text is string => text !== undefined);
      case 'data': return [part.description, textOfBlob(part.data, part.mimeType) ?? ''];
    }
  }));
}

/** The result fenced after a warning naming what was found (`source` is e.g. `web › fetch`); see outputFence.ts. */
export function warnedOutput(parts: readonly OutputPart[], findings: readonly OutputFinding[], source: string, tag: string): OutputPart[] {
  return fencedOutput(parts, findings, source, tag);
}

/** A resource's attached text as a mention gives it to the model, and what the scan found in it. */
export interface MentionedResourceText {
  readonly text: string;
  /** Set when the scan found something (the text then starts with the warning). */
  readonly findings?: readonly OutputFinding[];
  /** A resource from outside: its text without the fence (what a review by the person starts from). */
  readonly unfenced?: string;
}

/**
 * A resource's text for the model: from outside (`outside`, see outsideResourceReason) it is scanned
 * and fenced as data, after the warning when flagged; a resource from this machine is given as it is.
 */
export function mentionedResourceText(text: string, outside: boolean, source: string, tag: string): MentionedResourceText {
  if (!outside) return { text };
  const findings = scanOutputTexts([text]);
  const fenced = fencedOutput([{ kind: 'text', text }], findings, source, tag).map((part) => (part.kind === 'text' ? part.text : '')).join('\n');
  return { text: fenced, ...(findings.length > 0 ? { findings } : {}), unfenced: text };
}

/** What the model gets when the person, reviewing a held result, withholds it. */
export function withheldOutput(source: string, findings: readonly OutputFinding[], reason?: string): OutputPart[] {
  const why = reason !== undefined && reason.trim() !== '' ? ` The user said: ${reason.trim()}` : '';
  // Only the reasons: the matched text is the page's own words, which the person chose to keep from the model.
  const reasons = [...new Set(findings.map((finding) => finding.kind === 'hidden-characters' ? 'carries hidden characters' : finding.reason))].join('; ');
  return [{ kind: 'text', text: `The user withheld this result of ${source}: MCP Switchboard found that it ${reasons}.${why}` }];
}

/** A flagged result waiting for the person (the sidebar shows it); `preview` is the start of its text. */
export interface HeldOutput {
  readonly id: string;
  readonly server: string;
  readonly tool: string;
  readonly findings: readonly OutputFinding[];
  readonly preview: string;
  readonly at: number;
}

/** The person's answer to a held result: hand it to the model (with the warning), or withhold it. */
export type HeldOutputAnswer = { readonly release: true } | { readonly release: false; readonly reason?: string };

/** Where a held result waits (the pending requests of the sidebar). */
export type HoldOutput = (held: HeldOutput, signal?: AbortSignal) => Promise<HeldOutputAnswer>;

/** How a flagged result went on to the model. */
export type ReviewVerdict = 'warned' | 'released' | 'withheld';

/** Characters of a held result shown in its card. */
const PREVIEW_CHARS = 600;

/**
 * The parts the model gets of a result that brings outside content, with `findings`: none found →
 * fenced; `warn` (or no place to hold it) → fenced after the warning; `hold` → what the person answered.
 */
export async function reviewedParts(
  parts: readonly OutputPart[],
  findings: readonly OutputFinding[],
  source: { server: string; tool: string; id: string; at: number },
  setting: OutputReviewSetting,
  hold: HoldOutput | undefined,
  signal?: AbortSignal,
): Promise<{ parts: OutputPart[]; verdict?: ReviewVerdict }> {
  const label = `${source.server} › ${source.tool}`;
  if (findings.length === 0) return { parts: fencedOutput(parts, findings, label, source.id) };
  if (setting === 'warn' || hold === undefined) return { parts: warnedOutput(parts, findings, label, source.id), verdict: 'warned' };
  const text = parts.map((part) => (part.kind === 'text' ? part.text : '')).join('\n');
  const preview = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
  const answer = await hold({ id: source.id, server: source.server, tool: source.tool, findings, preview, at: source.at }, signal);
  return answer.release
    ? { parts: warnedOutput(parts, findings, label, source.id), verdict: 'released' }
    : { parts: withheldOutput(label, findings, answer.reason), verdict: 'withheld' };
}
