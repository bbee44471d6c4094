// A server that failed for good is announced once, with a "Show Logs" button; restart loops, repeats
// and the initial startup do not flood the user with notifications.
import * as assert from 'assert/strict';
import { Emitter } from '../../src/core/event';
import type { ServerState, ServerStateChange } from '../../src/core/lifecycle';
import { FailureNotifier } from '../../src/vscode/servers/failureNotifications';
import { ensureNoLeakedDisposables } from './leakCheck';

const STARTING: ServerState = { kind: 'starting', since: 0 };

function setup(answer?: string) {
  const states = new Emitter<ServerStateChange>();
  const shown: string[] = [];
  const logged: string[] = [];
  const opened: string[][] = [];
  const clock = { now: 0 };
  const notifier = new FailureNotifier({
    onDidChangeState: states.event,
    log: { warn: (message: string) => { logged.push(message); } },
    showLogs: (ids) => { opened.push([...ids]); },
    notify: (message) => { shown.push(message); return Promise.resolve(answer); },
    now: () => clock.now,
  });
  const change = (id: string, state: ServerState, previous: ServerState = STARTING) => states.fire({ id, state, previous });
  const fail = (id: string, error: string) => change(id, { kind: 'failed', error, stderrTail: [] });
  return { notifier, shown, logged, opened, clock, change, fail };
}

/** Lets the notification's promise settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('failure notifications', () => {
  ensureNoLeakedDisposables();
  it('announces a failure with its reason, and Show Logs opens that server\'s log', async () => {
    const { notifier, shown, logged, opened, fail } = setup('Show Logs');
    fail('db', 'command not found: npx (PATH searched: /usr/bin)');
    await settle();
    assert.deepEqual(shown, ['MCP server "db" failed: command not found: npx (PATH searched: /usr/bin)']);
    assert.deepEqual(opened, [['db']]);
    assert.deepEqual(logged, ['server db failed: command not found: npx (PATH searched: /usr/bin)']);
    notifier.dispose();
  });

  it('names the stderr line stating the cause and the hint', async () => {
    const { notifier, shown, change } = setup();
    const stderrTail = ['Error: BRAVE_API_KEY is not set', '    at main (/srv/index.js:3:9)', 'Node.js v20.11.1'];
    change('brave', { kind: 'failed', error: 'process exited with code 1 during startup', stderrTail, hint: 'set BRAVE_API_KEY: add it to the "env" of "brave"' });
    await settle();
    assert.deepEqual(shown, ['MCP server "brave" failed: process exited with code 1 during startup (stderr: Error: BRAVE_API_KEY is not set) — set BRAVE_API_KEY: add it to the "env" of "brave"']);
    notifier.dispose();
  });

  it('stays quiet during a restart loop and speaks once when it gives up', () => {
    const { notifier, shown, change, fail } = setup();
    const crashed: ServerState = { kind: 'crashed', exitCode: 1, signal: null, error: 'exited with code 1', stderrTail: [] };
    for (let attempt = 1; attempt <= 3; attempt++) {
      change('db', crashed, { kind: 'ready', since: 0, startMs: 1 });
      change('db', { kind: 'restarting', attempt, at: 0, reason: 'exited with code 1' }, crashed);
      change('db', STARTING);
    }
    assert.deepEqual(shown, []);
    fail('db', 'crashed 3 times in 5 min; not restarting (last: exited with code 1)');
    assert.equal(shown.length, 1);
    notifier.dispose();
  });

  it('does not repeat the same failure within a minute, but does after the server was ready again', () => {
    const { notifier, shown, clock, change, fail } = setup();
    fail('db', 'boom');
    clock.now += 10_000;
    fail('db', 'boom');
    assert.equal(shown.length, 1, 'the same reason again is not announced');
    fail('db', 'another reason');
    assert.equal(shown.length, 2, 'a different reason is');
    change('db', { kind: 'ready', since: 0, startMs: 1 });
    fail('db', 'another reason');
    assert.equal(shown.length, 3, 'after a recovery the same reason is news again');
    clock.now += 61_000;
    fail('db', 'another reason');
    assert.equal(shown.length, 4, 'and so is a repeat after a minute');
    notifier.dispose();
  });

  it('gathers the failures of the initial startup into one notification', async () => {
    const { notifier, shown, opened, fail } = setup('Show Logs');
    const release = notifier.hold();
    fail('a', 'command not found: a');
    fail('b', 'did not answer initialize within 30 s');
    assert.deepEqual(shown, [], 'nothing is shown before startup has settled');
    release();
    await settle();
    assert.deepEqual(shown, ['2 MCP servers failed to start: "a" (command not found: a), "b" (did not answer initialize within 30 s)']);
    assert.deepEqual(opened, [['a', 'b']], 'Show Logs offers both servers');
    fail('c', 'late');
    assert.equal(shown.length, 2, 'after startup each failure is announced by itself');
    notifier.dispose();
  });
});
