// The unified diff of a prediction, made with jsdiff (the `diff` package). A modified file gets the same
// headers server-filesystem puts on edit_file's own diff (`--- path<TAB>original` / `+++ path<TAB>modified`),
// a new file is all added against /dev/null, a move shows source and destination.
import { createTwoFilesPatch } from 'diff';
import type { FileChange } from './types';

/** The unified diff of every change, concatenated in order. */
export function unifiedDiff(changes: readonly FileChange[]): string {
  return changes.map(changeDiff).join('');
}

function changeDiff(change: FileChange): string {
  switch (change.kind) {
    case 'create':
      return createTwoFilesPatch('/dev/null', change.path, '', change.after ?? '');
    case 'modify':
      return createTwoFilesPatch(change.path, change.path, change.before ?? '', change.after ?? '', 'original', 'modified');
    case 'move':
      return createTwoFilesPatch(change.path, change.to ?? change.path, change.before ?? '', change.after ?? '');
    default: {
      const never: never = change.kind;
      throw new Error(`unknown change kind ${String(never)}`);
    }
  }
}
