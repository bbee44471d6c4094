// The bookkeeping of resource subscriptions (src/core/subscriptions) over a fake port: one subscribe per
// resource however many watch it, one unsubscribe when the last watcher leaves, nothing sent to a server
// that offers no subscriptions, everything dropped when a server goes and subscribed again when it is
// ready, a refused subscribe recorded, and the chat's "changed since attached" marks.
import * as assert from 'node:assert/strict';
import { AttachmentChanges, CHAT_WATCHER, ResourceWatches, type WatchPort } from '../../src/core/subscriptions';
import { deferred, type Deferred } from './helpers/lifecycle';

class FakePort implements WatchPort {
  readonly sent: string[] = [];
  readonly ready = new Set<string>(['docs']);
  /** When set, the next requests wait for the test to answer them. */
  hold = false;
  refuse = false;
  readonly waiting: Deferred<void>[] = [];

  canWatch(server: string): boolean {
    return this.ready.has(server);
  }

  set(server: string, uri: string, on: boolean): Promise<void> {
    this.sent.push(`${on ? 'subscribe' : 'unsubscribe'} ${server} ${uri}`);
    if (this.refuse) return Promise.reject(new Error('refused'));
    if (!this.hold) return Promise.resolve();
    const answer = deferred<void>();
    this.waiting.push(answer);
    return answer.promise;
  }
}

/** Lets the port's answers reach the bookkeeping. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('resource subscriptions', () => {
  let port: FakePort;
  let watches: ResourceWatches;
  beforeEach(() => {
    port = new FakePort();
    watches = new ResourceWatches(port);
  });
  afterEach(() => watches.dispose());

  describe('who watches what', () => {
    it('subscribes once for many watchers and unsubscribes when the last one leaves', async () => {
      const a = watches.watch('docs', 'file:///a.md', 'doc-1');
      const b = watches.watch('docs', 'file:///a.md', 'doc-2');
      await settle();
      assert.deepEqual(port.sent, ['subscribe docs file:///a.md']);
      assert.equal(watches.status('docs', 'file:///a.md'), 'subscribed');
      a.dispose();
      a.dispose(); // a second dispose releases nothing more
      await settle();
      assert.deepEqual(port.sent, ['subscribe docs file:///a.md']);
      assert.deepEqual(watches.list().map((w) => w.watchers), [['doc-2']]);
      b.dispose();
      await settle();
      assert.deepEqual(port.sent, ['subscribe docs file:///a.md', 'unsubscribe docs file:///a.md']);
      assert.equal(watches.status('docs', 'file:///a.md'), undefined);
    });

    it('counts a watcher that watches twice until it releases twice', async () => {
      const first = watches.watch('docs', 'file:///a.md', 'chat');
      const second = watches.watch('docs', 'file:///a.md', 'chat');
      first.dispose();
      await settle();
      assert.equal(watches.status('docs', 'file:///a.md'), 'subscribed');
      second.dispose();
      await settle();
      assert.equal(port.sent.at(-1), 'unsubscribe docs file:///a.md');
    });

    it('sends nothing to a server that is not ready or offers no subscriptions, and subscribes once it is ready', async () => {
      watches.watch('notes', 'memo://1', 'doc-1');
      await settle();
      assert.deepEqual(port.sent, []);
      assert.equal(watches.status('notes', 'memo://1'), 'idle');
      port.ready.add('notes');
      watches.serverReady('notes');
      await settle();
      assert.deepEqual(port.sent, ['subscribe notes memo://1']);
    });

    it('drops a server\'s subscriptions when it goes and subscribes what is still watched when it is ready again', async () => {
      const kept = watches.watch('docs', 'file:///a.md', 'doc-1');
      const left = watches.watch('docs', 'file:///b.md', 'doc-2');
      await settle();
      port.ready.delete('docs');
      watches.serverGone('docs');
      assert.equal(watches.status('docs', 'file:///a.md'), 'idle');
      // Closed while the server was down: nothing to unsubscribe, the server forgot it.
      left.dispose();
      await settle();
      assert.equal(port.sent.filter((line) => line.startsWith('unsubscribe')).length, 0);
      port.ready.add('docs');
      watches.serverReady('docs');
      await settle();
      assert.deepEqual(port.sent, ['subscribe docs file:///a.md', 'subscribe docs file:///b.md', 'subscribe docs file:///a.md']);
      assert.equal(watches.status('docs', 'file:///a.md'), 'subscribed');
      kept.dispose();
    });

    it('ignores the answer of a connection that went meanwhile', async () => {
      port.hold = true;
      watches.watch('docs', 'file:///a.md', 'doc-1');
      watches.serverGone('docs');
      port.waiting[0].resolve(undefined);
      await settle();
      assert.equal(watches.status('docs', 'file:///a.md'), 'idle');
    });

    it('unsubscribes a subscription answered after everyone left, and lets a watcher rejoin one in flight', async () => {
      port.hold = true;
      const first = watches.watch('docs', 'file:///a.md', 'doc-1');
      first.dispose();
      const again = watches.watch('docs', 'file:///a.md', 'doc-2');
      assert.equal(port.sent.length, 1, 'the watcher joined the subscribe in flight');
      port.waiting[0].resolve(undefined);
      await settle();
      assert.equal(watches.status('docs', 'file:///a.md'), 'subscribed');
      again.dispose();
      await settle();
      assert.deepEqual(port.sent.slice(1), ['unsubscribe docs file:///a.md']);
      const other = watches.watch('docs', 'file:///b.md', 'doc-3');
      other.dispose();
      port.waiting[2].resolve(undefined); // the subscribe of b, answered after its only watcher left
      await settle();
      assert.deepEqual(port.sent.slice(2), ['subscribe docs file:///b.md', 'unsubscribe docs file:///b.md']);
      assert.deepEqual(watches.list(), []);
    });

    it('records a refused subscribe, keeps the watch, and asks again only after the server restarts', async () => {
      port.refuse = true;
      const watch = watches.watch('docs', 'file:///a.md', 'doc-1');
      await settle();
      assert.equal(watches.status('docs', 'file:///a.md'), 'failed');
      watches.watch('docs', 'file:///a.md', 'doc-2').dispose();
      watches.serverReady('docs');
      await settle();
      assert.equal(port.sent.length, 1);
      port.refuse = false;
      watches.serverGone('docs');
      watches.serverReady('docs');
      await settle();
      assert.equal(watches.status('docs', 'file:///a.md'), 'subscribed');
      watch.dispose();
    });

    it('passes on updates of watched resources only, and counts them', async () => {
      const heard: string[] = [];
      watches.onDidUpdate(({ server, uri }) => heard.push(`${server} ${uri}`));
      const watch = watches.watch('docs', 'file:///a.md', 'doc-1');
      await settle();
      watches.updated('docs', 'file:///a.md');
      watches.updated('docs', 'file:///other.md');
      assert.deepEqual(heard, ['docs file:///a.md']);
      assert.equal(watches.updates('docs', 'file:///a.md'), 1);
      watch.dispose();
      watches.updated('docs', 'file:///a.md');
      assert.equal(heard.length, 1);
      assert.equal(watches.updates('docs', 'file:///a.md'), 0);
    });
  });

  describe('chat attachments', () => {
    it('says an attachment changed when the resource was updated since it was last attached', async () => {
      const changes = new AttachmentChanges(watches);
      assert.equal(changes.attach('docs', 'file:///a.md'), false, 'attached for the first time');
      assert.deepEqual(watches.list().map((w) => w.watchers), [[CHAT_WATCHER]]);
      assert.equal(changes.changed('docs', 'file:///a.md'), false);
      watches.updated('docs', 'file:///a.md');
      assert.equal(changes.changed('docs', 'file:///a.md'), true);
      assert.equal(changes.changed('docs', 'file:///never.md'), false);
      assert.equal(changes.attach('docs', 'file:///a.md'), true);
      assert.equal(changes.attach('docs', 'file:///a.md'), false, 'unchanged since the last attachment');
      await settle();
      assert.deepEqual(port.sent, ['subscribe docs file:///a.md']);
      changes.dispose();
      await settle();
      assert.deepEqual(port.sent, ['subscribe docs file:///a.md', 'unsubscribe docs file:///a.md']);
    });

    it('keeps only the most recent attachments watched', async () => {
      const changes = new AttachmentChanges(watches, 2);
      changes.attach('docs', 'file:///1');
      changes.attach('docs', 'file:///2');
      changes.attach('docs', 'file:///1'); // 1 is now the most recent
      changes.attach('docs', 'file:///3');
      await settle();
      assert.deepEqual(watches.list().map((w) => w.uri).sort(), ['file:///1', 'file:///3']);
      assert.ok(port.sent.includes('unsubscribe docs file:///2'));
      changes.dispose();
    });
  });
});
