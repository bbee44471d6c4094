// The MCP SDK Transport for stdio servers. We spawn the process ourselves (the SDK's
// StdioClientTransport cannot signal a process group) and frame stdin/stdout with the SDK's
// ReadBuffer/serializeMessage.
//
//   const { env, cwd } = await serverEnvironment.resolve(server);   // environment.ts
//   const transport = new ProcessTransport({ command, args, env, cwd, log, shutdownGraceMs });
//   transport.onExit((exit) => …);      // optional; subscribe before start; fires before onclose
//   await client.connect(transport);    // the SDK Client calls start()
//   …
//   await client.close();               // calls transport.close() once: the staged shutdown
//
// Options
//   command, args     what to run; Windows .cmd/.bat shims (npx.cmd) work.
//   env               the complete environment of the process; default process.env.
//   cwd               must be an existing folder; default this process's cwd.
//   log               { info, warn, stderr } (a ServerLog fits): every stderr line (stderr is never
//                     inherited), skipped stdout lines, shutdown steps.
//   shutdownGraceMs   wait between shutdown stages; default 2000.
//   maxLineBytes      longest stdout line accepted; default the SDK's 10 MB.
//
// Facts: pid, exit (ProcessExit once it has exited), stderrTail (last 200 lines / 32 KiB), onExit.
//
// Behaviour
//   start()   spawns. Rejects with a user-facing Error: "command not found: npx (PATH searched: …)",
//             "permission denied: …", "working directory does not exist: …", "working directory is
//             not a folder: …", "cannot run … its interpreter was not found …", "cannot start …: …".
//             After a failed start no process exists and neither onExit nor onerror fires.
//   close()   staged shutdown: close stdin → wait grace → SIGTERM to the process group → wait grace →
//             SIGKILL to the group (Windows: `taskkill /T /F` at the SIGTERM stage). Resolves when the
//             process and whatever else is left in its group are gone. A second close() while closing
//             kills at once (so stop through client.close() or transport.close(), not both).
//   A stdout line that is not JSON-RPC is logged as a warning and skipped. The connection fails, and
//   the group gets SIGTERM (SIGKILL after the grace period), when a stdout line exceeds maxLineBytes
//   ("server wrote more than 10 MB on one stdout line", also passed to onerror) or when the server
//   closes its stdout but keeps running ("the server closed its stdout").
//   When the process ends by itself, onclose follows (a turn after onExit), so the SDK ends the requests
//   still awaiting an answer; the lifecycle core tells their callers why (ConnectionClosedError, with
//   the exit and the last stderr line). Anything still running in its process group is then stopped
//   too (POSIX).
//   Messages reach onmessage synchronously, in the order read (see deliver: over the SDK Client, put
//   keepProgressBeforeResponses from ../messageOrder on top, as the connector does).
//   onExit fires exactly once per spawned process, after its output has been read, before onclose.
//   onclose fires exactly once.
import { Emitter, type Event } from '../../core/event';
import type { CloseInfo, ServerLog } from '../../core/lifecycle/ports';
import { serializeMessage, type JSONRPCMessage, type Transport } from '../sdk';
import { describeExit, exitReason } from './exitStatus';
import { groupAlive, groupGoneWithin, signalGroup, spawnInOwnGroup } from './processGroup';
import { checkWorkingDirectory, describeSpawnError, findOnPath } from './spawnErrors';
import { StderrTail } from './stderrTail';
import { StdoutLineTooLongError, StdoutReader } from './stdoutReader';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

export const DEFAULT_SHUTDOWN_GRACE_MS = 2000;
/** After the process exits, how long its stdout/stderr may take to drain (a grandchild can hold them open). */
const STDIO_DRAIN_MS = 250;
/** Skipped stdout lines logged one by one before the rest are only counted. */
const MAX_SKIPPED_LINE_WARNINGS = 20;

/** Where a process's output and shutdown steps are reported. `ServerLog` satisfies it. */
export type ProcessLog = Pick<ServerLog, 'info' | 'warn' | 'stderr'>;

/** How and why a spawned process ended. Shaped like the lifecycle core's CloseInfo. */
export interface ProcessExit extends CloseInfo {
  /**
   * "process exited with code 7", "process was killed by SIGKILL", "process was killed by SIGTERM (exit
   * code 143)" (a launcher such as npx reporting its server's signal), "server wrote more than 10 MB on
   * one stdout line", "stopped (…)". `signal` is also set in that launcher case.
   */
  reason: string;
}

export interface ProcessTransportOptions {
  command: string;
  args?: readonly string[];
  /** The complete environment of the process; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Must exist; default this process's working directory. */
  cwd?: string;
  log?: ProcessLog;
  /** Milliseconds between shutdown stages; default 2000. */
  shutdownGraceMs?: number;
  /** Longest stdout line accepted; default the SDK's STDIO_DEFAULT_MAX_BUFFER_SIZE (10 MB). */
  maxLineBytes?: number;
}

const silentLog: ProcessLog = { info: () => {}, warn: () => {}, stderr: () => {} };

type Phase = 'idle' | 'starting' | 'running' | 'ended';

export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly log: ProcessLog;
  private readonly graceMs: number;
  private readonly exitEmitter = new Emitter<ProcessExit>();
  private readonly stderrLines: StderrTail;
  private readonly reader: StdoutReader;

  private phase: Phase = 'idle';
  private child: ChildProcessWithoutNullStreams | undefined;
  private starting: Promise<void> | undefined;
  private exitStatus: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private exitInfo: ProcessExit | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  private stdoutEndTimer: NodeJS.Timeout | undefined;
  /** Why the connection failed while the process was still running (stdout overflow, stdout closed). */
  private failure: string | undefined;
  private stopRequested = false;
  private forced = false;
  private shuttingDown = false;
  private closeFired = false;
  /** Set once the group is known gone: from then on its id may be reused and must never be signalled. */
  private groupDone = false;
  private skippedLines = 0;
  private resolveGone!: () => void;
  /** Resolves when the process, and anything left in its group, is gone. */
  private readonly gone = new Promise<void>((resolve) => { this.resolveGone = resolve; });
  private resolveLeaderExited!: () => void;
  /** Resolves when the process we spawned has exited (its output may still be draining). */
  private readonly leaderExited = new Promise<void>((resolve) => { this.resolveLeaderExited = resolve; });

  constructor(private readonly options: ProcessTransportOptions) {
    this.log = options.log ?? silentLog;
    this.graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
    this.stderrLines = new StderrTail((line) => this.log.stderr(line));
    this.reader = new StdoutReader({
      maxLineBytes: options.maxLineBytes,
      onMessage: (message) => this.deliver(message),
      onSkippedLine: (head, truncated) => this.warnSkipped(head, truncated),
    });
  }

  /** Fires once, when the spawned process has exited and its output was read; before onclose. */
  get onExit(): Event<ProcessExit> {
    return this.exitEmitter.event;
  }

  /** The process id once spawned. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the process ended; undefined while it runs (or if it never started). */
  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  /** Null (stderr goes to the log): the SDK Client knows stdio by `stderr` and `pid`, and then takes a server silent to its version probe for an old one. */
  get stderr(): null { return null; }

  /** The last stderr lines (at most 200 lines and 32 KiB), oldest first. */
  get stderrTail(): string[] {
    return this.stderrLines.lines();
  }

  start(): Promise<void> {
    if (this.phase !== 'idle') return Promise.reject(new Error('ProcessTransport.start() was called twice'));
    this.phase = 'starting';
    this.starting = this.spawn();
    return this.starting;
  }

  private async spawn(): Promise<void> {
    const { command, cwd } = this.options;
    const env = this.options.env ?? process.env;
    try {
      if (cwd !== undefined) await checkWorkingDirectory(cwd);
      // On Windows cross-spawn runs shims through cmd.exe and reports a missing command only after the
      // spawn succeeded, so look it up first.
      if (process.platform === 'win32' && !/[\\/]/.test(command) && !findOnPath(command, env)) {
        throw describeSpawnError(Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT' }), { command, env, cwd });
      }
      const child = spawnInOwnGroup({ command, args: this.options.args ?? [], env, cwd });
      this.child = child;
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', (error) => reject(describeSpawnError(error, { command, env, cwd })));
      });
    } catch (error) {
      this.phase = 'ended';
      for (const stream of [this.child?.stdin, this.child?.stdout, this.child?.stderr]) stream?.destroy();
      this.child = undefined;
      this.groupDone = true;
      this.resolveLeaderExited();
      this.resolveGone();
      throw error;
    }
    this.attach(this.child);
    this.phase = 'running';
    if (this.stopRequested) void this.shutdown(false);
  }

  private attach(child: ChildProcessWithoutNullStreams): void {
    child.stdout.on('data', (chunk: Buffer) => this.readStdout(chunk));
    child.stderr.on('data', (chunk: Buffer) => this.stderrLines.push(chunk));
    // EPIPE after the process died: the exit itself is what gets reported.
    child.stdin.on('error', () => {});
    child.stdout.on('error', () => {});
    child.stderr.on('error', () => {});
    // stdout usually ends just before the exit is reported; only a process that lives on without it is a failure.
    child.stdout.on('end', () => {
      this.stdoutEndTimer = setTimeout(() => {
        if (!this.exitStatus) this.fail('the server closed its stdout');
      }, STDIO_DRAIN_MS);
    });
    child.on('error', (error) => this.log.warn(`process ${child.pid}: ${error.message}`));
    child.on('exit', (code, signal) => {
      this.exited(code, signal);
      // 'close' follows once stdout and stderr are drained; a grandchild may hold them open, so don't wait forever.
      this.drainTimer = setTimeout(() => this.finish(), STDIO_DRAIN_MS);
    });
    // Normally after 'exit'; alone when cross-spawn (Windows) turned the exit into an 'error'.
    child.on('close', (code, signal) => {
      this.exited(code, signal);
      this.finish();
    });
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitStatus) return;
    this.exitStatus = { code, signal };
    clearTimeout(this.stdoutEndTimer);
    this.resolveLeaderExited();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (this.phase !== 'running' || !child || this.exitStatus || this.failure) {
      throw new Error(`not connected: ${this.failure ?? this.exitInfo?.reason ?? 'the server process is not running'}`);
    }
    if (!child.stdin.write(serializeMessage(message))) {
      await new Promise<void>((resolve) => {
        const done = () => { child.stdin.off('drain', done); child.stdin.off('close', done); resolve(); };
        child.stdin.once('drain', done);
        child.stdin.once('close', done);
      });
    }
  }

  /** Staged shutdown; resolves when the process and its group are gone. A second call kills at once. */
  async close(): Promise<void> {
    if (this.phase === 'idle') {
      this.phase = 'ended';
      this.groupDone = true;
      this.resolveLeaderExited();
      this.resolveGone();
      this.fireClose();
      return;
    }
    if (this.stopRequested) {
      this.forceKill();
      return this.gone;
    }
    this.stopRequested = true;
    if (this.phase === 'starting') await this.starting?.catch(() => {});
    if (this.phase === 'running' && !this.exitStatus) void this.shutdown(false);
    if (!this.child) this.fireClose(); // start failed: no process, but onclose still closes the SDK side
    return this.gone;
  }

  private readStdout(chunk: Buffer): void {
    if (this.failure) return;
    try {
      this.reader.push(chunk);
    } catch (error) {
      if (!(error instanceof StdoutLineTooLongError)) throw error;
      this.fail(error.message);
    }
  }

  /**
   * Hands a message to onmessage at once, in the order read. The SDK Client handles a response at once
   * but a notification a microtask later, so over a bare Client a progress notification read together
   * with its response would be dropped: the connector puts keepProgressBeforeResponses (messageOrder.ts)
   * on top, which restores the server's order for every transport.
   */
  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private warnSkipped(head: string, truncated: boolean): void {
    this.skippedLines++;
    if (this.skippedLines <= MAX_SKIPPED_LINE_WARNINGS) {
      this.log.warn(`ignored a stdout line that is not JSON-RPC: ${JSON.stringify(head)}${truncated ? '…' : ''}`);
      if (this.skippedLines === MAX_SKIPPED_LINE_WARNINGS) this.log.warn('further stdout lines that are not JSON-RPC are ignored without a warning (servers must log to stderr)');
    }
  }

  /** The connection is unusable while the process still runs: report it and stop the process. */
  private fail(reason: string): void {
    if (this.failure || this.exitStatus) return;
    this.failure = reason;
    this.log.warn(`${reason}: stopping the server`);
    this.onerror?.(new Error(reason));
    // Stop parsing but keep draining into nothing: memory stays bounded whatever the process keeps
    // writing, and the server is stopped by our signal rather than by an EPIPE of its own write, so
    // its stderr tail and exit status tell what really happened.
    this.child?.stdout.removeAllListeners('data');
    this.child?.stdout.on('data', () => {});
    void this.shutdown(true);
  }

  /** Drives the leader to exit: stdin → SIGTERM → SIGKILL, `graceMs` apart. */
  private async shutdown(skipStdin: boolean): Promise<void> {
    const child = this.child;
    if (!child?.pid || this.shuttingDown) return;
    this.shuttingDown = true;
    const pid = child.pid;
    if (!skipStdin && !this.forced) {
      child.stdin.end();
      if (await this.exitWithin(this.graceMs)) return;
      this.log.info(`process ${pid} still running ${this.graceMs} ms after stdin was closed: sending SIGTERM to its process group`);
    }
    if (!this.forced) {
      signalGroup(pid, 'SIGTERM');
      if (await this.exitWithin(this.graceMs)) return;
      this.log.warn(`process ${pid} still running ${this.graceMs} ms after SIGTERM: sending SIGKILL to its process group`);
    }
    signalGroup(pid, 'SIGKILL');
    if (!(await this.exitWithin(this.graceMs))) this.log.warn(`process ${pid} did not exit after SIGKILL`);
  }

  private forceKill(): void {
    this.forced = true;
    const pid = this.child?.pid;
    if (pid === undefined || this.groupDone) return;
    this.log.info(`stopping again: killing process group ${pid} now`);
    signalGroup(pid, 'SIGKILL');
  }

  /** The leader has exited and its output is read: report, close, then clean up the group. */
  private finish(): void {
    // Every message read so far has been delivered (deliver() is synchronous): what the server said
    // before it went away comes before the news that it went away.
    if (this.phase === 'ended' || !this.exitStatus) return;
    this.phase = 'ended';
    clearTimeout(this.drainTimer);
    clearTimeout(this.stdoutEndTimer);
    const child = this.child!;
    this.stderrLines.flush();
    if (this.reader.pendingBytes > 0 && !this.failure) this.log.warn(`stdout ended in the middle of a line (${this.reader.pendingBytes} bytes ignored)`);
    child.stdout.destroy();
    child.stderr.destroy();
    child.stdin.destroy();

    const { code, signal } = this.exitStatus;
    const how = describeExit(code, signal);
    const expected = this.stopRequested && !this.failure;
    const stderrTail = this.stderrLines.lines();
    const reason = this.failure ?? exitReason(how, expected);
    this.exitInfo = { expected, exitCode: code, signal: how.signal, reason, stderrTail };
    this.exitEmitter.fire(this.exitInfo);
    this.exitEmitter.dispose();
    // One turn later, so that the answers read before the exit land before the SDK fails what is left
    // with "Connection closed" (even behind an onmessage wrapper that defers responses).
    setImmediate(() => {
      this.fireClose();
      void this.stopGroup(child.pid!).finally(() => {
        this.groupDone = true;
        this.resolveGone();
      });
    });
  }

  /** POSIX: whatever is left in the leader's process group (a shell wrapper's grandchildren) is stopped too. */
  private async stopGroup(pid: number): Promise<void> {
    if (process.platform === 'win32' || !groupAlive(pid)) return;
    if (!this.forced) {
      this.log.info(`process ${pid} has exited; stopping what is left of its process group`);
      signalGroup(pid, 'SIGTERM');
      if (await groupGoneWithin(pid, this.graceMs)) return;
    }
    signalGroup(pid, 'SIGKILL');
    if (!(await groupGoneWithin(pid, this.graceMs))) this.log.warn(`process group ${pid} still has members after SIGKILL`);
  }

  private fireClose(): void {
    if (this.closeFired) return;
    this.closeFired = true;
    this.onclose?.();
  }

  private async exitWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), ms); });
    const exited = await Promise.race([this.leaderExited.then(() => true), timeout]);
    clearTimeout(timer);
    return exited;
  }
}
