import * as assert from 'node:assert/strict';
import { createTwoFilesPatch } from 'diff';
import { diffLines, foldDiff, hiddenLines, type DiffRow } from '../../../webview/diffFold';

const numbered = (count: number, change?: (i: number) => string | undefined): string =>
  Array.from({ length: count }, (_, i) => change?.(i) ?? `line ${i + 1}`).join('\n') + '\n';

/** The rows as short text: a line as its text, a fold as `… n`. */
const shape = (rows: readonly DiffRow[]): string[] => rows.map((row) => (row.row === 'fold' ? `… ${row.hidden}` : row.text));

describe('diff folding', () => {
  it('classifies the lines and drops the Index header', () => {
    const lines = diffLines('Index: a.txt\n===\n--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n');
    assert.deepEqual(lines.map((l) => l.kind), ['file', 'file', 'hunk', 'context', 'remove', 'add']);
  });

  it('shows a diff within the budget whole', () => {
    const lines = diffLines(createTwoFilesPatch('a.txt', 'a.txt', numbered(5), numbered(5, (i) => (i === 2 ? 'changed' : undefined))));
    const rows = foldDiff(lines, { budget: 40, context: 2 });
    assert.equal(rows.length, lines.length);
    assert.equal(hiddenLines(rows), 0);
  });

  it('folds a long diff to its changes with a little context, saying how many lines each fold hides', () => {
    // Two changes far apart in a 200-line file: two hunks of 4 context lines each side.
    const before = numbered(200);
    const after = numbered(200, (i) => (i === 20 ? 'first change' : i === 150 ? 'second change' : undefined));
    const lines = diffLines(createTwoFilesPatch('a.txt', 'a.txt', before, after));
    const rows = foldDiff(lines, { budget: 10, context: 1 });
    assert.deepEqual(shape(rows), [
      '--- a.txt', '+++ a.txt',
      '@@ -17,9 +17,9 @@', '… 3', ' line 20', '-line 21', '+first change', ' line 22', '… 3',
      '@@ -147,9 +147,9 @@', '… 3', ' line 150', '-line 151', '… 5',
    ]);
    // Past the budget everything else folds into one last marker; nothing is lost from the count.
    assert.equal(rows.filter((r) => r.row === 'line').length + hiddenLines(rows), lines.length);
  });

  it('keeps every change of a long diff while the budget lasts, then folds the rest into one marker', () => {
    const lines = diffLines(createTwoFilesPatch('/dev/null', 'new.txt', '', numbered(100)));
    const rows = foldDiff(lines, { budget: 20, context: 2 });
    const shown = rows.filter((r) => r.row === 'line');
    assert.equal(shown.length, 20);
    assert.deepEqual(rows.at(-1), { row: 'fold', hidden: lines.length - 20, index: 20 });
    assert.ok(shown.slice(3).every((r) => r.row === 'line' && r.kind === 'add'));
  });

  it('never folds a single line', () => {
    const lines = diffLines(createTwoFilesPatch('a.txt', 'a.txt', numbered(60), numbered(60, (i) => (i % 6 === 0 ? `changed ${i}` : undefined)), '', '', { context: 2 }));
    const rows = foldDiff(lines, { budget: 30, context: 2 });
    assert.ok(rows.every((r) => r.row !== 'fold' || r.hidden > 1), JSON.stringify(shape(rows)));
  });
});
