// A card's unified diff as rows, and a long one folded to what changes: the file and hunk headers,
// every added and removed line with a little context, and a marker for each run left out ("12
// unchanged lines"). The card grows with the diff instead of scrolling inside it, so a long diff
// must shrink; "Show all" on the card brings every line back. Pure: no DOM, tested on its own.

export type DiffLineKind = 'file' | 'hunk' | 'add' | 'remove' | 'context';

export interface DiffLine {
  readonly kind: DiffLineKind;
  readonly text: string;
}

/** A line shown, or a run of lines left out (`hidden` of them). */
export type DiffRow =
  | ({ readonly row: 'line'; readonly index: number } & DiffLine)
  | { readonly row: 'fold'; readonly hidden: number; readonly index: number };

export interface FoldOptions {
  /** Up to this many lines show whole, unfolded. */
  readonly budget: number;
  /** Unchanged lines kept on each side of a change. */
  readonly context: number;
}

export const DEFAULT_FOLD: FoldOptions = { budget: 40, context: 2 };

/** The diff's lines, classified; the `Index:` line and its rule repeat the path the change list already shows. */
export function diffLines(diff: string): DiffLine[] {
  const lines = diff.endsWith('\n') ? diff.slice(0, -1).split('\n') : diff.split('\n');
  return lines
    .filter((line) => !line.startsWith('Index: ') && !/^=+$/.test(line))
    .map((text) => ({ kind: kindOf(text), text }));
}

function kindOf(line: string): DiffLineKind {
  if (line.startsWith('+++ ') || line.startsWith('--- ')) return 'file';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'remove';
  return 'context';
}

const isChange = (line: DiffLine): boolean => line.kind === 'add' || line.kind === 'remove';
const isHeader = (line: DiffLine): boolean => line.kind === 'file' || line.kind === 'hunk';

/**
 * The rows a card shows. A diff within the budget shows whole. A longer one keeps headers, changes
 * and `context` unchanged lines around each change; if the changes alone still pass the budget, the
 * lines after it fold into one last marker. A fold never hides a single line (the marker would take
 * its place for nothing).
 */
export function foldDiff(lines: readonly DiffLine[], options: FoldOptions = DEFAULT_FOLD): DiffRow[] {
  if (lines.length <= options.budget) return lines.map((line, index) => ({ row: 'line', index, ...line }));
  const keep = lines.map((line) => isHeader(line) || isChange(line));
  lines.forEach((line, i) => {
    if (!isChange(line)) return;
    for (let d = 1; d <= options.context; d++) {
      if (i - d >= 0 && lines[i - d]?.kind === 'context') keep[i - d] = true;
      if (i + d < lines.length && lines[i + d]?.kind === 'context') keep[i + d] = true;
    }
  });
  // Past the budget, nothing more is kept.
  let shown = 0;
  keep.forEach((kept, i) => {
    if (!kept) return;
    if (shown >= options.budget) keep[i] = false;
    else shown++;
  });
  // A run of one hidden line shows instead.
  keep.forEach((kept, i) => {
    if (!kept && keep[i - 1] !== false && keep[i + 1] !== false) keep[i] = true;
  });
  const rows: DiffRow[] = [];
  let hidden = 0;
  lines.forEach((line, index) => {
    if (!keep[index]) {
      hidden++;
      return;
    }
    if (hidden > 0) rows.push({ row: 'fold', hidden, index: index - hidden });
    hidden = 0;
    rows.push({ row: 'line', index, ...line });
  });
  if (hidden > 0) rows.push({ row: 'fold', hidden, index: lines.length - hidden });
  return rows;
}

/** How many lines the folded rows leave out. */
export function hiddenLines(rows: readonly DiffRow[]): number {
  return rows.reduce((sum, row) => sum + (row.row === 'fold' ? row.hidden : 0), 0);
}
