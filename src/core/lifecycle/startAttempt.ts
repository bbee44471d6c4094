// Starting a connection under the startup timeout (enforced here, once), and closing one without ever rejecting.
import { DisposableStore } from '../disposable';
import { formatDuration, type Clock } from './clock';
import type { ServerConnection } from './ports';

export type StartOutcome =
  | { kind: 'connected'; connection: ServerConnection }
  | { kind: 'error'; error: unknown }
  | { kind: 'timeout'; error: unknown }
  | { kind: 'cancelled' };

/**
 * What a start that ran out of time says: the failed state, the log and the reason the connector's
 * signal aborts with (so an adapter that passes that reason on says the same).
 */
export function startupTimeoutMessage(timeoutMs: number): string {
  return `did not answer initialize within ${formatDuration(timeoutMs)}`;
}

/**
 * One call of the connector under the startup timeout; settles exactly once. This is the only place
 * the startup timeout is enforced: adapters give their own initialize no shorter limit.
 */
export class StartAttempt {
  readonly abort = new AbortController();
  readonly outcome: Promise<StartOutcome>;
  private settle!: (outcome: StartOutcome) => void;
  private readonly timers = new DisposableStore();
  private finished = false;
  private timedOut = false;

  constructor(private readonly clock: Clock, readonly timeoutMs: number, private readonly graceMs: number) {
    this.outcome = new Promise<StartOutcome>((resolve) => { this.settle = resolve; });
  }

  get timeoutMessage(): string {
    return startupTimeoutMessage(this.timeoutMs);
  }

  run(connect: (signal: AbortSignal) => Promise<ServerConnection>): void {
    let pending: Promise<ServerConnection>;
    try {
      pending = connect(this.abort.signal);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (connection) => {
        if (!this.finished && !this.timedOut) { this.finish({ kind: 'connected', connection }); return; }
        // Too late: the attempt timed out or was cancelled, so this connection has no owner.
        this.finish({ kind: 'timeout', error: undefined });
        void closeQuietly(connection);
      },
      (error: unknown) => this.finish(this.timedOut ? { kind: 'timeout', error } : { kind: 'error', error }),
    );
    this.timers.add(this.clock.setTimeout(() => {
      this.timedOut = true;
      this.abort.abort(new Error(this.timeoutMessage));
      // Give the connector a moment to reject with the stderr it collected; never wait longer.
      this.timers.add(this.clock.setTimeout(() => this.finish({ kind: 'timeout', error: undefined }), this.graceMs));
    }, this.timeoutMs));
  }

  cancel(reason: string): void {
    if (!this.abort.signal.aborted) this.abort.abort(new Error(reason));
    this.finish({ kind: 'cancelled' });
  }

  private finish(outcome: StartOutcome): void {
    if (this.finished) return;
    this.finished = true;
    this.timers.dispose();
    this.settle(outcome);
  }
}

/** Closes a connection (staged), reports a failure to `onError`, and always disposes it. Never rejects. */
export async function closeQuietly(connection: ServerConnection, onError?: (error: unknown) => void): Promise<void> {
  try {
    await connection.close();
  } catch (error) {
    onError?.(error);
  } finally {
    try { connection.dispose(); } catch (error) { onError?.(error); }
  }
}
