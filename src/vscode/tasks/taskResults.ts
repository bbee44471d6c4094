// Where a task's result goes when nobody waits for it any more (the chat turn that asked has ended):
// a notification naming the tool and how it ended, with Open Result (the result as a Markdown
// document). While tasks run, the Sidebar is told every second so their elapsed times move.
import * as vscode from 'vscode';
import { taskResultDocument, type TaskTracker } from '../../core/tasks';
import { notifyInfo, notifyWarning } from '../ui/notify';

const OPEN_RESULT = 'Open Result';
const SHOW_TASKS = 'Show Tasks';
/** How often the Sidebar's elapsed times move while a task runs. */
const TICK_MS = 1000;

/** Opens an ended (or running) task's result document. */
export async function openTaskResult(tracker: TaskTracker, id: string): Promise<void> {
  const task = tracker.get(id);
  if (task === undefined) throw new Error('That task is no longer listed.');
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: taskResultDocument(task) });
  await vscode.window.showTextDocument(document, { preview: true });
}

/** Announces results nobody waited for, and ticks the list while tasks run. */
export function watchTaskResults(tracker: TaskTracker, tick: () => void, showTasks: () => Thenable<unknown>): vscode.Disposable {
  let timer: ReturnType<typeof setInterval> | undefined;
  const ticking = (): void => {
    if (tracker.running && timer === undefined) timer = setInterval(tick, TICK_MS);
    else if (!tracker.running && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const changes = tracker.onDidChange(ticking);
  const ends = tracker.onDidEnd(({ summary, delivered }) => {
    if (delivered) return;
    const what = `The task of ${summary.tool} (${summary.serverId})`;
    const shown = summary.end?.kind === 'result'
      ? notifyInfo(`${what} finished after the request that started it ended.`, OPEN_RESULT, SHOW_TASKS)
      : notifyWarning(`${what} ${summary.status === 'cancelled' ? 'was cancelled' : 'failed'}: ${summary.end?.message ?? ''}`, OPEN_RESULT, SHOW_TASKS);
    void shown.then((choice) => {
      if (choice === OPEN_RESULT) return openTaskResult(tracker, summary.id);
      if (choice === SHOW_TASKS) return showTasks();
      return undefined;
    });
  });
  return new vscode.Disposable(() => {
    clearInterval(timer);
    changes.dispose();
    ends.dispose();
  });
}
