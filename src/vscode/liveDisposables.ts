// TEST-ONLY: counts the core's live disposables (toDisposable results and Emitter subscriptions) by
// where they were created, so that each extension-host test suite can check it left none behind (as
// VS Code's own ensureNoDisposablesAreLeakedInTestSuite does for its tests). Installed by the test
// hooks under an extension test run only: recording a stack per subscription is no cost for a person.
import { setDisposableTracker, type Disposable, type DisposableTracker } from '../core/disposable';

export const LIVE_DISPOSABLES_COMMAND = '_switchboard.test.liveDisposables';

class LiveDisposables implements DisposableTracker {
  private readonly live = new Map<Disposable, string>();

  created(disposable: Disposable): void {
    this.live.set(disposable, creationSite(new Error().stack ?? ''));
  }

  disposed(disposable: Disposable): void {
    this.live.delete(disposable);
  }

  /** How many are live, per creation site. */
  bySite(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const site of this.live.values()) counts[site] = (counts[site] ?? 0) + 1;
    return counts;
  }
}

/**
 * Who created a disposable: the two frames below the tracking. The stack reads "Error", created(),
 * then toDisposable() or the emitter's event(), then the code that asked for it and its caller.
 */
function creationSite(stack: string): string {
  const frames = stack.split('\n').slice(3, 5).map((line) => line.trim().replace(/^at /, ''));
  return frames.join(' ← ') || 'unknown';
}

/** Starts tracking; returns what the test-only command answers, and a disposable that stops tracking. */
export function trackLiveDisposables(): { bySite(): Record<string, number> } & Disposable {
  const tracker = new LiveDisposables();
  setDisposableTracker(tracker);
  return { bySite: () => tracker.bySite(), dispose: () => setDisposableTracker(undefined) };
}
