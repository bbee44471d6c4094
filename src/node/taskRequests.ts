// The task requests of one connection (the Tasks extension of 2025-11-25), over the SDK Client: tools/call
// with `task` (validated as a CreateTaskResult), and the SDK's own tasks/get, tasks/result and
// tasks/cancel. The following, polling and cancelling logic is the core's (src/core/tasks).
import type { Event } from '../core/event';
import type { CallToolResult } from '../core/lifecycle/types';
import type { CreateTaskOptions, TaskPort, TaskRequestOptions, TaskState } from '../core/tasks/types';
import { CallToolResultSchema, CreateTaskResultSchema, type Client, type SdkRequestOptions, type SdkTask } from './sdk';

/** Runs one request on the connection's current session (re-initializing an expired one, as for every request). */
export type SessionRequest = <T>(options: TaskRequestOptions & Pick<CreateTaskOptions, 'onProgress'>, run: (client: Client, sdk: SdkRequestOptions) => Promise<T>) => Promise<T>;

/** The protocol's Task as the core's TaskState. */
export function taskStateOf(task: SdkTask): TaskState {
  const state: TaskState = { taskId: task.taskId, status: task.status, createdAt: task.createdAt, lastUpdatedAt: task.lastUpdatedAt, ttl: task.ttl };
  if (task.statusMessage !== undefined) state.statusMessage = task.statusMessage;
  if (task.pollInterval !== undefined) state.pollInterval = task.pollInterval;
  return state;
}

/** The TaskPort of one connection. */
export class SdkTaskRequests implements TaskPort {
  constructor(private readonly request: SessionRequest, readonly onTaskStatus: Event<TaskState>) {}

  async createToolTask(name: string, args: Record<string, unknown>, options: CreateTaskOptions): Promise<TaskState> {
    const task = options.ttlMs !== undefined ? { ttl: options.ttlMs } : {};
    const created = await this.request(options, (client, sdk) =>
      client.request({ method: 'tools/call', params: { name, arguments: args } }, CreateTaskResultSchema, { ...sdk, task }));
    return taskStateOf(created.task);
  }

  async getTask(taskId: string, options: TaskRequestOptions): Promise<TaskState> {
    return taskStateOf(await this.request(options, (client, sdk) => client.experimental.tasks.getTask(taskId, sdk)));
  }

  taskResult(taskId: string, options: TaskRequestOptions): Promise<CallToolResult> {
    // The server's result is passed through; the core's CallToolResult mirrors the protocol's JSON.
    return this.request(options, (client, sdk) => client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, sdk) as Promise<CallToolResult>);
  }

  async cancelTask(taskId: string, options: TaskRequestOptions): Promise<TaskState> {
    return taskStateOf(await this.request(options, (client, sdk) => client.experimental.tasks.cancelTask(taskId, sdk)));
  }
}
