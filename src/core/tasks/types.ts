// The Tasks extension of MCP (2025-11-25) as the core sees it: a tool call the server runs in the
// background, which the client follows (tasks/get, notifications/tasks/status), answers input for
// (the server's requests arrive while tasks/result is open), cancels (tasks/cancel) and collects
// (tasks/result). The port is what one connection offers; the node adapter implements it over the SDK.
import type { Event } from '../event';
import type { CallToolResult } from '../lifecycle/types';

/** A task's status, as the protocol names it. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses after which a task never changes again. */
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

/** True for completed, failed and cancelled. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** What the server says about a task (the protocol's Task). */
export interface TaskState {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601, as the server sent it. */
  createdAt?: string;
  lastUpdatedAt?: string;
  /** How long the server keeps the task after creation, in ms (null: unlimited). */
  ttl?: number | null;
  /** How often the server suggests polling, in ms. */
  pollInterval?: number;
}

/** A progress notification of the call that created the task (its token stays valid for the task's life). */
export interface TaskProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Per-request options of the task requests (the lifecycle's RequestOptions fit). */
export interface TaskRequestOptions {
  /** Milliseconds without an answer (or progress) before the request fails. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** What creating a task sends besides the call: how long the server should keep it, and where progress goes. */
export interface CreateTaskOptions extends TaskRequestOptions {
  onProgress?: (progress: TaskProgress) => void;
  /** Requested lifetime in ms; the server may pick another. */
  ttlMs?: number;
}

/** The task requests of one connection, present when the server declares tasks for tools/call. */
export interface TaskPort {
  /** tools/call with `task`: the server answers at once with the task it created. */
  createToolTask(name: string, args: Record<string, unknown>, options: CreateTaskOptions): Promise<TaskState>;
  /** tasks/get. */
  getTask(taskId: string, options: TaskRequestOptions): Promise<TaskState>;
  /**
   * tasks/result: answers when the task has ended, with the tool's result. While it is open the server
   * sends what it needs from the person (elicitation), which reaches the client's usual handlers.
   */
  taskResult(taskId: string, options: TaskRequestOptions): Promise<CallToolResult>;
  /** tasks/cancel: the task as the server left it. */
  cancelTask(taskId: string, options: TaskRequestOptions): Promise<TaskState>;
  /** notifications/tasks/status (a server may send them; polling works without). */
  readonly onTaskStatus: Event<TaskState>;
}

/** When a tool that supports tasks is called as one (the `switchboard.tasks.callAsTask` setting). */
export type TaskCallMode = 'whenSupported' | 'whenRequired';

/** Told, by the run, what happens to one task; the tracker implements it. */
export interface TaskObserver {
  /** The server created the task; `cancel` asks it to stop. */
  created(task: TaskState, cancel: () => Promise<void>): void;
  /** A newer status (polled or notified). */
  status(task: TaskState): void;
  progress(progress: TaskProgress): void;
}

/** What the gate passes down with a call it runs as a task. */
export interface TaskCallOptions {
  observer: TaskObserver;
  ttlMs?: number;
}
