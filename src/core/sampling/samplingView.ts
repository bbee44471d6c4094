// Projects pending sampling requests onto the sidebar's cards (display-safe text).
import type { SamplingCard } from '../../protocol/sampling';
import { revealHiddenCharacters } from '../sidebarSnapshot';
import type { SamplingRequest } from './sampling';

/** Characters of one message a card shows. */
export const CARD_MESSAGE_LIMIT = 4000;

export function toSamplingCards(pending: readonly SamplingRequest[]): SamplingCard[] {
  const show = (text: string): string => revealHiddenCharacters(text.length > CARD_MESSAGE_LIMIT ? `${text.slice(0, CARD_MESSAGE_LIMIT - 1)}…` : text);
  return pending.map((request) => ({
    id: request.id,
    serverId: request.serverId,
    serverName: request.serverName,
    messages: request.messages.map((m) => ({ role: m.role, text: show(m.text) })),
    ...(request.systemPrompt !== undefined ? { systemPrompt: show(request.systemPrompt) } : {}),
    maxTokens: request.maxTokens,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.modelPreferences ? { modelPreferences: { ...request.modelPreferences, ...(request.modelPreferences.hints ? { hints: [...request.modelPreferences.hints] } : {}) } } : {}),
    ...(request.model !== undefined ? { model: request.model } : {}),
    createdAt: request.createdAt,
  }));
}
