// A server's request for a model completion, shown before any model sees it: the conversation it
// sends, its system prompt, its token budget and model preferences, and the model that would answer.
// Approve (once, or always for this server) or Reject with a reason the server gets.
import type { SamplingCard } from '../src/protocol/sampling';
import { html, nothing, type TemplateResult } from 'lit-html';

export interface SamplingActions {
  answerSampling(id: string, answer: 'approve' | 'always' | 'reject', reason?: string): void;
}

export function samplingCard(card: SamplingCard, busy: boolean, actions: SamplingActions): TemplateResult {
  const titleId = `sampling-title-${card.id}`;
  const reasonId = `sampling-reason-${card.id}`;
  const prefs = card.modelPreferences;
  const priorities = prefs ? [
    prefs.intelligencePriority !== undefined && `intelligence ${prefs.intelligencePriority}`,
    prefs.speedPriority !== undefined && `speed ${prefs.speedPriority}`,
    prefs.costPriority !== undefined && `cost ${prefs.costPriority}`,
  ].filter((p): p is string => typeof p === 'string') : [];
  // The reason is read from its field when Reject is clicked: it lives in the page, never in a snapshot.
  const reasonOf = (button: HTMLElement): string | undefined => {
    const text = button.closest('.sampling-card')?.querySelector<HTMLInputElement>('[data-testid="sampling-reason-input"]')?.value.trim() ?? '';
    return text !== '' ? text : undefined;
  };
  const button = (answer: 'approve' | 'always' | 'reject', label: string, primary = false): TemplateResult => html`<button
    class=${`answer-button${primary ? ' primary' : ''}${answer === 'reject' ? ' reject-button' : ''}`} type="button" data-testid=${`sampling-${answer}`} ?disabled=${busy}
    @click=${(e: Event) => actions.answerSampling(card.id, answer, answer === 'reject' ? reasonOf(e.currentTarget as HTMLElement) : undefined)}>${label}</button>`;
  return html`<article class="approval-card sampling-card" data-testid="sampling-card" data-sampling-id=${card.id} aria-labelledby=${titleId}>
    <header class="card-header"><h3 class="card-title" id=${titleId}><span class="card-server" data-testid="sampling-server">${card.serverName}</span><span class="muted"> asks for a model completion</span></h3></header>
    <p class="card-reason"><strong>Nothing is sent to a model until you approve. </strong></p>
    ${card.systemPrompt !== undefined ? html`<div class="sampling-system"><h4>System prompt</h4><pre class="sampling-text" data-testid="sampling-system">${card.systemPrompt}</pre></div>` : nothing}
    <h4>Messages (${card.messages.length})</h4>
    <ol class="sampling-messages" data-testid="sampling-messages">${card.messages.map((m) => html`<li class=${`sampling-message role-${m.role}`}><span class="muted">${m.role === 'user' ? 'user' : 'assistant'}</span><pre class="sampling-text">${m.text}</pre></li>`)}</ol>
    <p class="muted" data-testid="sampling-budget">At most ${card.maxTokens} tokens${card.temperature !== undefined ? ` · temperature ${card.temperature}` : ''}${card.model !== undefined ? ` · answered by ${card.model}` : ' · you choose the model once for this server'}</p>
    ${prefs !== undefined && (priorities.length > 0 || (prefs.hints?.length ?? 0) > 0) ? html`<p class="muted" data-testid="sampling-preferences">The server prefers: ${[...(prefs.hints ?? []).map((hint) => `model like "${hint}"`), ...priorities].join(', ')}</p>` : nothing}
    <div class="card-answers">${button('approve', 'Approve', true)}${button('always', `Always for ${card.serverName}`)}</div>
    <div class="card-reject">
      <label for=${reasonId}>Reason (optional; the server sees it)</label>
      <input class="reason-input" id=${reasonId} type="text" maxlength="2000" data-testid="sampling-reason-input">
      ${button('reject', 'Reject')}
    </div>
  </article>`;
}
