// Every suite of this tier checks that it left no disposable of the extension live, as VS Code's own
// ensureNoDisposablesAreLeakedInTestSuite does for its tests. Ours runs against a whole extension that
// outlives the suite, so it compares balances: the extension's test hook counts its live disposables
// (subscriptions to its events, toDisposable) per creation site; after the suite and its own cleanup,
// no site may hold more than before. A server the suite restarted holds as many as the one it
// replaced; a listener a suite's request added and never removed shows as one more at its site.
import * as assert from 'assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, serversSettled } from './configTestSupport';

const LIVE_DISPOSABLES_COMMAND = '_switchboard.test.liveDisposables';
/** How long the balance may take to come back after the suite (servers stopping, a reload finishing). */
const SETTLE_MS = 10_000;

async function liveBySite(): Promise<Record<string, number>> {
  const counts = await vscode.commands.executeCommand<Record<string, number>>(LIVE_DISPOSABLES_COMMAND);
  if (!counts) throw new Error(`${LIVE_DISPOSABLES_COMMAND} answered nothing: is the extension running under a test run?`);
  return counts;
}

/** The sites that hold more live disposables than before, with both counts. */
function grown(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.entries(after)
    .filter(([site, count]) => count > (before[site] ?? 0))
    .map(([site, count]) => `${count - (before[site] ?? 0)} more at ${site} (${before[site] ?? 0} → ${count})`);
}

function extensionIsActive(): boolean {
  return vscode.extensions.getExtension(EXTENSION_ID)?.isActive === true;
}

/**
 * Call first thing in a top-level describe. Counts before the suite's first hook (or, when the
 * extension is not active yet, after the first test that activated it: the activation suite), and
 * checks in an "after all" hook that runs after the suite's own (added when the suite starts, so it
 * comes last).
 */
export function ensureNoLeakedDisposables(): void {
  let start: Record<string, number> | undefined;
  const countNow = async (): Promise<void> => {
    // Activation returns before the configuration is read: count from the servers it brings.
    await (vscode.extensions.getExtension(EXTENSION_ID)?.exports as { ready?: () => Promise<void> } | undefined)?.ready?.();
    await serversSettled();
    start = await liveBySite();
  };
  before(async function () {
    if (extensionIsActive()) await countNow();
    const suite = this.test?.parent;
    if (!suite) throw new Error('ensureNoLeakedDisposables: called outside a describe');
    suite.afterAll('leaves no disposable of the extension live', async () => {
      if (!start) return; // the extension never ran during the suite
      const before = start;
      await serversSettled();
      const deadline = Date.now() + SETTLE_MS;
      let leaks = grown(before, await liveBySite());
      while (leaks.length > 0 && Date.now() < deadline) {
        // Stopping servers and reloads end their subscriptions a moment after the suite's cleanup.
        await new Promise((resolve) => setTimeout(resolve, 100));
        leaks = grown(before, await liveBySite());
      }
      assert.deepEqual(leaks, [], `the suite left disposables live:\n${leaks.join('\n')}`);
    });
  });
  afterEach(async () => {
    if (!start && extensionIsActive()) await countNow();
  });
}
