// Fakes for the lifecycle core tests: a clock that only moves when told, a connector whose
// connections the test drives (crash, list_changed, pages), a log that records, and a server builder.
import { toDisposable, type Disposable } from '../../../src/core/disposable';
import { Emitter } from '../../../src/core/event';
import type { EffectiveServer, LaunchDefinition } from '../../../src/core/config/types';
import type { Clock } from '../../../src/core/lifecycle/clock';
import type {
  CloseInfo, CompletionRequest, CompletionResult, ConnectRequest, Page, RequestOptions, ServerConnection, ServerConnector, ServerLog,
} from '../../../src/core/lifecycle/ports';
import type { TaskPort } from '../../../src/core/tasks/types';
import type { CallToolResult, CatalogItemOf, CatalogKind, McpLogLevel } from '../../../src/core/lifecycle/types';

/** Lets pending promise callbacks (and anything they queue) run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A clock that moves only on advance(); timers fire in due order, synchronously. */
export class FakeClock implements Clock {
  private time = 1_000_000;
  private nextId = 1;
  private readonly timers = new Map<number, { due: number; fn: () => void; ms: number }>();

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): Disposable {
    const id = this.nextId++;
    this.timers.set(id, { due: this.time + ms, fn, ms });
    return toDisposable(() => { this.timers.delete(id); });
  }

  /** Pending timer delays (as requested), soonest first. */
  pending(): number[] {
    return [...this.timers.values()].sort((a, b) => a.due - b.due).map((t) => t.ms);
  }

  /** Moves time forward, firing every timer that falls due on the way (and timers they set, if due). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let nextId: number | undefined;
      let next: { due: number; fn: () => void } | undefined;
      for (const [id, timer] of this.timers) {
        if (timer.due <= end && (!next || timer.due < next.due)) { next = timer; nextId = id; }
      }
      if (!next || nextId === undefined) break;
      this.timers.delete(nextId);
      this.time = Math.max(this.time, next.due);
      next.fn();
    }
    this.time = end;
  }

  /** Advances and lets the promise callbacks the timers triggered run. */
  async tick(ms: number): Promise<void> {
    this.advance(ms);
    await flush();
  }
}

/** Records everything a server logs, as `level: message` lines. */
export class RecordingLog implements ServerLog {
  readonly lines: string[] = [];
  info(message: string): void { this.lines.push(`info: ${message}`); }
  warn(message: string): void { this.lines.push(`warn: ${message}`); }
  error(message: string): void { this.lines.push(`error: ${message}`); }
  stderr(line: string): void { this.lines.push(`stderr: ${line}`); }
  serverMessage(level: McpLogLevel, logger: string | undefined, data: unknown): void {
    this.lines.push(`server ${level}${logger ? ` ${logger}` : ''}: ${JSON.stringify(data)}`);
  }
  trace(direction: 'send' | 'receive', message: unknown): void { this.lines.push(`trace ${direction}: ${JSON.stringify(message)}`); }
  text(): string { return this.lines.join('\n'); }
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

type Lister = (cursor: string | undefined) => Page<unknown> | Promise<Page<unknown>>;

/** A connection the test drives. By default it supports every kind, with empty one-page lists. */
export class FakeConnection implements ServerConnection {
  serverInfo = { name: 'fake', version: '1.0.0' };
  instructions: string | undefined = 'use the fake tools';
  supports = { tools: true, resources: true, resourceTemplates: true, prompts: true, logging: true };
  /** Whether close() and crash() reject in-flight requests after onClose (the SDK does, when its transport closes). */
  rejectInFlightOnClose = true;
  readonly listCalls: { kind: CatalogKind; cursor: string | undefined }[] = [];
  readonly calls: { name: string; args: Record<string, unknown>; options: RequestOptions }[] = [];
  readonly logLevels: McpLogLevel[] = [];
  rootsNotified = 0;
  /** The task requests, when the test gives the connection some (a server declaring tasks). */
  tasks: TaskPort | undefined = undefined;
  closeCalls = 0;
  disposed = false;
  closed = false;
  private readonly listers = new Map<CatalogKind, Lister>();
  private readonly inFlight = new Set<Deferred<never>>();
  private readonly listChanged = new Emitter<CatalogKind>();
  private readonly closeEmitter = new Emitter<CloseInfo>();
  readonly onListChanged = this.listChanged.event;
  readonly onClose = this.closeEmitter.event;
  /** What callTool answers; by default a text block echoing the tool name. */
  answer: (name: string, args: Record<string, unknown>) => Promise<CallToolResult> | 'hang' =
    (name) => Promise.resolve({ content: [{ type: 'text', text: `called ${name}` }] });

  constructor(readonly request?: ConnectRequest) {}

  /** Serves one kind from fixed pages: page i is returned for cursor `undefined` (i = 0) or `p<i>`. */
  setPages<K extends CatalogKind>(kind: K, pages: CatalogItemOf[K][][]): void {
    this.listers.set(kind, (cursor) => {
      const index = cursor === undefined ? 0 : Number(cursor.slice(1));
      const items = pages[index] ?? [];
      return { items, nextCursor: index + 1 < pages.length ? `p${index + 1}` : undefined };
    });
  }

  setLister(kind: CatalogKind, lister: Lister): void {
    this.listers.set(kind, lister);
  }

  async listPage<K extends CatalogKind>(kind: K, cursor: string | undefined, _options: RequestOptions): Promise<Page<CatalogItemOf[K]>> {
    this.listCalls.push({ kind, cursor });
    const lister = this.listers.get(kind);
    const page = lister ? await lister(cursor) : { items: [] };
    return page as Page<CatalogItemOf[K]>;
  }

  callTool(name: string, args: Record<string, unknown>, options: RequestOptions): Promise<CallToolResult> {
    this.calls.push({ name, args, options });
    const answer = this.answer(name, args);
    if (answer !== 'hang') return answer;
    const pending = deferred<never>();
    this.inFlight.add(pending);
    return pending.promise;
  }

  readResource(uri: string, options: RequestOptions): Promise<{ contents: ({ uri: string; mimeType?: string } & Record<string, unknown>)[] }> {
    this.calls.push({ name: `read ${uri}`, args: {}, options });
    return Promise.resolve({ contents: [{ uri, text: 'content' }] });
  }

  getPrompt(name: string, args: Record<string, string>, options: RequestOptions): Promise<{ description?: string; messages: { role: string; content: unknown }[] }> {
    this.calls.push({ name: `prompt ${name}`, args, options });
    return Promise.resolve({ messages: [{ role: 'user', content: { type: 'text', text: name } }] });
  }

  complete(request: CompletionRequest, options: RequestOptions): Promise<CompletionResult> {
    this.calls.push({ name: `complete ${request.argument.name}`, args: { ...request.argument }, options });
    return Promise.resolve({ values: [`${request.argument.value}1`, `${request.argument.value}2`] });
  }

  setLogLevel(level: McpLogLevel): Promise<void> {
    this.logLevels.push(level);
    return Promise.resolve();
  }

  notifyRootsChanged(): Promise<void> {
    this.rootsNotified++;
    return Promise.resolve();
  }

  fireListChanged(kind: CatalogKind): void {
    this.listChanged.fire(kind);
  }

  /** The server goes away by itself. */
  crash(info: Partial<CloseInfo> = {}): void {
    this.end({ expected: false, exitCode: 1, signal: null, reason: 'process exited with code 1', stderrTail: ['boom'], ...info });
  }

  close(): Promise<void> {
    this.closeCalls++;
    this.end({ expected: true, exitCode: 0, signal: null, reason: 'stopped', stderrTail: [] });
    return Promise.resolve();
  }

  dispose(): void {
    this.disposed = true;
  }

  private end(info: CloseInfo): void {
    if (this.closed) return;
    this.closed = true;
    // As the SDK does: onclose first, then its own "Connection closed" for what was still waiting.
    const waiting = [...this.inFlight];
    this.inFlight.clear();
    this.closeEmitter.fire(info);
    if (this.rejectInFlightOnClose) for (const pending of waiting) pending.reject(new Error('Connection closed'));
  }
}

/** One connect() call the test can settle by hand. */
export interface Attempt {
  request: ConnectRequest;
  resolve(connection?: FakeConnection): FakeConnection;
  reject(error: unknown): void;
}

type Plan = 'auto' | 'manual' | Error | ((request: ConnectRequest) => Promise<ServerConnection>);

/** A connector whose behaviour is planned per server id: 'auto' (resolve at once), 'manual' (the test settles it), an Error, or a function. */
export class FakeConnector implements ServerConnector {
  readonly requests: ConnectRequest[] = [];
  readonly attempts = new Map<string, Attempt[]>();
  readonly connections = new Map<string, FakeConnection[]>();
  private readonly plans = new Map<string, Plan[]>();
  /** Plan used when a server has no queued plan. */
  fallback: Plan = 'auto';
  /** Called on each new auto connection, e.g. to give it pages. */
  setup: (connection: FakeConnection) => void = () => undefined;

  /** Queues behaviours for the next connects of `id`. */
  plan(id: string, ...plans: Plan[]): void {
    this.plans.set(id, [...(this.plans.get(id) ?? []), ...plans]);
  }

  connect(request: ConnectRequest): Promise<ServerConnection> {
    this.requests.push(request);
    const id = request.server.id;
    const plan = this.plans.get(id)?.shift() ?? this.fallback;
    if (plan instanceof Error) return Promise.reject(plan);
    if (typeof plan === 'function') return plan(request);
    const pending = deferred<ServerConnection>();
    const attempt: Attempt = {
      request,
      resolve: (connection = new FakeConnection(request)) => {
        this.setup(connection);
        this.connections.set(id, [...(this.connections.get(id) ?? []), connection]);
        pending.resolve(connection);
        return connection;
      },
      reject: (error) => pending.reject(error),
    };
    this.attempts.set(id, [...(this.attempts.get(id) ?? []), attempt]);
    if (plan === 'auto') attempt.resolve();
    return pending.promise;
  }

  /** The latest connection made for `id`. */
  last(id: string): FakeConnection {
    const list = this.connections.get(id);
    if (!list || list.length === 0) throw new Error(`no connection for ${id}`);
    return list[list.length - 1];
  }

  /** The latest connect() call for `id`. */
  attempt(id: string): Attempt {
    const list = this.attempts.get(id);
    if (!list || list.length === 0) throw new Error(`no connect attempt for ${id}`);
    return list[list.length - 1];
  }

  count(id: string): number {
    return this.requests.filter((request) => request.server.id === id).length;
  }
}

/** An effective server; the fingerprint is derived from the launch unless given. */
export function makeServer(id: string, overrides: Partial<EffectiveServer> = {}, launch: Partial<LaunchDefinition> = {}): EffectiveServer {
  const fullLaunch: LaunchDefinition = { type: 'stdio', command: `run-${id}`, args: [], env: {}, headers: {}, ...launch };
  return {
    id,
    name: id,
    scope: 'user',
    launch: fullLaunch,
    disabled: false,
    alwaysLoad: false,
    needsInput: [],
    source: { file: '/home/ada/.mcp.json', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
    fingerprint: `fp:${JSON.stringify(fullLaunch)}`,
    needsTrust: (overrides.scope ?? 'user') === 'project',
    ...overrides,
  };
}
