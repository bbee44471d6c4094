import * as assert from 'node:assert/strict';
import { describePath, describeSpawnError } from '../../src/node/process/spawnErrors';
import { STDERR_TAIL_CHARS, STDERR_TAIL_LINES, StderrTail } from '../../src/node/process/stderrTail';
import { StdoutLineTooLongError, StdoutReader } from '../../src/node/process/stdoutReader';
import type { JSONRPCMessage } from '../../src/node/sdk';

function reader(maxLineBytes?: number) {
  const messages: JSONRPCMessage[] = [];
  const skipped: { head: string; truncated: boolean }[] = [];
  const r = new StdoutReader({ maxLineBytes, onMessage: (m) => messages.push(m), onSkippedLine: (head, truncated) => skipped.push({ head, truncated }) });
  return { r, messages, skipped };
}

const ping = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;

describe('node stdio framing', () => {
  describe('StdoutReader', () => {
    it('reads messages split across chunks and several in one chunk, with CRLF', () => {
      const { r, messages, skipped } = reader();
      const text = ping(1) + ping(2).replace('\n', '\r\n') + ping(3);
      r.push(Buffer.from(text.slice(0, 10)));
      r.push(Buffer.from(text.slice(10, 40)));
      r.push(Buffer.from(text.slice(40)));
      assert.deepEqual(messages.map((m) => (m as { id: number }).id), [1, 2, 3]);
      assert.deepEqual(skipped, []);
      assert.equal(r.pendingBytes, 0);
    });

    it('skips lines that are not JSON-RPC, reports their head, and keeps going', () => {
      const { r, messages, skipped } = reader();
      r.push(Buffer.from(`hello\n\n   \n{"a":1}\n${ping(1)}${'y'.repeat(300)}\n${ping(2)}`));
      assert.deepEqual(messages.map((m) => (m as { id: number }).id), [1, 2]);
      assert.deepEqual(skipped, [
        { head: 'hello', truncated: false },
        { head: '{"a":1}', truncated: false },
        { head: 'y'.repeat(200), truncated: true },
      ]);
    });

    it('reports the head of a skipped line that came in several chunks, and whether it was cut', () => {
      const { r, messages, skipped } = reader();
      const long = `${'é'.repeat(150)}${'z'.repeat(1000)}\r\n`;
      for (let i = 0; i < long.length; i += 97) r.push(Buffer.from(long.slice(i, i + 97)));
      r.push(Buffer.from('not json\n'));
      r.push(Buffer.from('  \n'));
      r.push(Buffer.from(ping(1)));
      assert.deepEqual(skipped, [
        { head: `${'é'.repeat(150)}${'z'.repeat(50)}`, truncated: true },
        { head: 'not json', truncated: false },
      ]);
      assert.deepEqual(messages.map((m) => (m as { id: number }).id), [1]);
    });

    it('keeps its own copy of an unfinished line when the stream reuses its buffer', () => {
      const { r, messages } = reader();
      const text = ping(1) + ping(2);
      const chunk = Buffer.alloc(text.length - 10);
      chunk.write(text.slice(0, chunk.length));
      r.push(chunk);
      chunk.fill(0x20); // the stream's buffer is overwritten before the rest of the line arrives
      r.push(Buffer.from(text.slice(chunk.length)));
      assert.deepEqual(messages.map((m) => (m as { id: number }).id), [1, 2]);
      assert.equal(r.pendingBytes, 0);
    });

    it('does not blame the server for an exception thrown by the message handler', () => {
      const r = new StdoutReader({ onMessage: () => { throw new Error('handler bug'); }, onSkippedLine: () => assert.fail('not skipped') });
      assert.throws(() => r.push(Buffer.from(ping(1))), /handler bug/);
    });

    it('limits one line, not one chunk: many lines in a chunk larger than the limit are fine', () => {
      const { r, messages } = reader(100);
      r.push(Buffer.from(ping(1).repeat(10))); // ~400 bytes, each line ~40
      assert.equal(messages.length, 10);
    });

    it('throws StdoutLineTooLongError when one line exceeds the limit, and frees it', () => {
      const { r } = reader(100);
      r.push(Buffer.from('x'.repeat(60)));
      assert.throws(() => r.push(Buffer.from('x'.repeat(60))), (error: unknown) => {
        assert.ok(error instanceof StdoutLineTooLongError);
        assert.equal(error.message, 'server wrote more than 100 bytes on one stdout line');
        return true;
      });
      assert.equal(r.pendingBytes, 0);
    });

    it('names the default limit in megabytes', () => {
      assert.equal(new StdoutLineTooLongError(10 * 1024 * 1024).message, 'server wrote more than 10 MB on one stdout line');
    });
  });

  describe('StderrTail', () => {
    it('splits lines across chunks and multi-byte characters, strips CR, flushes the last line', () => {
      const lines: string[] = [];
      const tail = new StderrTail((line) => lines.push(line));
      const bytes = Buffer.from('first\r\nsé', 'utf8');
      tail.push(bytes.subarray(0, bytes.length - 1)); // cuts é in half
      tail.push(bytes.subarray(bytes.length - 1));
      tail.push(Buffer.from('cond\nno newline'));
      assert.deepEqual(lines, ['first', 'sécond']);
      tail.flush();
      assert.deepEqual(lines, ['first', 'sécond', 'no newline']);
      assert.deepEqual(tail.lines(), lines);
    });

    it(`keeps at most ${STDERR_TAIL_LINES} lines and ${STDERR_TAIL_CHARS} characters`, () => {
      const lines: string[] = [];
      const tail = new StderrTail((line) => lines.push(line));
      const total = STDERR_TAIL_LINES * 2;
      for (let i = 0; i < total; i++) tail.push(Buffer.from(`line ${i}\n`));
      assert.equal(lines.length, total);
      assert.equal(tail.lines().length, STDERR_TAIL_LINES);
      assert.equal(tail.lines().at(-1), `line ${total - 1}`);

      const wide = new StderrTail(() => {});
      const wideLines = Math.ceil((STDERR_TAIL_CHARS * 2) / 1000);
      for (let i = 0; i < wideLines; i++) wide.push(Buffer.from(`${String(i).padEnd(1000, '.')}\n`));
      const kept = wide.lines();
      assert.ok(kept.length < wideLines);
      assert.ok(kept.join('').length <= STDERR_TAIL_CHARS);
      assert.ok(kept.at(-1)!.startsWith(String(wideLines - 1)));
    });

    it('cuts a huge line without a newline instead of buffering it', () => {
      const lines: string[] = [];
      const tail = new StderrTail((line) => lines.push(line));
      tail.push(Buffer.from('z'.repeat(200 * 1024)));
      assert.ok(lines.length >= 3);
      assert.ok(tail.lines().every((line) => line.length <= 2049));
    });
  });

  describe('spawn error messages', () => {
    it('lists the PATH that was searched', () => {
      assert.equal(describePath({ PATH: '/a::/b' }, 'linux'), 'PATH searched: /a, /b');
      assert.equal(describePath({}, 'linux'), 'PATH is empty');
      assert.equal(describePath({ Path: 'C:\\a;C:\\b' }, 'win32'), 'PATH searched: C:\\a, C:\\b');
      const many = Array.from({ length: 30 }, (_, i) => `/d${i}`).join(':');
      assert.match(describePath({ PATH: many }, 'linux'), /\/d24, … and 5 more$/);
    });

    it('turns ENOENT into "command not found" and other codes into "cannot start"', () => {
      const enoent = Object.assign(new Error('spawn npx ENOENT'), { code: 'ENOENT' });
      assert.equal(describeSpawnError(enoent, { command: 'switchboard-nope', env: { PATH: '/nowhere' }, platform: 'linux' }).message,
        'command not found: switchboard-nope (PATH searched: /nowhere)');
      const other = Object.assign(new Error('spawn x EMFILE'), { code: 'EMFILE' });
      assert.equal(describeSpawnError(other, { command: 'x', env: {}, platform: 'linux' }).message, 'cannot start x: spawn x EMFILE');
    });
  });
});
