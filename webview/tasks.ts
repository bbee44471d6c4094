// The Tasks section: tool calls running as MCP tasks — tool, server, elapsed time, progress and the
// server's status message, Cancel — and the last ones that ended, each with Open Result. A task that
// needs input points at its question, which waits as a card under "Server requests".
import type { TaskRow } from '../src/protocol/tasks';
import { html, nothing, type TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import { icon, opt } from './dom';

export interface TaskActions {
  cancelTask(id: string): void;
  openTaskResult(id: string): void;
  clearTasks(): void;
}

/** Elapsed time in words: "8 s", "2 min 5 s", "1 h 4 min". */
export function elapsedWords(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Progress in words: "3 of 10", "30%" when the total is 100, or the count alone. */
export function progressWords(progress: NonNullable<TaskRow['progress']>): string {
  const { progress: done, total } = progress;
  if (total === undefined) return String(done);
  return total === 100 ? `${done}%` : `${done} of ${total}`;
}

export function tasksList(rows: readonly TaskRow[], actions: TaskActions): TemplateResult {
  const ended = rows.some((row) => !row.running);
  return html`<ul class="list tasks" aria-label="Tasks">${repeat(rows, (row) => row.id, (row) => taskRow(row, actions))}</ul>
    ${ended ? html`<div class="row-actions"><button class="link-button" type="button" data-testid="tasks-clear" @click=${() => actions.clearTasks()}>Clear ended tasks</button></div>` : nothing}`;
}

function taskRow(row: TaskRow, actions: TaskActions): TemplateResult {
  const stateIcon = row.running ? (row.status === 'input_required' ? icon('warning', 'state-icon') : icon('spinner', 'state-icon'))
    : row.status === 'completed' ? icon('pass', 'state-icon') : icon('error', 'state-icon');
  const progress = row.progress;
  const percent = progress?.total !== undefined && progress.total > 0 ? Math.min(100, Math.round((progress.progress / progress.total) * 100)) : undefined;
  return html`<li class=${`task-row task-${row.status}`} data-testid="task-row" data-task-id=${row.id} data-status=${row.status}>
    <div class="row-line">
      <span class="task-tool" data-testid="task-tool"><code>${row.tool}</code></span><span class="muted"> of </span><span class="task-server" data-testid="task-server">${row.server}</span>
      <span class="row-status"><span class=${`server-state task-state-${row.status}`}>${stateIcon}<span data-testid="task-status">${row.statusLabel}</span></span>
      <span class="muted" data-testid="task-elapsed" title=${`started ${new Date(row.startedAt).toLocaleTimeString()}`}> · ${elapsedWords(row.elapsedMs)}</span></span>
    </div>
    ${progress !== undefined ? html`<div class="task-progress" data-testid="task-progress">
      ${percent !== undefined ? html`<progress max="100" .value=${percent} aria-label=${`${row.tool}: ${progressWords(progress)}`}></progress>` : nothing}
      <span class="muted">${progressWords(progress)}${progress.message !== undefined ? ` · ${progress.message}` : ''}</span>
    </div>` : nothing}
    ${row.statusMessage !== undefined ? html`<div class="row-reason" data-testid="task-message" title=${row.statusMessage}>${row.statusMessage}</div>` : nothing}
    ${row.running && row.status === 'input_required' ? html`<div class="row-reason" data-testid="task-input">The server asks you something: answer its card under Server requests.</div>` : nothing}
    ${row.running && !row.awaited ? html`<div class="muted" data-testid="task-detached">The request that started it has ended: you will be told when the result is ready.</div>` : nothing}
    ${row.outcome !== undefined ? html`<div class=${row.status === 'completed' ? 'history-detail' : 'row-error'} data-testid="task-outcome" title=${opt(row.outcome)}>${row.outcome}</div>` : nothing}
    <div class="row-actions">
      ${row.running ? html`<button class="link-button row-action" type="button" data-testid="task-cancel" aria-label=${`Cancel the task of ${row.tool}`} @click=${() => actions.cancelTask(row.id)}>Cancel</button>` : nothing}
      ${!row.running ? html`<button class="link-button row-action" type="button" data-testid="task-open-result" @click=${() => actions.openTaskResult(row.id)}>Open result</button>` : nothing}
    </div>
  </li>`;
}
