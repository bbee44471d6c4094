// The task requests of one connection (the Tasks extension of 2025-11-25), over the SDK Client: tools/call
// with `task` (validated as a CreateTaskResult), tasks/get, tasks/result and tasks/cancel. The v2 Client
// has no helpers for them, so they go through its generic request() with the extension's result schemas.
// The following, polling and cancelling logic is the core's (src/core/tasks).
import type { Event } from '../core/event';
import type { CallToolResult } from '../core/lifecycle/types';
import type { CreateTaskOptions, TaskPort, TaskRequestOptions, TaskState } from '../core/tasks/types';
import { CallToolResultSchema, CancelTaskResultSchema, CreateTaskResultSchema, GetTaskResultSchema, type SdkRequestOptions, type SdkTask } from './sdk';
import type { SessionClient } from './sessionClient';

/** Runs one request on the connection's current session (re-initializing an expired one, as for every request). */
export type SessionRequest = <T>(options: TaskRequestOptions & Pick<CreateTaskOptions, 'onProgress'>, run: (client: SessionClient, sdk: SdkRequestOptions) => Promise<T>) => Promise<T>;

/** The protocol's Task as the core's TaskState. */
export function taskStateOf(task: SdkTask): TaskState {
  const state: TaskState = { taskId: task.taskId, status: task.status, createdAt: task.createdAt, lastUpdatedAt: task.lastUpdatedAt, ttl: task.ttl };
  if (task.statusMessage !== undefined) state.statusMessage = task.statusMessage;
  if (task.pollInterval !== undefined) state.pollInterval = task.pollInterval;
  return state;
}

/** The TaskPort of one connection. */
export class SdkTaskRequests implements TaskPort {
  /** Per task: ends the routing of its call's progress (the call's token outlives the call). */
  private readonly progressEnds = new Map<string, () => void>();
  private tokens = 0;

  constructor(private readonly request: SessionRequest, readonly onTaskStatus: Event<TaskState>) {}

  async createToolTask(name: string, args: Record<string, unknown>, options: CreateTaskOptions): Promise<TaskState> {
    const task = options.ttlMs !== undefined ? { ttl: options.ttlMs } : {};
    const token = `switchboard-task-${++this.tokens}`;
    return this.request(options, async (client, { onprogress: _sdkProgress, ...sdk }) => {
      const onProgress = options.onProgress;
      const stop = onProgress ? client.routeProgress(token, onProgress) : undefined;
      const meta = stop ? { _meta: { progressToken: token } } : {};
      try {
        const created = await client.request({ method: 'tools/call', params: { name, arguments: args, task, ...meta } }, CreateTaskResultSchema, sdk);
        const state = taskStateOf(created.task);
        if (stop) this.progressEnds.set(state.taskId, stop);
        return state;
      } catch (error) {
        stop?.();
        throw error;
      }
    });
  }

  async getTask(taskId: string, options: TaskRequestOptions): Promise<TaskState> {
    const state = taskStateOf(await this.request(options, (client, sdk) => client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema, sdk)));
    if (TERMINAL.has(state.status)) this.endProgress(taskId);
    return state;
  }

  async taskResult(taskId: string, options: TaskRequestOptions): Promise<CallToolResult> {
    // The server's result is passed through; the core's CallToolResult mirrors the protocol's JSON.
    try {
      return await this.request(options, (client, sdk) => client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema, sdk) as Promise<CallToolResult>);
    } finally {
      this.endProgress(taskId);
    }
  }

  async cancelTask(taskId: string, options: TaskRequestOptions): Promise<TaskState> {
    this.endProgress(taskId);
    return taskStateOf(await this.request(options, (client, sdk) => client.request({ method: 'tasks/cancel', params: { taskId } }, CancelTaskResultSchema, sdk)));
  }

  private endProgress(taskId: string): void {
    this.progressEnds.get(taskId)?.();
    this.progressEnds.delete(taskId);
  }
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
