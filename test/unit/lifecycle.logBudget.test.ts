import * as assert from 'node:assert/strict';
import { BudgetedLog } from '../../src/core/lifecycle/logBudget';
import { FakeClock, RecordingLog } from './helpers/lifecycle';

describe('log budget', () => {
  const limits = { linesPerSecond: 10, charsPerSecond: 1000, warningsPerSecond: 3 };

  it('lets the budget through each second, drops the rest, and reports the count once a second while it drops', () => {
    const clock = new FakeClock();
    const inner = new RecordingLog();
    const log = new BudgetedLog(inner, clock, limits);
    for (let i = 0; i < 50; i++) log.serverMessage('info', 'flood', `line ${i}`);
    assert.equal(inner.lines.filter((line) => line.startsWith('server info')).length, 10);
    assert.equal(log.dropped, 40);
    assert.deepEqual(clock.pending(), [1000], 'one report is due');
    clock.advance(1000);
    assert.match(inner.lines.at(-1) ?? '', /^warn: dropped 40 log lines of this server in the last 1 s: it logged more than 10 lines or 1 KB a second \(40 dropped since it started\)$/);
    for (let i = 0; i < 12; i++) log.stderr(`again ${i}`);
    assert.equal(inner.lines.filter((line) => line.startsWith('stderr')).length, 10, 'a new second has a new budget');
    assert.equal(log.dropped, 42);
    log.dispose();
    assert.match(inner.lines.at(-1) ?? '', /^warn: dropped 2 log lines .*\(42 dropped since it started\)$/);
  });

  it('counts characters too: one huge message passes, the next ones wait for the next second', () => {
    const clock = new FakeClock();
    const inner = new RecordingLog();
    const log = new BudgetedLog(inner, clock, limits);
    log.trace('receive', { data: 'x'.repeat(5000) });
    log.trace('receive', { data: 'y' });
    assert.equal(inner.lines.length, 1);
    assert.equal(log.dropped, 1);
  });

  it('bounds warnings on their own; info and error always pass', () => {
    const clock = new FakeClock();
    const inner = new RecordingLog();
    const log = new BudgetedLog(inner, clock, limits);
    for (let i = 0; i < 10; i++) log.warn(`transport: progress for an unknown token ${i}`);
    for (let i = 0; i < 20; i++) log.info(`ready ${i}`);
    log.error('crashed');
    assert.equal(inner.lines.filter((line) => line.startsWith('warn')).length, 3);
    assert.equal(inner.lines.filter((line) => line.startsWith('info')).length, 20);
    assert.ok(inner.lines.includes('error: crashed'));
    log.dispose();
  });
});
