// The conversation with a model, in shapes of our own (the VS Code adapter turns them into
// vscode.LanguageModelChatMessage): text, data (images, audio), tool calls and their results.
import type { OutputPart } from './outputLimit';

export type ModelPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'data'; readonly mimeType: string; readonly data: string; readonly description: string }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: Record<string, unknown> }
  | { readonly kind: 'toolResult'; readonly callId: string; readonly content: readonly OutputPart[]; readonly isError: boolean };

export interface ModelMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly ModelPart[];
}

/** A user message of text. */
export function userText(text: string): ModelMessage {
  return { role: 'user', parts: [{ kind: 'text', text }] };
}

/** An assistant message of text. */
export function assistantText(text: string): ModelMessage {
  return { role: 'assistant', parts: [{ kind: 'text', text }] };
}
