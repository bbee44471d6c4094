// Plain-text tables for the CLI: columns padded to their widest cell, two spaces apart, the last column
// never padded (so lines carry no trailing blanks).

/** Returns a function that renders one row (or the header) of a table with these cells, aligned. */
export function tableRenderer(header: readonly string[], rows: readonly (readonly string[])[]): (cells: readonly string[]) => string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  return (cells) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ');
}
