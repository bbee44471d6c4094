// The tracker the extension-host suites use to find disposables they left live (test/vscode/leakCheck.ts):
// it must hear of every subscription and toDisposable, and of each one's end, however it ended.
import * as assert from 'assert/strict';
import { buildSingleton, setDisposableTracker, toDisposable, type Disposable } from '../../src/core/disposable';
import { Emitter } from '../../src/core/event';
import { systemClock } from '../../src/core/lifecycle/clock';
import { ServerRegistry } from '../../src/core/lifecycle/registry';
import { FakeClock, FakeConnector, flush, makeServer, RecordingLog } from './helpers/lifecycle';

describe('disposable tracker', () => {
  const live = new Set<Disposable>();
  beforeEach(() => {
    live.clear();
    setDisposableTracker({ created: (d) => live.add(d), disposed: (d) => live.delete(d) });
  });
  afterEach(() => setDisposableTracker(undefined));

  it('sees a subscription from creation until it is disposed, and the listener stops hearing', () => {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    const subscription = emitter.event((n) => heard.push(n));
    assert.deepEqual([...live], [subscription]);
    emitter.fire(1);
    subscription.dispose();
    subscription.dispose();
    emitter.fire(2);
    assert.deepEqual(heard, [1]);
    assert.equal(live.size, 0);
  });

  it('ends the live subscriptions of an emitter that is disposed', () => {
    const emitter = new Emitter<void>();
    emitter.event(() => undefined);
    emitter.event(() => undefined);
    assert.equal(live.size, 2);
    emitter.dispose();
    assert.equal(live.size, 0);
  });

  it('does not track what a singleton subscribes to while it is built, and tracks what comes after', () => {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    const built = buildSingleton(() => ({ subscription: emitter.event((n) => heard.push(n)), stop: toDisposable(() => undefined) }));
    assert.equal(live.size, 0);
    emitter.fire(1);
    assert.deepEqual(heard, [1]);
    const later = emitter.event(() => undefined);
    assert.deepEqual([...live], [later]);
    built.subscription.dispose();
    emitter.fire(2);
    assert.deepEqual(heard, [1]);
    assert.deepEqual([...live], [later]);
  });

  it('sees toDisposable until its one disposal, which runs the function once', () => {
    let runs = 0;
    const disposable = toDisposable(() => runs++);
    assert.ok(live.has(disposable));
    disposable.dispose();
    disposable.dispose();
    assert.equal(runs, 1);
    assert.equal(live.size, 0);
  });

  it('counts a system clock timer as disposed once it fired, or when cancelled', async () => {
    let timer: Disposable | undefined;
    await new Promise<void>((resolve) => { timer = systemClock.setTimeout(resolve, 1); assert.ok(live.has(timer)); });
    assert.equal(live.size, 0);
    let fired = false;
    const cancelled = systemClock.setTimeout(() => { fired = true; }, 60_000);
    cancelled.dispose();
    assert.equal(live.size, 0);
    assert.equal(fired, false);
  });

  it('tracks nothing, and changes nothing, without a tracker', () => {
    setDisposableTracker(undefined);
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    const subscription = emitter.event((n) => heard.push(n));
    emitter.fire(1);
    subscription.dispose();
    emitter.fire(2);
    assert.deepEqual(heard, [1]);
    assert.equal(live.size, 0);
  });

  it('balances in the registry: a server added, restarted and removed leaves nothing live, and dispose ends all', async () => {
    const clock = new FakeClock();
    const registry = new ServerRegistry({ connector: new FakeConnector(), clock, logFor: () => new RecordingLog() });
    const a = makeServer('a');
    registry.reconcile([a]);
    await registry.settled();
    const base = live.size;
    assert.ok(base > 0, 'a running server holds subscriptions');
    registry.reconcile([a, makeServer('b')]);
    await registry.settled();
    assert.ok(live.size > base, 'and a second one more');
    await registry.restart('a');
    await registry.settled();
    registry.reconcile([a]);
    await registry.settled();
    await clock.tick(60_000);
    assert.equal(live.size, base, 'as many as with a alone');
    registry.dispose();
    await flush();
    assert.equal(live.size, 0);
  });
});
