// Test fixtures are copied into a fresh temporary folder before a run: tests may edit them freely and
// every run starts from the same files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixturesDir } from './paths.mjs';

/** A new empty folder under the OS temp dir, e.g. switchboard-vscode-XXXXXX. */
export function makeStateDir(tier) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `switchboard-${tier}-`));
}

/**
 * Copies test/fixtures/<name>/ into <stateDir>/fixture and returns its paths:
 * { root, workspace, home } (workspace/ and home/ inside the copy).
 */
export function prepareFixture(name, stateDir) {
  const source = path.join(fixturesDir, name);
  if (!fs.existsSync(source)) throw new Error(`fixture ${source} does not exist`);
  const root = path.join(stateDir, 'fixture');
  fs.rmSync(root, { recursive: true, force: true });
  fs.cpSync(source, root, { recursive: true });
  return { root, workspace: path.join(root, 'workspace'), home: path.join(root, 'home') };
}
