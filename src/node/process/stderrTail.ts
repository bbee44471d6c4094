// Splits a server's stderr into lines for its log and keeps the last ones for error messages. Enough
// of them that the line stating the cause is still there when a stack or usage text follows it (the
// core's stderrExcerpt picks it out). Memory is bounded whatever the server writes.
import { StringDecoder } from 'node:string_decoder';

/** Lines kept in the tail. */
export const STDERR_TAIL_LINES = 200;
/** Characters kept in the tail, all lines together. */
export const STDERR_TAIL_CHARS = 32 * 1024;
/** A stderr "line" longer than this without a newline is cut and passed on as it is. */
const MAX_LINE_CHARS = 64 * 1024;
/** One line longer than this is shortened in the tail (the log still gets it whole). */
const MAX_TAIL_LINE_CHARS = 2 * 1024;

export class StderrTail {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private readonly tail: string[] = [];
  private tailChars = 0;

  constructor(private readonly onLine: (line: string) => void) {}

  /** Feeds a chunk of stderr; complete lines go to `onLine` and into the tail. */
  push(chunk: Buffer): void {
    this.partial += this.decoder.write(chunk);
    let newline: number;
    while ((newline = this.partial.indexOf('\n')) !== -1) {
      this.emit(this.partial.slice(0, newline));
      this.partial = this.partial.slice(newline + 1);
    }
    while (this.partial.length > MAX_LINE_CHARS) {
      this.emit(this.partial.slice(0, MAX_LINE_CHARS));
      this.partial = this.partial.slice(MAX_LINE_CHARS);
    }
  }

  /** Emits the unterminated last line, if any (call when stderr has ended). */
  flush(): void {
    this.partial += this.decoder.end();
    if (this.partial !== '') this.emit(this.partial);
    this.partial = '';
  }

  /** The last lines, oldest first: at most 200 lines and 32 KiB. */
  lines(): string[] {
    return [...this.tail];
  }

  private emit(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    this.onLine(line);
    const kept = line.length > MAX_TAIL_LINE_CHARS ? `${line.slice(0, MAX_TAIL_LINE_CHARS)}…` : line;
    this.tail.push(kept);
    this.tailChars += kept.length;
    while (this.tail.length > STDERR_TAIL_LINES || (this.tailChars > STDERR_TAIL_CHARS && this.tail.length > 1)) {
      this.tailChars -= this.tail.shift()!.length;
    }
  }
}
