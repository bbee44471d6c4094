// Time as the lifecycle sees it. Every timeout, backoff and timestamp goes through a Clock, so tests
// pass a fake one and a 16 s backoff takes no time at all.
import { toDisposable, type Disposable } from '../disposable';

/** The time source and timer of the lifecycle core. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds; disposing the result cancels it. */
  setTimeout(fn: () => void, ms: number): Disposable;
}

/** The real clock over the global timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    // A timer that fired holds nothing more: it counts as disposed (for the tests' leak check too).
    const timer = toDisposable(() => clearTimeout(handle));
    const handle = setTimeout(() => {
      timer.dispose();
      fn();
    }, ms);
    return timer;
  },
};

/** A duration for people: "500 ms", "1.5 s", "30 s", "1 minute", "5 minutes", "2 min 30 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms - minutes * 60_000) / 1000);
  if (seconds === 0) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  if (seconds === 60) return `${minutes + 1} minutes`;
  return `${minutes} min ${seconds} s`;
}
