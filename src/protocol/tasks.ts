// What the Sidebar's Tasks section shows of one tool call running as an MCP task. Imports nothing; the
// projection (src/core/tasks/taskView.ts) checks its vocabulary against the core's.

/** A task's status (the core's `TaskStatus`). */
export type TaskStatusRow = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** One task, running or ended. Text fields are display-safe (hidden characters shown as escapes). */
export interface TaskRow {
  /** This window's id of the task: what Cancel and Open Result refer to. */
  readonly id: string;
  readonly server: string;
  readonly tool: string;
  /** Who asked for the call ("chat", "lmTool", "api"…). */
  readonly caller: string;
  readonly status: TaskStatusRow;
  /** The status in words ("running", "needs your input"…). */
  readonly statusLabel: string;
  /** The server's last status message. */
  readonly statusMessage?: string;
  /** The last progress notification: `progress` of `total`, and its message. */
  readonly progress?: { readonly progress: number; readonly total?: number; readonly message?: string };
  readonly startedAt: number;
  /** From the call to now (running) or to its end, when the snapshot was built. */
  readonly elapsedMs: number;
  readonly running: boolean;
  /** Whether the caller still waits for the result (false: it is announced when it comes). */
  readonly awaited: boolean;
  /** How it ended, in a line: the start of the result's text, or the error. */
  readonly outcome?: string;
  /** Whether Open Result has something to show. */
  readonly hasResult: boolean;
}
