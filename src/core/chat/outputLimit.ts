// A tool's result as a model gets it: text within a size limit (a larger result is saved to a file and
// replaced by its head, its size and the file's path), images and audio as data, resource links as
// references, and the structured content when the tool declares an output schema.
import type { CallToolResult, ContentBlock } from '../lifecycle/types';
import { textOfBlob } from './textBlobs';

export { isTextMimeType, textOfBlob } from './textBlobs';

/** The default limit (the `switchboard.maxToolOutputChars` setting). */
export const DEFAULT_MAX_TOOL_OUTPUT_CHARS = 100_000;
/** The `_meta` key with which a tool raises the limit for its own results. */
export const MAX_RESULT_SIZE_META = 'anthropic/maxResultSizeChars';

export type OutputPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'data'; readonly mimeType: string; readonly data: string; readonly description: string }
  | { readonly kind: 'reference'; readonly uri: string; readonly name?: string; readonly mimeType?: string; readonly description?: string };

export interface OutputLimitOptions {
  /** The setting's limit, in characters of text. */
  readonly maxChars: number;
  /** The tool's `_meta` (it may raise the limit for itself). */
  readonly toolMeta?: Readonly<Record<string, unknown>>;
  /** Whether the tool declares an `outputSchema` (then its `structuredContent` is what the model reads). */
  readonly hasOutputSchema?: boolean;
  /** Keeps the whole text somewhere the person can open it; resolves with its path. */
  save(text: string): Promise<string>;
}

export interface LimitedOutput {
  readonly parts: OutputPart[];
  /** Characters of text in the whole result. */
  readonly totalChars: number;
  /** Where the whole text was saved, when it was over the limit. */
  readonly savedTo?: string;
  readonly isError: boolean;
}

/** The limit for one tool: the setting's, or the tool's own `_meta` when that is higher. */
export function effectiveLimit(maxChars: number, toolMeta?: Readonly<Record<string, unknown>>): number {
  const own = toolMeta?.[MAX_RESULT_SIZE_META];
  return typeof own === 'number' && Number.isFinite(own) && own > maxChars ? Math.floor(own) : maxChars;
}

/** Turns a tool result into parts for a model, within the limit. */
export async function limitToolOutput(result: CallToolResult, options: OutputLimitOptions): Promise<LimitedOutput> {
  const limit = effectiveLimit(options.maxChars, options.toolMeta);
  const parts: OutputPart[] = [];
  if (options.hasOutputSchema && result.structuredContent !== undefined) {
    parts.push({ kind: 'text', text: JSON.stringify(result.structuredContent) });
    // Images and links still travel beside the structured content.
    for (const block of result.content) {
      const part = partOf(block);
      if (part && part.kind !== 'text') parts.push(part);
    }
  } else {
    for (const block of result.content) {
      const part = partOf(block);
      if (part) parts.push(part);
    }
  }
  const texts = parts.filter((p): p is Extract<OutputPart, { kind: 'text' }> => p.kind === 'text');
  const whole = texts.map((p) => p.text).join('\n');
  const isError = result.isError === true;
  if (whole.length <= limit) return { parts, totalChars: whole.length, isError };
  const savedTo = await options.save(whole);
  const notice = `\n\n[The result has ${whole.length.toLocaleString('en-US')} characters; this is its first part. The whole result is saved in ${savedTo}.]`;
  const head = whole.slice(0, Math.max(0, limit - notice.length));
  const rest = parts.filter((p) => p.kind !== 'text');
  return { parts: [{ kind: 'text', text: head + notice }, ...rest], totalChars: whole.length, savedTo, isError };
}

/** One content block as a part; undefined for a block of an unknown type (it is left out, not guessed at). */
export function partOf(block: ContentBlock): OutputPart | undefined {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? { kind: 'text', text: block.text } : undefined;
    case 'image':
    case 'audio':
      return typeof block.data === 'string' && typeof block.mimeType === 'string'
        ? { kind: 'data', mimeType: block.mimeType, data: block.data, description: `${block.type} (${block.mimeType}, ${approxBytes(block.data)})` }
        : undefined;
    case 'resource_link':
      return typeof block.uri === 'string' ? {
        kind: 'reference', uri: block.uri,
        ...(typeof block.name === 'string' ? { name: block.name } : {}),
        ...(typeof block.mimeType === 'string' ? { mimeType: block.mimeType } : {}),
        ...(typeof block.description === 'string' ? { description: block.description } : {}),
      } : undefined;
    case 'resource': {
      const resource = block.resource as { uri?: unknown; text?: unknown; blob?: unknown; mimeType?: unknown } | undefined;
      if (!resource || typeof resource.uri !== 'string') return undefined;
      if (typeof resource.text === 'string') return { kind: 'text', text: `[${resource.uri}]\n${resource.text}` };
      if (typeof resource.blob === 'string') {
        // A text blob is read as text (and so fenced and scanned as text); other blobs stay data.
        const text = textOfBlob(resource.blob, resource.mimeType);
        if (text !== undefined) return { kind: 'text', text: `[${resource.uri}]\n${text}` };
        const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : 'application/octet-stream';
        return { kind: 'data', mimeType, data: resource.blob, description: `${resource.uri} (${mimeType}, ${approxBytes(resource.blob)})` };
      }
      return { kind: 'reference', uri: resource.uri };
    }
    default:
      return undefined;
  }
}

/** The size of base64 data, for people. */
function approxBytes(base64: string): string {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = Math.floor((base64.length * 3) / 4) - padding;
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}
