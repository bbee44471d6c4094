// The restart policy after a crash (or a failed automatic restart): failures are counted in a sliding
// window; each one doubles the backoff, and more than `maxRestarts` inside the window gives up.
import { formatDuration } from './clock';
import type { LifecycleSettings } from './settings';

/** What happens after a failure, with the failure times still inside the window (the new one included). */
export type RestartDecision = { failures: number[] } & (
  | { kind: 'giveUp'; error: string }
  | { kind: 'restart'; attempt: number; delayMs: number; message: string }
);

/** Counts a failure at `now` in the sliding window and either schedules a restart with backoff or gives up. */
export function nextRestart(failures: readonly number[], now: number, settings: LifecycleSettings, reason: string): RestartDecision {
  const recent = [...failures.filter((at) => now - at < settings.restartWindowMs), now];
  const count = recent.length;
  if (count > settings.maxRestarts) {
    const error = `crashed ${count === 1 ? 'once' : `${count} times`} in ${formatDuration(settings.restartWindowMs)}; not restarting (last: ${reason})`;
    return { failures: recent, kind: 'giveUp', error };
  }
  const delay = settings.restartBaseMs * 2 ** (count - 1);
  const message = `restarting in ${formatDuration(delay)} (attempt ${count} of ${settings.maxRestarts})`;
  return { failures: recent, kind: 'restart', attempt: count, delayMs: delay, message };
}
