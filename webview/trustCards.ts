// The card that asks for trust in a project server the person is editing: it never comes as a modal
// (a modal would take the next keystroke as its answer), so it waits here, with what changed since the
// person trusted the definition and the whole definition, until Trust and start or Don't trust.
import { html, nothing, type TemplateResult } from 'lit-html';
import type { TrustCardRow } from '../src/protocol/sidebar';

export interface TrustCardActions {
  answerTrustCard(serverId: string, fingerprint: string, answer: 'trust' | 'refuse'): void;
}

const CHANGE_CLASS = { added: 'diff-line diff-add', removed: 'diff-line diff-remove', changed: 'diff-line' } as const;
const CHANGE_MARK = { added: '+ ', removed: '− ', changed: '~ ' } as const;

/** One trust card: the question, the changes, the definition, and the two answers. */
export function trustCard(card: TrustCardRow, actions: TrustCardActions): TemplateResult {
  const titleId = `trust-title-${card.serverId}`;
  return html`<article class="approval-card trust-card" data-testid="trust-card" data-server-id=${card.serverId} aria-labelledby=${titleId}>
    <header class="card-header"><h3 class="card-title" id=${titleId}>${card.message}</h3></header>
    ${card.changes.length > 0 ? html`<pre class="diff" data-testid="trust-card-changes" aria-label="What changed since you trusted it">${card.changes.map((change) =>
      html`<span class=${CHANGE_CLASS[change.kind]}>${CHANGE_MARK[change.kind]}${change.text}</span>`)}</pre>` : nothing}
    <details class="trust-definition" ?open=${card.changes.length === 0}>
      <summary>The whole definition</summary>
      <pre class="sampling-text" data-testid="trust-card-definition">${card.definition}</pre>
    </details>
    ${card.blocked !== undefined ? html`<p class="card-reason" data-testid="trust-card-blocked">${card.blocked}</p>` : nothing}
    <div class="card-answers">
      <button class="answer-button primary" type="button" data-testid="trust-card-trust" ?disabled=${card.blocked !== undefined}
        @click=${() => actions.answerTrustCard(card.serverId, card.fingerprint, 'trust')}>Trust and start</button>
      <button class="answer-button" type="button" data-testid="trust-card-refuse"
        @click=${() => actions.answerTrustCard(card.serverId, card.fingerprint, 'refuse')}>Don't trust</button>
    </div>
  </article>`;
}
