// Entry point of the extension-host test tier, in the shape VS Code's test runner expects
// (`extensionTestsPath` → a module exporting `run(): Promise<void>`): the same module runs under
// code-server (test/vscode/run.mjs) and under @vscode/test-electron (test/electron/run.mjs).
// It runs every *.test.js beside it with mocha (BDD) and, when SWITCHBOARD_TEST_RESULTS is set,
// writes the counts there as JSON for the runner. Suites in subfolders (restricted/) have their own
// entry point built on runTestsIn(), because they need a VS Code started differently.
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

export interface TierResults {
  passed: number;
  failed: number;
  pending: number;
  failures: { title: string; error: string }[];
  vscodeVersion: string;
  node: string;
  uiKind: string;
  remoteName: string | undefined;
  files: string[];
  durationMs: number;
}

function testFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => path.join(dir, f));
}

function writeResults(results: TierResults): void {
  const file = process.env.SWITCHBOARD_TEST_RESULTS;
  if (!file) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(results, null, 2));
}

export function run(): Promise<void> {
  return runTestsIn(__dirname);
}

/** Runs every *.test.js directly in `dir` (not below it). */
export function runTestsIn(dir: string): Promise<void> {
  const started = Date.now();
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    reporter: 'spec',
    timeout: Number(process.env.SWITCHBOARD_TEST_TIMEOUT_MS) || 30_000,
    ...(process.env.SWITCHBOARD_TEST_GREP ? { grep: process.env.SWITCHBOARD_TEST_GREP } : {}),
  });
  const files = testFiles(dir);
  const results: TierResults = {
    passed: 0,
    failed: 0,
    pending: 0,
    failures: [],
    vscodeVersion: vscode.version,
    node: process.version,
    uiKind: vscode.UIKind[vscode.env.uiKind] ?? String(vscode.env.uiKind),
    remoteName: vscode.env.remoteName,
    files: files.map((f) => path.basename(f)),
    durationMs: 0,
  };
  console.log(`[vscode tier] VS Code ${vscode.version} (${results.uiKind}, remote: ${results.remoteName ?? 'none'}), extension host Node ${process.version}, ${files.length} test files`);
  if (files.length === 0) {
    results.failed = 1;
    results.failures.push({ title: 'vscode tier', error: `no *.test.js files in ${dir}` });
    writeResults(results);
    return Promise.reject(new Error(`no *.test.js files in ${dir}`));
  }
  for (const f of files) mocha.addFile(f);

  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        results.durationMs = Date.now() - started;
        writeResults(results);
        if (failures > 0) reject(new Error(`${failures} test(s) failed`));
        else resolve();
      });
      runner.on('pass', () => results.passed++);
      runner.on('pending', () => results.pending++);
      runner.on('fail', (test, err: unknown) => {
        results.failed++;
        const e = err as { stack?: string; message?: string } | undefined;
        results.failures.push({ title: test.fullTitle(), error: String(e?.stack ?? e?.message ?? err) });
      });
    } catch (err) {
      results.failed++;
      results.failures.push({ title: 'loading the test files', error: String((err as Error)?.stack ?? err) });
      writeResults(results);
      reject(err);
    }
  });
}
