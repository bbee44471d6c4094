#!/usr/bin/env node
// The conformance tier: the official MCP conformance suite (@modelcontextprotocol/conformance, pinned
// by scripts/setup-toolchain.sh) drives `dist/cli.js conformance-client` — our client, built on the
// extension's own connection code — through the client scenarios of both protocol generations: every
// client scenario of the suite's release (0.1.16, the 2025-11-25 revision), and, from the suite's 0.2
// line (0.2.0-alpha.12), every client scenario the 2026-07-28 revision requires plus the one added
// after it, run at that revision's wire (`--spec-version 2026-07-28`; listed as `name@2026-07-28`).
//
// The suite's test servers listen on all interfaces, so the suite runs inside a private network
// namespace that has nothing but loopback (`unshare -rn`, which works as root and, where user
// namespaces are allowed, unprivileged). Without `unshare` the tier fails: it never runs those servers
// on a public interface.
//
// Counts are per check, as the suite reports them: a SUCCESS passes; a FAILURE fails, and so does a
// WARNING (the suite fails a scenario on warnings too). A scenario that fails without a failing check
// (the client crashed, no result written) counts one failure. Results go to .test-results/conformance/.
// Builds nothing: `node test/run.mjs conformance` builds first.
// Exit code: 0 every scenario passed, 1 a scenario failed, 3 the harness itself failed.
// Environment: SWITCHBOARD_CONFORMANCE_SCENARIOS (comma-separated names as listed, default all below),
// SWITCHBOARD_CONFORMANCE_TIMEOUT_MS (per scenario, default 60000), VERBOSE=1 (the suite's full output).
import cp from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { killGroup, onExit } from '../harness/cleanup.mjs';
import { makeLogger } from '../harness/log.mjs';
import { conformanceCli, conformanceNextCli, freshResultsDir, node22Bin, repoRoot } from '../harness/paths.mjs';

const log = makeLogger('conformance');
// Every client scenario of the pinned release (0.1.16): `conformance list --client`.
const RELEASE_SCENARIOS = [
  'initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry',
  'auth/metadata-default', 'auth/metadata-var1', 'auth/metadata-var2', 'auth/metadata-var3',
  'auth/basic-cimd', 'auth/scope-from-www-authenticate', 'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined', 'auth/scope-step-up', 'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic', 'auth/token-endpoint-auth-post', 'auth/token-endpoint-auth-none',
  'auth/pre-registration', 'auth/2025-03-26-oauth-metadata-backcompat', 'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch', 'auth/offline-access-scope', 'auth/offline-access-not-supported',
  'auth/client-credentials-jwt', 'auth/client-credentials-basic', 'auth/cross-app-access-complete-flow',
];
// The 2026-07-28 revision's client scenarios (`conformance list --requirements 2026-07-28` of the pinned
// 0.2 suite: the required set, frozen at the revision's release), and json-schema-2020-12-preservation,
// added after it. The suite's extension scenarios are not on the revision's timeline; the release run
// has those that exist for a client of ours.
const NEXT_SPEC = '2026-07-28';
const NEXT_SCENARIOS = [
  'tools_call', 'request-metadata',
  'auth/metadata-default', 'auth/metadata-var1', 'auth/metadata-var2', 'auth/metadata-var3',
  'auth/basic-cimd', 'auth/scope-from-www-authenticate', 'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined', 'auth/scope-step-up', 'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic', 'auth/token-endpoint-auth-post', 'auth/token-endpoint-auth-none',
  'auth/pre-registration', 'auth/resource-mismatch', 'auth/offline-access-scope', 'auth/offline-access-not-supported',
  'auth/authorization-server-migration', 'auth/iss-supported', 'auth/iss-not-advertised', 'auth/iss-supported-missing',
  'auth/iss-wrong-issuer', 'auth/iss-unexpected', 'auth/iss-normalized', 'auth/metadata-issuer-mismatch',
  'sep-2322-client-request-state', 'http-standard-headers', 'http-custom-headers', 'http-invalid-tool-headers',
  'json-schema-ref-no-deref', 'json-schema-2020-12-preservation',
];
/** Every run: the scenario, the suite that runs it, the revision it runs at, and its name in the results. */
const ALL_RUNS = [
  ...RELEASE_SCENARIOS.map((scenario) => ({ scenario, cli: conformanceCli, spec: undefined, label: scenario })),
  ...NEXT_SCENARIOS.map((scenario) => ({ scenario, cli: conformanceNextCli, spec: NEXT_SPEC, label: `${scenario}@${NEXT_SPEC}` })),
];
// The client ID metadata document URL the suite's authorization servers expect (SEP-991 scenarios);
// the suite never fetches it during a scenario, so no network is needed.
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const chosen = process.env.SWITCHBOARD_CONFORMANCE_SCENARIOS?.split(',').map((s) => s.trim()).filter(Boolean);
const runs = chosen?.length ? chosen.map((label) => ALL_RUNS.find((run) => run.label === label) ?? { scenario: label, cli: conformanceCli, spec: undefined, label }) : ALL_RUNS;
const TIMEOUT_MS = Number(process.env.SWITCHBOARD_CONFORMANCE_TIMEOUT_MS) || 60_000;
const verbose = Boolean(process.env.VERBOSE);
const cliPath = path.join(repoRoot, 'dist', 'cli.js');

/** Quotes a word for the POSIX shell the suite runs the client command with. */
function shellQuote(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `argv` run inside a fresh network namespace where only loopback exists (and is up). */
function isolated(argv) {
  return ['unshare', ['-rn', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', ...argv]];
}

function preflight() {
  const missing = [node22Bin, ...new Set(runs.map((run) => run.cli))].filter((p) => !fs.existsSync(p));
  if (missing.length) throw new Error(`conformance toolchain missing (${missing.join(', ')}); run \`npm run toolchain\` first`);
  if (!fs.existsSync(cliPath)) throw new Error(`${path.relative(repoRoot, cliPath)} not found: build first (npm run build)`);
  const [cmd, args] = isolated(['true']);
  const probe = cp.spawnSync(cmd, args, { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    const why = probe.error?.code === 'ENOENT' ? '`unshare` is not installed (util-linux)' : (probe.stderr || probe.error?.message || `exit ${probe.status}`).trim();
    throw new Error(
      `cannot create a private network namespace: ${why}.\n` +
      'The conformance suite\'s test servers listen on all interfaces, so this tier runs them only inside\n' +
      '`unshare -rn` (root, or unprivileged user namespaces enabled; `ip` from iproute2 is needed too).',
    );
  }
}

/** Runs one scenario with its suite (at its revision); resolves to its exit code, timing and the suite's output. */
function runScenario({ scenario, cli, spec }, outDir) {
  const client = [process.execPath, cliPath, 'conformance-client', '--client-metadata-url', CLIENT_METADATA_URL, '--verbose'].map(shellQuote).join(' ');
  const [cmd, args] = isolated([node22Bin, cli, 'client', '--command', client, '--scenario', scenario, ...(spec ? ['--spec-version', spec] : []), '-o', outDir]);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = cp.spawn(cmd, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const forget = onExit(() => killGroup(child.pid, 'SIGKILL'));
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, 'SIGKILL');
    }, TIMEOUT_MS);
    const done = (code) => {
      clearTimeout(timer);
      forget();
      resolve({ code, output, ms: Date.now() - started, timedOut });
    };
    child.on('error', (error) => { output += `\ncannot start ${cmd}: ${error.message}`; done(127); });
    child.on('close', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

/** The checks.json the suite wrote somewhere under `dir` (scenario names with a slash nest folders). */
function readChecks(dir) {
  const file = fs.readdirSync(dir, { recursive: true }).map(String).find((f) => path.basename(f) === 'checks.json');
  if (!file) return undefined;
  return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
}

function count(checks, status) {
  return checks.filter((c) => c.status === status).length;
}

async function main() {
  const resultsDir = freshResultsDir('conformance');
  preflight();
  log(`scenarios: ${runs.map((run) => run.label).join(', ')} (client: dist/cli.js conformance-client on ${process.version})`);
  const results = [];
  for (const planned of runs) {
    const scenario = planned.label;
    const outDir = path.join(resultsDir, scenario.replace(/[/@]/g, '_'));
    fs.mkdirSync(outDir, { recursive: true });
    const run = await runScenario(planned, outDir);
    fs.writeFileSync(path.join(outDir, 'suite.log'), run.output);
    const checks = readChecks(outDir) ?? [];
    const success = count(checks, 'SUCCESS');
    const failure = count(checks, 'FAILURE');
    const warning = count(checks, 'WARNING');
    const ok = run.code === 0 && !run.timedOut && failure === 0 && warning === 0 && success > 0;
    // Honest counts: a scenario that failed without a failing check still fails once.
    const failed = failure + warning + (!ok && failure + warning === 0 ? 1 : 0);
    const why = run.timedOut ? `timed out after ${TIMEOUT_MS} ms` : checks.length === 0 ? 'no checks written' : run.code !== 0 ? `suite exit ${run.code}` : '';
    results.push({ scenario, ok, passed: success, failed, warnings: warning, ms: run.ms, exitCode: run.code, note: why });
    log(`${ok ? 'PASS' : 'FAIL'} ${scenario}: ${success}/${success + failure} checks passed, ${failure} failed, ${warning} warnings (${run.ms} ms)${ok || !why ? '' : `; ${why}`}`);
    if (verbose || !ok) {
      const interesting = run.output.split('\n').filter((l) => !/\bINFO\b/.test(l) && l.trim() !== '');
      console.log(interesting.map((l) => `    ${l}`).join('\n'));
      // The suite prints the client's stderr itself when the client exited with an error.
      const clientErr = fs.readdirSync(outDir, { recursive: true }).map(String).find((f) => path.basename(f) === 'stderr.txt');
      if (clientErr && !run.output.includes('Client exited with code')) console.log(`    client stderr (${path.join(path.relative(repoRoot, outDir), clientErr)}):\n${fs.readFileSync(path.join(outDir, clientErr), 'utf8').replace(/^/gm, '      ')}`);
    }
  }
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  const note = results.map((r) => `${r.scenario} ${r.passed}/${r.passed + r.failed}`).join(', ');
  fs.writeFileSync(path.join(resultsDir, 'results.json'), `${JSON.stringify({ passed, failed, pending: 0, note, scenarios: results }, null, 2)}\n`);
  log(`${results.filter((r) => r.ok).length}/${results.length} scenarios passed; checks: ${passed} passed, ${failed} failed`);
  return results.every((r) => r.ok) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[conformance] ${error?.message ?? error}`);
    process.exit(3);
  },
);
