// The person's standing rules (each revocable, with where it came from) and the history of calls
// (filterable by words and by decision, exportable as JSON).
import type { HistoryRow, RuleRow } from '../src/protocol/approvals';
import { html, nothing, type TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import { repeat } from 'lit-html/directives/repeat.js';
import { counted } from '../src/protocol/counts';
import { valueOf } from './dom';
import { durationSpan } from './durations';
import { outputWarningLine } from './outputReview';
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

export function rulesList(rules: readonly RuleRow[], actions: HistoryActions): TemplateResult {
  if (rules.length === 0) return html`<p class="muted empty-list">No rules yet. “Approve for session” and “Always allow” on a card add one.</p>`;
  return html`<ul class="list rules" aria-label="Approval rules">${repeat(rules, (rule) => rule.id, (rule) => html`<li class="rule-row" data-testid="rule-row" data-rule-id=${rule.id} data-scope=${rule.scope}>
    <div class="row-line"><span class=${`rule-effect effect-${rule.effect}`}>${rule.effect === 'allow' ? 'Allow' : 'Deny'}</span><span class="rule-what"> <code>${rule.tool === '*' ? 'every tool' : rule.tool}</code> of <code>${rule.server}</code></span><span class="rule-scope muted"> · ${SCOPE_LABELS[rule.scope]}</span></div>
    ${rule.signatures !== undefined && rule.signatures.length > 0 ? html`<div class="rule-signatures">Commands: ${rule.signatures.map((sig, i) => html`${i > 0 ? ', ' : ''}<code>${sig}</code>`)}</div>` : nothing}
    ${ruleConditions(rule)}
    <div class="history-detail muted" title=${rule.description}>From ${rule.origin}, ${timeWords(rule.createdAt)}</div>
    <div class="row-actions"><button class="link-button row-action" type="button" data-testid="rule-revoke" aria-label=${`Revoke: ${rule.description}`} @click=${() => actions.revokeRule(rule.id)}>Revoke</button></div>
  </li>`)}</ul>`;
}

/** The rows the filter keeps: words match server, tool, arguments, reason, who decided and the error. */
export function filterHistory(rows: readonly HistoryRow[], filter: HistoryFilterState): HistoryRow[] {
  const words = filter.text.trim().toLowerCase().split(/\s+/).filter((w) => w !== '');
  return rows.filter((row) => {
    if (filter.decision === 'errors' ? row.error === undefined : filter.decision !== 'all' && row.decision !== filter.decision) return false;
    const haystack = `${row.server} ${row.tool} ${row.argsText} ${row.reason} ${row.decidedBy} ${row.error ?? ''} ${row.caller} ${row.taskId ?? ''}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

const DECISION_LABELS: { readonly [D in DecisionFilter]: string } = {
  all: 'All calls', allow: 'Allowed at once', ask: 'Asked', deny: 'Refused', errors: 'With an error',
};

export function historyList(rows: readonly HistoryRow[], filter: HistoryFilterState, actions: HistoryActions): TemplateResult {
  const shown = filterHistory(rows, filter);
  return html`<div class="history">
    <div class="history-tools">
      <input class="history-search" type="search" placeholder="Filter calls" aria-label="Filter calls" data-testid="history-filter"
        .value=${live(filter.text)} @input=${(e: Event) => actions.filterHistory({ ...filter, text: valueOf(e) })}>
      <select class="history-decision" aria-label="Which calls" data-testid="history-decision" @change=${(e: Event) => actions.filterHistory({ ...filter, decision: valueOf(e) as DecisionFilter })}>
        ${(Object.keys(DECISION_LABELS) as DecisionFilter[]).map((value) => html`<option value=${value} ?selected=${value === filter.decision} .selected=${value === filter.decision}>${DECISION_LABELS[value]}</option>`)}
      </select>
      <button class="link-button" type="button" data-testid="history-export" @click=${() => actions.exportHistory()}>Export JSON</button>
      <button class="link-button" type="button" data-testid="history-clear" ?disabled=${rows.length === 0} @click=${() => actions.clearHistory()}>Clear</button>
    </div>
    ${rows.length === 0
      ? html`<p class="muted empty-list">No tool calls yet.</p>`
      : html`<p class="muted history-count" data-testid="history-count">${shown.length === rows.length ? callsWord(rows.length) : `${shown.length} of ${callsWord(rows.length)}`}</p>`}
    ${shown.length > 0 ? html`<ol class="list history-rows" aria-label="Tool calls, newest first">${repeat(shown, (row) => row.id, historyRow)}</ol>` : nothing}
  </div>`;
}

function historyRow(row: HistoryRow): TemplateResult {
  const outcome = row.error !== undefined ? 'error' : row.ran ? 'ran' : 'not run';
  return html`<li class=${`history-row decision-${row.decision}${row.error !== undefined ? ' has-error' : ''}`} data-testid="history-row" data-decision=${row.decision} data-ran=${String(row.ran)} data-call-id=${row.id}>
    <div class="row-line"><span class="history-tool"><code>${row.tool}</code><span class="muted"> · ${row.server}</span></span><span class="row-status muted"><time datetime=${new Date(row.at).toISOString()}>${timeWords(row.at)}</time></span></div>
    <div class="history-detail"><span class=${`decision-badge decision-${row.decision}`} data-testid="history-decision-label">${row.decision === 'allow' ? 'allowed' : row.decision === 'ask' ? 'asked' : 'refused'}</span><span data-testid="history-decided-by"> by ${row.decidedBy}</span><span class="muted"> · ${outcome}</span>${durationSpan(row)}${row.resultChars !== undefined ? html`<span class="muted"> · ${row.resultChars.toLocaleString('en')} chars</span>` : nothing}${row.taskId !== undefined ? html`<span class="muted" data-testid="history-task"> · task <code>${row.taskId}</code></span>` : nothing}</div>
    <div class="history-args muted" title=${row.argsText}><code>${row.argsText}</code></div>
    ${row.error !== undefined ? html`<div class="row-error" data-testid="history-error" title=${row.error}>${row.error}</div>` : nothing}
    ${outputWarningLine(row)}
  </li>`;
}

function callsWord(count: number): string {
  return counted(count, 'call');
}

function timeWords(at: number): string {
  const date = new Date(at);
  const today = new Date();
  const time = date.toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return date.toDateString() === today.toDateString() ? time : `${date.toLocaleDateString('en')} ${time}`;
}
