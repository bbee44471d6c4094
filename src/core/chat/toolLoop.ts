// The chat's tool loop: send the conversation and the tools to the model; when it asks for tools, run
// each, give it the results, and ask again — until it answers without a tool call, the rounds run out,
// or the person cancels. The model and the tools are ports, so the loop is tested without VS Code.
import type { ModelMessage, ModelPart } from './modelMessages';
import type { ModelToolSpec } from './modelTools';
import type { OutputPart } from './outputLimit';

/** What a model streams back. */
export type ModelReplyPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: Record<string, unknown> };

export interface ToolCallRequestPart {
  readonly callId: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** A tool's answer as the model will read it. */
export interface ToolRunResult {
  readonly content: readonly OutputPart[];
  readonly isError: boolean;
}

export interface ToolLoopPorts {
  /** Sends the conversation with the tools to offer; streams the reply. */
  send(messages: readonly ModelMessage[], tools: readonly ModelToolSpec[], signal: AbortSignal): AsyncIterable<ModelReplyPart>;
  /** The tools to offer in the next round (the catalog search may add some as the loop goes). */
  tools(): readonly ModelToolSpec[];
  /** Runs one tool call; a failure is reported as an error result, never thrown. */
  runTool(call: ToolCallRequestPart, signal: AbortSignal): Promise<ToolRunResult>;
}

export interface ToolLoopEvents {
  /** A piece of the model's answer. */
  onText?(text: string): void;
  onToolCall?(call: ToolCallRequestPart): void;
  onToolResult?(call: ToolCallRequestPart, result: ToolRunResult, durationMs: number): void;
}

export interface ToolLoopOptions extends ToolLoopEvents {
  /** At most this many requests to the model. */
  readonly maxRounds: number;
  readonly signal: AbortSignal;
  readonly now?: () => number;
}

export interface ToolLoopCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly isError: boolean;
  readonly durationMs: number;
}

export interface ToolLoopOutcome {
  /** Why the loop ended. */
  readonly ended: 'answered' | 'maxRounds' | 'cancelled';
  /** The model's text over every round. */
  readonly text: string;
  readonly rounds: number;
  readonly calls: readonly ToolLoopCall[];
  /** The whole conversation, the model's turns and the tool results included. */
  readonly messages: readonly ModelMessage[];
}

/** The default bound on model requests in one chat turn. */
export const DEFAULT_MAX_ROUNDS = 8;

/** Runs the loop from `start` (the conversation so far, ending with the person's message). */
export async function runToolLoop(start: readonly ModelMessage[], ports: ToolLoopPorts, options: ToolLoopOptions): Promise<ToolLoopOutcome> {
  const now = options.now ?? Date.now;
  const messages: ModelMessage[] = [...start];
  const calls: ToolLoopCall[] = [];
  let text = '';
  let rounds = 0;
  const outcome = (ended: ToolLoopOutcome['ended']): ToolLoopOutcome => ({ ended, text, rounds, calls, messages });
  while (rounds < options.maxRounds) {
    if (options.signal.aborted) return outcome('cancelled');
    rounds++;
    const asked: ToolCallRequestPart[] = [];
    const said: string[] = [];
    for await (const part of ports.send(messages, ports.tools(), options.signal)) {
      if (options.signal.aborted) break;
      if (part.kind === 'text') {
        said.push(part.text);
        text += part.text;
        options.onText?.(part.text);
      } else {
        asked.push({ callId: part.callId, name: part.name, input: part.input });
      }
    }
    if (options.signal.aborted) return outcome('cancelled');
    const assistant: ModelPart[] = [];
    if (said.length > 0) assistant.push({ kind: 'text', text: said.join('') });
    for (const call of asked) assistant.push({ kind: 'toolCall', callId: call.callId, name: call.name, input: call.input });
    if (assistant.length > 0) messages.push({ role: 'assistant', parts: assistant });
    if (asked.length === 0) return outcome('answered');

    const results: ModelPart[] = [];
    for (const call of asked) {
      options.onToolCall?.(call);
      const started = now();
      const result = await ports.runTool(call, options.signal);
      const durationMs = now() - started;
      calls.push({ name: call.name, input: call.input, isError: result.isError, durationMs });
      options.onToolResult?.(call, result, durationMs);
      results.push({ kind: 'toolResult', callId: call.callId, content: result.content, isError: result.isError });
      if (options.signal.aborted) break;
    }
    messages.push({ role: 'user', parts: results });
    if (options.signal.aborted) return outcome('cancelled');
  }
  return outcome('maxRounds');
}
