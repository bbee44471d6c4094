// How long a recorded call took, as its history row says it (the words are shared with the chat:
// src/protocol/durations.ts).
import { html, nothing, type TemplateResult } from 'lit-html';
import type { HistoryRow } from '../src/protocol/approvals';
import { durationWords, formatMs } from '../src/protocol/durations';
import { opt } from './dom';

export function durationSpan(row: HistoryRow): TemplateResult | typeof nothing {
  const words = durationWords(row);
  if (words === '') return nothing;
  const title = row.durationMs !== undefined ? `${formatMs(row.durationMs)} in all, from the call to its result` : undefined;
  return html`<span class="muted" data-testid="history-durations" title=${opt(title)}> · ${words}</span>`;
}
