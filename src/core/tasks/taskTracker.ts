// The tasks this window started: what the Sidebar's Tasks section lists (running ones with their tool,
// server, elapsed time, progress and status message; the last ones that ended), and who is told a
// result nobody waits for any more (the chat turn that asked has ended). It lives as long as the
// extension, not the view: hiding the sidebar loses nothing.
import { Emitter, type Event } from '../event';
import type { Clock } from '../lifecycle/clock';
import type { CallToolResult } from '../lifecycle/types';
import type { Disposable } from '../disposable';
import type { TaskObserver, TaskProgress, TaskState, TaskStatus } from './types';

/** Ended tasks kept in the list, newest first. */
export const ENDED_KEPT = 20;

/** How a task ended, as the list shows it. */
export type TaskEnd =
  | { kind: 'result'; result: CallToolResult }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled'; message: string };

/** One task as the Tasks section shows it. */
export interface TaskSummary {
  /** This window's id of the task (stable while the list lives). */
  id: string;
  serverId: string;
  tool: string;
  caller: string;
  /** The server's id of the task. */
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  progress?: TaskProgress;
  startedAt: number;
  /** Until now for a running task, until its end for an ended one. */
  elapsedMs: number;
  /** Whether the caller (a chat turn, say) still waits for the result. */
  awaited: boolean;
  /** Set once the task ended. */
  end?: TaskEnd;
}

/** A task that ended, with whether its caller was still there to take the result. */
export interface EndedTask {
  summary: TaskSummary;
  /** False when the caller stopped waiting: the result must reach the person another way. */
  delivered: boolean;
}

/** What the gate holds for one call it runs as a task. */
export interface TrackedTask extends TaskObserver {
  /** The server's task id, once it created the task. */
  readonly taskId: string | undefined;
  /** The call ended (result, failure or cancellation). */
  end(end: TaskEnd): void;
  /** The caller stopped waiting; the task goes on, and its result will be announced instead. */
  detach(): void;
}

interface Entry {
  id: string;
  serverId: string;
  tool: string;
  caller: string;
  startedAt: number;
  task?: TaskState;
  progress?: TaskProgress;
  cancel?: () => Promise<void>;
  awaited: boolean;
  endedAt?: number;
  end?: TaskEnd;
}

/** Keeps the list of tasks and tells when it changes and when a task ends. */
export class TaskTracker implements Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly ended: Entry[] = [];
  private next = 1;
  private readonly changeEmitter = new Emitter<void>();
  private readonly endEmitter = new Emitter<EndedTask>();
  /** The list changed (a task was created, moved on, reported progress or ended). */
  readonly onDidChange: Event<void> = this.changeEmitter.event;
  /** A task ended. */
  readonly onDidEnd: Event<EndedTask> = this.endEmitter.event;

  constructor(private readonly clock: Clock) {}

  /** Starts following a call that may become a task; it is listed once the server created the task. */
  begin(call: { serverId: string; tool: string; caller: string }): TrackedTask {
    const entry: Entry = { id: `task-${this.next++}`, ...call, startedAt: this.clock.now(), awaited: true };
    this.entries.set(entry.id, entry);
    const changed = (): void => { if (entry.task !== undefined) this.changeEmitter.fire(); };
    return {
      get taskId() { return entry.task?.taskId; },
      created: (task, cancel) => {
        entry.task = task;
        entry.cancel = cancel;
        changed();
      },
      status: (task) => {
        entry.task = task;
        changed();
      },
      progress: (progress) => {
        entry.progress = progress;
        changed();
      },
      end: (end) => this.finish(entry, end),
      detach: () => {
        if (entry.end !== undefined || !entry.awaited) return;
        entry.awaited = false;
        changed();
      },
    };
  }

  /** Running tasks (oldest first), then the ones that ended (newest first). */
  list(): TaskSummary[] {
    const running = [...this.entries.values()].filter((entry) => entry.task !== undefined).map((entry) => this.summary(entry));
    return [...running, ...this.ended.map((entry) => this.summary(entry))];
  }

  /** One listed task by its id, running or ended. */
  get(id: string): TaskSummary | undefined {
    const entry = this.entries.get(id) ?? this.ended.find((candidate) => candidate.id === id);
    return entry?.task === undefined ? undefined : this.summary(entry);
  }

  /** Whether any task is still running (the view ticks its elapsed times only then). */
  get running(): boolean {
    return [...this.entries.values()].some((entry) => entry.task !== undefined);
  }

  /** Asks the server to cancel a running task. Rejects with a clear error for an unknown or ended one. */
  async cancel(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (entry === undefined) {
      const ended = this.ended.find((candidate) => candidate.id === id);
      throw new Error(ended !== undefined ? `the task of '${ended.tool}' has already ended` : `no task '${id}'`);
    }
    if (entry.cancel === undefined) throw new Error(`the task of '${entry.tool}' is not created yet`);
    await entry.cancel();
  }

  /** Forgets the tasks that ended. */
  clearEnded(): void {
    if (this.ended.length === 0) return;
    this.ended.length = 0;
    this.changeEmitter.fire();
  }

  dispose(): void {
    this.changeEmitter.dispose();
    this.endEmitter.dispose();
  }

  private finish(entry: Entry, end: TaskEnd): void {
    if (entry.end !== undefined) return;
    entry.end = end;
    entry.endedAt = this.clock.now();
    this.entries.delete(entry.id);
    // A call that never became a task (the server answered it plainly) is no task to list.
    if (entry.task === undefined) return;
    if (end.kind === 'cancelled' && entry.task.status !== 'cancelled') entry.task = { ...entry.task, status: 'cancelled' };
    if (end.kind === 'result' && (entry.task.status === 'working' || entry.task.status === 'input_required')) {
      entry.task = { ...entry.task, status: end.result.isError === true ? 'failed' : 'completed' };
    }
    if (end.kind === 'failed' && entry.task.status !== 'failed') entry.task = { ...entry.task, status: 'failed' };
    this.ended.unshift(entry);
    if (this.ended.length > ENDED_KEPT) this.ended.length = ENDED_KEPT;
    const summary = this.summary(entry);
    this.changeEmitter.fire();
    this.endEmitter.fire({ summary, delivered: entry.awaited });
  }

  private summary(entry: Entry): TaskSummary {
    const task = entry.task!;
    const summary: TaskSummary = {
      id: entry.id, serverId: entry.serverId, tool: entry.tool, caller: entry.caller, taskId: task.taskId, status: task.status,
      startedAt: entry.startedAt, elapsedMs: (entry.endedAt ?? this.clock.now()) - entry.startedAt, awaited: entry.awaited,
    };
    if (task.statusMessage !== undefined) summary.statusMessage = task.statusMessage;
    if (entry.progress !== undefined) summary.progress = entry.progress;
    if (entry.end !== undefined) summary.end = entry.end;
    return summary;
  }
}
