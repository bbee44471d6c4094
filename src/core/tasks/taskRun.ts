// Follows one tool call the server runs as a task, from creation to its result: it polls tasks/get at
// the server's suggested interval (status notifications are taken too, and make polls cheaper to miss),
// opens tasks/result as soon as the task needs input or has ended (the server delivers its input
// requests, elicitation, while that request is open), and cancels with tasks/cancel on request.
// Every wait goes through the injected Clock.
import type { Disposable } from '../disposable';
import type { Clock } from '../lifecycle/clock';
import { errorMessage } from '../lifecycle/errors';
import type { CallToolResult } from '../lifecycle/types';
import { isTerminalStatus, type TaskObserver, type TaskPort, type TaskProgress, type TaskState } from './types';

/** Polling interval when the server suggests none. */
export const DEFAULT_POLL_MS = 1000;
/** Bounds on the server's suggestion: never hammer it, never look away for long. */
export const MIN_POLL_MS = 100;
export const MAX_POLL_MS = 30_000;
/** Failed polls in a row before the task is given up as lost. */
export const MAX_POLL_FAILURES = 3;
/** How long tasks/result may stay open (the task keeps running; a poll re-opens it when needed). */
export const RESULT_WAIT_MS = 24 * 60 * 60 * 1000;

/** The task ended as cancelled (by the person, or by the server). */
export class TaskCancelledError extends Error {
  override readonly name = 'TaskCancelledError';

  constructor(readonly serverId: string, readonly tool: string, readonly taskId: string, statusMessage?: string) {
    super(`the task of tool '${tool}' of server '${serverId}' was cancelled${statusMessage ? `: ${statusMessage}` : ''}`);
  }
}

/** The task failed without a result to show (tasks/result answered an error, or the server stopped answering about it). */
export class TaskFailedError extends Error {
  override readonly name = 'TaskFailedError';
}

export interface TaskRunOptions {
  serverId: string;
  clock: Clock;
  /** Timeout of each short request (create, get, cancel). */
  timeoutMs: number;
  observer: TaskObserver;
  ttlMs?: number;
  /** Also told of the task's progress (the caller's own progress listener). */
  onProgress?: (progress: TaskProgress) => void;
}

/** Creates the tool call as a task and answers its result once the task has ended. */
export async function runToolTask(port: TaskPort, tool: string, args: Record<string, unknown>, options: TaskRunOptions): Promise<CallToolResult> {
  const onProgress = (progress: TaskProgress): void => {
    options.observer.progress(progress);
    options.onProgress?.(progress);
  };
  const created = await port.createToolTask(tool, args, {
    timeoutMs: options.timeoutMs, onProgress, ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}),
  });
  return new TaskFollower(port, tool, created, options).done;
}

/** One task being followed until it ends. */
class TaskFollower {
  readonly done: Promise<CallToolResult>;
  private resolve!: (result: CallToolResult) => void;
  private reject!: (error: unknown) => void;
  private state: TaskState;
  private ended = false;
  private fetching = false;
  private pollFailures = 0;
  private pollTimer: Disposable | undefined;
  private readonly statusSubscription: Disposable;

  constructor(private readonly port: TaskPort, private readonly tool: string, created: TaskState, private readonly options: TaskRunOptions) {
    this.done = new Promise<CallToolResult>((resolve, reject) => { this.resolve = resolve; this.reject = reject; });
    this.state = created;
    this.statusSubscription = port.onTaskStatus((task) => { if (task.taskId === created.taskId) this.update(task); });
    options.observer.created(created, () => this.cancel());
    this.react();
    if (!this.ended) this.schedulePoll();
  }

  private get taskId(): string {
    return this.state.taskId;
  }

  /** Takes a newer status (a poll, a notification, the answer to cancel). */
  private update(task: TaskState): void {
    if (this.ended || isTerminalStatus(this.state.status)) return;
    this.state = task;
    this.options.observer.status(task);
    this.react();
  }

  /** What the current status asks of us. */
  private react(): void {
    const { status } = this.state;
    if (status === 'cancelled') {
      this.finish(() => this.reject(new TaskCancelledError(this.options.serverId, this.tool, this.taskId, this.state.statusMessage)));
    } else if (status !== 'working') {
      // input_required: the server sends its questions while tasks/result is open; completed/failed: the result.
      this.fetchResult();
    }
  }

  private fetchResult(): void {
    if (this.fetching || this.ended) return;
    this.fetching = true;
    this.port.taskResult(this.taskId, { timeoutMs: RESULT_WAIT_MS }).then(
      (result) => this.finish(() => this.resolve(result)),
      (error: unknown) => {
        this.fetching = false;
        if (this.ended) return;
        if (this.state.status === 'cancelled') return; // the cancel's own answer ends it
        if (isTerminalStatus(this.state.status)) {
          this.finish(() => this.reject(new TaskFailedError(`the task of tool '${this.tool}' of server '${this.options.serverId}' failed: ${errorMessage(error)}`, { cause: error })));
        }
        // Still running (the result request timed out, say): the next poll opens it again when needed.
      },
    );
  }

  private schedulePoll(): void {
    const suggested = this.state.pollInterval ?? DEFAULT_POLL_MS;
    const ms = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, suggested));
    this.pollTimer = this.options.clock.setTimeout(() => void this.poll(), ms);
  }

  private async poll(): Promise<void> {
    this.pollTimer = undefined;
    if (this.ended) return;
    try {
      const task = await this.port.getTask(this.taskId, { timeoutMs: this.options.timeoutMs });
      this.pollFailures = 0;
      this.update(task);
    } catch (error) {
      this.pollFailures++;
      if (this.pollFailures >= MAX_POLL_FAILURES && !this.fetching) {
        this.finish(() => this.reject(new TaskFailedError(
          `lost track of the task of tool '${this.tool}' of server '${this.options.serverId}': tasks/get failed ${this.pollFailures} times (${errorMessage(error)})`,
          { cause: error },
        )));
      }
    }
    if (!this.ended && !isTerminalStatus(this.state.status)) this.schedulePoll();
  }

  private async cancel(): Promise<void> {
    if (this.ended) return;
    const task = await this.port.cancelTask(this.taskId, { timeoutMs: this.options.timeoutMs });
    // A server that answers with something other than "cancelled" still stopped the task on our side.
    this.update(task.status === 'cancelled' ? task : { ...task, status: 'cancelled' });
  }

  private finish(settle: () => void): void {
    if (this.ended) return;
    this.ended = true;
    this.pollTimer?.dispose();
    this.pollTimer = undefined;
    this.statusSubscription.dispose();
    settle();
  }
}
