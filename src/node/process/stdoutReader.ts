// Turns a server's stdout into JSON-RPC messages with the SDK's own framing (ReadBuffer), but feeds it
// one line at a time so that:
//  - a line that is not JSON-RPC (a stray console.log, an npm banner) is reported and skipped, and the
//    connection survives;
//  - the SDK's buffer limit (10 MB) applies to one line, not to whatever happened to arrive in one
//    chunk, and memory stays bounded by it;
//  - a long line costs linear time: its chunks are collected here and handed to ReadBuffer once, as
//    ReadBuffer copies its whole buffer on every append (quadratic for a multi-megabyte result).
import { ReadBuffer, STDIO_DEFAULT_MAX_BUFFER_SIZE, type JSONRPCMessage } from '../sdk';

/** How much of a skipped line is shown in the warning. */
const HEAD_CHARS = 200;
const NEWLINE = 0x0a;

/** Thrown by `push` when one stdout line grows past the limit. */
export class StdoutLineTooLongError extends Error {
  constructor(readonly maxBytes: number) {
    super(`server wrote more than ${formatMegabytes(maxBytes)} on one stdout line`);
    this.name = 'StdoutLineTooLongError';
  }
}

export interface StdoutReaderOptions {
  onMessage: (message: JSONRPCMessage) => void;
  /** A non-blank line that is not a JSON-RPC message; `head` is its first 200 characters. */
  onSkippedLine: (head: string, truncated: boolean) => void;
  /** Default: the SDK's STDIO_DEFAULT_MAX_BUFFER_SIZE (10 MB). */
  maxLineBytes?: number;
}

export class StdoutReader {
  private readonly buffer: ReadBuffer;
  private readonly maxLineBytes: number;
  private lineBytes = 0;
  /** The chunks of the unfinished line (copies: the stream may reuse its buffers). */
  private pending: Buffer[] = [];

  constructor(private readonly options: StdoutReaderOptions) {
    this.maxLineBytes = options.maxLineBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
    this.buffer = new ReadBuffer({ maxBufferSize: this.maxLineBytes });
  }

  /** Bytes of the unfinished line currently held. */
  get pendingBytes(): number {
    return this.lineBytes;
  }

  /** Feeds a chunk of stdout. Throws StdoutLineTooLongError (and drops the buffered line) on overflow. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      this.lineBytes += end - start;
      if (this.lineBytes > this.maxLineBytes) {
        this.resetLine();
        throw new StdoutLineTooLongError(this.maxLineBytes);
      }
      const part = chunk.subarray(start, end);
      if (newline === -1) {
        // `chunk` may be reused by the stream: keep a copy of a part that outlives this call.
        this.pending.push(Buffer.from(part));
      } else {
        // Used within this call only: a line that fits in one chunk is not copied.
        let line = part;
        if (this.pending.length > 0) {
          this.pending.push(part);
          line = Buffer.concat(this.pending, this.lineBytes);
        }
        this.resetLine();
        this.readLine(line);
      }
      start = end;
    }
  }

  /** `line` ends with its newline. */
  private readLine(line: Buffer): void {
    let message: JSONRPCMessage | null;
    this.buffer.append(line);
    try {
      message = this.buffer.readMessage();
    } catch {
      // JSON.parse or the SDK's JSON-RPC schema rejected the line; ReadBuffer has already consumed it.
      this.buffer.clear();
      this.skipped(line);
      return;
    }
    // Only this line was in the buffer: drop the empty rest, so that the next append does not copy.
    this.buffer.clear();
    // No message from a whole line: ReadBuffer skipped it silently as not JSON (JSON that is not
    // JSON-RPC throws, above). Reported the same way.
    if (message === null) {
      this.skipped(line);
      return;
    }
    // Outside the try: an exception thrown by the handler is not the server's fault.
    this.options.onMessage(message);
  }

  /** Reports a line that is not JSON-RPC by its head; built only here, never for a message. */
  private skipped(line: Buffer): void {
    // Bytes, not characters: 4 bytes per character is enough for HEAD_CHARS characters of any UTF-8.
    const headBytes = Math.min(line.length, HEAD_CHARS * 4);
    const head = line.toString('utf8', 0, headBytes).replace(/\r?\n$/, '');
    if (head.trim() === '') return;
    this.options.onSkippedLine(head.slice(0, HEAD_CHARS), line.length > headBytes || head.length > HEAD_CHARS);
  }

  private resetLine(): void {
    if (this.pending.length > 0) this.pending = [];
    this.lineBytes = 0;
  }
}

function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${bytes} bytes`;
}
