import * as assert from 'node:assert/strict';
import { CatalogLoader } from '../../src/core/lifecycle/catalog';
import { ConnectionClosedError } from '../../src/core/lifecycle/errors';
import { LiveConnection } from '../../src/core/lifecycle/liveConnection';
import { deferred, FakeConnection, RecordingLog } from './helpers/lifecycle';

function live(): { live: LiveConnection; connection: FakeConnection } {
  const connection = new FakeConnection();
  const catalog = new CatalogLoader(connection, { log: new RecordingLog(), requestTimeoutMs: () => 1000, onDidChange: () => undefined });
  return { live: new LiveConnection('memory', connection, catalog), connection };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('the request did not fail');
}

describe('lifecycle: the live connection fails waiting requests', () => {
  it('passes a request\'s own answer and its own failure through while the connection lives', async () => {
    const { live: connection } = live();
    assert.equal(await connection.guard(Promise.resolve(42)), 42);
    const own = new Error('tool failed');
    assert.equal(await rejection(connection.guard(Promise.reject(own))), own);
  });

  it('fails every waiting request at once when the connection ends, naming the server, the reason and the last telling stderr line', async () => {
    const { live: connection } = live();
    const first = deferred<string>();
    const second = deferred<string>();
    const calls = [connection.guard(first.promise), connection.guard(second.promise)];
    connection.end('process exited with code 1', ['loading', 'Error: Cannot find module \'x\'', '   ', 'Node.js v22.3.0']);
    const errors = await Promise.all(calls.map(rejection));
    for (const error of errors) {
      assert.ok(error instanceof ConnectionClosedError);
      assert.equal(error.serverId, 'memory');
      assert.equal(error.reason, 'process exited with code 1');
      assert.equal(error.message, 'server memory closed the connection: process exited with code 1 (last stderr line: Error: Cannot find module \'x\')');
    }
    assert.equal(errors[0], errors[1], 'one error, one reason for every caller');
    // The transport's own failure arriving later changes nothing for the callers.
    first.reject(new Error('Connection closed'));
    second.resolve('late');
  });

  it('refuses requests after the end with the same error, and only the first end counts', async () => {
    const { live: connection } = live();
    connection.end('the server was stopped');
    connection.end('something else', ['ignored']);
    const error = await rejection(connection.guard(Promise.resolve('never seen')));
    assert.ok(error instanceof ConnectionClosedError);
    assert.equal(error.message, 'server memory closed the connection: the server was stopped');
  });

  it('dispose() ends the waiting requests and disposes the connection', async () => {
    const { live: connection, connection: fake } = live();
    const waiting = connection.guard(deferred<void>().promise);
    connection.dispose();
    const error = await rejection(waiting);
    assert.ok(error instanceof ConnectionClosedError);
    assert.match(error.message, /^server memory closed the connection: the connection was disposed$/);
    assert.equal(fake.disposed, true);
  });
});
