// Inserting a property into an object of a JSON-with-comments text so that only new text appears: the
// existing lines stay byte for byte, a comment at the end of the last entry stays with that entry, a
// trailing comma is reused, and the new value is indented like its siblings. jsonc-parser's `modify`
// (used for replacing a value and for array items) does not do this for a new property: it inserts
// right after the last value, so that entry's end-of-line comment moves onto the new entry, and its
// formatting re-flows the previous entry's line; removing, it takes the neighbour's comment too
// (config.scopeWriter tests hold the cases).
import { createScanner, SyntaxKind, type Node } from 'jsonc-parser';

/** The text with `"key": value` added as the last property of `object` (a node of `text`'s tree). */
export function insertProperty(text: string, object: Node, key: string, value: unknown): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const unit = indentUnit(text);
  const closing = object.offset + object.length - 1;
  const last = object.children?.[object.children.length - 1];
  if (last === undefined) {
    const outer = lineIndent(text, object.offset);
    const inner = outer + unit;
    const property = `${eol}${inner}${JSON.stringify(key)}: ${indented(value, unit, inner, eol)}${eol}${outer}`;
    // Whatever sits between the braces (whitespace, a comment) is replaced only when it is whitespace.
    const between = text.slice(object.offset + 1, closing);
    return between.trim() === ''
      ? text.slice(0, object.offset + 1) + property + text.slice(closing)
      : text.slice(0, closing) + property + text.slice(closing);
  }
  const inner = lineIndent(text, last.offset) === lineIndentOfLineStart(text, last.offset) ? lineIndent(text, last.offset) : lineIndent(text, object.offset) + unit;
  const lastEnd = last.offset + last.length;
  const comma = trailingComma(text, lastEnd, closing);
  const afterComma = comma === undefined ? lastEnd : comma + 1;
  const lineEnd = endOfLine(text, afterComma);
  const restOfLine = onlyTrivia(text.slice(afterComma, lineEnd)) && lineEnd <= closing;
  const insertAt = restOfLine ? lineEnd : afterComma;
  const property = `${eol}${inner}${JSON.stringify(key)}: ${indented(value, unit, inner, eol)}`;
  const withComma = comma === undefined ? `${text.slice(0, lastEnd)},${text.slice(lastEnd, insertAt)}` : text.slice(0, insertAt);
  return withComma + property + text.slice(insertAt);
}

/** The indentation one level adds in this text (its first indented line), two spaces by default. */
export function indentUnit(text: string): string {
  return /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
}

function indented(value: unknown, unit: string, indent: string, eol: string): string {
  return JSON.stringify(value, null, unit).split('\n').join(`${eol}${indent}`);
}

/** The whitespace at the start of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = startOfLine(text, offset);
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** The text from the line's start to `offset`, when it is only whitespace (else a marker that never matches). */
function lineIndentOfLineStart(text: string, offset: number): string {
  const before = text.slice(startOfLine(text, offset), offset);
  return /^[ \t]*$/.test(before) ? before : '\u0000';
}

function startOfLine(text: string, offset: number): number {
  let start = offset;
  while (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start--;
  return start;
}

function endOfLine(text: string, offset: number): number {
  let end = offset;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  return end;
}

/** The offset of a comma between `from` and `to` outside comments, if any. */
function trailingComma(text: string, from: number, to: number): number | undefined {
  const scanner = createScanner(text.slice(from, to), false);
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.CommaToken) return from + scanner.getTokenOffset();
  }
  return undefined;
}

/** Whether a piece of text holds only whitespace and comments. */
function onlyTrivia(piece: string): boolean {
  const scanner = createScanner(piece, false);
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind !== SyntaxKind.Trivia && kind !== SyntaxKind.LineCommentTrivia && kind !== SyntaxKind.BlockCommentTrivia && kind !== SyntaxKind.LineBreakTrivia) return false;
  }
  return true;
}

/**
 * The text without the property `index` of `object`: its lines (with a comment at their end) go, the
 * comma that separated it goes, and every other line stays byte for byte.
 */
export function removeProperty(text: string, object: Node, index: number): string {
  const siblings = object.children ?? [];
  const property = siblings[index];
  const closing = object.offset + object.length - 1;
  const start = property.offset;
  const end = property.offset + property.length;
  const next = siblings[index + 1];
  const following = trailingComma(text, end, next?.offset ?? closing);
  const atLineStart = lineIndentOfLineStart(text, start) !== '\u0000';
  const from = atLineStart ? startOfLine(text, start) : start;
  const after = following === undefined ? end : following + 1;
  let to = after;
  const lineEnd = endOfLine(text, after);
  if (atLineStart && lineEnd <= closing && onlyTrivia(text.slice(after, lineEnd))) {
    to = lineEnd + (text.startsWith('\r\n', lineEnd) ? 2 : lineEnd < text.length ? 1 : 0);
  }
  let result = text.slice(0, from) + text.slice(to);
  const previous = siblings[index - 1];
  if (following === undefined && previous !== undefined) {
    const comma = trailingComma(text, previous.offset + previous.length, start);
    if (comma !== undefined) result = result.slice(0, comma) + result.slice(comma + 1);
  }
  return result;
}
