// One start of a server, from the connector's untimed prepare step through connect under the startup
// timeout, told to the controller as one of three endings. A start that was superseded meanwhile (a
// stop, a restart, a newer start) ends silently: its connection, if one came, is closed unowned.
import type { EffectiveServer } from '../config/types';
import { SignInRequiredError, errorMessage, stderrTailOf } from './errors';
import type { ConnectRequest, ServerConnection, ServerConnector } from './ports';
import { redactLaunch } from './redact';
import { closeQuietly, type StartAttempt } from './startAttempt';

/** What one start needs from the controller. */
export interface StartRun {
  attempt: StartAttempt;
  server: EffectiveServer;
  automatic: boolean;
  connector: ServerConnector;
  /** The connect request, less the signal (the attempt's, which aborts on timeout or cancel). */
  request: Omit<ConnectRequest, 'server' | 'signal' | 'startupTimeoutMs'>;
  /** Closes still under way that must be done before this start spawns anything. */
  before: Promise<void> | undefined;
  /** Whether this start still owns the server (no stop, restart or newer start came since). */
  isCurrent(): boolean;
  /** Writes a line to the server's log (the controller scrubs it). */
  info(line: string): void;
  now(): number;
}

/** How a start that still owns the server ended; exactly one is called, and none when it was superseded. */
export interface StartEndings {
  connected(connection: ServerConnection, startedAt: number): void;
  failed(message: string, stderrTail: string[]): void;
  signInRequired(message: string): void;
}

export async function runStart(run: StartRun, endings: StartEndings): Promise<void> {
  const { attempt, server } = run;
  if (run.before) await run.before;
  if (!run.isCurrent()) { attempt.cancel('superseded'); return; }
  if (run.connector.prepare) {
    // Untimed: the startup timeout covers the server, not a person answering a prompt.
    try {
      await run.connector.prepare({ server, automatic: run.automatic, signal: attempt.abort.signal });
    } catch (error) {
      if (run.isCurrent()) endings.failed(errorMessage(error), stderrTailOf(error));
      return;
    }
    if (!run.isCurrent()) { attempt.cancel('superseded'); return; }
  }
  run.info(`starting (${server.launch.type}): ${redactLaunch(server.launch)}`);
  const startedAt = run.now();
  attempt.run((signal) => run.connector.connect({ ...run.request, server, startupTimeoutMs: attempt.timeoutMs, signal }));
  const outcome = await attempt.outcome;
  if (!run.isCurrent()) {
    if (outcome.kind === 'connected') void closeQuietly(outcome.connection);
    return;
  }
  switch (outcome.kind) {
    case 'connected': endings.connected(outcome.connection, startedAt); return;
    case 'error':
      if (outcome.error instanceof SignInRequiredError) { endings.signInRequired(outcome.error.message); return; }
      endings.failed(errorMessage(outcome.error), stderrTailOf(outcome.error));
      return;
    case 'timeout': endings.failed(attempt.timeoutMessage, stderrTailOf(outcome.error)); return;
    case 'cancelled': return;
  }
}
