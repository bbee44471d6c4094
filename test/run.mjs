#!/usr/bin/env node
// The test orchestrator: `node test/run.mjs [unit] [integration] [conformance] [vscode] [e2e]` (default:
// all five, in that order, preceded by typecheck and lint). Builds once, compiles the tests once, installs
// the toolchain when the conformance suite or a real-VS-Code tier is asked for, packages the .vsix for
// e2e, runs the tiers, prints a summary table, and ends with exactly one line
// `tests: N passed, N failed, N skipped`.
// Exit code: 0 only when every step and every tier passed. A tier that finds no tests fails.
import cp from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { killGroup, onExit } from './harness/cleanup.mjs';
import { repoRoot, resultsRoot } from './harness/paths.mjs';

const TIERS = ['unit', 'integration', 'conformance', 'vscode', 'e2e'];
const MINUTE = 60_000;

const args = process.argv.slice(2);
const unknown = args.filter((a) => !TIERS.includes(a));
if (unknown.length) {
  console.error(`unknown tier(s): ${unknown.join(', ')}\nusage: node test/run.mjs [${TIERS.join('] [')}]   (no argument: typecheck, lint and all tiers)`);
  process.exit(2);
}
const runAll = args.length === 0;
const tiers = runAll ? TIERS : TIERS.filter((t) => args.includes(t));
const needsToolchain = tiers.some((t) => t === 'conformance' || t === 'vscode' || t === 'e2e');

const t0 = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;
const rows = []; // { name, kind: 'step'|'tier', ok, passed, failed, pending, ms, note }

function banner(text) {
  console.log(`\n━━━ ${text} ${'━'.repeat(Math.max(3, 72 - text.length))}`);
}

/** Runs a command with inherited output in its own process group; resolves to its exit code. */
function run(cmd, cmdArgs, { timeoutMs = 30 * MINUTE, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = cp.spawn(cmd, cmdArgs, {
      cwd: repoRoot,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...env },
      detached: true,
    });
    // SIGTERM, not SIGKILL: a tier runner stops its own code-server and browser when told to end.
    const forget = onExit(() => killGroup(child.pid, 'SIGTERM'));
    const timer = setTimeout(() => {
      console.error(`\n[test] ${cmd} ${cmdArgs.join(' ')}: timed out after ${seconds(timeoutMs)}, killing it`);
      killGroup(child.pid, 'SIGTERM');
      setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5000).unref();
    }, timeoutMs);
    const done = (code) => {
      clearTimeout(timer);
      forget();
      resolve(code);
    };
    child.on('error', (err) => {
      console.error(`[test] cannot start ${cmd}: ${err.message}`);
      done(127);
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

async function step(name, cmd, cmdArgs, options) {
  banner(name);
  const started = Date.now();
  const code = await run(cmd, cmdArgs, options);
  const ok = code === 0;
  rows.push({ name, kind: 'step', ok, ms: Date.now() - started, note: ok ? '' : `exit ${code}` });
  return ok;
}

/** Every *.test.js under out/test/<tier>, sorted. */
function compiledTests(tier) {
  const dir = path.join(repoRoot, 'out', 'test', tier);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => path.join(dir, f));
}

/**
 * Deletes compiled files in out/ whose TypeScript source is gone (a removed or renamed test would
 * otherwise keep running). Not `rm -rf out`: a second test run in the same tree may be using it.
 */
function pruneStaleOutputs() {
  const outDir = path.join(repoRoot, 'out');
  if (!fs.existsSync(outDir)) return;
  for (const rel of fs.readdirSync(outDir, { recursive: true }).map(String)) {
    const m = /^(.*)\.js(\.map)?$/.exec(rel);
    if (!m) continue;
    const source = path.join(repoRoot, m[1]);
    if (!fs.existsSync(`${source}.ts`) && !fs.existsSync(`${source}.tsx`)) {
      fs.rmSync(path.join(outDir, rel), { force: true });
      if (!m[2]) console.log(`[test] removed stale ${path.join('out', rel)} (its source is gone)`);
    }
  }
}

function readCounts(file) {
  try {
    const c = JSON.parse(fs.readFileSync(file, 'utf8'));
    const counts = { passed: c.passed | 0, failed: c.failed | 0, pending: c.pending | 0 };
    // A runner may add a short note for the summary table (e.g. per-scenario counts).
    if (typeof c.note === 'string') counts.note = c.note;
    // The vscode tier's activation measurement (`activation: median X ms of 5 (…)`), repeated in the summary.
    if (typeof c.activation === 'string') counts.activation = c.activation;
    return counts;
  } catch {
    return undefined;
  }
}

function tierResult(name, started, code, counts, note = '') {
  let reason = note;
  if (!counts) reason ||= code === 0 ? 'no results written' : `exit ${code}, no results written`;
  else if (counts.passed + counts.failed === 0) reason ||= 'no test ran';
  else if (code !== 0 && counts.failed === 0) reason ||= `exit ${code}`;
  const c = counts ?? { passed: 0, failed: 0, pending: 0 };
  const ok = code === 0 && !!counts && c.failed === 0 && c.passed > 0;
  const { passed, failed, pending } = c;
  rows.push({ name, kind: 'tier', ok, passed, failed, pending, ms: Date.now() - started, note: ok ? note || c.note || '' : reason || c.note || 'failed', activation: c.activation });
}

function tierBlocked(name, why) {
  banner(name);
  console.log(`[test] ${name}: not run, ${why}`);
  rows.push({ name, kind: 'tier', ok: false, passed: 0, failed: 0, pending: 0, ms: 0, note: `not run: ${why}` });
}

async function mochaTier(tier, { timeout, tierTimeoutMs }) {
  banner(tier);
  const started = Date.now();
  const files = compiledTests(tier);
  if (files.length === 0) {
    console.log(`[test] ${tier}: no test files (expected test/${tier}/**/*.test.ts → out/test/${tier}/**/*.test.js)`);
    tierResult(tier, started, 1, undefined, `no test files in test/${tier}`);
    return;
  }
  const countsFile = path.join(resultsRoot, tier, 'results.json');
  fs.rmSync(path.dirname(countsFile), { recursive: true, force: true });
  fs.mkdirSync(path.dirname(countsFile), { recursive: true });
  const code = await run(
    process.execPath,
    [
      '--enable-source-maps',
      path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js'),
      '--reporter', path.join(repoRoot, 'test', 'harness', 'countingReporter.cjs'),
      '--reporter-option', `countsFile=${countsFile}`,
      '--ui', 'bdd',
      '--timeout', String(timeout),
      '--exit',
      ...files.map((f) => path.relative(repoRoot, f)),
    ],
    { timeoutMs: tierTimeoutMs },
  );
  tierResult(tier, started, code, readCounts(countsFile));
}

async function runnerTier(tier, { tierTimeoutMs }) {
  banner(tier);
  const started = Date.now();
  const resultsFile = path.join(resultsRoot, tier, 'results.json');
  fs.rmSync(resultsFile, { force: true });
  const code = await run(process.execPath, [path.join(repoRoot, 'test', tier, 'run.mjs')], { timeoutMs: tierTimeoutMs });
  tierResult(tier, started, code, readCounts(resultsFile));
}

function printSummary() {
  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
  banner('summary');
  console.log(`${pad('', 14)}${pad('result', 8)}${lpad('passed', 8)}${lpad('failed', 8)}${lpad('skipped', 9)}${lpad('time', 9)}  note`);
  for (const r of rows) {
    const result = r.ok ? (r.kind === 'tier' ? 'PASS' : 'ok') : 'FAIL';
    const counts = r.kind === 'tier' ? `${lpad(r.passed, 8)}${lpad(r.failed, 8)}${lpad(r.pending, 9)}` : ' '.repeat(25);
    console.log(`${pad(r.name, 14)}${pad(result, 8)}${counts}${lpad(seconds(r.ms), 9)}  ${r.note ?? ''}`.trimEnd());
  }
  for (const r of rows) if (r.activation) console.log(`\n${r.activation}`);
  const failedRows = rows.filter((r) => !r.ok);
  const withArtifacts = failedRows.filter((r) => fs.existsSync(path.join(resultsRoot, r.name)));
  if (withArtifacts.length) {
    console.log('\nscreenshots, logs and results of the failed tiers:');
    for (const r of withArtifacts) console.log(`  ${r.name}: ${path.relative(process.cwd(), path.join(resultsRoot, r.name)) || '.'}/`);
  }
  console.log(`\ntotal ${seconds(Date.now() - t0)}; ${failedRows.length ? `FAILED: ${failedRows.map((r) => r.name).join(', ')}` : 'all green'}`);
  const sum = (key) => rows.filter((r) => r.kind === 'tier').reduce((n, r) => n + r[key], 0);
  // A failed step or a tier that failed without counting a failed test still counts as one failure.
  const uncounted = failedRows.filter((r) => r.kind === 'step' || r.failed === 0).length;
  console.log(`tests: ${sum('passed')} passed, ${sum('failed') + uncounted} failed, ${sum('pending')} skipped`);
  return failedRows.length === 0;
}

async function main() {
  console.log(`[test] tiers: ${tiers.join(', ')}${runAll ? ' (plus typecheck and lint)' : ''}`);
  if (runAll) {
    await step('typecheck', npm, ['run', '--silent', 'typecheck']);
    await step('lint', npm, ['run', '--silent', 'lint']);
  }
  const built = await step('build', npm, ['run', '--silent', 'build']);
  const compiled = await step('compile-tests', npm, ['run', '--silent', 'compile-tests']);
  pruneStaleOutputs();
  // esbuild only transpiles: a type error shows in the typecheck step (npm test), not here.
  if (!compiled) console.log('[test] compile-tests reported errors; running what was emitted');
  const toolchain = needsToolchain ? await step('toolchain', 'bash', [path.join('scripts', 'setup-toolchain.sh')]) : true;
  const packaged = tiers.includes('e2e') && built ? await step('package', npm, ['run', '--silent', 'package']) : built;

  for (const tier of tiers) {
    if (tier === 'unit') await mochaTier('unit', { timeout: 5000, tierTimeoutMs: 10 * MINUTE });
    if (tier === 'integration') await mochaTier('integration', { timeout: 20_000, tierTimeoutMs: 15 * MINUTE });
    if (tier === 'conformance') {
      if (!built) tierBlocked(tier, 'the build failed');
      else if (!toolchain) tierBlocked(tier, 'the toolchain setup failed');
      else await runnerTier(tier, { tierTimeoutMs: 5 * MINUTE });
    }
    if (tier === 'vscode' || tier === 'e2e') {
      if (!built) tierBlocked(tier, 'the build failed');
      else if (!toolchain) tierBlocked(tier, 'the toolchain setup failed');
      else if (tier === 'e2e' && !packaged) tierBlocked(tier, 'packaging failed');
      // The vscode tier also opens five fresh windows to measure activation (test/vscode/run.mjs). The
      // e2e tier runs a dozen flows, each in a workbench of its own under its own limit (test/e2e/run.mjs):
      // this is only the backstop for a runner that hangs, not the sum of those limits.
      else await runnerTier(tier, { tierTimeoutMs: 20 * MINUTE });
    }
  }
  return printSummary();
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    console.error('[test] orchestrator error:', err?.stack ?? err);
    console.log('tests: 0 passed, 1 failed');
    process.exit(1);
  },
);
