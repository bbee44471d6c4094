// Our model messages and tool outputs as vscode.lm parts, and the model's reply parts back. Images and
// audio travel as LanguageModelDataPart where this VS Code has it (finalized after the oldest VS Code
// this extension supports); on an older one they are described in text instead of dropped silently.
import * as vscode from 'vscode';
import type { ModelMessage, ModelPart, ModelReplyPart, OutputPart } from '../../core/chat';

/** The constructor of LanguageModelDataPart, when this VS Code has one. */
type DataPartConstructor = new (data: Uint8Array, mimeType: string) => object;

function dataPartConstructor(): DataPartConstructor | undefined {
  const candidate = (vscode as unknown as { LanguageModelDataPart?: unknown }).LanguageModelDataPart;
  return typeof candidate === 'function' ? candidate as DataPartConstructor : undefined;
}

/** A base64 payload as a data part, or its description as text where data parts do not exist. */
export function dataPart(base64: string, mimeType: string, description: string): object {
  const DataPart = dataPartConstructor();
  return DataPart ? new DataPart(Buffer.from(base64, 'base64'), mimeType) : new vscode.LanguageModelTextPart(`[${description}]`);
}

/** A tool's output parts as the content of a tool result (LanguageModelToolResult or ToolResultPart). */
export function toolResultContent(parts: readonly OutputPart[], isError: boolean): object[] {
  const content: object[] = [];
  if (isError) content.push(new vscode.LanguageModelTextPart('The tool reported an error:'));
  for (const part of parts) {
    switch (part.kind) {
      case 'text': content.push(new vscode.LanguageModelTextPart(part.text)); break;
      case 'data': content.push(dataPart(part.data, part.mimeType, part.description)); break;
      case 'reference': content.push(new vscode.LanguageModelTextPart(`Resource link: ${part.uri}${part.name ? ` (${part.name})` : ''}${part.description ? ` — ${part.description}` : ''}`)); break;
    }
  }
  if (content.length === 0) content.push(new vscode.LanguageModelTextPart('(the tool returned nothing)'));
  return content;
}

/** Our conversation as vscode.LanguageModelChatMessages. */
export function toChatMessages(messages: readonly ModelMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map((message) => {
    const parts = message.parts.map((part) => toPart(part));
    // The typings of the oldest supported VS Code list fewer part types than it accepts at run time.
    return message.role === 'user'
      ? vscode.LanguageModelChatMessage.User(parts as vscode.LanguageModelTextPart[])
      : vscode.LanguageModelChatMessage.Assistant(parts as vscode.LanguageModelTextPart[]);
  });
}

function toPart(part: ModelPart): object {
  switch (part.kind) {
    case 'text': return new vscode.LanguageModelTextPart(part.text);
    case 'data': return dataPart(part.data, part.mimeType, part.description);
    case 'toolCall': return new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input);
    case 'toolResult': return new vscode.LanguageModelToolResultPart(part.callId, toolResultContent(part.content, part.isError));
  }
}

/** A part of the model's streamed reply, or undefined for a kind the loop does not use. */
export function fromReplyPart(part: unknown): ModelReplyPart | undefined {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) {
    const input = typeof part.input === 'object' && part.input !== null && !Array.isArray(part.input) ? part.input as Record<string, unknown> : {};
    return { kind: 'toolCall', callId: part.callId, name: part.name, input };
  }
  return undefined;
}
