// A server asking the client for a model completion (MCP sampling): what it asks, shown to the person
// as a card before any model sees it; the person's answer; and the list the requests wait in.
import { PendingRequests } from '../pending/pendingRequests';

/** One message of the conversation the server sends, reduced to what a person reads. */
export interface SamplingMessage {
  readonly role: 'user' | 'assistant';
  /** The text, or a description of what is not text (`[image: image/png, 1.2 KB]`). */
  readonly text: string;
}

/** What the server would like in a model (hints, not orders). */
export interface ModelPreferences {
  readonly hints?: readonly string[];
  readonly costPriority?: number;
  readonly speedPriority?: number;
  readonly intelligencePriority?: number;
}

export interface SamplingRequest {
  readonly id: string;
  readonly serverId: string;
  readonly serverName: string;
  readonly messages: readonly SamplingMessage[];
  readonly systemPrompt?: string;
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly modelPreferences?: ModelPreferences;
  /** The model the answer will come from, when already known (the server's chosen model). */
  readonly model?: string;
  readonly createdAt: number;
}

/** The person's answer: run it (once, or always for this server), or refuse it. */
export type SamplingAnswer =
  | { readonly kind: 'approve'; readonly always?: boolean }
  | { readonly kind: 'reject'; readonly reason?: string };

export class SamplingCancelledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SamplingCancelledError';
  }
}

/** The sampling requests waiting for the person, oldest first. */
export class SamplingBroker extends PendingRequests<SamplingRequest, SamplingAnswer> {
  constructor() {
    super((reason) => new SamplingCancelledError(reason === 'disposed' ? 'the window closed before the request was answered' : 'the server withdrew the request'));
  }
}

/** A message's content as a person reads it: text as is, anything else described. */
export function describeContent(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => {
    if (typeof block !== 'object' || block === null) return '';
    const b = block as { type?: unknown; text?: unknown; mimeType?: unknown; data?: unknown };
    if (b.type === 'text' && typeof b.text === 'string') return b.text;
    const size = typeof b.data === 'string' ? ` ${formatBytes(Math.floor(b.data.length * 3 / 4))}` : '';
    return `[${String(b.type ?? 'content')}: ${typeof b.mimeType === 'string' ? b.mimeType : 'unknown type'}${size ? `,${size}` : ''}]`;
  }).filter((t) => t !== '').join('\n');
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
