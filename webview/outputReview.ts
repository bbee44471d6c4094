// What the output scan found, in the sidebar: a line under a history row whose result tried to
// instruct the model, and the card of a result held for review. Kept apart from the history's own
// rendering so either can change alone.
import { html, nothing, type TemplateResult } from 'lit-html';
import type { HistoryRow } from '../src/protocol/approvals';
import type { HeldOutputCard } from '../src/protocol/sidebar';

/** The warning line of a history row, or nothing when the scan found nothing. */
export function outputWarningLine(row: HistoryRow): TemplateResult | typeof nothing {
  if (row.outputWarning === undefined) return nothing;
  return html`<div class="row-error output-warning" data-testid="history-output-warning" title=${row.outputWarning}>Result flagged: ${row.outputWarning}</div>`;
}

export interface HeldOutputActions {
  answerHeldOutput(id: string, release: boolean, reason?: string): void;
}

/** A flagged tool result held before the model sees it: what was found, its first part, and the two answers. */
export function heldOutputCard(card: HeldOutputCard, actions: HeldOutputActions): TemplateResult {
  const titleId = `held-title-${card.id}`;
  const reasonId = `held-reason-${card.id}`;
  // The reason is read from its field when Withhold is clicked; the keyed card keeps the field (and
  // what was typed) across snapshots.
  const reasonOf = (event: Event): string | undefined => {
    const field = (event.currentTarget as HTMLElement).closest('article')?.querySelector<HTMLInputElement>(`#${CSS.escape(reasonId)}`);
    const text = field?.value.trim() ?? '';
    return text !== '' ? text : undefined;
  };
  return html`<article class="approval-card held-output-card" data-testid="held-output-card" data-held-id=${card.id} aria-labelledby=${titleId}>
    <header class="card-header"><h3 class="card-title" id=${titleId}><span class="card-server">${card.server} › ${card.tool}</span><span class="muted"> returned text that tries to instruct the model</span></h3></header>
    <p class="card-reason" data-testid="held-findings">${card.findings}</p>
    <pre class="sampling-text" data-testid="held-preview">${card.preview}</pre>
    <div class="card-answers"><button class="answer-button primary" type="button" data-testid="held-release" @click=${() => actions.answerHeldOutput(card.id, true)}>Give to the model</button></div>
    <div class="card-reject">
      <label for=${reasonId}>Reason (optional; the model sees it)</label>
      <input class="reason-input" id=${reasonId} type="text" maxlength="2000" data-testid="held-reason-input">
      <button class="answer-button reject-button" type="button" data-testid="held-withhold" @click=${(event: Event) => actions.answerHeldOutput(card.id, false, reasonOf(event))}>Withhold</button>
    </div>
  </article>`;
}
