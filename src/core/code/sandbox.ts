// Runs model-written JavaScript in QuickJS compiled to WebAssembly: a separate interpreter with its own
// heap, so the script has no way to the host's objects, modules, files, processes or network. Inside
// it finds only what this file puts there: `tools.<server>.<tool>(args)` (each answered by the host's
// `call`), `console.log` and a bounded `sleep`. CPU time, wall time, memory and printed output are
// bounded; going over any of them ends the run with an error that names the bound.
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { systemClock, type Clock } from '../lifecycle/clock';

/** The bounds of one run. */
export interface SandboxLimits {
  /** Milliseconds the interpreter may compute (time spent waiting for tool calls or sleeps does not count). */
  cpuMs: number;
  /** Milliseconds the whole run may take, waits included. */
  wallMs: number;
  /** Bytes of the engine's whole memory (its own few megabytes included). */
  memoryBytes: number;
  /** Characters the script may print. */
  outputChars: number;
  /** The longest single `sleep(ms)`. */
  maxSleepMs: number;
  /** Tool calls one run may make. */
  maxCalls: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  cpuMs: 10_000,
  wallMs: 120_000,
  memoryBytes: 64 * 1024 * 1024,
  outputChars: 50_000,
  maxSleepMs: 10_000,
  maxCalls: 100,
};

/** What the host does for the script: answer a tool call with a JSON-able value, or reject with a message the script sees. */
export type SandboxCall = (server: string, tool: string, args: Record<string, unknown>) => Promise<unknown>;

/** How a run ended: what it printed, and why it stopped early, if it did. */
export interface SandboxRun {
  output: string;
  error?: string;
}

export interface SandboxOptions {
  /** The API's names: server key → tool keys (the names the script writes). */
  api: Readonly<Record<string, readonly string[]>>;
  call: SandboxCall;
  limits?: Partial<SandboxLimits>;
  clock?: Clock;
  /** A high-resolution monotonic time in ms for the CPU budget (default performance.now). */
  cpuNow?: () => number;
  /** Aborting ends the run ("the run was cancelled"). */
  signal?: AbortSignal;
}

// Built inside the interpreter, so that the script sees plain frozen objects and functions written in
// JavaScript; the three host functions are passed in and kept only in this closure.
const PRELUDE = `(function (hostCall, hostLog, hostSleep, api) {
  'use strict';
  const show = (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return value.stack ? String(value) + '\\n' + value.stack : String(value);
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return String(value);
    try { const text = JSON.stringify(value, null, 2); return text === undefined ? String(value) : text; } catch { return String(value); }
  };
  const print = (...values) => { hostLog(values.map(show).join(' ')); };
  const tools = {};
  for (const server of Object.keys(api)) {
    const methods = {};
    for (const tool of api[server]) {
      methods[tool] = async (args) => {
        if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
          throw new TypeError('tools.' + server + '.' + tool + ' takes one object of arguments');
        }
        return JSON.parse(await hostCall(server, tool, JSON.stringify(args === undefined ? {} : args)));
      };
    }
    tools[server] = Object.freeze(methods);
  }
  Object.defineProperty(globalThis, 'tools', { value: Object.freeze(tools), enumerable: true });
  Object.defineProperty(globalThis, 'console', { value: Object.freeze({ log: print, info: print, warn: print, error: print }), enumerable: true });
  Object.defineProperty(globalThis, 'sleep', { value: (ms) => hostSleep(Number(ms)), enumerable: true });
})`;

/**
 * A fresh instance of the engine for each run: its own WebAssembly memory, dropped whole when the run
 * ends. (Freeing a runtime piece by piece asserts that the script left no object behind, which a
 * script cut short by a bound or a stack overflow cannot promise; a dropped instance needs no such
 * promise, and no run can see another's memory.)
 */
export type SandboxEngine = (memoryBytes: number) => Promise<SandboxInstance>;

/** One instance of the engine. */
export interface SandboxInstance {
  readonly module: QuickJSWASMModule;
  /** Whether the instance once needed more memory than its bound allowed. */
  memoryExhausted(): boolean;
}

/** Runs `code` (the body of an async function: top-level `await` works, `return` ends it). */
export async function runInSandbox(engine: SandboxEngine, code: string, options: SandboxOptions): Promise<SandboxRun> {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  const clock = options.clock ?? systemClock;
  const cpuNow = options.cpuNow ?? (() => performance.now());
  const instance = await engine(limits.memoryBytes);
  const runtime = instance.module.newRuntime();
  const run = new Run(runtime, runtime.newContext(), instance, limits, clock, cpuNow, options.call);
  const cancel = (): void => run.cancel();
  options.signal?.addEventListener('abort', cancel);
  if (options.signal?.aborted) cancel();
  try {
    return await run.execute(code, options.api);
  } finally {
    options.signal?.removeEventListener('abort', cancel);
    run.end();
  }
}

/** How host work for the script ended: a value's JSON (or nothing), or a message the script gets as an Error. */
type HostOutcome = { ok: true; value: string | undefined } | { ok: false; message: string };

/** One run's state: the bounds used so far, the output, the tool calls and sleeps in flight. */
class Run {
  private output = '';
  private stopped: string | undefined;
  private cpuUsed = 0;
  private sliceStart: number | undefined;
  private readonly deadline: number;
  private calls = 0;
  private ended = false;
  /** Host work in flight (calls, sleeps); each settles a promise inside the interpreter. */
  private readonly pending = new Set<Promise<void>>();
  private wake: (() => void) | undefined;
  private readonly timers: { dispose(): void }[] = [];

  constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly vm: QuickJSContext,
    private readonly instance: SandboxInstance,
    private readonly limits: SandboxLimits,
    private readonly clock: Clock,
    private readonly cpuNow: () => number,
    private readonly call: SandboxCall,
  ) {
    this.deadline = clock.now() + limits.wallMs;
    // Deep recursion must end as a RangeError inside the interpreter, never by overflowing the host's stack.
    runtime.setMaxStackSize(256 * 1024);
    // Called often while the interpreter computes; an interrupt cannot be caught by the script.
    runtime.setInterruptHandler(() => {
      if (this.stopped !== undefined) return true;
      if (this.memoryFull()) return true;
      if (this.sliceStart !== undefined && this.cpuUsed + (this.cpuNow() - this.sliceStart) > limits.cpuMs) {
        this.stop(`the script used more than ${limits.cpuMs} ms of CPU time (an endless loop?)`);
        return true;
      }
      if (this.clock.now() > this.deadline) {
        this.stop(`the script ran longer than ${limits.wallMs} ms`);
        return true;
      }
      return false;
    });
  }

  async execute(code: string, api: Readonly<Record<string, readonly string[]>>): Promise<SandboxRun> {
    try {
      return await this.evaluate(code, api);
    } catch (error) {
      // The engine itself failed (a native recursion deeper than the host's stack, say). This
      // instance is dropped with the run, so nothing of it outlives the message.
      const message = error instanceof Error ? error.message : String(error);
      return this.finish(error instanceof RangeError ? `the script nested too deep for the engine (${message})` : `the engine stopped: ${message}`);
    }
  }

  private async evaluate(code: string, api: Readonly<Record<string, readonly string[]>>): Promise<SandboxRun> {
    this.install(api);
    const evaluated = this.slice(() => this.vm.evalCode(`(async () => {\n${code}\n})()`, 'script.js'));
    if (evaluated.error) return this.finish(this.errorText(evaluated.error, 'the script does not compile'));
    const promise = evaluated.value;
    try {
      for (;;) {
        const jobs = this.slice(() => this.runtime.executePendingJobs());
        if (jobs.error) {
          const message = this.errorText(jobs.error, 'a job failed');
          return this.finish(message);
        }
        if (this.stopped !== undefined) return this.finish(this.stopped);
        const state = this.vm.getPromiseState(promise);
        if (state.type === 'fulfilled') {
          if (!state.notAPromise) state.value.dispose();
          return this.finish(undefined);
        }
        if (state.type === 'rejected') return this.finish(this.errorText(state.error, 'the script failed'));
        if (this.pending.size === 0) return this.finish('the script waits for something that never happens (a promise nobody settles)');
        await this.nextSettled();
        if (this.stopped !== undefined) return this.finish(this.stopped);
      }
    } finally {
      promise.dispose();
    }
  }

  cancel(): void {
    this.stop('the run was cancelled');
  }

  /** Cancels the sleeps; answers of calls still in flight are dropped when they come. */
  end(): void {
    this.ended = true;
    for (const timer of this.timers) timer.dispose();
    this.wake?.();
  }

  private stop(reason: string): void {
    this.stopped ??= reason;
    this.wake?.();
  }

  /**
   * Whether the memory reached its bound: an allocation failed then, and a script that caught the
   * "out of memory" would only go on short of memory, so the run ends.
   */
  private memoryFull(): boolean {
    if (!this.instance.memoryExhausted()) return false;
    this.stop(`the script used more than ${Math.round(this.limits.memoryBytes / (1024 * 1024))} MB of memory`);
    return true;
  }

  private finish(error: string | undefined): SandboxRun {
    this.memoryFull();
    const reason = this.stopped ?? error;
    return reason === undefined ? { output: this.output } : { output: this.output, error: reason };
  }

  /** Runs interpreter work, counting its CPU time. */
  private slice<T>(work: () => T): T {
    this.sliceStart = this.cpuNow();
    try {
      return work();
    } finally {
      this.cpuUsed += this.cpuNow() - this.sliceStart;
      this.sliceStart = undefined;
    }
  }

  /** Waits until some host work settles, the wall time runs out, or the run is stopped. */
  private nextSettled(): Promise<void> {
    return new Promise<void>((resolve) => {
      const left = this.deadline - this.clock.now();
      const timer = this.clock.setTimeout(() => this.stop(`the script ran longer than ${this.limits.wallMs} ms`), Math.max(0, left));
      this.wake = () => {
        timer.dispose();
        this.wake = undefined;
        resolve();
      };
      if (left <= 0) this.stop(`the script ran longer than ${this.limits.wallMs} ms`);
    });
  }

  /**
   * Host work whose outcome settles `deferred` inside the interpreter; returns its promise for the
   * script. An outcome that comes after the run stopped frees the promise's handles instead.
   */
  private track(deferred: QuickJSDeferredPromise, work: Promise<HostOutcome>): QuickJSHandle {
    const done = work.then((outcome) => {
      if (this.ended || this.stopped !== undefined) {
        deferred.dispose();
        return;
      }
      if (outcome.ok) {
        const value = outcome.value === undefined ? this.vm.undefined : this.vm.newString(outcome.value);
        deferred.resolve(value);
        value.dispose();
      } else {
        const error = this.vm.newError(outcome.message);
        deferred.reject(error);
        error.dispose();
      }
    }).finally(() => {
      this.pending.delete(done);
      this.wake?.();
    });
    this.pending.add(done);
    return deferred.handle;
  }

  /**
   * Checks one tool call of the script (the bound on calls, its arguments) and returns what starts it.
   * Nothing here throws, and no handle is made here: the script's JSON.stringify may be replaced, so
   * its arguments' text can be anything, and a throw between making a promise and handing it to the
   * script would leave the promise's handles behind.
   */
  private prepareCall(server: string, tool: string, argsText: string | undefined): () => Promise<HostOutcome> {
    const refuse = (message: string) => (): Promise<HostOutcome> => Promise.resolve({ ok: false, message });
    if (++this.calls > this.limits.maxCalls) {
      this.stop(`the script made more than ${this.limits.maxCalls} tool calls`);
      return refuse('too many tool calls');
    }
    const notJson = `tools.${server}.${tool} could not send its arguments: JSON.stringify did not turn them into JSON (was it replaced?)`;
    if (argsText === undefined) return refuse(notJson);
    let args: unknown;
    try {
      args = JSON.parse(argsText) as unknown;
    } catch {
      return refuse(notJson);
    }
    // The arguments' JSON comes from the script (an object's toJSON may make it anything): only an object goes on.
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return refuse(`tools.${server}.${tool} takes one object of arguments`);
    return () => {
      let answer: Promise<unknown>;
      try {
        answer = this.call(server, tool, args as Record<string, unknown>);
      } catch (error) {
        answer = Promise.reject(error as Error);
      }
      return answer.then(
        (value) => ({ ok: true as const, value: JSON.stringify(value ?? null) }),
        (error: unknown) => ({ ok: false as const, message: error instanceof Error ? error.message : String(error) }),
      );
    };
  }

  private install(api: Readonly<Record<string, readonly string[]>>): void {
    const vm = this.vm;
    const hostCall = vm.newFunction('call', (serverHandle, toolHandle, argsHandle) => {
      const server = vm.getString(serverHandle);
      const tool = vm.getString(toolHandle);
      // Only a string is read as the arguments' text (a replaced JSON.stringify may return anything).
      const start = this.prepareCall(server, tool, vm.typeof(argsHandle) === 'string' ? vm.getString(argsHandle) : undefined);
      // The promise is made once nothing can throw before it reaches the script, and the call starts after it.
      return this.track(vm.newPromise(), start());
    });
    const hostLog = vm.newFunction('log', (textHandle) => {
      const text = vm.getString(textHandle);
      if (this.output.length + text.length + 1 > this.limits.outputChars) {
        this.output += `${text}\n`.slice(0, Math.max(0, this.limits.outputChars - this.output.length));
        this.stop(`the script printed more than ${this.limits.outputChars} characters`);
        return;
      }
      this.output += `${text}\n`;
    });
    const hostSleep = vm.newFunction('sleep', (msHandle) => {
      const ms = vm.getNumber(msHandle);
      const deferred = vm.newPromise();
      if (!Number.isFinite(ms) || ms < 0 || ms > this.limits.maxSleepMs) {
        return this.track(deferred, Promise.resolve({ ok: false, message: `sleep(ms) takes 0 to ${this.limits.maxSleepMs} ms, not ${ms}` }));
      }
      const work = new Promise<HostOutcome>((resolve) => {
        this.timers.push(this.clock.setTimeout(() => resolve({ ok: true, value: undefined }), ms));
      });
      return this.track(deferred, work);
    });
    const apiHandle = vm.newObject();
    for (const [server, names] of Object.entries(api)) {
      const list = vm.newArray();
      names.forEach((name, index) => vm.setProp(list, index, vm.newString(name)));
      vm.setProp(apiHandle, server, list);
      list.dispose();
    }
    const prelude = vm.unwrapResult(vm.evalCode(PRELUDE, 'prelude.js'));
    const installed = vm.callFunction(prelude, vm.undefined, hostCall, hostLog, hostSleep, apiHandle);
    for (const handle of [prelude, hostCall, hostLog, hostSleep, apiHandle]) handle.dispose();
    vm.unwrapResult(installed).dispose();
  }

  /** An error value from inside the interpreter as one line for a person (the bound hit, if any, wins). */
  private errorText(handle: QuickJSHandle, fallback: string): string {
    try {
      const error = this.vm.dump(handle) as unknown;
      if (this.stopped !== undefined) return this.stopped;
      if (typeof error === 'object' && error !== null && 'message' in error) {
        const { name, message } = error as { name?: unknown; message?: unknown };
        const text = `${typeof name === 'string' ? `${name}: ` : ''}${String(message)}`;
        return text;
      }
      return error === undefined ? fallback : `${fallback}: ${typeof error === 'string' ? error : JSON.stringify(error)}`;
    } finally {
      handle.dispose();
    }
  }
}
