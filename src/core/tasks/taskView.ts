// The Tasks section's rows, and the result document of an ended task, from the tracker's summaries.
import type { TaskRow, TaskStatusRow } from '../../protocol/tasks';
import type { CallToolResult } from '../lifecycle/types';
import { formatDuration } from '../lifecycle/clock';
import { revealHiddenCharacters } from '../sidebarSnapshot';
import type { TaskSummary } from './taskTracker';
import type { TaskStatus } from './types';

/** Compiles only while the protocol's statuses are exactly the core's. */
const SAME_STATUSES: [TaskStatus] extends [TaskStatusRow] ? ([TaskStatusRow] extends [TaskStatus] ? true : never) : never = true;
void SAME_STATUSES;

const STATUS_LABEL: Readonly<Record<TaskStatus, string>> = {
  working: 'running',
  input_required: 'needs your input',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** Characters of a result's text the row shows. */
const OUTCOME_CHARS = 200;

/** The rows of the Tasks section, in the tracker's order. */
export function taskRows(tasks: readonly TaskSummary[]): TaskRow[] {
  return tasks.map((task) => {
    const row: { -readonly [K in keyof TaskRow]: TaskRow[K] } = {
      id: task.id, server: revealHiddenCharacters(task.serverId), tool: revealHiddenCharacters(task.tool), caller: task.caller,
      status: task.status, statusLabel: STATUS_LABEL[task.status], startedAt: task.startedAt, elapsedMs: task.elapsedMs,
      running: task.end === undefined, awaited: task.awaited, hasResult: task.end?.kind === 'result',
    };
    if (task.statusMessage !== undefined) row.statusMessage = revealHiddenCharacters(task.statusMessage);
    if (task.progress !== undefined) {
      const { progress, total, message } = task.progress;
      row.progress = { progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message: revealHiddenCharacters(message) } : {}) };
    }
    const outcome = outcomeLine(task);
    if (outcome !== undefined) row.outcome = outcome;
    return row;
  });
}

function outcomeLine(task: TaskSummary): string | undefined {
  const end = task.end;
  if (end === undefined) return undefined;
  if (end.kind !== 'result') return revealHiddenCharacters(end.message);
  const text = resultText(end.result).trim();
  const line = text.length > OUTCOME_CHARS ? `${text.slice(0, OUTCOME_CHARS)}…` : text;
  return revealHiddenCharacters(line === '' ? '(no text in the result)' : line);
}

/** The text blocks of a result, one paragraph each; other blocks named by their kind. */
export function resultText(result: CallToolResult): string {
  return result.content.map((block) => {
    if (block.type === 'text' && typeof block.text === 'string') return block.text;
    const resource = block.resource as { uri?: unknown } | undefined;
    const uri = block.uri ?? resource?.uri;
    return `[${block.type}${typeof uri === 'string' ? `: ${uri}` : ''}]`;
  }).join('\n\n');
}

/** The Markdown document Open Result shows for an ended task: what ran, how long, and its result. */
export function taskResultDocument(task: TaskSummary): string {
  const end = task.end;
  const lines = [
    `# ${task.tool} (${task.serverId})`, '',
    `Task \`${task.taskId}\` ${STATUS_LABEL[task.status]} after ${formatDuration(task.elapsedMs)}, called by ${task.caller}.`, '',
  ];
  if (end === undefined) lines.push('The task is still running.');
  else if (end.kind !== 'result') lines.push(end.message);
  else {
    if (end.result.isError === true) lines.push('The tool reported an error:', '');
    lines.push(resultText(end.result));
    if (end.result.structuredContent !== undefined) lines.push('', '```json', JSON.stringify(end.result.structuredContent, null, 2), '```');
  }
  return `${lines.join('\n')}\n`;
}
