// The person's standing rules (each revocable, with where it came from) and the history of calls
// (filterable by words and by decision, exportable as JSON).
import type { HistoryRow, RuleRow } from '../src/protocol/approvals';
import { h } from './dom';
import { durationSpan } from './durations';
import { ruleConditions } from './ruleChoices';

export type DecisionFilter = 'all' | 'allow' | 'ask' | 'deny' | 'errors';

export interface HistoryFilterState {
  readonly text: string;
  readonly decision: DecisionFilter;
}

export const NO_FILTER: HistoryFilterState = { text: '', decision: 'all' };

export interface HistoryActions {
  revokeRule(ruleId: string): void;
  filterHistory(filter: HistoryFilterState): void;
  exportHistory(): void;
  clearHistory(): void;
}

const SCOPE_LABELS = { session: 'this session', workspace: 'this workspace', global: 'everywhere' } as const;

export function rulesList(rules: readonly RuleRow[], actions: HistoryActions): HTMLElement {
  if (rules.length === 0) return h('p', { className: 'muted empty-list' }, 'No rules yet. “Approve for session” and “Always allow” on a card add one.');
  return h('ul', { className: 'list rules', attrs: { 'aria-label': 'Approval rules' } },
    ...rules.map((rule) => h('li', { className: 'rule-row', attrs: { 'data-testid': 'rule-row', 'data-rule-id': rule.id, 'data-scope': rule.scope } },
      h('div', { className: 'row-line' },
        h('span', { className: `rule-effect effect-${rule.effect}` }, rule.effect === 'allow' ? 'Allow' : 'Deny'),
        h('span', { className: 'rule-what' }, ' ', h('code', {}, rule.tool === '*' ? 'every tool' : rule.tool), ' of ', h('code', {}, rule.server)),
        h('span', { className: 'rule-scope muted' }, ` · ${SCOPE_LABELS[rule.scope]}`)),
      rule.signatures !== undefined && rule.signatures.length > 0 && h('div', { className: 'rule-signatures' },
        'Commands: ', ...rule.signatures.flatMap((s, i) => [i > 0 ? ', ' : '', h('code', {}, s)])),
      ruleConditions(rule),
      h('div', { className: 'history-detail muted', attrs: { title: rule.description } }, `From ${rule.origin}, ${timeWords(rule.createdAt)}`),
      h('div', { className: 'row-actions' },
        h('button', {
          className: 'link-button row-action',
          attrs: { type: 'button', 'data-testid': 'rule-revoke', 'data-focus-key': `revoke:${rule.id}`, 'aria-label': `Revoke: ${rule.description}` },
          onClick: () => actions.revokeRule(rule.id),
        }, 'Revoke')))));
}

/** The rows the filter keeps: words match server, tool, arguments, reason, who decided and the error. */
export function filterHistory(rows: readonly HistoryRow[], filter: HistoryFilterState): HistoryRow[] {
  const words = filter.text.trim().toLowerCase().split(/\s+/).filter((w) => w !== '');
  return rows.filter((row) => {
    if (filter.decision === 'errors' ? row.error === undefined : filter.decision !== 'all' && row.decision !== filter.decision) return false;
    const haystack = `${row.server} ${row.tool} ${row.argsText} ${row.reason} ${row.decidedBy} ${row.error ?? ''} ${row.caller}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

const DECISION_LABELS: { readonly [D in DecisionFilter]: string } = {
  all: 'All calls', allow: 'Allowed at once', ask: 'Asked', deny: 'Refused', errors: 'With an error',
};

export function historyList(rows: readonly HistoryRow[], filter: HistoryFilterState, actions: HistoryActions): HTMLElement {
  const shown = filterHistory(rows, filter);
  const search = h('input', {
    className: 'history-search',
    attrs: { type: 'search', placeholder: 'Filter calls', 'aria-label': 'Filter calls', 'data-testid': 'history-filter', 'data-focus-key': 'history-filter' },
  });
  search.value = filter.text;
  search.addEventListener('input', () => actions.filterHistory({ ...filter, text: search.value }));
  const decision = h('select', {
    className: 'history-decision',
    attrs: { 'aria-label': 'Which calls', 'data-testid': 'history-decision', 'data-focus-key': 'history-decision' },
  }, ...(Object.keys(DECISION_LABELS) as DecisionFilter[]).map((value) => {
    const option = h('option', { attrs: { value } }, DECISION_LABELS[value]);
    option.selected = value === filter.decision;
    return option;
  }));
  decision.addEventListener('change', () => actions.filterHistory({ ...filter, decision: decision.value as DecisionFilter }));
  return h('div', { className: 'history' },
    h('div', { className: 'history-tools' },
      search,
      decision,
      h('button', {
        className: 'link-button',
        attrs: { type: 'button', 'data-testid': 'history-export', 'data-focus-key': 'history-export' },
        onClick: () => actions.exportHistory(),
      }, 'Export JSON'),
      h('button', {
        className: 'link-button',
        attrs: { type: 'button', 'data-testid': 'history-clear', 'data-focus-key': 'history-clear', ...(rows.length === 0 ? { disabled: '' } : {}) },
        onClick: () => actions.clearHistory(),
      }, 'Clear')),
    rows.length === 0
      ? h('p', { className: 'muted empty-list' }, 'No tool calls yet.')
      : h('p', { className: 'muted history-count', attrs: { 'data-testid': 'history-count' } }, shown.length === rows.length ? callsWord(rows.length) : `${shown.length} of ${callsWord(rows.length)}`),
    shown.length > 0 && h('ol', { className: 'list history-rows', attrs: { 'aria-label': 'Tool calls, newest first' } },
      ...shown.map(historyRow)));
}

function historyRow(row: HistoryRow): HTMLElement {
  const outcome = row.error !== undefined ? 'error' : row.ran ? 'ran' : 'not run';
  return h('li', {
    className: `history-row decision-${row.decision}${row.error !== undefined ? ' has-error' : ''}`,
    attrs: { 'data-testid': 'history-row', 'data-decision': row.decision, 'data-ran': String(row.ran), 'data-call-id': row.id },
  },
  h('div', { className: 'row-line' },
    h('span', { className: 'history-tool' }, h('code', {}, row.tool), h('span', { className: 'muted' }, ` · ${row.server}`)),
    h('span', { className: 'row-status muted' }, h('time', { attrs: { datetime: new Date(row.at).toISOString() } }, timeWords(row.at)))),
  h('div', { className: 'history-detail' },
    h('span', { className: `decision-badge decision-${row.decision}`, attrs: { 'data-testid': 'history-decision-label' } },
      row.decision === 'allow' ? 'allowed' : row.decision === 'ask' ? 'asked' : 'refused'),
    h('span', { attrs: { 'data-testid': 'history-decided-by' } }, ` by ${row.decidedBy}`),
    h('span', { className: 'muted' }, ` · ${outcome}`),
    durationSpan(row),
    row.resultChars !== undefined && h('span', { className: 'muted' }, ` · ${row.resultChars.toLocaleString('en')} chars`)),
  h('div', { className: 'history-args muted', attrs: { title: row.argsText } }, h('code', {}, row.argsText)),
  row.error !== undefined && h('div', { className: 'row-error', attrs: { 'data-testid': 'history-error', title: row.error } }, row.error));
}

function callsWord(count: number): string {
  return count === 1 ? '1 call' : `${count} calls`;
}

function timeWords(at: number): string {
  const date = new Date(at);
  const today = new Date();
  const time = date.toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return date.toDateString() === today.toDateString() ? time : `${date.toLocaleDateString('en')} ${time}`;
}
