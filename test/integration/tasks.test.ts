// Long tool calls run as MCP tasks, end to end: the call gate (approval and history), the core's task
// follower and list, the node connection's task requests over the SDK Client, against a real stdio
// server built with the SDK's task store (test/fixtures/servers/task-tool.mjs).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { TaskDetachedError, ToolCallGate, type ResolvedToolCall, type ToolCallRecord } from '../../src/core/calls';
import { fingerprint, type EffectiveServer, type LaunchDefinition } from '../../src/core/config';
import { ServerRegistry } from '../../src/core/lifecycle/registry';
import type { ServerLog } from '../../src/core/lifecycle/ports';
import { systemClock } from '../../src/core/lifecycle/clock';
import { TaskCancelledError, TaskTracker, type EndedTask, type TaskSummary } from '../../src/core/tasks';
import { NodeServerConnector, processLauncher, type ElicitationAnswer, type ElicitationRequest } from '../../src/node/connector';
import { ServerEnvironment } from '../../src/node/process/environment';
import { FIXTURE_SERVERS } from './helperServers';
import { REPO_ROOT, waitFor } from './support';

const quietLog: ServerLog = {
  info: () => undefined, warn: () => undefined, error: () => undefined, stderr: () => undefined, serverMessage: () => undefined, trace: () => undefined,
};

function taskServer(id: string): EffectiveServer {
  const launch: LaunchDefinition = { type: 'stdio', command: process.execPath, args: [path.join(FIXTURE_SERVERS, 'task-tool.mjs')], cwd: REPO_ROOT, env: {}, headers: {} };
  return {
    name: id, id, scope: 'user', launch, disabled: false, alwaysLoad: false, needsInput: [], fingerprint: fingerprint(launch), needsTrust: false,
    source: { file: 'tasks.mcp.json', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
  };
}

describe('tool calls as tasks against a real task-capable server', function () {
  this.timeout(30_000);
  let registry: ServerRegistry;
  let gate: ToolCallGate;
  let tracker: TaskTracker;
  const approvals: ResolvedToolCall[] = [];
  const records: ToolCallRecord[] = [];
  const ended: EndedTask[] = [];
  /** Every list the tracker showed, as it changed. */
  const snapshots: TaskSummary[][] = [];
  /** The elicitations the server sent, with the answer the test gives. */
  let answer: (request: ElicitationRequest) => Promise<ElicitationAnswer> = async () => ({ action: 'decline' });
  const asked: ElicitationRequest[] = [];

  before(async () => {
    const connector = new NodeServerConnector({
      clientVersion: '0.0.0-test',
      launchStdio: processLauncher(new ServerEnvironment({ loginShell: 'never' })),
      elicit: (request) => { asked.push(request); return answer(request); },
    });
    registry = new ServerRegistry({ connector, logFor: () => quietLog, settings: { shutdownGraceMs: 500 } });
    tracker = new TaskTracker(systemClock);
    tracker.onDidChange(() => snapshots.push(tracker.list()));
    tracker.onDidEnd((task) => ended.push(task));
    gate = new ToolCallGate({
      registry,
      decide: (call) => { approvals.push(call); return { kind: 'allow', decidedBy: { kind: 'person', answer: 'approve' }, verdict: 'ask', why: 'the test approved' }; },
      tasks: { tracker, mode: () => 'whenSupported' },
    });
    gate.onDidCall((record) => records.push(record));
    registry.reconcile([taskServer('builder')]);
    await registry.settled();
    await registry.catalogsLoaded();
    assert.equal(registry.get('builder')?.state.kind, 'ready');
  });

  after(async () => {
    gate.dispose();
    tracker.dispose();
    await registry.stopAll();
    registry.dispose();
  });

  beforeEach(() => {
    approvals.length = 0; records.length = 0; ended.length = 0; snapshots.length = 0; asked.length = 0;
  });

  it('a task with progress, input, cancel and a result', async () => {
    // 1. Progress, status messages and an input request mid-flight, then the result.
    let sawInputRequired = false;
    answer = async (request) => {
      // The question arrives while the task waits for it, and says which task asks.
      await waitFor('the task to show it needs input', () => tracker.list().some((task) => task.status === 'input_required'), 5000).catch(() => undefined);
      sawInputRequired = tracker.list().some((task) => task.status === 'input_required' && task.taskId === request.taskId);
      return { action: 'accept', content: { branch: 'release' } };
    };
    const progress: string[] = [];
    const { result, record } = await gate.call({
      serverId: 'builder', tool: 'build', arguments: { steps: 4, stepMs: 80, ask: true }, caller: 'test',
      onProgress: (p) => progress.push(`${p.progress}/${p.total}`),
    });
    assert.deepEqual(result.content, [{ type: 'text', text: 'built release in 4 steps' }]);
    assert.equal(approvals.length, 1, 'approved like any other call');
    assert.deepEqual(records, [record], 'recorded in the history once, when it ended');
    assert.match(record.taskId ?? '', /\S/, 'the record names the task');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].message, 'Which branch should be built?');
    assert.equal(asked[0].taskId, record.taskId, 'the input request names its task');
    assert.ok(sawInputRequired, 'the list showed the task waiting for input while the question was open');
    assert.deepEqual(progress, ['1/4', '2/4', '3/4', '4/4'], 'the progress of the call reached the caller');
    const messages = new Set(snapshots.flat().map((task) => task.statusMessage).filter((message) => message !== undefined));
    assert.ok(messages.has('building release: step 4 of 4') || messages.has('building release'), `status messages: ${[...messages].join(' | ')}`);
    assert.ok(snapshots.flat().some((task) => task.progress?.message === 'step 2 of 4'));
    const [done] = tracker.list();
    assert.deepEqual([done.tool, done.serverId, done.status, done.end?.kind], ['build', 'builder', 'completed', 'result']);
    assert.ok(done.elapsedMs >= 4 * 80, `elapsed ${done.elapsedMs} ms`);
    assert.deepEqual(ended.map((task) => task.delivered), [true]);

    // 2. Cancel: the task stops on the server, the call fails as cancelled, the history says so.
    const running = gate.call({ serverId: 'builder', tool: 'build', arguments: { steps: 200, stepMs: 50 }, caller: 'test' });
    running.catch(() => undefined);
    await waitFor('the task to report progress', () => tracker.list().some((task) => task.end === undefined && task.progress !== undefined), 5000);
    const live = tracker.list().find((task) => task.end === undefined)!;
    await tracker.cancel(live.id);
    await assert.rejects(running, (error: unknown) => error instanceof TaskCancelledError && /cancelled: Client cancelled task execution/.test(error.message));
    assert.equal(records.at(-1)?.outcome.kind, 'failed');
    assert.equal(records.at(-1)?.taskId, live.taskId);
    assert.equal(tracker.list()[0].status, 'cancelled');
    const progressAtCancel = tracker.list()[0].progress?.progress ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(tracker.list()[0].progress?.progress ?? 0, progressAtCancel, 'no progress after the cancel');
    assert.ok(progressAtCancel < 200);
  });

  it('a tool without task support is called plainly and never listed', async () => {
    const { result, record } = await gate.call({ serverId: 'builder', tool: 'quick', arguments: { text: 'hi' }, caller: 'test' });
    assert.deepEqual(result.content, [{ type: 'text', text: 'hi' }]);
    assert.equal(record.taskId, undefined);
    assert.deepEqual(snapshots, []);
  });

  it('a caller that stops waiting leaves the task running; its result is announced as not delivered', async () => {
    const turn = new AbortController();
    const call = gate.call({ serverId: 'builder', tool: 'build', arguments: { steps: 3, stepMs: 60 }, caller: 'chat', signal: turn.signal });
    await waitFor('the task to be listed', () => snapshots.length > 0, 5000);
    turn.abort();
    await assert.rejects(call, TaskDetachedError);
    await waitFor('the task to end', () => ended.length > 0, 10_000);
    assert.equal(ended[0].delivered, false);
    const end = ended[0].summary.end;
    assert.equal(end?.kind, 'result');
    assert.deepEqual(end.kind === 'result' ? end.result.content : undefined, [{ type: 'text', text: 'built main in 3 steps' }]);
    assert.equal(records.at(-1)?.outcome.kind, 'result', 'the history has the real outcome');
  });
});
