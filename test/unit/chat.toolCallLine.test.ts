// The chat's line under a tool call says how long it took as the history does: the wait for the
// person's answer apart from the server's run, never one total that reads as a slow tool.
import * as assert from 'node:assert/strict';
import { durationWords, formatMs } from '../../src/protocol/durations';
import { toolCallLine } from '../../src/vscode/chat/toolCallLine';

describe('the chat line of a tool call', () => {
  it('says "waited 3.2 s · ran 8 ms" for a call that waited for its card, not the total', () => {
    const line = toolCallLine('mcp__fs__write_file', 'write_file on fs', { durationMs: 3304, waitedMs: 3240, ranMs: 8 });
    assert.equal(line, '\n\n> ✓ ran `mcp__fs__write_file` (write_file on fs, waited 3.2 s · ran 8 ms)\n\n');
    assert.doesNotMatch(line, /3304/);
  });

  it('says only how long it ran when no card asked, and the total when nothing finer was measured', () => {
    assert.match(toolCallLine('t', 'x', { durationMs: 12, ranMs: 11 }), /\(x, ran 11 ms\)/);
    assert.match(toolCallLine('t', 'x', { durationMs: 1530 }), /\(x, 1\.5 s\)/);
    assert.match(toolCallLine('t', 'x', {}), /\(x\)/);
  });

  it('marks a failure and says why', () => {
    assert.equal(toolCallLine('t', 'x', { durationMs: 5 }, 'no such file'), '\n\n> ✗ ran `t` (x, 5 ms): no such file\n\n');
  });

  it('the words are the history\'s', () => {
    assert.equal(durationWords({ durationMs: 99_000, waitedMs: 98_700, ranMs: 300 }), 'waited 98.7 s · ran 300 ms');
    assert.equal(formatMs(1000), '1.0 s');
  });
});
