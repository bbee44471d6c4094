// A server's resource watching as its controller offers it (ServerController.resources): only on a
// ready connection that offers it, failures logged in the server's log, updates relayed only from the
// current connection; and the redacting wrapper passes the port through with its failures scrubbed.
import * as assert from 'node:assert/strict';
import { Emitter } from '../../src/core/event';
import type { ConnectRequest, RequestOptions, ResourceWatch } from '../../src/core/lifecycle/ports';
import { redactingConnection } from '../../src/core/lifecycle/redactConnection';
import { ServerController } from '../../src/core/lifecycle/serverController';
import { DEFAULT_LIFECYCLE_SETTINGS } from '../../src/core/lifecycle/settings';
import { FakeClock, FakeConnection, FakeConnector, makeServer, RecordingLog } from './helpers/lifecycle';

class FakeWatch implements ResourceWatch {
  readonly sent: string[] = [];
  refuse: string | undefined;
  private readonly emitter = new Emitter<string>();
  readonly onUpdated = this.emitter.event;

  watch(uri: string, _options: RequestOptions): Promise<void> {
    this.sent.push(`watch ${uri}`);
    return this.refuse ? Promise.reject(new Error(this.refuse)) : Promise.resolve();
  }

  unwatch(uri: string, _options: RequestOptions): Promise<void> {
    this.sent.push(`unwatch ${uri}`);
    return Promise.resolve();
  }

  fire(uri: string): void {
    this.emitter.fire(uri);
  }
}

class WatchingConnection extends FakeConnection {
  readonly resourceWatch = new FakeWatch();
}

function setup(withWatch: boolean) {
  const connector = new FakeConnector();
  const log = new RecordingLog();
  const controller = new ServerController({
    server: makeServer('docs'), connector, log, clock: new FakeClock(), settings: () => DEFAULT_LIFECYCLE_SETTINGS, roots: () => [],
  });
  /** The connections made, in order. */
  const made: WatchingConnection[] = [];
  connector.plan('docs', ...Array.from({ length: 3 }, () => (request: ConnectRequest) => {
    const connection = withWatch ? new WatchingConnection(request) : new FakeConnection(request);
    if (connection instanceof WatchingConnection) made.push(connection);
    return Promise.resolve(connection);
  }));
  return { controller, log, made };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  assert.fail('it did not fail');
}

describe('ServerController.resources', () => {
  it('is not offered before the server is ready, nor by a server without the capability', async () => {
    const { controller } = setup(false);
    try {
      assert.equal(controller.resources.supported, false);
      assert.match((await rejection(controller.resources.set('file:///a', true))).message, /docs is not ready/);
      await controller.start();
      assert.equal(controller.resources.supported, false);
      assert.match((await rejection(controller.resources.set('file:///a', true))).message, /does not offer resource subscriptions/);
    } finally {
      controller.dispose();
    }
  });

  it('watches on the ready connection and relays its updates, only while that connection is current', async () => {
    const { controller, made } = setup(true);
    try {
      await controller.start();
      const [first] = made;
      assert.equal(controller.resources.supported, true);
      const heard: string[] = [];
      controller.resources.onDidUpdate(({ id, uri }) => heard.push(`${id} ${uri}`));
      await controller.resources.set('file:///a', true);
      await controller.resources.set('file:///a', false);
      assert.deepEqual(first.resourceWatch.sent, ['watch file:///a', 'unwatch file:///a']);
      first.resourceWatch.fire('file:///a');
      assert.deepEqual(heard, ['docs file:///a']);
      await controller.restart();
      first.resourceWatch.fire('file:///a');
      assert.deepEqual(heard, ['docs file:///a'], 'the previous connection is not heard after a restart');
    } finally {
      controller.dispose();
    }
  });

  it('logs a refused watch in the server\'s log and rejects', async () => {
    const { controller, log, made } = setup(true);
    try {
      await controller.start();
      const [connection] = made;
      connection.resourceWatch.refuse = 'no subscriptions for you';
      assert.match((await rejection(controller.resources.set('file:///a', true))).message, /no subscriptions for you/);
      assert.ok(log.lines.includes('warn: could not subscribe to file:///a: no subscriptions for you'), log.lines.join('\n'));
    } finally {
      controller.dispose();
    }
  });
});

describe('redactingConnection and resource watching', () => {
  it('passes the port through and scrubs the secrets from its failures', async () => {
    const plain = new FakeConnection();
    assert.equal(redactingConnection(plain, ['s3cret-value-1234']).resourceWatch, undefined);
    const connection = new WatchingConnection();
    const wrapped = redactingConnection(connection, ['s3cret-value-1234']).resourceWatch;
    assert.ok(wrapped);
    const heard: string[] = [];
    wrapped.onUpdated((uri) => heard.push(uri));
    connection.resourceWatch.fire('file:///a');
    assert.deepEqual(heard, ['file:///a']);
    connection.resourceWatch.refuse = 'refused with s3cret-value-1234';
    const error = await rejection(wrapped.watch('file:///a', { timeoutMs: 1000 }));
    assert.ok(!error.message.includes('s3cret-value-1234'), error.message);
  });
});
