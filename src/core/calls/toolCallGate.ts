// The one way to call a tool. Every caller — the extension's API, the CLI, the conformance client, and
// later the chat, the language-model tools and the approvals — goes through ToolCallGate.call():
// resolve the tool (the server exists and is ready, its entry offers the tool, the server lists it,
// it is neither blocked nor changed since it was pinned) → decide (an injected step; the approval
// policy plugs in here) → send → record: the caller gets the record with the result, and onDidCall
// tells the call history, the decision with who made it included.
//
// "Nothing calls around it" holds by construction: neither the ServerRegistry nor a ServerController
// has a public method that sends tools/call. Each registry hands its tool caller, at construction, to
// handOverToolCaller() below, which keeps it in a WeakMap private to this module; only a gate built
// on that registry can use it.
import { toolFilterVerdict } from '../config/toolFilter';
import type { Disposable } from '../disposable';
import { Emitter, type Event } from '../event';
import { systemClock, type Clock } from '../lifecycle/clock';
import type { CallOptions, ServerView } from '../lifecycle/controllerTypes';
import { errorMessage } from '../lifecycle/errors';
import type { CallToolResult, ToolInfo } from '../lifecycle/types';
import { callsAsTask } from '../tasks/callAsTask';
import { TaskCancelledError } from '../tasks/taskRun';
import type { TaskTracker } from '../tasks/taskTracker';
import type { TaskCallMode } from '../tasks/types';
import {
  TaskDetachedError, ToolCallRefusedError, callDenied, serverNotReady, toolBlocked, toolChanged, toolFiltered, unknownServer, unknownTool,
} from './refusals';
import type {
  DecideToolCall, ResolvedToolCall, ToolCallDecision, ToolCallOutcome, ToolCallRecord, ToolCallRequest, ToolCallResponse, ToolStatusSource,
} from './types';

/** Sends tools/call to a server of one registry, with no check at all: what only the gate may hold. */
export type RegistryToolCaller = (serverId: string, name: string, args: Record<string, unknown>, options?: CallOptions) => Promise<CallToolResult>;

const callers = new WeakMap<object, RegistryToolCaller>();

/** Called once by each ServerRegistry as it is constructed: gives its tool caller to the gates built on it. */
export function handOverToolCaller(registry: object, caller: RegistryToolCaller): void {
  if (callers.has(registry)) throw new Error('this registry already handed over its tool caller');
  callers.set(registry, caller);
}

/** What the gate reads about the servers (a ServerRegistry). */
export interface GateRegistry {
  get(id: string): ServerView | undefined;
  list(): ServerView[];
}

export interface ToolCallGateOptions {
  /** The registry whose servers the gate calls; it must be a ServerRegistry (it handed over its caller). */
  registry: GateRegistry;
  /** The pinned and scanned status of each tool; without it nothing is blocked or changed (the CLI has no pins). */
  tools?: ToolStatusSource;
  /** The decision step between resolving and sending; default: allow every resolved call. */
  decide?: DecideToolCall;
  /** Where calls run as tasks are listed, and when a tool that supports tasks is called as one; without it every call is plain. */
  tasks?: { tracker: TaskTracker; mode: () => TaskCallMode };
  clock?: Clock;
}

const ALLOWED: ToolCallDecision = { kind: 'allow', decidedBy: { kind: 'default' }, verdict: 'allow', why: 'allowed' };

/** Resolves, decides, sends and records every tool call. */
export class ToolCallGate implements Disposable {
  private readonly recordEmitter = new Emitter<ToolCallRecord>();
  /** Fires once per call() with how it ended (refused, failed or answered). */
  readonly onDidCall: Event<ToolCallRecord> = this.recordEmitter.event;
  private readonly send: RegistryToolCaller;
  private readonly clock: Clock;

  constructor(private readonly options: ToolCallGateOptions) {
    const send = callers.get(options.registry);
    if (send === undefined) throw new Error('a tool call gate needs a ServerRegistry (nothing else can call tools)');
    this.send = send;
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Finds what `request` would call, or rejects with a ToolCallRefusedError saying why it cannot be
   * called. A tool a ready server does not list (yet) is looked up again once the catalog listing in
   * progress is done, so a tool is never "unknown" only because the listing was still running.
   */
  async resolve(request: ToolCallRequest): Promise<ResolvedToolCall> {
    return this.resolveNow(request) ?? this.resolveAfterListing(request);
  }

  /**
   * Calls a tool: resolve → decide → send. Answers the result with the call's record (the arguments
   * sent, the decision and who made it). Rejects with a ToolCallRefusedError when the gate refused
   * (nothing reached the server), or with the call's own error when it failed on the way.
   */
  async call(request: ToolCallRequest): Promise<ToolCallResponse> {
    const startedAt = this.clock.now();
    let sent = request.arguments ?? {};
    let decision: ToolCallDecision | undefined;
    let sentAt: number | undefined;
    let result: CallToolResult;
    try {
      // A catalog being recorded against the pins first: only then is a tool known to be new or changed.
      const settling = this.options.tools?.settling?.();
      if (settling !== undefined) await settling;
      // The usual case resolves without waiting: no promise hop before the request is sent.
      const resolved = this.resolveNow(request) ?? await this.resolveAfterListing(request);
      // A step that decided without waiting is taken as it is: no promise hop on the usual path either.
      const deciding = this.options.decide === undefined ? ALLOWED : this.options.decide(resolved);
      decision = deciding instanceof Promise ? await deciding : deciding;
      if (decision.kind === 'cancelled') throw decision.error;
      if (decision.kind === 'deny') throw callDenied(request.serverId, request.tool, decision.reason);
      sent = decision.arguments ?? resolved.arguments;
      sentAt = this.clock.now();
      const tasks = this.options.tasks;
      if (tasks !== undefined && callsAsTask(resolved.tool, tasks.mode())) {
        // Approved like any other call; from here the task records itself when it ends.
        return this.callAsTask(request, sent, decision, startedAt, sentAt, tasks.tracker);
      }
      result = await this.send(request.serverId, request.tool, sent, { timeoutMs: request.timeoutMs, signal: request.signal, onProgress: request.onProgress });
    } catch (error) {
      this.record(request, sent, decision, startedAt, sentAt, error instanceof ToolCallRefusedError
        ? { kind: 'refused', code: error.code, message: error.message }
        : { kind: 'failed', message: errorMessage(error) });
      throw error;
    }
    return { result, record: this.record(request, sent, decision, startedAt, sentAt, { kind: 'result', result }) };
  }

  dispose(): void {
    this.recordEmitter.dispose();
  }

  /**
   * Sends an approved call as a task, listed by `tracker` while it runs. The caller's signal does not
   * cancel the task (Cancel in the Tasks section does): when it aborts, the caller stops waiting with a
   * TaskDetachedError and the result is announced when it comes. The record is made when the task ends.
   */
  private callAsTask(
    request: ToolCallRequest, sent: Record<string, unknown>, decision: ToolCallDecision, startedAt: number, sentAt: number, tracker: TaskTracker,
  ): Promise<ToolCallResponse> {
    const tracked = tracker.begin({ serverId: request.serverId, tool: request.tool, caller: request.caller });
    const taskOf = (): { taskId?: string } => (tracked.taskId === undefined ? {} : { taskId: tracked.taskId });
    const ran = this.send(request.serverId, request.tool, sent, { timeoutMs: request.timeoutMs, onProgress: request.onProgress, task: { observer: tracked } });
    const recorded = ran.then(
      (result) => {
        const record = this.record(request, sent, decision, startedAt, sentAt, { kind: 'result', result }, taskOf());
        tracked.end({ kind: 'result', result });
        return { result, record };
      },
      (error: unknown) => {
        this.record(request, sent, decision, startedAt, sentAt, { kind: 'failed', message: errorMessage(error) }, taskOf());
        tracked.end(error instanceof TaskCancelledError ? { kind: 'cancelled', message: error.message } : { kind: 'failed', message: errorMessage(error) });
        throw error;
      },
    );
    const signal = request.signal;
    if (signal === undefined) return recorded;
    return new Promise<ToolCallResponse>((resolve, reject) => {
      const detach = (): void => {
        tracked.detach();
        reject(new TaskDetachedError(request.serverId, request.tool));
      };
      if (signal.aborted) detach();
      else signal.addEventListener('abort', detach, { once: true });
      recorded.then(resolve, reject).finally(() => signal.removeEventListener('abort', detach));
    });
  }

  /** Resolves against the catalog as it is now (throwing the refusal, if any); undefined when the server does not list the tool (yet). */
  private resolveNow(request: ToolCallRequest): ResolvedToolCall | undefined {
    const { view, tool } = this.lookUp(request);
    return tool === undefined ? undefined : this.checked(request, view, tool);
  }

  /** Resolves once the catalog listing in progress is done: a tool still not listed is unknown. */
  private async resolveAfterListing(request: ToolCallRequest): Promise<ResolvedToolCall> {
    await this.options.registry.get(request.serverId)?.whenCatalogLoaded();
    const { view, tool } = this.lookUp(request);
    if (tool === undefined) throw unknownTool(request.serverId, request.tool, view.catalog.tools, view.catalog.refusedTools);
    return this.checked(request, view, tool);
  }

  /** The server (known, ready, offering the tool by its entry's filters) and the tool if it lists it. */
  private lookUp(request: ToolCallRequest): { view: ServerView; tool: ToolInfo | undefined } {
    const { serverId, tool: name } = request;
    const view = this.options.registry.get(serverId);
    if (view === undefined) throw unknownServer(serverId, name, this.options.registry.list().map((candidate) => candidate.id));
    const verdict = toolFilterVerdict(view.server, name);
    if (!verdict.offered) throw toolFiltered(view.server, name, verdict, view.catalog.tools);
    if (view.state.kind !== 'ready') throw serverNotReady(view.server, view.state, name);
    return { view, tool: view.catalog.tools.find((candidate) => candidate.name === name) };
  }

  /** The listed tool, unless the review says it is blocked or changed. */
  private checked(request: ToolCallRequest, view: ServerView, tool: ToolInfo): ResolvedToolCall {
    const status = this.options.tools?.status(request.serverId, tool.name);
    if (status?.blocked) throw toolBlocked(request.serverId, tool.name, status);
    if (status?.changed) throw toolChanged(request.serverId, tool.name);
    return { request, server: view.server, tool, status, arguments: request.arguments ?? {} };
  }

  private record(
    request: ToolCallRequest, args: Record<string, unknown>, decision: ToolCallDecision | undefined, startedAt: number, sentAt: number | undefined,
    outcome: ToolCallOutcome, task: { taskId?: string } = {},
  ): ToolCallRecord {
    const endedAt = this.clock.now();
    const record: ToolCallRecord = { request, arguments: args, startedAt, durationMs: endedAt - startedAt, sent: sentAt !== undefined, outcome, ...task };
    if (sentAt !== undefined) record.ranMs = endedAt - sentAt;
    if (decision !== undefined) record.decision = decision;
    try {
      this.recordEmitter.fire(record);
    } catch {
      // A listener's failure is its own; the call's outcome stands.
    }
    return record;
  }
}
