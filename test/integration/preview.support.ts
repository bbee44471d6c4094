// What the preview integration suites share: a byte-exact snapshot of folders (kind, bytes, mode, link
// target per path), the snapshot a prediction says will result, and running `switchboard preview`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from './support';

export type Entry =
  | { kind: 'directory'; mode: number }
  | { kind: 'file'; bytes: Buffer; mode: number | undefined }
  | { kind: 'symlink'; target: string };

/** Every entry under the folders (the folders themselves excluded), by absolute path, never following links. */
export function snapshot(...dirs: string[]): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  const walk = (dir: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      const stats = fs.lstatSync(file);
      if (stats.isSymbolicLink()) entries.set(file, { kind: 'symlink', target: fs.readlinkSync(file) });
      else if (stats.isDirectory()) {
        entries.set(file, { kind: 'directory', mode: stats.mode & 0o7777 });
        walk(file);
      } else entries.set(file, { kind: 'file', bytes: fs.readFileSync(file), mode: stats.mode & 0o7777 });
    }
  };
  for (const dir of dirs) walk(dir);
  return entries;
}

export interface PredictedChange {
  path: string;
  kind: 'create' | 'modify' | 'move';
  before: string | null;
  after: string | null;
  to?: string;
}

export interface Prediction {
  changes: PredictedChange[];
  diff: string;
  error?: string;
  outsideRoots?: string[];
}

/**
 * The snapshot `before` becomes when the predicted changes happen: a created file's mode is not part
 * of a prediction, so it is left undefined (and compared as such by `sameTree`).
 */
export function expectedAfter(before: Map<string, Entry>, changes: PredictedChange[]): Map<string, Entry> {
  const after = new Map(before);
  for (const change of changes) {
    if (change.kind === 'move') {
      assert.ok(change.to !== undefined, 'a move names its destination');
      for (const [file, entry] of before) {
        if (file === change.path || file.startsWith(change.path + path.sep)) {
          after.delete(file);
          after.set(change.to + file.slice(change.path.length), entry);
        }
      }
      continue;
    }
    assert.ok(change.after !== null, `${change.kind} of ${change.path} has text`);
    const existing = before.get(change.path);
    const mode = existing?.kind === 'file' ? existing.mode : undefined;
    after.set(change.path, { kind: 'file', bytes: Buffer.from(change.after, 'utf8'), mode });
  }
  return after;
}

/** Asserts the two snapshots hold the same paths with the same bytes, kinds, link targets and (where predicted) modes. */
export function assertSameTree(actual: Map<string, Entry>, expected: Map<string, Entry>, what: string): void {
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), `${what}: the same paths`);
  for (const [file, want] of expected) {
    const got = actual.get(file)!;
    if (want.kind === 'file' && want.mode === undefined && got.kind === 'file') {
      assert.deepEqual({ ...got, mode: undefined }, want, `${what}: ${file}`);
    } else {
      assert.deepEqual(got, want, `${what}: ${file}`);
    }
  }
}

/** Runs `switchboard preview` and parses its JSON; the exit code must say whether it predicts a refusal. */
export function preview(roots: string[], tool: string, args: unknown): Prediction {
  const result = runCli(['preview', ...roots.flatMap((root) => ['--root', root]), '--tool', tool, '--args', JSON.stringify(args)]);
  assert.equal(result.stderr, '', 'nothing on stderr');
  const prediction = JSON.parse(result.stdout) as Prediction;
  const flagged = prediction.error !== undefined || (prediction.outsideRoots?.length ?? 0) > 0;
  assert.equal(result.status, flagged ? 1 : 0, `exit status for ${result.stdout}`);
  return prediction;
}
