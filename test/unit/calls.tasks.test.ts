import * as assert from 'node:assert/strict';
import { TaskDetachedError, ToolCallGate, ToolCallRefusedError, type ResolvedToolCall, type ToolCallRecord } from '../../src/core/calls';
import { ServerRegistry } from '../../src/core/lifecycle/registry';
import type { ToolInfo } from '../../src/core/lifecycle/types';
import { TaskTracker, type EndedTask, type TaskCallMode } from '../../src/core/tasks';
import { FakeClock, FakeConnector, flush, makeServer, RecordingLog } from './helpers/lifecycle';
import { FakeTaskPort } from './helpers/tasks';

const TOOLS: ToolInfo[] = [
  { name: 'build', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
  { name: 'deploy', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
  { name: 'echo', inputSchema: { type: 'object' } },
];

function setup(options: { mode?: TaskCallMode; deny?: boolean; tasks?: boolean } = {}) {
  const clock = new FakeClock();
  const connector = new FakeConnector();
  const port = new FakeTaskPort({ taskId: 'task-77', status: 'working', pollInterval: 200 });
  connector.setup = (connection) => {
    connection.setPages('tools', [TOOLS]);
    if (options.tasks !== false) connection.tasks = port;
  };
  const registry = new ServerRegistry({ connector, clock, logFor: () => new RecordingLog() });
  const tracker = new TaskTracker(clock);
  const decided: ResolvedToolCall[] = [];
  const gate = new ToolCallGate({
    registry, clock,
    decide: (call) => {
      decided.push(call);
      return options.deny
        ? { kind: 'deny', reason: 'not now', decidedBy: { kind: 'person', answer: 'reject' }, verdict: 'ask', why: 'asked' }
        : { kind: 'allow', decidedBy: { kind: 'person', answer: 'approve' }, verdict: 'ask', why: 'asked' };
    },
    tasks: { tracker, mode: () => options.mode ?? 'whenSupported' },
  });
  const records: ToolCallRecord[] = [];
  gate.onDidCall((record) => records.push(record));
  const ended: EndedTask[] = [];
  tracker.onDidEnd((task) => ended.push(task));
  const start = async () => {
    registry.reconcile([makeServer('slow')]);
    await registry.settled();
    await registry.catalogsLoaded();
  };
  const dispose = () => { gate.dispose(); tracker.dispose(); registry.dispose(); };
  return { clock, connector, port, tracker, gate, records, ended, decided, start, dispose };
}

describe('ToolCallGate: calls run as tasks', () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => { cleanup?.(); cleanup = undefined; });

  it('approves a task call like any other, lists it while it runs, and records it with its task id', async () => {
    const h = setup();
    cleanup = h.dispose;
    await h.start();
    const call = h.gate.call({ serverId: 'slow', tool: 'build', arguments: { n: 1 }, caller: 'chat' });
    await flush();
    assert.equal(h.decided.length, 1, 'the decision step (the approval) ran first');
    assert.deepEqual(h.port.requests, ['create build {"n":1}']);
    assert.deepEqual(h.connector.last('slow').calls, [], 'no plain tools/call');
    assert.deepEqual(h.tracker.list().map((task) => [task.serverId, task.tool, task.taskId, task.status]), [['slow', 'build', 'task-77', 'working']]);
    assert.equal(h.records.length, 0, 'recorded when it ends, not when it starts');

    h.port.move({ status: 'completed' });
    await h.clock.tick(200);
    h.port.finish({ content: [{ type: 'text', text: 'built' }] });
    const { result, record } = await call;
    assert.deepEqual(result.content, [{ type: 'text', text: 'built' }]);
    assert.equal(record.taskId, 'task-77');
    assert.deepEqual(record.decision?.decidedBy, { kind: 'person', answer: 'approve' });
    assert.equal(record.ranMs, 200);
    assert.deepEqual(h.records, [record]);
    assert.deepEqual(h.ended.map((task) => [task.summary.status, task.delivered]), [['completed', true]]);
  });

  it('a rejected task call never reaches the server', async () => {
    const h = setup({ deny: true });
    cleanup = h.dispose;
    await h.start();
    await assert.rejects(h.gate.call({ serverId: 'slow', tool: 'build', caller: 'chat' }), ToolCallRefusedError);
    assert.deepEqual(h.port.requests, []);
    assert.deepEqual(h.tracker.list(), []);
  });

  it('calls plainly a tool without task support, an optional one when the setting says only required, or a server without tasks', async () => {
    const h = setup({ mode: 'whenRequired' });
    cleanup = h.dispose;
    await h.start();
    await h.gate.call({ serverId: 'slow', tool: 'echo', caller: 'chat' });
    await h.gate.call({ serverId: 'slow', tool: 'build', caller: 'chat' });
    assert.deepEqual(h.connector.last('slow').calls.map((call) => call.name), ['echo', 'build']);
    const deploy = h.gate.call({ serverId: 'slow', tool: 'deploy', caller: 'chat' });
    await flush();
    assert.deepEqual(h.port.requests, ['create deploy {}'], 'a tool that requires tasks is always one');
    await h.tracker.cancel(h.tracker.list()[0].id);
    await assert.rejects(deploy, /cancelled/);
    assert.equal(h.records.at(-1)?.outcome.kind, 'failed');
    assert.equal(h.records.at(-1)?.taskId, 'task-77');

    const plain = setup({ tasks: false });
    await plain.start();
    await plain.gate.call({ serverId: 'slow', tool: 'build', caller: 'chat' });
    assert.deepEqual(plain.connector.last('slow').calls.map((call) => call.name), ['build']);
    assert.deepEqual(plain.tracker.list(), []);
    plain.dispose();
  });

  it('when the caller stops waiting, the task runs on and its result is announced as undelivered', async () => {
    const h = setup();
    cleanup = h.dispose;
    await h.start();
    const turn = new AbortController();
    const call = h.gate.call({ serverId: 'slow', tool: 'build', caller: 'chat', signal: turn.signal });
    await flush();
    turn.abort();
    await assert.rejects(call, (error: unknown) => error instanceof TaskDetachedError && /runs on as a task/.test(error.message));
    assert.equal(h.port.count('cancel'), 0, 'the task is not cancelled');
    assert.equal(h.tracker.list()[0].awaited, false);
    h.port.notify({ status: 'completed' });
    await flush();
    h.port.finish({ content: [{ type: 'text', text: 'late' }] });
    await flush();
    assert.equal(h.records.length, 1);
    assert.equal(h.records[0].outcome.kind, 'result');
    assert.deepEqual(h.ended.map((task) => [task.delivered, task.summary.end?.kind]), [[false, 'result']]);
  });
});
