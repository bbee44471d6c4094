// What the output scan found, in the sidebar: a line under a history row whose result tried to
// instruct the model, and the card of a result held for review. Kept apart from the history's own rendering so either can change alone.
import type { HistoryRow } from '../src/protocol/approvals';
import type { HeldOutputCard } from '../src/protocol/sidebar';
import { h } from './dom';

/** The warning line of a history row, or nothing when the scan found nothing. */
export function outputWarningLine(row: HistoryRow): HTMLElement | false {
  if (row.outputWarning === undefined) return false;
  return h('div', { className: 'row-error output-warning', attrs: { 'data-testid': 'history-output-warning', title: row.outputWarning } },
    `Result flagged: ${row.outputWarning}`);
}

export interface HeldOutputActions {
  answerHeldOutput(id: string, release: boolean, reason?: string): void;
}

/** A flagged tool result held before the model sees it: what was found, its first part, and the two answers. */
export function heldOutputCard(card: HeldOutputCard, actions: HeldOutputActions): HTMLElement {
  const titleId = `held-title-${card.id}`;
  const reasonId = `held-reason-${card.id}`;
  const reason = h('input', { className: 'reason-input', attrs: { id: reasonId, type: 'text', maxlength: '2000', 'data-testid': 'held-reason-input', 'data-focus-key': `held-reason:${card.id}` } });
  const button = (release: boolean, label: string): HTMLElement => h('button', {
    className: `answer-button${release ? ' primary' : ' reject-button'}`,
    attrs: { type: 'button', 'data-testid': release ? 'held-release' : 'held-withhold', 'data-focus-key': `held:${card.id}:${String(release)}` },
    onClick: () => actions.answerHeldOutput(card.id, release, !release && reason.value.trim() !== '' ? reason.value.trim() : undefined),
  }, label);
  return h('article', { className: 'approval-card held-output-card', attrs: { 'data-testid': 'held-output-card', 'data-held-id': card.id, 'aria-labelledby': titleId } },
    h('header', { className: 'card-header' },
      h('h3', { className: 'card-title', attrs: { id: titleId } },
        h('span', { className: 'card-server' }, `${card.server} › ${card.tool}`),
        h('span', { className: 'muted' }, ' returned text that tries to instruct the model'))),
    h('p', { className: 'card-reason', attrs: { 'data-testid': 'held-findings' } }, card.findings),
    h('pre', { className: 'sampling-text', attrs: { 'data-testid': 'held-preview' } }, card.preview),
    h('div', { className: 'card-answers' }, button(true, 'Give to the model')),
    h('div', { className: 'card-reject' },
      h('label', { attrs: { for: reasonId } }, 'Reason (optional; the model sees it)'),
      reason,
      button(false, 'Withhold')));
}
