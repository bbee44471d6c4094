// An MCP prompt's messages (`prompts/get`) as the start of a conversation: text as text, images and
// audio as data, embedded resources inline (text) or as data (binary), resource links as text naming them.
import type { ModelMessage, ModelPart } from './modelMessages';
import { partOf } from './outputLimit';

/** A prompt message as the server sent it. */
export interface PromptMessage {
  readonly role: string;
  readonly content: unknown;
}

/**
 * The messages as model messages: consecutive messages of one role are joined (models expect turns to
 * alternate), and content a model cannot take is named instead of dropped silently.
 */
export function promptToModelMessages(messages: readonly PromptMessage[]): ModelMessage[] {
  const result: { role: 'user' | 'assistant'; parts: ModelPart[] }[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const part = partOfContent(message.content);
    // An assistant turn carries text only (tool calls aside): anything else is described there.
    const fitted: ModelPart = role === 'assistant' && part.kind !== 'text' ? { kind: 'text', text: describe(part) } : part;
    const last = result[result.length - 1];
    if (last && last.role === role) last.parts.push(fitted);
    else result.push({ role, parts: [fitted] });
  }
  return result;
}

function partOfContent(content: unknown): ModelPart {
  if (typeof content !== 'object' || content === null || typeof (content as { type?: unknown }).type !== 'string') {
    return { kind: 'text', text: '[a prompt message with content of no known type]' };
  }
  const block = content as { type: string } & Record<string, unknown>;
  const part = partOf(block);
  if (part === undefined) return { kind: 'text', text: `[prompt content of type "${block.type}" left out]` };
  switch (part.kind) {
    case 'text': return { kind: 'text', text: part.text };
    case 'data': return { kind: 'data', mimeType: part.mimeType, data: part.data, description: part.description };
    case 'reference': return { kind: 'text', text: `[resource link: ${part.uri}${part.name ? ` (${part.name})` : ''}${part.description ? ` — ${part.description}` : ''}]` };
  }
}

function describe(part: ModelPart): string {
  return part.kind === 'data' ? `[${part.description}]` : '[content]';
}
