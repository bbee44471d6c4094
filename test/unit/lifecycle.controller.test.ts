import * as assert from 'node:assert/strict';
import type { EffectiveServer } from '../../src/core/config/types';
import { ConnectError, ConnectionClosedError, ServerNotRunningError, SignInRequiredError } from '../../src/core/lifecycle/errors';
import { ServerController, type CatalogChange, type SendToolCall, type ServerStateChange } from '../../src/core/lifecycle/serverController';
import { DEFAULT_LIFECYCLE_SETTINGS, type LifecycleSettings } from '../../src/core/lifecycle/settings';
import type { ServerState } from '../../src/core/lifecycle/state';
import { deferred, FakeClock, FakeConnection, FakeConnector, flush, makeServer, RecordingLog } from './helpers/lifecycle';

function setup(server: EffectiveServer = makeServer('s'), overrides: Partial<LifecycleSettings> = {}) {
  const clock = new FakeClock();
  const connector = new FakeConnector();
  const log = new RecordingLog();
  const settings: LifecycleSettings = { ...DEFAULT_LIFECYCLE_SETTINGS, ...overrides };
  let granted: SendToolCall | undefined;
  const controller = new ServerController({
    server, connector, log, clock, settings: () => settings, roots: () => [{ uri: 'file:///ws/app', name: 'app' }],
    grantToolCalls: (send) => { granted = send; },
  });
  assert.ok(granted, 'the controller grants its tool caller at construction');
  const callTool: SendToolCall = granted;
  const changes: ServerStateChange[] = [];
  const catalogChanges: CatalogChange[] = [];
  controller.onDidChangeState((change) => changes.push(change));
  controller.onDidChangeCatalog((change) => catalogChanges.push(change));
  const kinds = (): string[] => changes.map((change) => change.state.kind);
  return { clock, connector, log, settings, controller, callTool, changes, catalogChanges, kinds };
}

function expectKind<K extends ServerState['kind']>(state: ServerState, kind: K): Extract<ServerState, { kind: K }> {
  assert.equal(state.kind, kind);
  return state as Extract<ServerState, { kind: K }>;
}

describe('ServerController', () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => { cleanup?.(); cleanup = undefined; });

  describe('start and stop', () => {
    it('goes stopped → starting → ready and fires one event per change with the previous state', async () => {
      const { controller, changes, kinds, clock } = setup();
      cleanup = () => controller.dispose();
      assert.equal(controller.state.kind, 'stopped');
      const started = controller.start();
      assert.deepEqual(kinds(), ['starting']);
      await started;
      assert.deepEqual(kinds(), ['starting', 'ready']);
      assert.deepEqual(changes[0], { id: 's', state: { kind: 'starting', since: clock.now() }, previous: { kind: 'stopped' } });
      assert.equal(changes[1].previous.kind, 'starting');
      assert.deepEqual(controller.state, { kind: 'ready', since: clock.now(), startMs: 0 });
    });

    it('passes the settings, the roots and a live signal in the ConnectRequest', async () => {
      const server = makeServer('s', { timeout: 5000 });
      const { controller, connector, log } = setup(server, { shutdownGraceMs: 750, trace: true });
      cleanup = () => controller.dispose();
      await controller.start();
      const request = connector.requests[0];
      assert.equal(request.server, server);
      // The server's log, behind the log budget.
      request.log.stderr('from the server');
      assert.equal(log.lines.at(-1), 'stderr: from the server');
      assert.equal(request.startupTimeoutMs, 5000);
      assert.equal(request.shutdownGraceMs, 750);
      assert.equal(request.trace, true);
      assert.equal(request.signal.aborted, false);
      assert.deepEqual(request.roots(), [{ uri: 'file:///ws/app', name: 'app' }]);
    });

    it('a second start while starting joins the first and connects once', async () => {
      const { controller, connector } = setup();
      cleanup = () => controller.dispose();
      connector.plan('s', 'manual');
      const first = controller.start();
      const second = controller.start();
      await flush();
      assert.equal(connector.count('s'), 1);
      connector.attempt('s').resolve();
      await Promise.all([first, second]);
      assert.equal(controller.state.kind, 'ready');
      await controller.start();
      assert.equal(connector.count('s'), 1, 'start on a ready server does nothing');
    });

    it('a connector error fails the server with its message and the stderr tail it attached', async () => {
      const { controller, connector, log } = setup();
      cleanup = () => controller.dispose();
      connector.plan('s', new ConnectError('command not found: npx (PATH searched: /usr/bin)', ['line 1', 'line 2']));
      await controller.start();
      assert.deepEqual(controller.state, { kind: 'failed', error: 'command not found: npx (PATH searched: /usr/bin)', stderrTail: ['line 1', 'line 2'] });
      assert.ok(log.lines.includes('error: failed to start: command not found: npx (PATH searched: /usr/bin)'));
    });

    it('a failure whose stderr names a missing variable carries a hint saying which one to set and where (logged too)', async () => {
      const { controller, connector, log } = setup();
      cleanup = () => controller.dispose();
      connector.plan('s', new ConnectError('process exited with code 1 during startup', ['Error: BRAVE_API_KEY is not set', 'Usage: brave-search [options]']));
      await controller.start();
      const failed = expectKind(controller.state, 'failed');
      assert.equal(failed.hint, 'set BRAVE_API_KEY: add it to the "env" of "s" in /home/ada/.mcp.json (user scope), e.g. "BRAVE_API_KEY": "${input:s-BRAVE_API_KEY}" to be asked for it once (kept in the secret store)');
      assert.ok(log.lines.includes(`error: hint: ${failed.hint}`), log.lines.join('\n'));
    });

    it('stop closes the connection (staged), stopping meanwhile, disposes it and resolves once it is gone', async () => {
      const { controller, connector, kinds, log, clock } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      const connection = connector.last('s');
      const closing = deferred<void>();
      connection.close = () => { connection.closeCalls++; return closing.promise; };
      let stopped = false;
      const stop = controller.stop().then(() => { stopped = true; });
      assert.deepEqual(controller.state, { kind: 'stopping', since: clock.now() });
      assert.equal(connection.closeCalls, 1);
      await flush();
      assert.equal(stopped, false, 'stop waits for the staged close');
      assert.equal(controller.state.kind, 'stopping', 'stopping while the process goes');
      assert.ok(!log.lines.includes('info: stopped'), 'not "stopped" before it is');
      closing.resolve();
      await stop;
      assert.equal(controller.state.kind, 'stopped', 'stopped once stop() resolves');
      assert.equal(connection.disposed, true);
      assert.deepEqual(kinds(), ['starting', 'ready', 'stopping', 'stopped']);
      assert.ok(log.lines.includes('info: stopped'));
    });

    it('a second stop while stopping closes the connection again (which kills at once) and resolves with the first', async () => {
      const { controller, connector, kinds, log } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      const connection = connector.last('s');
      const closing = deferred<void>();
      // As the real connection does: the second close() ends the staged one at once.
      connection.close = () => { if (++connection.closeCalls === 2) closing.resolve(); return closing.promise; };
      const first = controller.stop();
      await flush();
      assert.equal(controller.state.kind, 'stopping');
      const second = controller.stop();
      assert.equal(connection.closeCalls, 2, 'the second stop closed the connection again');
      assert.ok(log.lines.includes('info: stop requested again while stopping: ending the process now'), log.text());
      await Promise.all([first, second]);
      assert.equal(controller.state.kind, 'stopped');
      assert.deepEqual(kinds(), ['starting', 'ready', 'stopping', 'stopped'], 'one stopping, one stopped');
    });

    it('a stop with nothing to close goes straight to stopped; a start while stopping waits for the old process', async () => {
      const { controller, connector, kinds } = setup();
      cleanup = () => controller.dispose();
      await controller.stop();
      assert.deepEqual(kinds(), []);
      await controller.start();
      const closing = deferred<void>();
      connector.last('s').close = () => closing.promise;
      void controller.stop();
      assert.equal(controller.state.kind, 'stopping');
      const started = controller.start();
      assert.equal(controller.state.kind as string, 'starting');
      await flush();
      assert.equal(connector.count('s'), 1, 'no second process while the first is still going');
      closing.resolve();
      await started;
      assert.equal(controller.state.kind as string, 'ready', 'the first stop does not overwrite the new start');
      assert.deepEqual(kinds(), ['starting', 'ready', 'stopping', 'starting', 'ready']);
    });

    it('parking and removing skip stopping: the state says why at once', async () => {
      const { controller, connector, kinds } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      const closing = deferred<void>();
      connector.last('s').close = () => closing.promise;
      const parked = controller.park('needsTrust');
      assert.equal(controller.state.kind, 'needsTrust');
      closing.resolve();
      await parked;
      await controller.start();
      await controller.retire();
      assert.deepEqual(kinds(), ['starting', 'ready', 'needsTrust', 'starting', 'ready', 'stopped']);
    });

    it('stop while starting aborts the connector signal, and a connection that arrives late is closed', async () => {
      const { controller, connector } = setup();
      cleanup = () => controller.dispose();
      connector.plan('s', 'manual');
      void controller.start();
      await flush();
      const attempt = connector.attempt('s');
      await controller.stop();
      assert.equal(attempt.request.signal.aborted, true);
      assert.equal(controller.state.kind, 'stopped');
      const late = attempt.resolve();
      await flush();
      assert.equal(late.closeCalls, 1);
      assert.equal(late.disposed, true);
      assert.equal(controller.state.kind, 'stopped');
    });

    it('restart goes ready → starting → ready on a new connection after closing the old one', async () => {
      const { controller, connector, kinds } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      const first = connector.last('s');
      await controller.restart();
      assert.deepEqual(kinds(), ['starting', 'ready', 'starting', 'ready']);
      assert.equal(first.closeCalls, 1);
      assert.notEqual(connector.last('s'), first);
    });

    it('logs a restart someone asked for as such, never as a crash or a failure', async () => {
      const { controller, log } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      const mark = log.lines.length;
      await controller.restart('requested: Restart All');
      const lines = log.lines.slice(mark);
      assert.equal(lines[0], 'info: restarting (requested: Restart All)');
      assert.deepEqual(lines.filter((line) => !line.startsWith('info: ')), [], lines.join('\n'));
      assert.ok(!lines.some((line) => /crash/i.test(line)), lines.join('\n'));
      assert.equal(controller.state.kind, 'ready');
    });

    it('restart waits for the old connection to close before connecting again', async () => {
      const { controller, connector } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      const closing = deferred<void>();
      connector.last('s').close = () => closing.promise;
      const restarted = controller.restart();
      await flush();
      assert.equal(connector.count('s'), 1, 'no second process while the first is still closing');
      closing.resolve();
      await restarted;
      assert.equal(connector.count('s'), 2);
      assert.equal(controller.state.kind, 'ready');
    });

    it('asks a server that declared logging for the configured level, and not one that did not', async () => {
      const { controller, connector } = setup(makeServer('s'), { logLevel: 'warning' });
      cleanup = () => controller.dispose();
      await controller.start();
      assert.deepEqual(connector.last('s').logLevels, ['warning']);
      connector.setup = (connection) => { connection.supports = { ...connection.supports, logging: false }; };
      await controller.restart();
      assert.deepEqual(connector.last('s').logLevels, []);
    });

    it('dispose stops the server and closes the connection', async () => {
      const { controller, connector, kinds } = setup();
      await controller.start();
      controller.dispose();
      await flush();
      assert.equal(connector.last('s').closeCalls, 1);
      assert.deepEqual(kinds(), ['starting', 'ready', 'stopped']);
      await controller.start();
      assert.equal(connector.count('s'), 1, 'a disposed controller never starts again');
    });
  });

  describe('startup timeout', () => {
    it('fails after 30 s by default, aborts the connector and keeps the stderr tail it rejects with', async () => {
      const { controller, connector, clock, log } = setup();
      cleanup = () => controller.dispose();
      connector.plan('s', (request) => new Promise((_resolve, reject) => {
        request.signal.addEventListener('abort', () => reject(new ConnectError('aborted', ['listening on stdio?'])));
      }));
      const started = controller.start();
      await clock.tick(29_999);
      assert.equal(controller.state.kind, 'starting');
      await clock.tick(1);
      await started;
      assert.equal(connector.requests[0].signal.aborted, true);
      assert.deepEqual(controller.state, { kind: 'failed', error: 'did not answer initialize within 30 s', stderrTail: ['listening on stdio?'] });
      assert.ok(log.lines.includes('error: failed to start: did not answer initialize within 30 s'));
    });

    it('uses the server\'s own timeout and formats it', async () => {
      const { controller, connector, clock } = setup(makeServer('s', { timeout: 1500 }));
      cleanup = () => controller.dispose();
      connector.plan('s', 'manual');
      const started = controller.start();
      await clock.tick(1500);
      // The connector ignores the abort: the grace period ends the wait.
      assert.equal(controller.state.kind, 'starting');
      await clock.tick(DEFAULT_LIFECYCLE_SETTINGS.shutdownGraceMs);
      await started;
      assert.deepEqual(controller.state, { kind: 'failed', error: 'did not answer initialize within 1.5 s', stderrTail: [] });
      const late = connector.attempt('s').resolve();
      await flush();
      assert.equal(late.closeCalls, 1, 'a connection that arrives after the timeout is closed');
    });
  });

  describe('crash and automatic restart', () => {
    it('crash → crashed {exitCode, signal, error, stderrTail} → restarting → ready after 1 s', async () => {
      const { controller, connector, clock, kinds, log } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      connector.last('s').crash({ exitCode: 3, signal: null, reason: 'process exited with code 3', stderrTail: ['panic'] });
      assert.deepEqual(controller.state, { kind: 'restarting', attempt: 1, at: clock.now() + 1000, reason: 'process exited with code 3' });
      assert.deepEqual(kinds(), ['starting', 'ready', 'crashed', 'restarting']);
      assert.ok(log.lines.includes('error: crashed: process exited with code 3'));
      assert.ok(log.lines.includes('info: restarting in 1 s (attempt 1 of 5)'));
      await clock.tick(999);
      assert.equal(connector.count('s'), 1);
      await clock.tick(1);
      assert.equal(connector.count('s'), 2);
      assert.equal(controller.state.kind, 'ready');
    });

    it('records the crash details in the crashed state', async () => {
      const { controller, connector, changes } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      connector.last('s').crash({ exitCode: null, signal: 'SIGSEGV', reason: 'process killed by SIGSEGV', stderrTail: ['a', 'b'] });
      const crashed = changes.find((change) => change.state.kind === 'crashed');
      assert.deepEqual(crashed?.state, { kind: 'crashed', exitCode: null, signal: 'SIGSEGV', error: 'process killed by SIGSEGV', stderrTail: ['a', 'b'] });
    });

    it('backs off 1 s, 2 s, 4 s, 8 s, 16 s and gives up on the next crash within 5 minutes', async () => {
      const { controller, connector, clock } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      const delays: number[] = [];
      for (let attempt = 1; attempt <= 5; attempt++) {
        connector.last('s').crash({ reason: `exit ${attempt}` });
        const state = expectKind(controller.state, 'restarting');
        assert.equal(state.attempt, attempt);
        delays.push(state.at - clock.now());
        await clock.tick(state.at - clock.now());
        assert.equal(controller.state.kind, 'ready');
      }
      assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16000]);
      connector.last('s').crash({ reason: 'exit 6', stderrTail: ['last words'] });
      assert.deepEqual(controller.state, {
        kind: 'failed',
        error: 'crashed 6 times in 5 minutes; not restarting (last: exit 6)',
        stderrTail: ['last words'],
      });
      assert.deepEqual(clock.pending(), [], 'no restart is scheduled');
      assert.equal(connector.count('s'), 6);
    });

    it('the window slides: crashes more than 5 minutes apart keep restarting with a short delay', async () => {
      const { controller, connector, clock } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      for (let i = 0; i < 8; i++) {
        connector.last('s').crash();
        const state = expectKind(controller.state, 'restarting');
        assert.equal(state.attempt, 1);
        await clock.tick(1000);
        assert.equal(controller.state.kind, 'ready');
        await clock.tick(300_000);
      }
    });

    it('uses the injected base delay and budget', async () => {
      const { controller, connector, clock } = setup(makeServer('s'), { restartBaseMs: 10, maxRestarts: 1 });
      cleanup = () => controller.dispose();
      await controller.start();
      connector.last('s').crash();
      assert.equal(expectKind(controller.state, 'restarting').at - clock.now(), 10);
      await clock.tick(10);
      connector.last('s').crash({ reason: 'again' });
      assert.equal(expectKind(controller.state, 'failed').error, 'crashed 2 times in 5 minutes; not restarting (last: again)');
    });

    it('a restart that fails to start counts as a try and backs off again', async () => {
      const { controller, connector, clock, kinds } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      connector.plan('s', new Error('connection refused'));
      connector.last('s').crash();
      await clock.tick(1000);
      assert.deepEqual(controller.state, { kind: 'restarting', attempt: 2, at: clock.now() + 2000, reason: 'connection refused' });
      assert.deepEqual(kinds().slice(-4), ['crashed', 'restarting', 'starting', 'restarting']);
      await clock.tick(2000);
      assert.equal(controller.state.kind, 'ready');
    });

    it('stop cancels a pending restart', async () => {
      const { controller, connector, clock } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      connector.last('s').crash();
      assert.equal(controller.state.kind, 'restarting');
      await controller.stop();
      assert.equal(controller.state.kind, 'stopped');
      assert.deepEqual(clock.pending(), []);
      await clock.tick(60_000);
      assert.equal(connector.count('s'), 1);
    });

    it('a manual start while restarting starts at once and resets the budget', async () => {
      const { controller, connector, clock } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      for (let i = 0; i < 4; i++) {
        connector.last('s').crash();
        await clock.tick(expectKind(controller.state, 'restarting').at - clock.now());
      }
      connector.last('s').crash();
      assert.equal(expectKind(controller.state, 'restarting').attempt, 5);
      await controller.start();
      assert.equal(controller.state.kind, 'ready');
      assert.deepEqual(clock.pending(), [], 'the pending restart was cancelled');
      connector.last('s').crash();
      assert.equal(expectKind(controller.state, 'restarting').attempt, 1, 'the budget starts over');
    });

    it('a manual restart resets the budget too', async () => {
      const { controller, connector, clock } = setup(makeServer('s'), { maxRestarts: 1 });
      cleanup = () => controller.dispose();
      await controller.start();
      connector.last('s').crash();
      await clock.tick(1000);
      await controller.restart();
      connector.last('s').crash();
      assert.equal(expectKind(controller.state, 'restarting').attempt, 1);
    });

    it('empties the catalog when the connection ends and says which kinds changed', async () => {
      const { controller, connector, catalogChanges } = setup();
      cleanup = () => controller.dispose();
      connector.setup = (connection) => connection.setPages('tools', [[{ name: 't', inputSchema: {} }]]);
      await controller.start();
      await controller.whenCatalogLoaded();
      assert.deepEqual(controller.catalog.tools.map((tool) => tool.name), ['t']);
      catalogChanges.length = 0;
      connector.last('s').crash();
      assert.deepEqual(controller.catalog.tools, []);
      assert.deepEqual(catalogChanges, [{ id: 's', kind: 'tools' }]);
    });
  });

  describe('requests', () => {
    it('a call to a server that is not ready rejects at once, naming the state', async () => {
      const { controller, connector, callTool } = setup();
      cleanup = () => controller.dispose();
      await assert.rejects(callTool('echo', {}), (error: unknown) =>
        error instanceof ServerNotRunningError && error.message === 'server s is not running (state: stopped)');
      connector.plan('s', 'manual');
      void controller.start();
      await assert.rejects(controller.readResource('file:///x'), { message: 'server s is not running (state: starting…)' });
      await assert.rejects(controller.getPrompt('p', {}), { message: 'server s is not running (state: starting…)' });
    });

    it('forwards calls with the default request timeout, or the one given, plus signal and progress', async () => {
      const { controller, connector, callTool } = setup(makeServer('s'), { requestTimeoutMs: 120_000 });
      cleanup = () => controller.dispose();
      await controller.start();
      const result = await callTool('echo', { text: 'hi' });
      assert.deepEqual(result, { content: [{ type: 'text', text: 'called echo' }] });
      const abort = new AbortController();
      const onProgress = (): void => undefined;
      await callTool('echo', {}, { timeoutMs: 5, signal: abort.signal, onProgress });
      const [first, second] = connector.last('s').calls;
      assert.deepEqual(first.args, { text: 'hi' });
      assert.equal(first.options.timeoutMs, 120_000);
      assert.equal(second.options.timeoutMs, 5);
      assert.equal(second.options.signal, abort.signal);
      assert.equal(second.options.onProgress, onProgress);
    });

    it('forwards readResource and getPrompt', async () => {
      const { controller } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      assert.deepEqual(await controller.readResource('file:///a'), { contents: [{ uri: 'file:///a', text: 'content' }] });
      const prompt = await controller.getPrompt('greet', { who: 'ada' });
      assert.equal(prompt.messages.length, 1);
    });

    it('an in-flight call rejects at once on a crash, even if the connection left it hanging', async () => {
      const { controller, connector, callTool } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      const connection = connector.last('s');
      connection.rejectInFlightOnClose = false;
      connection.answer = () => 'hang';
      const call = callTool('slow', {});
      let settled = false;
      call.catch(() => undefined).finally(() => { settled = true; });
      await flush();
      assert.equal(settled, false);
      connection.crash({ reason: 'process exited with code 137', stderrTail: [] });
      await assert.rejects(call, { message: 'server s closed the connection: process exited with code 137' });
    });

    it('a crash fails the in-flight call once, with the core\'s reason and the last stderr line, not the transport\'s "Connection closed"', async () => {
      const { controller, connector, callTool } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      const connection = connector.last('s');
      connection.answer = () => 'hang';
      const call = callTool('slow', {});
      await flush();
      connection.crash({ reason: 'process exited with code 7', stderrTail: ['Error: Cannot find module x', '', 'Node.js v20.11.1'] });
      await assert.rejects(call, (error: unknown) => {
        assert.ok(error instanceof ConnectionClosedError);
        assert.equal(error.serverId, 's');
        assert.equal(error.reason, 'process exited with code 7');
        assert.equal(error.message, 'server s closed the connection: process exited with code 7 (last stderr line: Error: Cannot find module x)');
        return true;
      });
    });

    it('an in-flight call rejects when the server is stopped', async () => {
      const { controller, connector, callTool } = setup();
      cleanup = () => controller.dispose();
      await controller.start();
      const connection = connector.last('s');
      connection.rejectInFlightOnClose = false;
      connection.answer = () => 'hang';
      const call = callTool('slow', {});
      void controller.stop();
      await assert.rejects(call, /server s closed the connection/);
    });
  });

  describe('secrets', () => {
    it('scrubs env and header values from states and log lines', async () => {
      const server = makeServer('s', {}, { args: ['--token=sk-live-123456'], env: { API_KEY: 'sk-live-123456' } });
      const { controller, connector, log, changes } = setup(server);
      cleanup = () => controller.dispose();
      connector.plan('s', new ConnectError('auth failed for sk-live-123456', ['using key sk-live-123456']));
      await controller.start();
      assert.deepEqual(controller.state, { kind: 'failed', error: 'auth failed for ***', stderrTail: ['using key ***'] });
      await controller.start();
      connector.last('s').crash({ reason: 'exit: bad key sk-live-123456', stderrTail: ['sk-live-123456'] });
      const everything = JSON.stringify(changes) + log.text();
      assert.ok(!everything.includes('sk-live-123456'), everything);
      assert.ok(log.lines.includes('info: starting (stdio): API_KEY=*** run-s --token=***'));
    });
  });

  it('rejects a connector that throws synchronously as a start failure', async () => {
    const { controller, connector } = setup();
    cleanup = () => controller.dispose();
    connector.plan('s', () => { throw new Error('spawn EACCES'); });
    await controller.start();
    assert.equal(expectKind(controller.state, 'failed').error, 'spawn EACCES');
  });

  it('parks a server whose connector needs a sign-in in needsSignIn, without restarting it, and Start tries again', async () => {
    const { controller, connector, clock, log } = setup();
    cleanup = () => controller.dispose();
    connector.plan('s', () => Promise.reject(new SignInRequiredError('https://mcp.example/mcp needs you to sign in')));
    await controller.start();
    assert.deepEqual(controller.state, { kind: 'needsSignIn', reason: 'https://mcp.example/mcp needs you to sign in' });
    assert.ok(log.lines.includes('warn: needs sign-in: https://mcp.example/mcp needs you to sign in'));
    clock.advance(10 * 60_000);
    await flush();
    assert.equal(connector.requests.length, 1, 'no automatic restart: only a sign-in changes the answer');
    await controller.start();
    assert.equal(controller.state.kind, 'ready');
    assert.equal(connector.requests.length, 2);
  });

  it('parks a ready server in needsSignIn when a call is refused for lack of a sign-in, and closes its connection', async () => {
    const { controller, connector, callTool } = setup();
    cleanup = () => controller.dispose();
    await controller.start();
    const connection = connector.connections.get('s')![0];
    connection.answer = () => Promise.reject(new SignInRequiredError('https://mcp.example/mcp needs you to sign in (scope: admin)'));
    await assert.rejects(callTool('anything', {}), SignInRequiredError);
    await flush();
    assert.deepEqual(controller.state, { kind: 'needsSignIn', reason: 'https://mcp.example/mcp needs you to sign in (scope: admin)' });
    assert.equal(connection.closeCalls, 1, 'the refused connection is closed');
    await assert.rejects(callTool('anything', {}), ServerNotRunningError);
    // An ordinary failure of a call leaves a ready server ready.
    await controller.start();
    connector.connections.get('s')![1].answer = () => Promise.reject(new Error('tool failed'));
    await assert.rejects(callTool('anything', {}), /tool failed/);
    await flush();
    assert.equal(controller.state.kind, 'ready');
  });

  it('keeps working when a state listener throws', async () => {
    const { controller, log } = setup();
    cleanup = () => controller.dispose();
    controller.onDidChangeState(() => { throw new Error('listener bug'); });
    await controller.start();
    assert.equal(controller.state.kind, 'ready');
    assert.ok(log.lines.some((line) => line.includes('a state listener failed: listener bug')));
  });

  it('ignores the close of a connection it already replaced', async () => {
    const { controller, connector } = setup();
    cleanup = () => controller.dispose();
    await controller.start();
    const old: FakeConnection = connector.last('s');
    await controller.restart();
    old.crash();
    assert.equal(controller.state.kind, 'ready');
  });
});
