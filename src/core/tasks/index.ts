// The public API of the tasks room: long-running tool calls run as MCP tasks, followed and listed.
export { callsAsTask, taskCallMode } from './callAsTask';
export {
  DEFAULT_POLL_MS, MAX_POLL_FAILURES, MAX_POLL_MS, MIN_POLL_MS, RESULT_WAIT_MS, TaskCancelledError, TaskFailedError, runToolTask, type TaskRunOptions,
} from './taskRun';
export { resultText, taskResultDocument, taskRows } from './taskView';
export { ENDED_KEPT, TaskTracker, type EndedTask, type TaskEnd, type TaskSummary, type TrackedTask } from './taskTracker';
export {
  TERMINAL_STATUSES, isTerminalStatus, type CreateTaskOptions, type TaskCallMode, type TaskCallOptions, type TaskObserver, type TaskPort, type TaskProgress,
  type TaskRequestOptions, type TaskState, type TaskStatus,
} from './types';
