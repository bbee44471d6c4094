// The signal handling of the test harness that `npm start` relies on (test/harness/cleanup.mjs): on
// Ctrl-C the orderly stop runs to its end before the sweep, the same Ctrl-C arriving twice (from the
// terminal and forwarded by npm) is one, and a real second Ctrl-C sweeps at once. A real node process
// (test/fixtures/harness/signal-runner.mjs) gets real signals.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT, delay, waitFor } from './support';

const RUNNER = path.join(REPO_ROOT, 'test', 'fixtures', 'harness', 'signal-runner.mjs');

interface Run {
  child: ChildProcess;
  output(): string[];
  exited: Promise<{ code: number | null; at: number }>;
}

async function startRunner(orderlyMs: number): Promise<Run> {
  const child = spawn(process.execPath, [RUNNER], { env: { ...process.env, ORDERLY_MS: String(orderlyMs) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: Date.now() })));
  const output = (): string[] => text.split('\n').map((line) => line.trim()).filter(Boolean);
  await waitFor('the runner to be ready', () => output().includes('ready'), 10_000);
  return { child, output, exited };
}

(process.platform === 'win32' ? describe.skip : describe)('harness signals (npm start\'s Ctrl-C)', function () {
  this.timeout(20_000);
  let run: Run | undefined;
  afterEach(() => { run?.child.kill('SIGKILL'); run = undefined; });

  it('Ctrl-C runs the orderly stop to its end, then the sweep, and exits with its code; the same Ctrl-C forwarded by npm changes nothing', async () => {
    run = await startRunner(1500);
    const sentAt = Date.now();
    run.child.kill('SIGINT');
    await delay(30);
    run.child.kill('SIGINT'); // npm forwards the terminal's Ctrl-C: the same one, a moment later
    const { code, at } = await run.exited;
    assert.deepEqual(run.output(), ['ready', 'orderly stop begins (SIGINT)', 'orderly stop done', 'sweep']);
    assert.equal(code, 0);
    assert.ok(at - sentAt >= 1500, `exited ${at - sentAt} ms after SIGINT, before the orderly stop was done`);
  });

  it('a second Ctrl-C during the orderly stop sweeps at once', async () => {
    run = await startRunner(10_000);
    run.child.kill('SIGINT');
    await waitFor('the orderly stop to begin', () => run!.output().includes('orderly stop begins (SIGINT)'), 5000);
    await delay(1200); // past the window in which a repeat counts as the same Ctrl-C
    const againAt = Date.now();
    run.child.kill('SIGINT');
    const { code, at } = await run.exited;
    const output = run.output();
    assert.ok(at - againAt < 1000, `exited ${at - againAt} ms after the second Ctrl-C`);
    assert.equal(code, 130);
    assert.ok(!output.includes('orderly stop done'), output.join('\n'));
    assert.ok(output.includes('sweep'), output.join('\n'));
    assert.ok(output.some((line) => /^\[cleanup\] SIGINT: stopping everything this runner started \(signalled again: not waiting any longer\)$/.test(line)), output.join('\n'));
  });

  it('SIGTERM (a supervisor, CI) takes the same orderly path', async () => {
    run = await startRunner(300);
    run.child.kill('SIGTERM');
    const { code } = await run.exited;
    assert.deepEqual(run.output(), ['ready', 'orderly stop begins (SIGTERM)', 'orderly stop done', 'sweep']);
    assert.equal(code, 0);
  });
});
