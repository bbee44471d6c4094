// Offsets → 1-based line/column, the way VS Code counts them: `\r\n`, `\n` and a lone `\r` each end a
// line, and columns count UTF-16 code units. The text given here never contains the BOM (parse.ts
// strips it first), which is also how VS Code's documents see the file, so ranges line up with the editor.
import type { ConfigProblem, ProblemSeverity, SourceRange } from './types';

/** Maps offsets of one text to positions; built once per file. */
export class LineIndex {
  /** Offset at which each line starts; lineStarts[0] is always 0. */
  private readonly lineStarts: number[] = [0];

  constructor(readonly file: string, readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.lineStarts.push(i + 1);
      } else if (ch === 10 /* \n */) {
        this.lineStarts.push(i + 1);
      }
    }
  }

  /** The 1-based line and column of an offset (clamped into the text). */
  position(offset: number): { line: number; column: number } {
    const at = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid] <= at) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: at - this.lineStarts[low] + 1 };
  }

  /** The source range covering `length` characters from `offset`. */
  range(offset: number, length: number): SourceRange {
    const start = this.position(offset);
    const end = this.position(offset + length);
    return {
      file: this.file, line: start.line, column: start.column,
      endLine: end.line, endColumn: end.column, offset, length,
    };
  }
}

/** The range of the very start of a file, for problems about the file as a whole. */
export function fileStartRange(file: string): SourceRange {
  return { file, line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 };
}

/** Builds a problem located at a range. */
export function problemAt(range: SourceRange, severity: ProblemSeverity, code: string, message: string): ConfigProblem {
  return {
    file: range.file, line: range.line, column: range.column,
    endLine: range.endLine, endColumn: range.endColumn, severity, code, message,
  };
}

type LineEnding = 'LF' | 'CRLF' | 'CR';

/** The first line break whose style differs from the file's first one, if the file mixes styles. */
export function findMixedLineEnding(text: string): { offset: number; length: number; found: LineEnding; expected: LineEnding; line: number } | undefined {
  let first: LineEnding | undefined;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch !== 10 && ch !== 13) continue;
    const crlf = ch === 13 && text.charCodeAt(i + 1) === 10;
    const kind: LineEnding = crlf ? 'CRLF' : ch === 13 ? 'CR' : 'LF';
    if (first === undefined) first = kind;
    else if (kind !== first) return { offset: i, length: crlf ? 2 : 1, found: kind, expected: first, line };
    if (crlf) i++;
    line++;
  }
  return undefined;
}
