// How long a recorded call took, as its history row says it: the wait for the person's answer and the
// server's run apart ("waited 12.4 s · ran 80 ms"), so a slow decision is not read as a slow tool.
// Records kept before the two were measured show their one total.
import { html, nothing, type TemplateResult } from 'lit-html';
import type { HistoryRow } from '../src/protocol/approvals';
import { opt } from './dom';

/** The durations of a row in words, or '' when none was measured. */
export function durationWords(row: Pick<HistoryRow, 'durationMs' | 'waitedMs' | 'ranMs'>): string {
  const parts = [
    row.waitedMs !== undefined ? `waited ${formatMs(row.waitedMs)}` : undefined,
    row.ranMs !== undefined ? `ran ${formatMs(row.ranMs)}` : undefined,
  ].filter((part): part is string => part !== undefined);
  if (parts.length > 0) return parts.join(' · ');
  return row.durationMs !== undefined ? formatMs(row.durationMs) : '';
}

export function durationSpan(row: HistoryRow): TemplateResult | typeof nothing {
  const words = durationWords(row);
  if (words === '') return nothing;
  const title = row.durationMs !== undefined ? `${formatMs(row.durationMs)} in all, from the call to its result` : undefined;
  return html`<span class="muted" data-testid="history-durations" title=${opt(title)}> · ${words}</span>`;
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
