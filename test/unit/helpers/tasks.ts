// A TaskPort the test drives: it records every request, answers tasks/get with the status the test
// set, keeps tasks/result open until the test settles it, and fires status notifications on demand.
import { Emitter } from '../../../src/core/event';
import type { CallToolResult } from '../../../src/core/lifecycle/types';
import type { CreateTaskOptions, TaskPort, TaskRequestOptions, TaskState } from '../../../src/core/tasks/types';
import { deferred } from './lifecycle';

export class FakeTaskPort implements TaskPort {
  readonly requests: string[] = [];
  readonly createOptions: CreateTaskOptions[] = [];
  /** What tasks/get answers now (the test moves it on); an Error makes it fail. */
  current: TaskState | Error;
  private readonly result = deferred<CallToolResult>();
  private readonly statusEmitter = new Emitter<TaskState>();
  readonly onTaskStatus = this.statusEmitter.event;

  constructor(created: TaskState) {
    this.current = created;
    // Only a run that opened tasks/result hears a cancellation's rejection of it.
    this.result.promise.catch(() => undefined);
  }

  async createToolTask(name: string, args: Record<string, unknown>, options: CreateTaskOptions): Promise<TaskState> {
    this.requests.push(`create ${name} ${JSON.stringify(args)}`);
    this.createOptions.push(options);
    return this.state();
  }

  async getTask(taskId: string, _options: TaskRequestOptions): Promise<TaskState> {
    this.requests.push(`get ${taskId}`);
    return this.state();
  }

  taskResult(taskId: string, _options: TaskRequestOptions): Promise<CallToolResult> {
    this.requests.push(`result ${taskId}`);
    return this.result.promise;
  }

  async cancelTask(taskId: string, _options: TaskRequestOptions): Promise<TaskState> {
    this.requests.push(`cancel ${taskId}`);
    this.current = { ...this.state(), status: 'cancelled', statusMessage: 'cancelled by the client' };
    this.result.reject(new Error('task cancelled'));
    return this.state();
  }

  /** The server moves the task on (seen at the next poll). */
  move(change: Partial<TaskState>): void {
    this.current = { ...this.state(), ...change };
  }

  /** The server sends notifications/tasks/status. */
  notify(change: Partial<TaskState>): void {
    this.move(change);
    this.statusEmitter.fire(this.state());
  }

  /** tasks/result answers. */
  finish(result: CallToolResult): void {
    this.result.resolve(result);
  }

  /** tasks/result answers an error. */
  fail(error: Error): void {
    this.result.reject(error);
  }

  /** How many times a request starting with `prefix` was sent. */
  count(prefix: string): number {
    return this.requests.filter((request) => request.startsWith(prefix)).length;
  }

  private state(): TaskState {
    if (this.current instanceof Error) throw this.current;
    return { ...this.current };
  }
}
