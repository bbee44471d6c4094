// The tracker the extension-host suites use to find disposables they left live (test/vscode/leakCheck.ts):
// it must hear of every subscription and toDisposable, and of each one's end, however it ended.
import * as assert from 'assert/strict';
import { setDisposableTracker, toDisposable, type Disposable } from '../../src/core/disposable';
import { Emitter } from '../../src/core/event';

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

  it('sees toDisposable until its one disposal, which runs the function once', () => {
    let runs = 0;
    const disposable = toDisposable(() => runs++);
    assert.ok(live.has(disposable));
    disposable.dispose();
    disposable.dispose();
    assert.equal(runs, 1);
    assert.equal(live.size, 0);
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
});
