// The issue's fault list at the registry level, with real processes: a ServerRegistry over the
// NodeServerConnector runs a healthy server (ok.mjs) next to each faulty fixture of test/fixtures/servers.
// For each fault the state and its message are asserted, the healthy server keeps its process and keeps
// answering, every wait is bounded, and no process is left: each process gets a marker on its command
// line, and after every test the process table is searched for it (anything found fails the test and
// is killed).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolCallGate } from '../../src/core/calls';
import { fingerprint, mergeLayers, parseLayer, type EffectiveServer, type LaunchDefinition, type Scope } from '../../src/core/config';
import {
  ServerRegistry, startupSummaryLine, type CallToolResult, type LifecycleSettings, type McpLogLevel, type ServerLog, type ServerState,
} from '../../src/core/lifecycle';
import { NodeServerConnector, processLauncher, type StdioLauncher } from '../../src/node/connector';
import { ServerEnvironment } from '../../src/node/process/environment';
import type { ProcessTransport } from '../../src/node/process/processTransport';
import { FIXTURE_SERVERS, HelperServers, isAlive } from './helperServers';
import { REPO_ROOT, TempDirs, delay } from './support';

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const GRACE_MS = 100;
const STARTUP_TIMEOUT_MS = 2000;
const RESTART_BASE_MS = 50;
const MAX_RESTARTS = 3;
const SETTINGS: Partial<LifecycleSettings> = {
  startupTimeoutMs: STARTUP_TIMEOUT_MS,
  shutdownGraceMs: GRACE_MS,
  restartBaseMs: RESTART_BASE_MS,
  maxRestarts: MAX_RESTARTS,
  restartWindowMs: 60_000,
  requestTimeoutMs: 10_000,
};
/**
 * The startup timeout of every server but the hanging ones (which use the registry's 2 s): on a loaded
 * machine `sh` + node + the SDK can take more than 2 s, and that is not the fault under test.
 */
const SERVER_TIMEOUT_MS = 20_000;
/** How long a fixture may take to reach ready, with room for a loaded machine. */
const READY_MS = 10_000;
/** Extra time allowed on top of a computed duration, for a loaded machine. */
const SLACK_MS = 400;

// ── the process table ───────────────────────────────────────────────────────────────────────────────

interface MarkedProcess {
  pid: number;
  command: string;
}

/** Live (not zombie) processes whose command line contains `marker`: /proc on Linux, `ps` elsewhere. */
function processesWith(marker: string): MarkedProcess[] {
  if (fs.existsSync('/proc/self/cmdline')) {
    const found: MarkedProcess[] = [];
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
        if (!command.includes(marker)) continue;
        if (!running(Number(entry))) continue;
        found.push({ pid: Number(entry), command });
      } catch {
        // exited while we looked
      }
    }
    return found;
  }
  const table = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return table.split('\n')
    .filter((line) => line.includes(marker) && !/^\s*\d+\s+Z/.test(line))
    .map((line) => ({ pid: Number(line.trim().split(/\s+/)[0]), command: line.trim() }));
}

/** Whether `pid` runs (a zombie, e.g. an orphan that no init reaps, does not). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && fs.existsSync('/proc/self/stat')) return false;
    return isAlive(pid);
  }
}

function killAll(processes: MarkedProcess[]): void {
  for (const { pid } of processes) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }
}

// ── servers ─────────────────────────────────────────────────────────────────────────────────────────

/** Unique to this run; a test's marker adds its number, a server's marker its id. */
const RUN = `sbfaults${process.pid}x${Math.random().toString(36).slice(2, 8)}`;
let testCount = 0;
let testMarker = '';
/** The marker of one server of the current test; the dots keep `t1.` from matching `t12.`. */
const markerOf = (id: string) => `${testMarker}${id}.`;

function makeServer(id: string, launch: Partial<LaunchDefinition> & Pick<LaunchDefinition, 'type'>, scope: Scope = 'user'): EffectiveServer {
  const full: LaunchDefinition = { args: [], env: {}, headers: {}, ...launch };
  return {
    name: id,
    id,
    scope,
    timeout: SERVER_TIMEOUT_MS,
    launch: full,
    disabled: false,
    alwaysLoad: false,
    needsInput: [],
    source: { file: 'faults.mcp.json', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
    fingerprint: fingerprint(full),
    needsTrust: scope === 'project',
  };
}

/** A fixture of test/fixtures/servers run by node, with the server's marker as its argument. */
function fixture(id: string, file: string, scope: Scope = 'user'): EffectiveServer {
  return makeServer(id, { type: 'stdio', command: process.execPath, args: [path.join(FIXTURE_SERVERS, file), markerOf(id)], cwd: REPO_ROOT }, scope);
}

/** never-initialize.mjs, under the registry's startup timeout (2 s). */
function hanging(id: string): EffectiveServer {
  const { timeout: _ignored, ...server } = fixture(id, 'never-initialize.mjs');
  return server;
}

/**
 * grandchild.mjs behind `sh -c`: three generations (sh → node server → its long-lived node child), all
 * with the marker on their command line. Two commands, so the shell cannot exec the server in its place.
 */
function shellWrapped(id: string): EffectiveServer {
  const script = '"$0" "$1" "$2"; echo "shell: server exited with $?" >&2';
  return makeServer(id, { type: 'stdio', command: 'sh', args: ['-c', script, process.execPath, path.join(FIXTURE_SERVERS, 'grandchild.mjs'), markerOf(id)], cwd: REPO_ROOT });
}

// ── the harness ─────────────────────────────────────────────────────────────────────────────────────

class RecordingLog implements ServerLog {
  readonly lines: { kind: 'info' | 'warn' | 'error' | 'stderr'; text: string }[] = [];
  info(text: string): void { this.lines.push({ kind: 'info', text }); }
  warn(text: string): void { this.lines.push({ kind: 'warn', text }); }
  error(text: string): void { this.lines.push({ kind: 'error', text }); }
  stderr(text: string): void { this.lines.push({ kind: 'stderr', text }); }
  serverMessage(_level: McpLogLevel, _logger: string | undefined, _data: unknown): void { /* not asserted here */ }
  trace(_direction: 'send' | 'receive', _message: unknown): void { /* not asserted here */ }
  texts(kind: 'info' | 'warn' | 'error' | 'stderr'): string[] { return this.lines.filter((l) => l.kind === kind).map((l) => l.text); }
  has(kind: 'info' | 'warn' | 'error' | 'stderr', pattern: RegExp): boolean { return this.texts(kind).some((text) => pattern.test(text)); }
  dump(): string { return this.lines.map((l) => `  ${l.kind}: ${l.text}`).join('\n'); }
}

interface Change {
  id: string;
  state: ServerState;
  /** Date.now() when the change was announced. */
  at: number;
}

/** One registry over the real connector, recording every state change and every spawned process. */
class Harness {
  readonly registry: ServerRegistry;
  /** Every tool call goes through the gate, as in the extension. */
  readonly calls: ToolCallGate;
  readonly connector: NodeServerConnector;
  readonly changes: Change[] = [];
  private readonly logs = new Map<string, RecordingLog>();
  private readonly transports = new Map<string, ProcessTransport[]>();
  private closed: Promise<void> | undefined;

  constructor(settings: Partial<LifecycleSettings> = {}) {
    // The login shell is never asked: it would only cost time (the test's PATH is complete).
    const launch = processLauncher(new ServerEnvironment({ loginShell: 'never' }));
    const recording: StdioLauncher = async (request) => {
      const launched = await launch(request);
      const list = this.transports.get(request.server.id) ?? [];
      list.push(launched.transport as ProcessTransport);
      this.transports.set(request.server.id, list);
      return launched;
    };
    this.connector = new NodeServerConnector({ clientVersion: VERSION, launchStdio: recording });
    this.registry = new ServerRegistry({
      connector: this.connector,
      settings: { ...SETTINGS, ...settings },
      logFor: (server) => {
        const log = new RecordingLog();
        this.logs.set(server.id, log);
        return log;
      },
    });
    this.calls = new ToolCallGate({ registry: this.registry });
    this.registry.onDidChangeState(({ id, state }) => this.changes.push({ id, state, at: Date.now() }));
  }

  /** Calls a tool through the gate. */
  callTool(serverId: string, tool: string, args: Record<string, unknown>, options: { timeoutMs?: number } = {}): Promise<CallToolResult> {
    return this.calls.call({ serverId, tool, arguments: args, caller: 'test', ...options }).then(({ result }) => result);
  }

  log(id: string): RecordingLog {
    const log = this.logs.get(id);
    assert.ok(log, `no log for ${id}`);
    return log;
  }

  state(id: string): ServerState {
    const view = this.registry.get(id);
    assert.ok(view, `no server ${id}`);
    return view.state;
  }

  states(): Record<string, string> {
    return Object.fromEntries(this.registry.list().map((view) => [view.id, view.state.kind]));
  }

  /** The state kinds `id` went through, from change number `from` on. */
  history(id: string, from = 0): string[] {
    return this.changes.slice(from).filter((change) => change.id === id).map((change) => change.state.kind);
  }

  /** Every process spawned for `id`, oldest first. */
  pids(id: string): number[] {
    return (this.transports.get(id) ?? []).map((transport) => transport.pid).filter((pid): pid is number => pid !== undefined);
  }

  /** The process spawned last for `id`. */
  pid(id: string): number {
    const pids = this.pids(id);
    assert.ok(pids.length > 0, `no process was spawned for ${id}`);
    return pids[pids.length - 1];
  }

  /** The first change of `id` to `kind` at or after change number `from`; fails after `timeoutMs`. */
  async waitFor(id: string, kind: ServerState['kind'], timeoutMs: number, from = 0): Promise<Change> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.changes.slice(from).find((change) => change.id === id && change.state.kind === kind);
      if (found) return found;
      if (Date.now() > deadline) {
        assert.fail(`timed out after ${timeoutMs} ms waiting for ${id} to be ${kind} (went: ${this.history(id, from).join(' → ') || 'nowhere'})\n${this.logs.get(id)?.dump() ?? ''}`);
      }
      await delay(5);
    }
  }

  async echo(id: string, text: string): Promise<string> {
    return textOf(await this.callTool(id, 'echo', { text }, { timeoutMs: 5000 }));
  }

  /** The healthy server is still ready, on the process it started with, and answers. */
  async assertHealthy(id: string, pid: number): Promise<void> {
    assert.equal(this.state(id).kind, 'ready', `${id} is ${this.state(id).kind}`);
    assert.deepEqual(this.history(id), ['starting', 'ready'], `${id} was never restarted`);
    assert.deepEqual(this.pids(id), [pid], `${id} kept its process`);
    assert.equal(running(pid), true);
    const text = `still here ${Date.now()}`;
    assert.equal(await this.echo(id, text), text);
  }

  /** stopAll(), then the connector's dispose() (a start cut short may still be stopping), then dispose(). */
  close(): Promise<void> {
    this.closed ??= (async () => {
      try {
        await this.registry.stopAll();
        await this.connector.dispose();
      } finally {
        this.registry.dispose();
      }
    })();
    return this.closed;
  }
}

function textOf(result: { content: { type: string }[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? '').join('');
}

/** How long `work` took and how it ended (never rejects). */
async function timed<T>(work: Promise<T>): Promise<{ ms: number; value?: T; error?: Error }> {
  const start = Date.now();
  try {
    const value = await work;
    return { ms: Date.now() - start, value };
  } catch (error) {
    return { ms: Date.now() - start, error: error as Error };
  }
}

/** `work`, or a failure naming `what` once `ms` have passed. */
async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms); });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls until no live process carries `marker`; fails (listing them) after `timeoutMs`. */
async function noProcessWith(marker: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let left = processesWith(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await delay(10);
    left = processesWith(marker);
  }
  assert.deepEqual(left, [], `processes with ${marker} still running after ${timeoutMs} ms`);
}

// ── the tests ───────────────────────────────────────────────────────────────────────────────────────

// POSIX only: process groups, `sh -c` and SIGTERM are what is tested.
(process.platform === 'win32' ? describe.skip : describe)('Faults at the registry level (real processes)', function () {
  this.timeout(15_000);
  const temp = new TempDirs();
  const helpers = new HelperServers();
  let harness: Harness | undefined;

  function setup(settings: Partial<LifecycleSettings> = {}): Harness {
    harness = new Harness(settings);
    return harness;
  }

  beforeEach(() => {
    testMarker = `${RUN}.t${++testCount}.`;
  });

  afterEach(async function () {
    this.timeout(15_000);
    const current = harness;
    harness = undefined;
    let closeError: unknown;
    if (current) await within(current.close(), 10_000, 'stopAll() + connector.dispose()').catch((error: unknown) => { closeError = error; });
    temp.cleanup();
    // stopAll() resolves once every process group is gone: nothing may be left, not even for a moment.
    const left = processesWith(testMarker);
    if (left.length > 0) killAll(left);
    if (closeError) throw closeError;
    assert.deepEqual(left, [], 'processes left running after stopAll() and connector.dispose()');
  });

  after(async () => {
    await helpers.stopAll();
    for (const pid of helpers.pids) assert.equal(isAlive(pid), false, `helper server ${pid} is still running`);
  });

  it('holds every fault next to a healthy server: each lands in its own state, the healthy one keeps its process', async () => {
    const h = setup();
    h.registry.reconcile([
      fixture('ok', 'ok.mjs'),
      fixture('exit', 'exit-at-start.mjs'),
      hanging('hang'),
      fixture('crash', 'crash-mid-call.mjs'),
      fixture('garbage', 'garbage-stdout.mjs'),
      fixture('huge', 'huge-line.mjs'),
      fixture('stubborn', 'ignore-sigterm.mjs'),
      shellWrapped('shell'),
    ]);
    const summary = await within(h.registry.settled(), READY_MS, 'settled()');
    assert.deepEqual(summary, {
      ready: ['ok', 'crash', 'garbage', 'huge', 'stubborn', 'shell'],
      failed: [
        { id: 'exit', error: 'process exited with code 3 during startup' },
        { id: 'hang', error: 'did not answer initialize within 2 s' },
      ],
      needsTrust: [],
      needsSignIn: [],
      disabled: [],
      stopped: [],
    });
    assert.equal(startupSummaryLine(summary),
      'MCP servers: 6 ready · 2 failed (exit: process exited with code 3 during startup; hang: did not answer initialize within 2 s)');
    const okPid = h.pid('ok');
    await h.assertHealthy('ok', okPid);
    // The failed ones left nothing behind (the hang's process is stopped in the background).
    await noProcessWith(markerOf('exit'), 1000);
    await noProcessWith(markerOf('hang'), 1000);

    let from = h.changes.length;
    await assert.rejects(h.callTool('crash', 'crash', {}), /process exited with code 7/);
    await h.waitFor('crash', 'ready', READY_MS, from);
    await h.assertHealthy('ok', okPid);

    from = h.changes.length;
    await assert.rejects(h.callTool('huge', 'huge', {}), /server wrote more than 10 MB on one stdout line/);
    await h.waitFor('huge', 'ready', READY_MS, from);
    await h.assertHealthy('ok', okPid);

    assert.equal(await h.echo('garbage', 'through the noise'), 'through the noise');
    await h.assertHealthy('ok', okPid);

    await h.registry.stop('stubborn');
    await h.registry.stop('shell');
    assert.deepEqual(processesWith(markerOf('stubborn')), []);
    assert.deepEqual(processesWith(markerOf('shell')), []);
    await h.assertHealthy('ok', okPid);
    assert.deepEqual(h.states(), { ok: 'ready', exit: 'failed', hang: 'failed', crash: 'ready', garbage: 'ready', huge: 'ready', stubborn: 'stopped', shell: 'stopped' });
  }).timeout(30_000);

  it('starts servers in parallel: one that never answers initialize delays nobody, and fails after the startup timeout', async () => {
    const h = setup();
    const started = Date.now();
    h.registry.reconcile([hanging('hang'), fixture('ok', 'ok.mjs')]);
    assert.deepEqual(h.states(), { hang: 'starting', ok: 'starting' }, 'reconcile() returns without waiting');

    // Started one after the other, ok would wait for the hang's 2 s timeout (typically it is ready in 0.3 s).
    const ready = await h.waitFor('ok', 'ready', STARTUP_TIMEOUT_MS);
    assert.ok(ready.at - started < 0.8 * STARTUP_TIMEOUT_MS, `ok took ${ready.at - started} ms to be ready`);
    assert.equal(h.state('hang').kind, 'starting');
    assert.equal(await h.echo('ok', 'while the other one hangs'), 'while the other one hangs');
    assert.equal(h.state('hang').kind, 'starting');

    const failed = await h.waitFor('hang', 'failed', STARTUP_TIMEOUT_MS + 2000);
    const took = failed.at - started;
    assert.ok(took >= STARTUP_TIMEOUT_MS - 5 && took < STARTUP_TIMEOUT_MS + GRACE_MS + SLACK_MS, `failed after ${took} ms`);
    assert.deepEqual(failed.state, {
      kind: 'failed',
      error: 'did not answer initialize within 2 s',
      stderrTail: ['never-initialize: listening, will never answer'],
    });
    assert.ok(h.log('hang').has('error', /^failed to start: did not answer initialize within 2 s$/), h.log('hang').dump());
    // A failed start is not retried by itself.
    await delay(RESTART_BASE_MS * 4);
    assert.deepEqual(h.history('hang'), ['starting', 'failed']);
    assert.equal(h.pids('hang').length, 1);
    // Its process is stopped in the background: stdin closed, and it ends.
    await noProcessWith(markerOf('hang'), 3 * GRACE_MS + SLACK_MS);
    await h.assertHealthy('ok', h.pid('ok'));
  }).timeout(20_000);

  it('exit-at-start: started once more with initialize (it may have exited on the probe), then failed with the exit code and the stderr tail, not retried; the others are unaffected', async () => {
    const h = setup();
    h.registry.reconcile([fixture('ok', 'ok.mjs'), fixture('exit', 'exit-at-start.mjs')]);
    const failed = await h.waitFor('exit', 'failed', READY_MS);
    assert.deepEqual(failed.state, { kind: 'failed', error: 'process exited with code 3 during startup', stderrTail: ['fatal: config missing'] });
    assert.ok(h.log('exit').has('error', /^failed to start: process exited with code 3 during startup$/), h.log('exit').dump());
    assert.deepEqual(h.log('exit').texts('stderr'), ['fatal: config missing', 'fatal: config missing'], 'one line from each of its two starts');
    await h.waitFor('ok', 'ready', READY_MS);
    const summary = h.registry.summary();
    assert.deepEqual(summary.failed, [{ id: 'exit', error: 'process exited with code 3 during startup' }]);
    assert.match(startupSummaryLine(summary), /1 failed \(exit: process exited with code 3 during startup\)/);

    await delay(RESTART_BASE_MS * 4);
    assert.deepEqual(h.history('exit'), ['starting', 'failed'], 'a server that fails to start is not restarted by itself');
    assert.equal(h.pids('exit').length, 2, 'the start that probed and the one with initialize');
    assert.deepEqual(processesWith(markerOf('exit')), []);

    // An explicit start tries again, and fails the same way.
    await within(h.registry.start('exit'), READY_MS, 'start(exit)');
    assert.deepEqual(h.state('exit'), failed.state);
    assert.equal(h.pids('exit').length, 4, 'two more: nothing was remembered of a server that failed with initialize too');
    await h.assertHealthy('ok', h.pid('ok'));
  }).timeout(20_000);

  it('crash-mid-call: the call fails at once, the server restarts with backoff, and is left failed after maxRestarts', async () => {
    const h = setup();
    h.registry.reconcile([fixture('ok', 'ok.mjs'), fixture('crash', 'crash-mid-call.mjs')]);
    await h.waitFor('ok', 'ready', READY_MS);
    await h.waitFor('crash', 'ready', READY_MS);
    const okPid = h.pid('ok');
    const stderrLine = 'crash-mid-call: exiting with code 7 on purpose';

    for (let round = 1; round <= MAX_RESTARTS + 1; round++) {
      const from = h.changes.length;
      const pid = h.pid('crash');
      const call = await timed(h.callTool('crash', 'crash', {}, { timeoutMs: 10_000 }));
      assert.ok(call.error, `round ${round}: the call did not fail`);
      assert.match(call.error.message, new RegExp(`^server crash closed the connection: process exited with code 7 \\(last stderr line: ${stderrLine}\\)$`));
      assert.ok(call.ms < 1000, `round ${round}: the in-flight call took ${call.ms} ms to fail`);

      const crashed = await h.waitFor('crash', 'crashed', 2000, from);
      assert.deepEqual(crashed.state, { kind: 'crashed', exitCode: 7, signal: null, error: 'process exited with code 7', stderrTail: [stderrLine] });
      assert.equal(running(pid), false);
      if (round <= MAX_RESTARTS) {
        const backoff = RESTART_BASE_MS * 2 ** (round - 1);
        const restarting = await h.waitFor('crash', 'restarting', 1000, from);
        assert.equal(restarting.state.kind === 'restarting' && restarting.state.attempt, round);
        assert.ok(h.log('crash').has('info', new RegExp(`^restarting in ${backoff} ms \\(attempt ${round} of ${MAX_RESTARTS}\\)$`)), h.log('crash').dump());
        const ready = await h.waitFor('crash', 'ready', READY_MS, from);
        assert.ok(ready.at - crashed.at >= backoff - 5, `round ${round}: restarted after ${ready.at - crashed.at} ms, before the ${backoff} ms backoff`);
        assert.deepEqual(h.history('crash', from), ['crashed', 'restarting', 'starting', 'ready']);
        assert.notEqual(h.pid('crash'), pid, 'a new process');
      } else {
        const failed = await h.waitFor('crash', 'failed', 1000, from);
        assert.deepEqual(failed.state, {
          kind: 'failed',
          error: 'crashed 4 times in 1 minute; not restarting (last: process exited with code 7)',
          stderrTail: [stderrLine],
        });
        assert.deepEqual(h.history('crash', from), ['crashed', 'failed']);
      }
      await h.assertHealthy('ok', okPid);
    }

    await delay(RESTART_BASE_MS * 2 ** MAX_RESTARTS + 100);
    assert.equal(h.state('crash').kind, 'failed', 'nothing restarts a server that was given up on');
    assert.equal(h.pids('crash').length, MAX_RESTARTS + 1);
    assert.deepEqual(processesWith(markerOf('crash')), []);
    await assert.rejects(h.callTool('crash', 'crash', {}), /server 'crash' is not ready \(failed: /);

    // An explicit start resets the budget.
    await within(h.registry.start('crash'), READY_MS, 'start(crash)');
    assert.equal(h.state('crash').kind, 'ready');
    await h.assertHealthy('ok', okPid);
  }).timeout(30_000);

  it('garbage-stdout: lines that are not JSON-RPC are skipped with a warning; ready, and calls work', async () => {
    const h = setup();
    h.registry.reconcile([fixture('ok', 'ok.mjs'), fixture('garbage', 'garbage-stdout.mjs')]);
    await h.waitFor('ok', 'ready', READY_MS);
    await h.waitFor('garbage', 'ready', READY_MS);
    await within(h.registry.catalogsLoaded(), 5000, 'catalogsLoaded()');
    assert.deepEqual(h.registry.get('garbage')!.catalog.tools.map((tool) => tool.name), ['echo']);
    assert.equal(await h.echo('garbage', 'through the noise'), 'through the noise');
    assert.equal(await h.echo('garbage', 'and again'), 'and again');
    const skipped = (line: string) => `ignored a stdout line that is not JSON-RPC: ${JSON.stringify(line)}`;
    const warnings = h.log('garbage').texts('warn');
    for (const line of ['Starting garbage-stdout fixture v1.0...', '{"oops": ', '{"hello":"world"}', 'debug: echo called with through the noise', 'debug: echo called with and again']) {
      assert.ok(warnings.includes(skipped(line)), `no warning for ${JSON.stringify(line)}:\n${h.log('garbage').dump()}`);
    }
    assert.deepEqual(h.history('garbage'), ['starting', 'ready']);
    await h.assertHealthy('ok', h.pid('ok'));
  }).timeout(20_000);

  it('huge-line: a 10 MB stdout line fails the call and the connection; crashed, restarted; memory stays bounded', async () => {
    const h = setup();
    h.registry.reconcile([fixture('ok', 'ok.mjs'), fixture('huge', 'huge-line.mjs')]);
    await h.waitFor('ok', 'ready', READY_MS);
    await h.waitFor('huge', 'ready', READY_MS);
    assert.equal(await h.echo('huge', 'small is fine'), 'small is fine');
    const pid = h.pid('huge');
    const from = h.changes.length;

    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
    const call = await timed(h.callTool('huge', 'huge', {}, { timeoutMs: 10_000 }));
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    assert.ok(call.error, 'the call did not fail');
    assert.match(call.error.message, /^server huge closed the connection: server wrote more than 10 MB on one stdout line( \(last stderr line: .*\))?$/);
    assert.ok(call.ms < 5000, `the call took ${call.ms} ms to fail`);
    const grew = Math.round((peak - before) / (1024 * 1024));
    // A fixed bound, whatever the server writes: the line is dropped at 10 MB and reading stops (keeping
    // every chunk, or every copy the buffer made on the way, would take hundreds of MB).
    assert.ok(grew < 256, `memory grew by ${grew} MB while reading the line`);

    // Design: the connection is unusable, so its stdout is closed and its group gets SIGTERM; the
    // server counts as crashed with that reason, then restarts like after any crash.
    const crashed = await h.waitFor('huge', 'crashed', 3000, from);
    assert.equal(crashed.state.kind, 'crashed');
    if (crashed.state.kind === 'crashed') {
      assert.equal(crashed.state.error, 'server wrote more than 10 MB on one stdout line');
      // Whichever comes first ends it: the SIGTERM, or its own write failing (EPIPE, exit code 1).
      const how = { exitCode: crashed.state.exitCode, signal: crashed.state.signal };
      assert.ok(
        (how.signal === 'SIGTERM' && how.exitCode === null) || (how.signal === null && how.exitCode === 1),
        `${JSON.stringify(how)}\n${h.log('huge').dump()}`,
      );
    }
    assert.ok(h.log('huge').has('warn', /^server wrote more than 10 MB on one stdout line: stopping the server$/), h.log('huge').dump());
    const ready = await h.waitFor('huge', 'ready', READY_MS, from);
    assert.deepEqual(h.history('huge', from), ['crashed', 'restarting', 'starting', 'ready']);
    assert.ok(ready.at - crashed.at >= RESTART_BASE_MS - 5);
    assert.equal(running(pid), false);
    assert.notEqual(h.pid('huge'), pid);
    assert.equal(await h.echo('huge', 'after the restart'), 'after the restart');
    await h.assertHealthy('ok', h.pid('ok'));
  }).timeout(20_000);

  it('ignore-sigterm: stop() escalates to SIGKILL and resolves within about 3 grace periods, the process gone', async () => {
    const h = setup();
    h.registry.reconcile([fixture('ok', 'ok.mjs'), fixture('stubborn', 'ignore-sigterm.mjs')]);
    await h.waitFor('ok', 'ready', READY_MS);
    await h.waitFor('stubborn', 'ready', READY_MS);
    const pid = h.pid('stubborn');
    const from = h.changes.length;

    const stop = await timed(within(h.registry.stop('stubborn'), 5000, 'stop(stubborn)'));
    assert.equal(stop.error, undefined);
    // stdin closed → one grace period → SIGTERM (ignored) → one grace period → SIGKILL.
    assert.ok(stop.ms >= 2 * GRACE_MS - 5, `stopped after ${stop.ms} ms, before SIGTERM and SIGKILL had their turn`);
    assert.ok(stop.ms < 3 * GRACE_MS + SLACK_MS, `stop() took ${stop.ms} ms`);
    assert.equal(running(pid), false, 'the process is gone when stop() resolves');
    assert.deepEqual(processesWith(markerOf('stubborn')), []);
    assert.deepEqual(h.history('stubborn', from), ['stopping', 'stopped']);
    const log = h.log('stubborn');
    assert.ok(log.has('info', new RegExp(`^process ${pid} still running ${GRACE_MS} ms after stdin was closed: sending SIGTERM to its process group$`)), log.dump());
    assert.ok(log.has('warn', new RegExp(`^process ${pid} still running ${GRACE_MS} ms after SIGTERM: sending SIGKILL to its process group$`)), log.dump());
    assert.ok(log.has('stderr', /^ignore-sigterm: got SIGTERM, ignoring it$/), log.dump());
    await h.assertHealthy('ok', h.pid('ok'));
  }).timeout(20_000);

  it('ignore-sigterm: a second stop during the grace period kills at once; the state goes stopping → stopped', async () => {
    // Grace periods long enough that "at once" and "after the grace period" cannot be confused.
    const grace = 3000;
    const h = setup({ shutdownGraceMs: grace });
    h.registry.reconcile([fixture('ok', 'ok.mjs'), fixture('stubborn', 'ignore-sigterm.mjs')]);
    await h.waitFor('ok', 'ready', READY_MS);
    await h.waitFor('stubborn', 'ready', READY_MS);
    const pid = h.pid('stubborn');
    const from = h.changes.length;

    const firstAt = Date.now();
    const first = h.registry.stop('stubborn');
    assert.equal(h.state('stubborn').kind, 'stopping', 'stopping at once');
    // stdin closed, one grace period, then SIGTERM, which the fixture ignores: it is now in the second grace period.
    const log = h.log('stubborn');
    const deadline = Date.now() + grace + 5000;
    while (!log.has('stderr', /^ignore-sigterm: got SIGTERM, ignoring it$/) && Date.now() < deadline) await delay(10);
    assert.ok(log.has('stderr', /^ignore-sigterm: got SIGTERM, ignoring it$/), log.dump());
    assert.equal(running(pid), true, 'still running after the ignored SIGTERM');
    assert.equal(h.state('stubborn').kind, 'stopping', 'still stopping while the process is going');
    const sinceFirst = Date.now() - firstAt;

    const second = await timed(within(h.registry.stop('stubborn'), 2000, 'the second stop(stubborn)'));
    assert.equal(second.error, undefined);
    // Measured: from the second stop to the process gone and the state stopped, against a grace period of 3 s.
    assert.ok(second.ms < SLACK_MS + 100, `the second stop took ${second.ms} ms (grace period ${grace} ms)`);
    assert.equal(running(pid), false, 'the process is gone when the second stop resolves');
    assert.deepEqual(processesWith(markerOf('stubborn')), []);
    const firstDone = await timed(within(first, 1000, 'the first stop(stubborn)'));
    assert.equal(firstDone.error, undefined, 'the first stop resolves with the second');
    assert.equal(h.state('stubborn').kind, 'stopped');
    assert.deepEqual(h.history('stubborn', from), ['stopping', 'stopped']);
    assert.ok(log.has('info', /^stop requested again while stopping: ending the process now$/), log.dump());
    assert.ok(log.has('info', new RegExp(`^stopping again: killing process group ${pid} now$`)), log.dump());
    assert.ok(!log.has('warn', /after SIGTERM: sending SIGKILL/), 'the kill did not wait for the grace period');
    console.log(`      second stop ${sinceFirst} ms after the first (grace ${grace} ms): process gone ${second.ms} ms later`);
    await h.assertHealthy('ok', h.pid('ok'));
  }).timeout(30_000);

  describe('a server killed by a signal says so', () => {
    /** die-by-signal.mjs, directly or behind a shell that waits for it and exits with its status, as npx does. */
    function dying(id: string, options: { atStart?: string; launcher?: boolean } = {}): EffectiveServer {
      const script = path.join(FIXTURE_SERVERS, 'die-by-signal.mjs');
      // An argument, not an env value: env values are scrubbed from every message.
      const args = [script, markerOf(id), ...(options.atStart ? [`--die-at-start=${options.atStart}`] : [])];
      if (!options.launcher) return makeServer(id, { type: 'stdio', command: process.execPath, args, cwd: REPO_ROOT });
      // Two commands, so the shell waits for node and exits 128 + N when a signal N killed it.
      return makeServer(id, { type: 'stdio', command: 'sh', args: ['-c', '"$0" "$@"; exit $?', process.execPath, ...args], cwd: REPO_ROOT });
    }

    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      it(`${signal} from outside: the in-flight call, the crashed state and the log say "killed by ${signal}"`, async () => {
        const h = setup();
        h.registry.reconcile([fixture('ok', 'ok.mjs'), dying('dies')]);
        await h.waitFor('ok', 'ready', READY_MS);
        await h.waitFor('dies', 'ready', READY_MS);
        const pid = h.pid('dies');
        const from = h.changes.length;

        const call = await timed(h.callTool('dies', 'die', { signal }, { timeoutMs: 10_000 }));
        const said = `die-by-signal: sending myself ${signal}`;
        assert.match(call.error?.message ?? '', new RegExp(`^server dies closed the connection: process was killed by ${signal} \\(last stderr line: ${said}\\)$`));
        const crashed = await h.waitFor('dies', 'crashed', 3000, from);
        assert.deepEqual(crashed.state, { kind: 'crashed', exitCode: null, signal, error: `process was killed by ${signal}`, stderrTail: [`die-by-signal: started (pid ${pid})`, said] });
        const log = h.log('dies');
        assert.ok(log.has('error', new RegExp(`^crashed: process was killed by ${signal}$`)), log.dump());
        assert.ok(!log.lines.some((line) => /exited with code/.test(line.text)), log.dump());
        await h.waitFor('dies', 'ready', READY_MS, from);
        await h.assertHealthy('ok', h.pid('ok'));
      }).timeout(20_000);
    }

    it('behind a launcher that reports the signal as exit code 143 (npx, sh -c): "killed by SIGTERM (exit code 143)", not "exited with code 143"', async () => {
      const h = setup();
      h.registry.reconcile([fixture('ok', 'ok.mjs'), dying('wrapped', { launcher: true })]);
      await h.waitFor('ok', 'ready', READY_MS);
      await h.waitFor('wrapped', 'ready', READY_MS);
      const from = h.changes.length;

      const call = await timed(h.callTool('wrapped', 'die', { signal: 'SIGTERM' }, { timeoutMs: 10_000 }));
      assert.match(call.error?.message ?? '', /^server wrapped closed the connection: process was killed by SIGTERM \(exit code 143\)/);
      const crashed = await h.waitFor('wrapped', 'crashed', 3000, from);
      assert.equal(crashed.state.kind, 'crashed');
      if (crashed.state.kind !== 'crashed') return;
      assert.deepEqual({ exitCode: crashed.state.exitCode, signal: crashed.state.signal, error: crashed.state.error },
        { exitCode: 143, signal: 'SIGTERM', error: 'process was killed by SIGTERM (exit code 143)' });
      const log = h.log('wrapped');
      assert.ok(log.has('error', /^crashed: process was killed by SIGTERM \(exit code 143\)$/), log.dump());
      assert.ok(!log.lines.some((line) => /exited with code 143/.test(line.text)), log.dump());
      await h.assertHealthy('ok', h.pid('ok'));
    }).timeout(20_000);

    it('killed during startup: failed "process was killed by SIGKILL during startup", in the state, the log and the summary', async () => {
      const h = setup();
      h.registry.reconcile([fixture('ok', 'ok.mjs'), dying('early', { atStart: 'SIGKILL' })]);
      const failed = await h.waitFor('early', 'failed', READY_MS);
      assert.deepEqual(failed.state, { kind: 'failed', error: 'process was killed by SIGKILL during startup', stderrTail: ['die-by-signal: sending myself SIGKILL at start'] });
      assert.ok(h.log('early').has('error', /^failed to start: process was killed by SIGKILL during startup$/), h.log('early').dump());
      await h.waitFor('ok', 'ready', READY_MS);
      assert.match(startupSummaryLine(h.registry.summary()), /1 failed \(early: process was killed by SIGKILL during startup\)/);
      await h.assertHealthy('ok', h.pid('ok'));
    }).timeout(20_000);

    it('killed again and again: given up as failed "(last: process was killed by SIGKILL)"', async () => {
      const h = setup();
      h.registry.reconcile([dying('dies')]);
      await h.waitFor('dies', 'ready', READY_MS);
      for (let round = 1; round <= MAX_RESTARTS + 1; round++) {
        const from = h.changes.length;
        await assert.rejects(h.callTool('dies', 'die', { signal: 'SIGKILL' }, { timeoutMs: 10_000 }), /process was killed by SIGKILL/);
        await h.waitFor('dies', 'crashed', 3000, from);
        if (round <= MAX_RESTARTS) await h.waitFor('dies', 'ready', READY_MS, from);
      }
      const failed = await h.waitFor('dies', 'failed', 2000);
      assert.equal(failed.state.kind === 'failed' && failed.state.error, `crashed ${MAX_RESTARTS + 1} times in 1 minute; not restarting (last: process was killed by SIGKILL)`);
      assert.ok(h.log('dies').has('error', /^crashed \d+ times in 1 minute; not restarting \(last: process was killed by SIGKILL\)$/), h.log('dies').dump());
    }).timeout(30_000);
  });

  it('grandchild via sh -c: stop() ends the shell, the server and its child', async () => {
    const h = setup();
    h.registry.reconcile([fixture('ok', 'ok.mjs'), shellWrapped('shell')]);
    await h.waitFor('ok', 'ready', READY_MS);
    await h.waitFor('shell', 'ready', READY_MS);
    const shellPid = h.pid('shell');
    const grandchild = Number(textOf(await h.callTool('shell', 'childPid', {})));
    const generations = processesWith(markerOf('shell'));
    assert.equal(generations.length, 3, `sh, the server and its child:\n${generations.map((p) => `${p.pid} ${p.command}`).join('\n')}`);
    assert.ok(generations.some((p) => p.pid === shellPid && /^sh /.test(p.command)));
    assert.ok(generations.some((p) => p.pid === grandchild && p.command.includes('grandchild-of')));

    const stop = await timed(within(h.registry.stop('shell'), 5000, 'stop(shell)'));
    assert.equal(stop.error, undefined);
    assert.ok(stop.ms < 3 * GRACE_MS + SLACK_MS, `stop() took ${stop.ms} ms`);
    assert.deepEqual(processesWith(markerOf('shell')), [], 'nothing of the group is left when stop() resolves');
    assert.equal(running(grandchild), false);
    assert.equal(h.state('shell').kind, 'stopped');
    await h.assertHealthy('ok', h.pid('ok'));
  }).timeout(20_000);

  it('grandchild via sh -c: a server that exits by itself leaves no orphan, and is restarted', async () => {
    const h = setup();
    h.registry.reconcile([fixture('ok', 'ok.mjs'), shellWrapped('shell')]);
    await h.waitFor('ok', 'ready', READY_MS);
    await h.waitFor('shell', 'ready', READY_MS);
    const grandchild = Number(textOf(await h.callTool('shell', 'childPid', {})));
    const from = h.changes.length;

    // `quit` answers, then the server exits 0 and leaves its child running; the shell then exits too.
    assert.equal(textOf(await h.callTool('shell', 'quit', {})), 'bye');
    const crashed = await h.waitFor('shell', 'crashed', 3000, from);
    assert.deepEqual(crashed.state.kind === 'crashed' && { exitCode: crashed.state.exitCode, error: crashed.state.error }, { exitCode: 0, error: 'process exited with code 0' });
    assert.ok(crashed.state.kind === 'crashed' && crashed.state.stderrTail.includes('shell: server exited with 0'), JSON.stringify(crashed.state));
    // What was left of the process group is stopped.
    const deadline = Date.now() + 3 * GRACE_MS + SLACK_MS;
    while (running(grandchild) && Date.now() < deadline) await delay(10);
    assert.equal(running(grandchild), false, 'the orphaned child was stopped with its group');
    await h.waitFor('shell', 'ready', READY_MS, from);
    assert.deepEqual(h.history('shell', from), ['crashed', 'restarting', 'starting', 'ready']);
    const next = Number(textOf(await h.callTool('shell', 'childPid', {})));
    assert.notEqual(next, grandchild);
    assert.equal(processesWith(markerOf('shell')).length, 3, 'the restarted server runs its own three generations');
    await h.assertHealthy('ok', h.pid('ok'));
  }).timeout(20_000);

  it('http-expiring-session: a call after the session expired succeeds through re-initialize; past the bound it fails clearly', async () => {
    const server = await helpers.fixture('http-expiring-session.mjs');
    const base = `http://127.0.0.1:${server.port}`;
    const stats = async () => (await (await fetch(`${base}/stats`)).json()) as { initializes: number };
    const control = async (what: string) => { assert.equal((await fetch(`${base}/control/${what}`, { method: 'POST' })).status, 200); };
    const h = setup();
    h.registry.reconcile([fixture('ok', 'ok.mjs'), makeServer('http', { type: 'http', url: `${base}/mcp` })]);
    await h.waitFor('ok', 'ready', READY_MS);
    await h.waitFor('http', 'ready', READY_MS);
    const echo = async (message: string) => textOf(await h.callTool('http', 'echo', { message }, { timeoutMs: 5000 }));
    assert.equal(await echo('one'), 'Echo: one');

    await control('expire-all');
    assert.equal(await echo('two'), 'Echo: two');
    assert.equal((await stats()).initializes, 2);
    assert.ok(h.log('http').has('warn', /^session expired \(the server answered 404 for it\): re-initializing \(1 of 3 allowed per 60 s\)$/), h.log('http').dump());
    assert.deepEqual(h.history('http'), ['starting', 'ready'], 'a re-initialize does not show as a restart');

    // From now on the server drops the session of every tools/call: the budget (3 per minute) runs out.
    await control('expire-on-call');
    const from = h.changes.length;
    for (const message of ['a', 'b']) {
      const call = await timed(echo(message));
      assert.equal(call.error?.message, 'the server expired the new session at once; try again later');
      assert.ok(call.ms < 2000, `the call took ${call.ms} ms`);
    }
    assert.equal(h.state('http').kind, 'ready');
    // The connection ends (its waiting requests fail with that) before the request's own error is thrown;
    // either way the caller gets the reason.
    const last = await timed(echo('c'));
    assert.match(last.error?.message ?? 'no error',
      /^(server http closed the connection: )?the server keeps expiring the session \(re-initialized 3 times in the last 60 s\); giving up$/);
    assert.equal((await stats()).initializes, 4);

    // The connection ends with that reason; the server restarts like after a crash, with a fresh session.
    const crashed = await h.waitFor('http', 'crashed', 3000, from);
    assert.deepEqual(crashed.state, {
      kind: 'crashed', exitCode: null, signal: null, stderrTail: [],
      error: 'the server keeps expiring the session (re-initialized 3 times in the last 60 s); giving up',
    });
    await h.waitFor('http', 'ready', READY_MS, from);
    assert.deepEqual(h.history('http', from), ['crashed', 'restarting', 'starting', 'ready']);
    assert.equal((await stats()).initializes, 5);
    await h.assertHealthy('ok', h.pid('ok'));
  }).timeout(20_000);

  it('reconcile with the real connector: a changed fingerprint restarts only that server, a whitespace-only edit nothing', async () => {
    const h = setup();
    const ok = path.join(FIXTURE_SERVERS, 'ok.mjs');
    const file = path.join(temp.make(), '.mcp.json');
    const config = (extra: string[]) => ({
      mcpServers: {
        a: { command: process.execPath, args: [ok, markerOf('a')], cwd: REPO_ROOT, timeout: SERVER_TIMEOUT_MS },
        b: { command: process.execPath, args: [ok, markerOf('b'), ...extra], cwd: REPO_ROOT, timeout: SERVER_TIMEOUT_MS },
      },
    });
    const serversOf = (text: string): EffectiveServer[] => {
      const layer = parseLayer({ scope: 'user', file, vars: { env: {}, userHome: os.homedir() } }, { kind: 'text', text });
      const merged = mergeLayers([layer]);
      assert.deepEqual(merged.problems, []);
      return merged.servers;
    };

    const first = serversOf(JSON.stringify(config([]), null, 2));
    h.registry.reconcile(first);
    await h.waitFor('a', 'ready', READY_MS);
    await h.waitFor('b', 'ready', READY_MS);
    const [pidA, pidB] = [h.pid('a'), h.pid('b')];

    // The same servers, written on one line: every position moved, no fingerprint changed.
    let from = h.changes.length;
    const reformatted = serversOf(`\n\n${JSON.stringify(config([]))}\n`);
    assert.notDeepEqual(reformatted.map((s) => s.source), first.map((s) => s.source));
    assert.deepEqual(reformatted.map((s) => s.fingerprint), first.map((s) => s.fingerprint));
    h.registry.reconcile(reformatted);
    await delay(3 * GRACE_MS);
    assert.deepEqual(h.changes.slice(from), [], 'no state changed');
    assert.deepEqual([h.pids('a'), h.pids('b')], [[pidA], [pidB]]);
    assert.deepEqual(h.registry.get('b')!.server.source, reformatted[1].source, 'the new positions were taken');

    // b gets another argument: b restarts, a keeps its process.
    from = h.changes.length;
    const changed = serversOf(JSON.stringify(config(['--changed']), null, 2));
    assert.equal(changed[0].fingerprint, first[0].fingerprint);
    assert.notEqual(changed[1].fingerprint, first[1].fingerprint);
    h.registry.reconcile(changed);
    await h.waitFor('b', 'ready', READY_MS, from);
    assert.deepEqual(h.history('b', from), ['starting', 'ready']);
    assert.deepEqual(h.history('a', from), []);
    assert.deepEqual(h.pids('a'), [pidA]);
    assert.equal(h.pids('b').length, 2);
    assert.equal(running(pidB), false, 'the old b is gone');
    const [newB] = processesWith(markerOf('b'));
    assert.ok(newB && newB.pid === h.pid('b') && newB.command.endsWith(`${markerOf('b')} --changed`), JSON.stringify(newB));
    await h.assertHealthy('a', pidA);
    assert.equal(await h.echo('b', 'restarted'), 'restarted');
  }).timeout(20_000);

  it('project-scope servers are not spawned by reconcile, only by an explicit start', async () => {
    const h = setup();
    const flag = path.join(temp.make(), 'started');
    const okUrl = pathToFileURL(path.join(FIXTURE_SERVERS, 'ok.mjs')).href;
    // Writes a file as the first thing it does, then runs ok.mjs.
    const script = `require('node:fs').writeFileSync(${JSON.stringify(flag)}, 'started'); import(${JSON.stringify(okUrl)});`;
    const project = makeServer('project', { type: 'stdio', command: process.execPath, args: ['-e', script, markerOf('project')], cwd: REPO_ROOT }, 'project');
    const servers = [fixture('ok', 'ok.mjs'), project];
    h.registry.reconcile(servers);
    assert.equal(h.state('project').kind, 'needsTrust');
    await h.waitFor('ok', 'ready', READY_MS);
    await delay(3 * GRACE_MS);
    h.registry.reconcile(servers); // a re-read of the configuration changes nothing
    h.registry.applyGate();
    await delay(3 * GRACE_MS);
    assert.deepEqual(h.history('project'), ['needsTrust']);
    assert.equal(fs.existsSync(flag), false, 'the project server ran');
    assert.deepEqual(h.pids('project'), []);
    assert.deepEqual(processesWith(markerOf('project')), []);
    await assert.rejects(h.callTool('project', 'echo', { text: 'x' }), /server 'project' is not ready \(needs trust: /);

    await within(h.registry.start('project'), READY_MS, 'start(project)');
    assert.equal(h.state('project').kind, 'ready');
    assert.equal(fs.readFileSync(flag, 'utf8'), 'started');
    assert.equal(await h.echo('project', 'allowed now'), 'allowed now');
    // The explicit start holds for this definition: a re-read keeps it running.
    const pid = h.pid('project');
    h.registry.reconcile(servers);
    await delay(GRACE_MS);
    assert.equal(h.state('project').kind, 'ready');
    assert.deepEqual(h.pids('project'), [pid]);
    await h.assertHealthy('ok', h.pid('ok'));
  }).timeout(20_000);

  it('stopAll() + connector.dispose() kill at once a start cut short, even one that ignores SIGTERM', async () => {
    // A long grace period: a staged stop of this process would take 4 s; dispose() must not wait for it.
    const h = setup({ shutdownGraceMs: 2000 });
    const stubbornHang = makeServer('hang', {
      type: 'stdio',
      command: process.execPath,
      args: ['-e', "process.on('SIGTERM', () => {}); process.stderr.write('up\\n'); setInterval(() => {}, 1000)", markerOf('hang')],
      cwd: REPO_ROOT,
    });
    h.registry.reconcile([stubbornHang]);
    const deadline = Date.now() + READY_MS;
    while (!h.log('hang').has('stderr', /^up$/) && Date.now() < deadline) await delay(10);
    assert.ok(h.log('hang').has('stderr', /^up$/), 'the process did not start');
    assert.equal(h.state('hang').kind, 'starting');

    const stop = await timed(within(h.close(), 10_000, 'stopAll() + connector.dispose()'));
    assert.equal(stop.error, undefined);
    assert.deepEqual(processesWith(testMarker), [], 'the process is gone when both have resolved');
    assert.ok(stop.ms < 1000, `stopping took ${stop.ms} ms`);
  }).timeout(20_000);

  it('stopAll() + connector.dispose() leave no process, whatever state each server is in', async () => {
    // A long startup timeout, so that the hanging server is still starting when everything stops.
    const h = setup({ startupTimeoutMs: 20_000 });
    h.registry.reconcile([
      fixture('ok', 'ok.mjs'),
      fixture('garbage', 'garbage-stdout.mjs'),
      fixture('stubborn', 'ignore-sigterm.mjs'),
      shellWrapped('shell'),
      hanging('hang'),
      fixture('crash', 'crash-mid-call.mjs'),
    ]);
    for (const id of ['ok', 'garbage', 'stubborn', 'shell', 'crash']) await h.waitFor(id, 'ready', READY_MS);
    // One more is waiting for its restart.
    const from = h.changes.length;
    await assert.rejects(h.callTool('crash', 'crash', {}));
    await h.waitFor('crash', 'restarting', 2000, from);
    assert.equal(h.state('hang').kind, 'starting');
    // ok, garbage, stubborn, sh + server + child, hang.
    assert.equal(processesWith(testMarker).length, 7, processesWith(testMarker).map((p) => p.command).join('\n'));

    const stop = await timed(within(h.close(), 10_000, 'stopAll() + connector.dispose()'));
    assert.equal(stop.error, undefined);
    assert.deepEqual(processesWith(testMarker), [], 'every process is gone when both have resolved');
    assert.ok(stop.ms < 3 * GRACE_MS + SLACK_MS, `stopping everything took ${stop.ms} ms`);
    assert.deepEqual(Object.values(Object.fromEntries(h.changes.map((c) => [c.id, c.state.kind]))), ['stopped', 'stopped', 'stopped', 'stopped', 'stopped', 'stopped']);
    await delay(RESTART_BASE_MS * 2);
    assert.equal(h.pids('crash').length, 1, 'the pending restart was cancelled');
  }).timeout(20_000);
});
