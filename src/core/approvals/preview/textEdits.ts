// edit_file's text semantics, as server-filesystem applies them: the file and every edit are read with
// CRLF turned into LF (so the file is written back with LF); the edits apply one after another, each
// to the result of the previous one. An edit replaces the first exact occurrence of its oldText; when
// there is none, the first run of lines that equals oldText's lines once each line is trimmed is
// replaced, and the new lines are re-indented: the first takes the indentation of the matched line,
// a later one keeps its indentation relative to oldText's line of the same index (when both have
// some), in spaces. An edit that matches neither way fails the whole call.

/** One edit_file edit. */
export interface TextEdit {
  oldText: string;
  newText: string;
}

/** The edited text, or the edit that did not match and the server's message for it. */
export type EditResult = { ok: true; text: string } | { ok: false; index: number; error: string };

/** CRLF → LF, as the server reads files and edits (a lone CR stays). */
export function normalizeLineEndings(text: string): string {
  return text.split('\r\n').join('\n');
}

/** Applies `edits` in order to `text` (already normalized) the way edit_file does. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): EditResult {
  let current = text;
  for (let index = 0; index < edits.length; index++) {
    const oldText = normalizeLineEndings(edits[index].oldText);
    const newText = normalizeLineEndings(edits[index].newText);
    const at = current.indexOf(oldText);
    if (at >= 0) {
      current = current.slice(0, at) + newText + current.slice(at + oldText.length);
      continue;
    }
    const loose = replaceTrimmedLines(current, oldText, newText);
    // The message quotes the edit as given, before its line endings were normalized.
    if (loose === undefined) return { ok: false, index, error: `Could not find exact match for edit:\n${edits[index].oldText}` };
    current = loose;
  }
  return { ok: true, text: current };
}

/** The whitespace-flexible fallback: undefined when no run of lines matches. */
function replaceTrimmedLines(text: string, oldText: string, newText: string): string | undefined {
  const lines = text.split('\n');
  const wanted = oldText.split('\n');
  for (let start = 0; start + wanted.length <= lines.length; start++) {
    if (!wanted.every((line, offset) => line.trim() === lines[start + offset].trim())) continue;
    const indent = leadingWhitespace(lines[start]);
    const replacement = newText.split('\n').map((line, offset) => reindent(line, offset, wanted, indent));
    lines.splice(start, wanted.length, ...replacement);
    return lines.join('\n');
  }
  return undefined;
}

function reindent(line: string, offset: number, wanted: string[], indent: string): string {
  if (offset === 0) return indent + line.trimStart();
  const oldIndent = leadingWhitespace(wanted[offset] ?? '');
  const newIndent = leadingWhitespace(line);
  // Only lines indented on both sides move; the others are kept exactly as written.
  if (oldIndent === '' || newIndent === '') return line;
  return indent + ' '.repeat(Math.max(0, newIndent.length - oldIndent.length)) + line.trimStart();
}

function leadingWhitespace(line: string): string {
  return /^\s*/.exec(line)?.[0] ?? '';
}
