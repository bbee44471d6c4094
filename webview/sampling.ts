// A server's request for a model completion, shown before any model sees it: the conversation it
// sends, its system prompt, its token budget and model preferences, and the model that would answer.
// Approve (once, or always for this server) or Reject with a reason the server gets.
import type { SamplingCard } from '../src/protocol/sampling';
import { h } from './dom';

export interface SamplingActions {
  answerSampling(id: string, answer: 'approve' | 'always' | 'reject', reason?: string): void;
}

export function samplingCard(card: SamplingCard, busy: boolean, actions: SamplingActions): HTMLElement {
  const titleId = `sampling-title-${card.id}`;
  const reasonId = `sampling-reason-${card.id}`;
  const reason = h('input', { className: 'reason-input', attrs: { id: reasonId, type: 'text', maxlength: '2000', 'data-testid': 'sampling-reason-input', 'data-focus-key': `sampling-reason:${card.id}` } });
  const prefs = card.modelPreferences;
  const priorities = prefs ? [
    prefs.intelligencePriority !== undefined && `intelligence ${prefs.intelligencePriority}`,
    prefs.speedPriority !== undefined && `speed ${prefs.speedPriority}`,
    prefs.costPriority !== undefined && `cost ${prefs.costPriority}`,
  ].filter((p): p is string => typeof p === 'string') : [];
  const button = (answer: 'approve' | 'always' | 'reject', label: string, primary = false): HTMLElement => h('button', {
    className: `answer-button${primary ? ' primary' : ''}${answer === 'reject' ? ' reject-button' : ''}`,
    attrs: { type: 'button', 'data-testid': `sampling-${answer}`, 'data-focus-key': `sampling:${card.id}:${answer}`, ...(busy ? { disabled: '' } : {}) },
    onClick: () => actions.answerSampling(card.id, answer, answer === 'reject' && reason.value.trim() !== '' ? reason.value.trim() : undefined),
  }, label);
  return h('article', { className: 'approval-card sampling-card', attrs: { 'data-testid': 'sampling-card', 'data-sampling-id': card.id, 'aria-labelledby': titleId } },
    h('header', { className: 'card-header' },
      h('h3', { className: 'card-title', attrs: { id: titleId } },
        h('span', { className: 'card-server', attrs: { 'data-testid': 'sampling-server' } }, card.serverName),
        h('span', { className: 'muted' }, ' asks for a model completion'))),
    h('p', { className: 'card-reason' }, h('strong', {}, 'Nothing is sent to a model until you approve. ')),
    card.systemPrompt !== undefined && h('div', { className: 'sampling-system' },
      h('h4', {}, 'System prompt'),
      h('pre', { className: 'sampling-text', attrs: { 'data-testid': 'sampling-system' } }, card.systemPrompt)),
    h('h4', {}, `Messages (${card.messages.length})`),
    h('ol', { className: 'sampling-messages', attrs: { 'data-testid': 'sampling-messages' } },
      ...card.messages.map((m) => h('li', { className: `sampling-message role-${m.role}` },
        h('span', { className: 'muted' }, m.role === 'user' ? 'user' : 'assistant'),
        h('pre', { className: 'sampling-text' }, m.text)))),
    h('p', { className: 'muted', attrs: { 'data-testid': 'sampling-budget' } },
      `At most ${card.maxTokens} tokens`,
      card.temperature !== undefined ? ` · temperature ${card.temperature}` : '',
      card.model !== undefined ? ` · answered by ${card.model}` : ' · you choose the model once for this server'),
    prefs !== undefined && (priorities.length > 0 || (prefs.hints?.length ?? 0) > 0) && h('p', { className: 'muted', attrs: { 'data-testid': 'sampling-preferences' } },
      'The server prefers: ', [...(prefs.hints ?? []).map((hint) => `model like "${hint}"`), ...priorities].join(', ')),
    h('div', { className: 'card-answers' },
      button('approve', 'Approve', true),
      button('always', `Always for ${card.serverName}`)),
    h('div', { className: 'card-reject' },
      h('label', { attrs: { for: reasonId } }, 'Reason (optional; the server sees it)'),
      reason,
      button('reject', 'Reject')));
}
