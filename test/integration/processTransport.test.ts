// ProcessTransport against real server processes (test/fixtures/servers), through the SDK Client.
// Every process gets a unique marker argument; after each test the process table is searched for it
// and the test fails if anything is left running.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { keepProgressBeforeResponses } from '../../src/node/messageOrder';
import { ProcessTransport, type ProcessExit, type ProcessLog, type ProcessTransportOptions } from '../../src/node/process/processTransport';
import { Client } from '../../src/node/sdk';
import { REPO_ROOT, TempDirs, delay, waitFor, write } from './support';

const SERVERS = path.join(REPO_ROOT, 'test', 'fixtures', 'servers');

/**
 * A minimal stdio server (run with `node -e`) that answers a tools/call with three progress
 * notifications and the result in a single write, so they reach the client in one stdout chunk.
 */
const ONE_WRITE_PROGRESS_SERVER = `
const send = (...messages) => process.stdout.write(messages.map((m) => JSON.stringify(m) + '\\n').join(''));
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') {
    send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'one-write', version: '1.0.0' } } });
  } else if (m.method === 'tools/call') {
    const progressToken = m.params._meta.progressToken;
    const progress = [1, 2, 3].map((p) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: p, total: 3 } }));
    send(...progress, { jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'done' }] } });
  }
});
`;
const GRACE = 100;
const posix = process.platform !== 'win32';

class RecordingLog implements ProcessLog {
  readonly infos: string[] = [];
  readonly warnings: string[] = [];
  readonly stderrLines: string[] = [];
  info(message: string): void { this.infos.push(message); }
  warn(message: string): void { this.warnings.push(message); }
  stderr(line: string): void { this.stderrLines.push(line); }
}

/** Live (non-zombie) processes whose command line contains `marker`. */
function processesWith(marker: string): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return table.split('\n').filter((line) => line.includes(marker) && !/^\s*\d+\s+Z/.test(line));
}

function killAll(lines: string[]): void {
  for (const line of lines) {
    try { process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL'); } catch { /* gone */ }
  }
}

function isRunning(pid: number): boolean {
  try {
    const stat = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return stat !== '' && !stat.startsWith('Z');
  } catch {
    return false; // ps exits with 1 when there is no such process
  }
}

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((block) => block.text ?? '').join('');
}

async function elapsed<T>(work: Promise<T>): Promise<{ ms: number; value?: T; error?: Error }> {
  const start = Date.now();
  try {
    const value = await work;
    return { ms: Date.now() - start, value };
  } catch (error) {
    return { ms: Date.now() - start, error: error as Error };
  }
}

describe('ProcessTransport (real processes)', function () {
  this.timeout(15_000);
  const temp = new TempDirs();
  let marker = '';
  let counter = 0;
  const opened: ProcessTransport[] = [];

  beforeEach(() => {
    marker = `sbtest-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((t) => Promise.race([t.close(), delay(3000)])));
    temp.cleanup();
    // Give orphans a moment to die, then fail (after killing them) if any process remains.
    let left: string[] = [];
    for (let i = 0; i < 20 && (left = processesWith(marker)).length > 0; i++) await delay(25);
    if (left.length > 0) {
      killAll(left);
      assert.fail(`processes left running:\n${left.join('\n')}`);
    }
  });

  /** A transport for `fixture` run by node, with this test's marker as its argument. */
  function transportFor(fixture: string, options: Partial<ProcessTransportOptions> = {}) {
    const log = new RecordingLog();
    const transport = new ProcessTransport({
      command: process.execPath,
      args: [path.join(SERVERS, fixture), marker],
      log,
      shutdownGraceMs: GRACE,
      ...options,
    });
    opened.push(transport);
    const exits: ProcessExit[] = [];
    transport.onExit((exit) => exits.push(exit));
    let closes = 0;
    const client = new Client({ name: 'process-transport-test', version: '1.0.0' });
    client.onclose = () => { closes++; };
    return { transport, log, exits, client, closes: () => closes };
  }

  describe('a healthy server', () => {
    it('connects, calls a tool, pipes stderr to the log, and stops at the stdin stage', async () => {
      const { transport, log, exits, client, closes } = transportFor('ok.mjs');
      await client.connect(transport);
      assert.equal(client.getServerVersion()?.name, 'ok-fixture');
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hello' } })), 'hello');
      await waitFor('the start line on stderr', () => log.stderrLines.some((l) => l.startsWith('ok-fixture: started')));
      assert.ok(transport.pid! > 0);
      assert.deepEqual(transport.stderrTail, log.stderrLines);

      const stop = await elapsed(client.close());
      assert.ok(stop.ms < GRACE, `closing stdin should be enough (${stop.ms} ms)`);
      assert.equal(exits.length, 1);
      assert.deepEqual({ ...exits[0], stderrTail: [] }, { expected: true, exitCode: 0, signal: null, reason: 'stopped (process exited with code 0)', stderrTail: [] });
      assert.equal(closes(), 1);
      assert.equal(isRunning(transport.pid!), false);
      assert.deepEqual(log.warnings, []);
    });

    it('passes progress notifications through', async () => {
      const { transport, client } = transportFor('ok.mjs');
      await client.connect(transport);
      // As the connector does: messages are delivered as read, and this keeps the last progress
      // notification (read together with the response) ahead of the response in the SDK Client.
      keepProgressBeforeResponses(transport);
      const seen: number[] = [];
      const result = await client.callTool({ name: 'slow', arguments: { steps: 4 } }, { onprogress: (p) => seen.push(p.progress) });
      assert.equal(textOf(result), 'done after 4 steps');
      assert.deepEqual(seen, [1, 2, 3, 4]);
      await client.close();
    });

    it('passes progress notifications that arrive in the same chunk as the response', async () => {
      const { transport, client } = transportFor('ok.mjs', { args: ['-e', ONE_WRITE_PROGRESS_SERVER, marker] });
      await client.connect(transport);
      keepProgressBeforeResponses(transport);
      for (let round = 0; round < 20; round++) {
        const seen: number[] = [];
        const result = await client.callTool({ name: 'any', arguments: {} }, { onprogress: (p) => seen.push(p.progress) });
        assert.equal(textOf(result), 'done');
        assert.deepEqual(seen, [1, 2, 3], `round ${round}`);
      }
      await client.close();
    });

    it('rejects send() once the process is gone', async () => {
      const { transport, client } = transportFor('ok.mjs');
      await client.connect(transport);
      await client.close();
      await assert.rejects(transport.send({ jsonrpc: '2.0', id: 99, method: 'ping' }), /^Error: not connected: stopped \(process exited with code 0\)$/);
    });
  });

  describe('a server that fails', () => {
    it('exit-at-start: connect fails with the exit code and the stderr line', async () => {
      const { transport, client, exits, closes } = transportFor('exit-at-start.mjs');
      const connect = await elapsed(client.connect(transport));
      // The SDK ends initialize when the transport closes; the connector and the core say why (exits[0]).
      assert.match(String(connect.error), /Connection closed/);
      assert.ok(connect.ms < 2000, `failed after ${connect.ms} ms`);
      assert.equal(exits.length, 1);
      assert.equal(exits[0].exitCode, 3);
      assert.equal(exits[0].expected, false);
      assert.equal(exits[0].reason, 'process exited with code 3');
      assert.deepEqual(exits[0].stderrTail, ['fatal: config missing']);
      assert.deepEqual(transport.exit, exits[0]);
      await waitFor('onclose', () => closes() === 1, 1000); // a turn after onExit, so answers read before the exit come first
      await transport.close();
      assert.equal(closes(), 1);
    });

    it('crash-mid-call: the call in flight rejects at once, and onExit reports code 7', async () => {
      const { transport, client, exits } = transportFor('crash-mid-call.mjs');
      await client.connect(transport);
      // The transport's close ends the call at once (not its 60 s timeout); the core names the cause.
      const call = await elapsed(client.callTool({ name: 'crash', arguments: {} }, { timeout: 60_000 }));
      assert.ok(call.error, 'the call should fail');
      assert.ok(call.ms < 1000, `rejected after ${call.ms} ms`);
      assert.match(call.error.message, /Connection closed/);
      assert.deepEqual(exits[0]?.stderrTail.slice(-1), ['crash-mid-call: exiting with code 7 on purpose']);
      assert.equal(exits.length, 1);
      assert.equal(exits[0].exitCode, 7);
      assert.equal(exits[0].expected, false);
    });

    it('never-initialize: initialize times out, and close() ends it', async () => {
      const { transport, client, exits } = transportFor('never-initialize.mjs');
      const connect = await elapsed(client.connect(transport, { timeout: 300 }));
      assert.match(String(connect.error), /timed out/i);
      await transport.close();
      assert.equal(exits.length, 1);
      assert.equal(exits[0].expected, true);
      assert.equal(isRunning(transport.pid!), false);
    });

    it('garbage-stdout: lines that are not JSON-RPC are logged and skipped; the connection survives', async () => {
      const { transport, client, log } = transportFor('garbage-stdout.mjs');
      await client.connect(transport);
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'one' } })), 'one');
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'two' } })), 'two');
      await waitFor('the warning after connecting', () => log.warnings.some((w) => w.includes('connected!')));
      const skipped = log.warnings.map((w) => w.replace(/^ignored a stdout line that is not JSON-RPC: /, ''));
      assert.deepEqual(skipped, [
        '"Starting garbage-stdout fixture v1.0..."',
        '"{\\"oops\\": "',
        '"{\\"hello\\":\\"world\\"}"',
        '"connected!"',
        '"debug: echo called with one"',
        '"debug: echo called with two"',
      ]);
      await client.close();
    });

    it('huge-line: a stdout line over 10 MB fails the connection and the process is stopped', async () => {
      const { transport, client, exits, log } = transportFor('huge-line.mjs');
      const errors: Error[] = [];
      client.onerror = (error) => errors.push(error);
      await client.connect(transport);
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'small' } })), 'small');
      const heapBefore = process.memoryUsage().heapUsed;
      const call = await elapsed(client.callTool({ name: 'huge', arguments: {} }));
      // The SDK ends the waiting call when the transport closes; the cause is the transport's error.
      assert.match(String(call.error), /Connection closed/);
      assert.ok(errors.some((e) => e.message === 'server wrote more than 10 MB on one stdout line'));
      assert.equal(exits.length, 1);
      assert.equal(exits[0].reason, 'server wrote more than 10 MB on one stdout line');
      assert.equal(exits[0].expected, false);
      assert.equal(isRunning(transport.pid!), false);
      assert.ok(log.warnings.some((w) => w.startsWith('server wrote more than 10 MB on one stdout line')));
      // Nothing of the line is kept (generous bound: the heap may not have been collected yet).
      assert.ok(process.memoryUsage().heapUsed - heapBefore < 64 * 1024 * 1024);
    });

    it('a server that closes its stdout but keeps running is stopped', async () => {
      const { transport, exits } = transportFor('ok.mjs', {
        args: ['-e', "require('fs').closeSync(1); setInterval(() => {}, 1000)", marker],
      });
      await transport.start();
      await waitFor('the exit', () => exits.length === 1);
      assert.equal(exits[0].reason, 'the server closed its stdout');
      assert.equal(exits[0].expected, false);
    });
  });

  describe('stopping', () => {
    it('ignore-sigterm: close() escalates to SIGKILL within about two grace periods', async () => {
      const { transport, client, exits, log } = transportFor('ignore-sigterm.mjs');
      await client.connect(transport);
      const stop = await elapsed(transport.close());
      assert.ok(stop.ms >= 2 * GRACE - 5, `stopped after ${stop.ms} ms, before the grace periods ran out`);
      assert.ok(stop.ms < 2 * GRACE + 500, `stopped after ${stop.ms} ms`);
      assert.equal(exits[0].signal, 'SIGKILL');
      assert.equal(exits[0].reason, 'stopped (process was killed by SIGKILL)');
      assert.ok(log.infos.some((m) => m.includes('sending SIGTERM to its process group')));
      assert.ok(log.warnings.some((m) => m.includes('sending SIGKILL to its process group')));
      await waitFor('the fixture saying it ignored SIGTERM', () => log.stderrLines.includes('ignore-sigterm: got SIGTERM, ignoring it'));
    });

    it('onExit fires before onclose, once each; close() before start() only closes', async () => {
      const { transport, client } = transportFor('ok.mjs');
      const order: string[] = [];
      transport.onExit(() => order.push('exit'));
      await client.connect(transport);
      const sdkOnClose = transport.onclose;
      transport.onclose = () => { order.push('close'); sdkOnClose?.(); };
      await transport.close();
      await transport.close(); // already gone: nothing more happens
      assert.deepEqual(order, ['exit', 'close']);

      const never = new ProcessTransport({ command: 'unused' });
      let closed = 0;
      never.onclose = () => closed++;
      await never.close();
      assert.equal(closed, 1);
      await assert.rejects(never.start(), /called twice/);
    });

    it('close() during start() waits for the spawn, then stops the process', async () => {
      const { transport, exits } = transportFor('never-initialize.mjs');
      const started = transport.start();
      await transport.close();
      await started;
      assert.equal(exits.length, 1);
      assert.equal(exits[0].expected, true);
      assert.equal(isRunning(transport.pid!), false);
    });

    (posix ? it : it.skip)('a wrapper that exits while a background child holds stdout: reported at once, the child stopped', async () => {
      // A background job's stdin is /dev/null; grandchild.mjs stays up anyway (its child keeps it running).
      const script = `"${process.execPath}" "${path.join(SERVERS, 'grandchild.mjs')}" ${marker} & exit 5`;
      const { transport, exits, log } = transportFor('unused', { command: 'sh', args: ['-c', script] });
      await transport.start();
      await waitFor('the exit', () => exits.length === 1, 2000);
      assert.equal(exits[0].exitCode, 5);
      await transport.close();
      assert.deepEqual(processesWith(marker), []);
      assert.ok(log.infos.some((m) => m.includes('stopping what is left of its process group')));
    });

    it('a second close() while closing kills at once', async () => {
      const { transport, client, exits } = transportFor('ignore-sigterm.mjs', { shutdownGraceMs: 5000 });
      await client.connect(transport);
      const first = transport.close();
      await delay(50);
      const second = await elapsed(transport.close());
      assert.ok(second.ms < 1000, `second close took ${second.ms} ms`);
      await first;
      assert.equal(exits[0].signal, 'SIGKILL');
      assert.equal(exits[0].expected, true);
    });

    (posix ? it : it.skip)('a shell wrapper: the shell, the server and its child all stop', async () => {
      const script = `"${process.execPath}" "${path.join(SERVERS, 'grandchild.mjs')}" ${marker}; echo wrapper-done >&2`;
      const { transport, client } = transportFor('unused', { command: 'sh', args: ['-c', script] });
      await client.connect(transport);
      const childPid = Number(textOf(await client.callTool({ name: 'childPid', arguments: {} })));
      assert.equal(processesWith(marker).length, 3, `expected sh, server and child:\n${processesWith(marker).join('\n')}`);
      assert.ok(isRunning(childPid));
      await client.close();
      assert.deepEqual(processesWith(marker), []);
      assert.equal(isRunning(childPid), false);
    });

    (posix ? it : it.skip)('a server that exits by itself leaves no child behind', async () => {
      const { transport, client, exits, log } = transportFor('grandchild.mjs');
      await client.connect(transport);
      const childPid = Number(textOf(await client.callTool({ name: 'childPid', arguments: {} })));
      await client.callTool({ name: 'quit', arguments: {} });
      await waitFor('the exit', () => exits.length === 1);
      assert.equal(exits[0].exitCode, 0);
      assert.equal(exits[0].expected, false);
      await transport.close(); // resolves once the rest of the group is gone
      assert.equal(isRunning(childPid), false);
      assert.ok(log.infos.some((m) => m.includes('stopping what is left of its process group')));
    });
  });

  describe('start errors say what to do', () => {
    it('a command that is not on PATH', async () => {
      const { transport, client, exits } = transportFor('unused', {
        command: 'switchboard-no-such-command',
        args: [],
        env: { PATH: ['/usr/local/bin', '/usr/bin', '/bin'].join(path.delimiter) },
      });
      await assert.rejects(client.connect(transport), {
        message: 'command not found: switchboard-no-such-command (PATH searched: /usr/local/bin, /usr/bin, /bin)',
      });
      assert.equal(transport.pid, undefined);
      assert.deepEqual(exits, []);
    });

    it('a file that does not exist', async () => {
      const dir = temp.make();
      const { transport } = transportFor('unused', { command: './missing-server', args: [], cwd: dir });
      await assert.rejects(transport.start(), { message: `command not found: ./missing-server (no such file relative to ${dir})` });
    });

    it('a working directory that does not exist', async () => {
      const dir = path.join(temp.make(), 'gone');
      const { transport } = transportFor('ok.mjs', { cwd: dir });
      await assert.rejects(transport.start(), { message: `working directory does not exist: ${dir}` });
    });

    (posix ? it : it.skip)('a file that is not executable', async () => {
      const dir = temp.make();
      const file = write(path.join(dir, 'server.sh'), '#!/bin/sh\necho hi\n');
      fs.chmodSync(file, 0o644);
      const { transport } = transportFor('unused', { command: file, args: [] });
      await assert.rejects(transport.start(), { message: `permission denied: ${file} (${file} is not executable; make it executable, e.g. chmod +x)` });
    });

    (posix ? it : it.skip)('a script whose interpreter is missing', async () => {
      const dir = temp.make();
      const file = write(path.join(dir, 'server'), '#!/no/such/interpreter\n');
      fs.chmodSync(file, 0o755);
      const { transport } = transportFor('unused', { command: 'server', args: [], env: { PATH: dir } });
      await assert.rejects(transport.start(), {
        message: `cannot run server (${file}): its interpreter was not found (its first line is "#!/no/such/interpreter")`,
      });
    });
  });
});
