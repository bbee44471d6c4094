// What the output scan found, in the sidebar: a line under a history row whose result tried to
// instruct the model. Kept apart from the history's own rendering so either can change alone.
import type { HistoryRow } from '../src/protocol/approvals';
import { h } from './dom';

/** The warning line of a history row, or nothing when the scan found nothing. */
export function outputWarningLine(row: HistoryRow): HTMLElement | false {
  if (row.outputWarning === undefined) return false;
  return h('div', { className: 'row-error output-warning', attrs: { 'data-testid': 'history-output-warning', title: row.outputWarning } },
    `Result flagged: ${row.outputWarning}`);
}
