import * as assert from 'node:assert/strict';
import {
  MAX_POLL_FAILURES, TaskCancelledError, TaskFailedError, TaskTracker, callsAsTask, runToolTask, taskCallMode,
} from '../../src/core/tasks';
import type { TaskState } from '../../src/core/tasks';
import { FakeClock, flush } from './helpers/lifecycle';
import { FakeTaskPort } from './helpers/tasks';

const CREATED: TaskState = { taskId: 't1', status: 'working', createdAt: '2026-12-06T00:00:00Z', ttl: 60_000, pollInterval: 500 };

function setup(created: TaskState = CREATED) {
  const clock = new FakeClock();
  const port = new FakeTaskPort(created);
  const tracker = new TaskTracker(clock);
  const tracked = tracker.begin({ serverId: 'slow', tool: 'build', caller: 'chat' });
  const progress: number[] = [];
  const run = runToolTask(port, 'build', { target: 'all' }, {
    serverId: 'slow', clock, timeoutMs: 5000, observer: tracked, ttlMs: 60_000, onProgress: (p) => progress.push(p.progress),
  });
  // Ends the tracked task the way the gate does when the run settles.
  const ended = run.then(
    (result) => { tracked.end({ kind: 'result', result }); return result; },
    (error: unknown) => {
      tracked.end(error instanceof TaskCancelledError ? { kind: 'cancelled', message: error.message } : { kind: 'failed', message: String(error) });
      throw error;
    },
  );
  ended.catch(() => undefined);
  return { clock, port, tracker, tracked, run: ended, progress };
}

describe('tasks: following a task', () => {
  it('creates the task, polls at its interval, opens tasks/result when input is needed, and answers the result', async () => {
    const h = setup();
    await flush();
    assert.deepEqual(h.port.requests, ['create build {"target":"all"}']);
    assert.equal(h.port.createOptions[0].ttlMs, 60_000);
    assert.equal(h.tracked.taskId, 't1');
    assert.deepEqual(h.clock.pending(), [500], 'the next poll at the server\'s suggested interval');

    // Progress of the creating request reaches both the list and the caller.
    h.port.createOptions[0].onProgress?.({ progress: 3, total: 10, message: 'compiling' });
    await h.clock.tick(500);
    assert.equal(h.port.count('get'), 1);
    let [summary] = h.tracker.list();
    assert.deepEqual([summary.status, summary.progress, summary.elapsedMs, summary.awaited], ['working', { progress: 3, total: 10, message: 'compiling' }, 500, true]);
    assert.deepEqual(h.progress, [3]);

    h.port.move({ status: 'input_required', statusMessage: 'which branch?' });
    await h.clock.tick(500);
    assert.equal(h.port.count('result'), 1, 'tasks/result opened so the server can ask');
    [summary] = h.tracker.list();
    assert.deepEqual([summary.status, summary.statusMessage], ['input_required', 'which branch?']);

    h.port.move({ status: 'working', statusMessage: 'building main' });
    await h.clock.tick(500);
    assert.equal(h.port.count('result'), 1, 'never a second tasks/result while one is open');
    assert.equal(h.tracker.list()[0].statusMessage, 'building main');

    h.port.finish({ content: [{ type: 'text', text: 'built' }] });
    assert.deepEqual(await h.run, { content: [{ type: 'text', text: 'built' }] });
    assert.deepEqual(h.clock.pending(), [], 'no poll left behind');
    [summary] = h.tracker.list();
    assert.deepEqual([summary.status, summary.elapsedMs, summary.end?.kind], ['completed', 1500, 'result']);
    await h.clock.tick(10_000);
    assert.equal(h.tracker.list()[0].elapsedMs, 1500, 'an ended task\'s time stops');
  });

  it('takes status notifications between polls, and fetches the result of a task that completed', async () => {
    const h = setup();
    await flush();
    h.port.notify({ status: 'working', statusMessage: 'half way' });
    assert.equal(h.tracker.list()[0].statusMessage, 'half way');
    h.port.notify({ status: 'completed' });
    await flush();
    assert.equal(h.port.count('result'), 1);
    assert.equal(h.port.count('get'), 0, 'the notification made the poll unnecessary');
    h.port.finish({ content: [], isError: true });
    await h.run;
    assert.equal(h.tracker.list()[0].status, 'completed', 'the status the server last gave is kept');
  });

  it('cancels through the tracker: tasks/cancel, the call fails as cancelled, the list says so', async () => {
    const h = setup();
    await flush();
    const ends: boolean[] = [];
    h.tracker.onDidEnd((ended) => ends.push(ended.delivered));
    await h.tracker.cancel(h.tracker.list()[0].id);
    await assert.rejects(h.run, (error: unknown) => error instanceof TaskCancelledError && /build.*slow.*cancelled: cancelled by the client/.test(error.message));
    assert.deepEqual(h.port.requests.filter((r) => r.startsWith('cancel')), ['cancel t1']);
    const [summary] = h.tracker.list();
    assert.deepEqual([summary.status, summary.end?.kind], ['cancelled', 'cancelled']);
    assert.deepEqual(ends, [true]);
    assert.deepEqual(h.clock.pending(), []);
    await assert.rejects(h.tracker.cancel(summary.id), /already ended/);
    await assert.rejects(h.tracker.cancel('task-99'), /no task 'task-99'/);
  });

  it('a task the server cancels ends the call as cancelled', async () => {
    const h = setup();
    await flush();
    h.port.move({ status: 'cancelled', statusMessage: 'shutting down' });
    await h.clock.tick(500);
    await assert.rejects(h.run, /cancelled: shutting down/);
  });

  it('gives a task up as lost after repeated failed polls, naming why', async () => {
    const h = setup();
    await flush();
    h.port.current = new Error('connection reset');
    for (let i = 0; i < MAX_POLL_FAILURES; i++) await h.clock.tick(500);
    await assert.rejects(h.run, (error: unknown) => error instanceof TaskFailedError && /lost track.*tasks\/get failed 3 times \(connection reset\)/.test(error.message));
    assert.equal(h.tracker.list()[0].status, 'failed');
  });

  it('a failed task whose result request errs fails the call with the server\'s reason', async () => {
    const h = setup();
    await flush();
    h.port.move({ status: 'failed' });
    await h.clock.tick(500);
    assert.equal(h.port.count('result'), 1);
    h.port.fail(new Error('the build broke'));
    await assert.rejects(h.run, (error: unknown) => error instanceof TaskFailedError && /task of tool 'build' of server 'slow' failed: the build broke/.test(error.message));
    assert.deepEqual(h.tracker.list()[0].end, { kind: 'failed', message: String(new TaskFailedError('x')).replace('x', '') + "the task of tool 'build' of server 'slow' failed: the build broke" });
  });

  it('clamps a silly poll interval, and polls every second when the server suggests none', async () => {
    const fast = setup({ ...CREATED, pollInterval: 1 });
    await flush();
    assert.deepEqual(fast.clock.pending(), [100]);
    const none = setup({ taskId: 't2', status: 'working' });
    await flush();
    assert.deepEqual(none.clock.pending(), [1000]);
    await fast.tracker.cancel(fast.tracker.list()[0].id);
    await none.tracker.cancel(none.tracker.list()[0].id);
    await assert.rejects(fast.run);
    await assert.rejects(none.run);
  });
});

describe('tasks: the tracker', () => {
  it('lists only calls that became tasks, running first, and says when nobody waits for the result', async () => {
    const clock = new FakeClock();
    const tracker = new TaskTracker(clock);
    let changes = 0;
    tracker.onDidChange(() => changes++);
    const ended: { tool: string; delivered: boolean }[] = [];
    tracker.onDidEnd((task) => ended.push({ tool: task.summary.tool, delivered: task.delivered }));

    const plain = tracker.begin({ serverId: 's', tool: 'plain', caller: 'api' });
    plain.end({ kind: 'result', result: { content: [] } });
    assert.deepEqual(tracker.list(), [], 'a call answered plainly is no task');
    assert.equal(changes, 0);

    const first = tracker.begin({ serverId: 's', tool: 'first', caller: 'chat' });
    first.created({ taskId: 'a', status: 'working' }, async () => undefined);
    clock.advance(1000);
    const second = tracker.begin({ serverId: 's', tool: 'second', caller: 'chat' });
    second.created({ taskId: 'b', status: 'working' }, async () => undefined);
    clock.advance(1000);
    assert.equal(tracker.running, true);
    assert.deepEqual(tracker.list().map((task) => [task.tool, task.elapsedMs]), [['first', 2000], ['second', 1000]]);

    first.detach();
    assert.equal(tracker.list()[0].awaited, false);
    first.end({ kind: 'result', result: { content: [{ type: 'text', text: 'done' }] } });
    second.end({ kind: 'failed', message: 'boom' });
    assert.deepEqual(ended, [{ tool: 'first', delivered: false }, { tool: 'second', delivered: true }]);
    assert.deepEqual(tracker.list().map((task) => [task.tool, task.status]), [['second', 'failed'], ['first', 'completed']], 'ended: newest first');
    assert.equal(tracker.running, false);
    first.detach();
    assert.equal(tracker.list()[1].awaited, false);
    tracker.clearEnded();
    assert.deepEqual(tracker.list(), []);
    tracker.dispose();
  });
});

describe('tasks: when a call goes out as a task', () => {
  it('follows the tool\'s taskSupport and the setting', () => {
    assert.equal(callsAsTask({ execution: { taskSupport: 'required' } }, 'whenRequired'), true);
    assert.equal(callsAsTask({ execution: { taskSupport: 'optional' } }, 'whenSupported'), true);
    assert.equal(callsAsTask({ execution: { taskSupport: 'optional' } }, 'whenRequired'), false);
    assert.equal(callsAsTask({ execution: { taskSupport: 'forbidden' } }, 'whenSupported'), false);
    assert.equal(callsAsTask({}, 'whenSupported'), false);
    assert.equal(taskCallMode('whenRequired'), 'whenRequired');
    assert.equal(taskCallMode('sometimes'), 'whenSupported');
  });
});
