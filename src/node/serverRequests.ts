// What a server asks of the person or of the model, as the connector's `elicit` and `sample` see it:
// the MCP params with the server's id, whichever generation carried them (a 2025-11-25 server-to-client
// request, or an input request inside a 2026-07-28 `input_required` result).

/** A sampling request as the connector's `sample` sees it (the MCP params, with the server's id). */
export interface SamplingRequest {
  serverId: string;
  messages: { role: 'user' | 'assistant'; content: unknown }[];
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: { hints?: { name?: string }[]; costPriority?: number; speedPriority?: number; intelligencePriority?: number };
}

/** What the model answered. */
export interface SamplingResult {
  model: string;
  text: string;
  stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens';
}

/** An elicitation as the connector's `elicit` sees it: a form to fill, or a page to open. */
export type ElicitationRequest =
  | { serverId: string; mode: 'form'; message: string; requestedSchema: unknown; taskId?: string }
  | { serverId: string; mode: 'url'; message: string; url: string; elicitationId: string; taskId?: string };

export type ElicitationAnswer = { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };
