// `npm run bench`: Switchboard's path against the bare MCP SDK doing the same work, in one run.
//
//   node bench/run.mjs [--rounds 7] [--servers 10] [--calls 1000] [--concurrency 50]
//                      [--warmup-calls 4000] [--batches 3] [--no-warmup-round] [--check] [--keep-build]
//                      [--profile] [--out bench/results/latest.json]
//
// Each side runs in its own fresh Node process with the same flags; the sides alternate
// (switchboard, bare, switchboard, bare, …) after one unrecorded warm-up pair. Every figure is a ratio
// of medians over the rounds, with the spread of the per-round ratios beside it; results/latest.json
// keeps every raw timing. --profile adds one CPU-profiled pair and says where each side's time per call
// goes (bench/profile.mjs). See bench/README.md.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs as parseArgv } from 'node:util';
import { build } from './build.mjs';
import { summarize } from './profile.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.dirname(benchDir);
const RESULT_PREFIX = 'BENCH_RESULT ';
/** Both sides run with exactly these flags (--expose-gc: memory is read after full collections). */
const NODE_FLAGS = ['--expose-gc'];
/** Hard bound of the whole run (a child is killed when it would overrun it), well under 5 minutes. */
const TOTAL_BUDGET_MS = 240_000;
/** One side's run normally takes 3–8 s; this only catches a hang. */
const CHILD_TIMEOUT_MS = 60_000;
/** A side is not started with less time than this left. */
const MIN_CHILD_MS = 15_000;

/** Each figure: how it is computed from the sides' medians, and its target. */
const FIGURES = [
  { key: 'startup_ratio', metric: 'startupMs', kind: 'ratio', target: 1.10, label: '{servers} servers to ready, catalogs listed' },
  { key: 'call_ratio_seq', metric: 'seqMs', kind: 'ratio', target: 1.10, label: '{calls} sequential echo calls' },
  { key: 'call_ratio_conc', metric: 'concMs', kind: 'ratio', target: 1.15, label: '{calls} echo calls, {concurrency} in flight' },
  { key: 'rss_per_connection_mb', metric: 'rssPerConnectionMb', kind: 'difference', target: 1.0, label: 'extra RSS per connection (MB)' },
];

/** Further medians kept for reading the figures (not targets). */
const DETAILS = ['initializeMs', 'startupCpuMs', 'coldSeqMs', 'seqCallUs', 'seqCpuUs', 'concCallsPerSecond', 'concCpuUs', 'heapPerConnectionMb', 'rssBeforeMb', 'rssAfterMb', 'stopMs'];

const NOTES = [
  'Approval policy: every call goes through the tool call gate (src/core/calls), whose decision step is the extension\'s approvalStep() (src/core/approvals/approvalStep.ts, the real policy) in "ask before edits" mode with an "always allow" rule for echo: the path of a call a person allowed for good.',
  'History: every call\'s record becomes a history entry as in the extension (CallRecorder: arguments scrubbed of the launch\'s secrets, the result\'s size, the output scan), kept in a CallHistory of 500.',
  'Catalog lookup: the gate resolves the tool (known server, ready, offered by the entry\'s filters, listed, not blocked or changed) before the decision step.',
  'Result conversion: the content blocks as the server returned them (CallToolResult.content; isError becomes an Error).',
  'Same work on the wire: both sides declare the roots capability (server-everything then asks roots/list once) and list tools, resources, resource templates and prompts once per server. Switchboard additionally sends logging/setLevel and re-lists tools on tools/list_changed, as the product does.',
  'Environment: the bare side uses the SDK default (HOME, LOGNAME, PATH, SHELL, TERM, USER); Switchboard passes the whole inherited environment, as designed (DESIGN.md §4). Both add one marker variable used to find leftover processes.',
  'Warm-up: each process first makes --warmup-calls sequential calls (timed as coldSeqMs: V8 is still compiling the path; 4000 by default because the longer Switchboard path reaches steady state later than the bare Client) and as many with --concurrency in flight; the call figures are measured after that, on the compiled path.',
  'Calls: each run times --batches sequential and as many concurrent batches of --calls calls, alternated, and reports its best batch of each kind (the least disturbed by other load); every batch is kept in raw[].batches. The figures are medians of those per-run values.',
  'Startup is measured from the first spawn to the moment every catalog is listed; initializeMs (in details) stops when every server completed initialize.',
  'Wall-clock figures are sensitive to other load on the machine; seqCpuUs / concCpuUs (client CPU per call) are the steadier view of the client-side cost.',
  'Process groups: Switchboard starts each server in its own session (detached, for process-group shutdown); under Linux autogroup scheduling each server then gets its own CPU share, which makes its startup look faster than the bare SDK on a loaded machine. That is the scheduler, not a faster code path.',
];

function parseArgs(argv) {
  const numeric = { rounds: 7, servers: 10, calls: 1000, concurrency: 50, 'warmup-calls': 4000, batches: 3, 'idle-ms': 600 };
  const { values } = parseArgv({
    args: argv,
    options: {
      ...Object.fromEntries(Object.keys(numeric).map((name) => [name, { type: 'string' }])),
      'no-warmup-round': { type: 'boolean' }, check: { type: 'boolean' }, 'keep-build': { type: 'boolean' }, profile: { type: 'boolean' },
      out: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(0, 5).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
    process.exit(0);
  }
  const whole = (name) => {
    if (values[name] === undefined) return numeric[name];
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} needs a whole number`);
    return value;
  };
  const options = {
    profile: values.profile ?? false, rounds: whole('rounds'), servers: whole('servers'), calls: whole('calls'), concurrency: whole('concurrency'),
    warmupCalls: whole('warmup-calls'), batches: whole('batches'), idleMs: whole('idle-ms'), warmupRound: !values['no-warmup-round'],
    check: values.check ?? false, keepBuild: values['keep-build'] ?? false, out: values.out !== undefined ? path.resolve(values.out) : path.join(benchDir, 'results', 'latest.json'),
  };
  if (options.rounds < 5) console.warn(`[bench] --rounds ${options.rounds}: the figures are meant as medians of at least 5 rounds`);
  return options;
}

/** The server-everything entry script, from its package.json `bin`. */
function everythingScript() {
  const dir = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (!bin) throw new Error('@modelcontextprotocol/server-everything has no bin entry');
  return path.join(dir, bin);
}

/** Runs one side in a fresh process; resolves with its result (or an error record). */
function runSide(bundle, args, timeoutMs, extraFlags = []) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, ...extraFlags, bundle, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
      if (code === 0 && line) resolve(JSON.parse(line.slice(RESULT_PREFIX.length)));
      else resolve({ error: `exited with ${signal ?? `code ${code}`}${signal === 'SIGKILL' ? ` (killed after ${Math.round(timeoutMs / 1000)} s)` : ''}: ${stderr.trim().split('\n').slice(-5).join(' | ')}` });
    });
  });
}

/**
 * Processes carrying this run's marker in their environment: servers left behind. Linux reads
 * /proc/<pid>/environ; elsewhere the check is skipped (undefined).
 */
function processesWithMarker(marker) {
  if (process.platform !== 'linux') return undefined;
  const needle = `SWITCHBOARD_BENCH_RUN=${marker}`;
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (!environ.split('\0').includes(needle)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'latin1');
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (state !== 'Z' && state !== 'X') found.push(Number(entry));
    } catch {
      // gone while we looked, or not ours to read
    }
  }
  return found;
}

/** Kills leftover servers of this run (found by marker) and waits briefly for them to go. */
async function killLeftovers(marker, pids) {
  for (const pid of pids) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
  }
  for (let i = 0; i < 50 && (processesWithMarker(marker) ?? []).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
}

function median(values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The q-quantile (0…1) of the finite numbers in `values`, interpolated; null when there are none. */
function quantile(values, q) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
}

/**
 * How much the per-round values move: min, quartiles, max. A ratio whose quartiles straddle 1 is
 * load, not a regression; one whose whole range sits above its target is worth a profile.
 */
function spreadOf(values, digits = 3) {
  const finite = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  return {
    rounds: finite.length,
    min: round(quantile(finite, 0), digits),
    q1: round(quantile(finite, 0.25), digits),
    median: round(quantile(finite, 0.5), digits),
    q3: round(quantile(finite, 0.75), digits),
    max: round(quantile(finite, 1), digits),
  };
}

const round = (value, digits = 3) => (value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits);

/** Where the measured code lives (what the Switchboard side bundles from src/). */
const MEASURED_SOURCES = ['src/core/calls', 'src/core/approvals', 'src/core/chat/outputReview.ts', 'src/core/trust', 'src/core/lifecycle', 'src/core/config', 'src/core/event.ts', 'src/core/disposable.ts', 'src/node'];

/** Which source was measured: the commit, and the measured files with uncommitted changes (repo-relative). */
function sourceInfo() {
  const git = (args) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const changed = git(['status', '--porcelain', '--', ...MEASURED_SOURCES]).split('\n').filter(Boolean).map((line) => line.slice(3));
    return { commit: git(['rev-parse', '--short', 'HEAD']), uncommittedMeasuredFiles: changed };
  } catch {
    return { commit: 'unknown' };
  }
}

function machineInfo() {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    totalMemoryMb: Math.round(os.totalmem() / 1024 / 1024),
    loadAverage: os.loadavg().map((l) => round(l, 2)),
    node: process.version,
    platform: process.platform,
    arch: process.arch,
  };
}

function formatLabel(label, config) {
  return label.replace(/\{(\w+)\}/g, (_, key) => String(config[key]));
}

function printTable(result) {
  const rows = [['figure', 'switchboard', 'bare SDK', 'value', 'rounds: q1–q3 (min–max)', 'target', '']];
  const spreadText = (s) => (s.rounds === 0 ? '–' : `${s.q1}–${s.q3} (${s.min}–${s.max})`);
  for (const figure of FIGURES) {
    const f = result.figures[figure.key];
    const unit = figure.metric.endsWith('Mb') ? ' MB' : ' ms';
    const fmt = (v) => (v === null ? '–' : `${v}${unit}`);
    rows.push([figure.key, fmt(f.switchboard), fmt(f.bare), f.value === null ? '–' : String(f.value), spreadText(f.pairedSpread), `≤ ${f.target}`, f.pass ? 'pass' : 'MISS']);
  }
  for (const [metric, f] of Object.entries(result.cpuPerCall)) {
    const fmt = (v) => (v === null ? '–' : `${v} µs`);
    rows.push([`cpu_ratio_${metric === 'seqCpuUs' ? 'seq' : 'conc'}`, fmt(f.switchboard), fmt(f.bare), f.ratio === null ? '–' : String(f.ratio), spreadText(f.pairedSpread), '', '']);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  console.log('');
  console.log(line(rows[0]));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const r of rows.slice(1)) console.log(line(r));
  console.log('');
  const d = result.details;
  const both = (key, unit = '') => `${d.switchboard[key]}${unit} vs ${d.bare[key]}${unit}`;
  console.log(`  cold (first calls):   ${both('coldSeqMs', ' ms')} for ${result.config.warmupCalls} sequential calls in a fresh process (ratio ${d.ratios.coldSeqMs})`);
  console.log(`  initialize only:      ${both('initializeMs', ' ms')} (ratio ${d.ratios.initializeMs})`);
  console.log(`  client CPU per call:  sequential ${both('seqCpuUs', ' µs')} · concurrent ${both('concCpuUs', ' µs')}`);
  console.log(`  per sequential call:  ${both('seqCallUs', ' µs')} · concurrent: ${both('concCallsPerSecond', ' calls/s')}`);
  console.log(`  stop all:             ${both('stopMs', ' ms')}`);
  if (result.profile) printProfile(result.profile);
  console.log(`  ${result.rounds.completed} rounds (median), ${result.machine.cores} cores, Node ${result.machine.node}, load ${result.machine.loadAverage.join(' ')}, ${Math.round(result.durationMs / 1000)} s`);
}

/**
 * One more pair of runs under V8's CPU profiler; sums each side's self time per origin (our src/, the
 * SDK, zod, Node, GC…) and per function over the timed calls only, per call.
 */
async function profilePair(bundles, args, deadline) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-prof-'));
  const sides = {};
  try {
    for (const side of ['switchboard', 'bare']) {
      const sideDir = path.join(dir, side);
      process.stdout.write(`[bench] profile · ${side}… `);
      const run = await runSide(bundles[side], args, Math.max(MIN_CHILD_MS, Math.min(CHILD_TIMEOUT_MS, deadline - Date.now())), ['--cpu-prof', `--cpu-prof-dir=${sideDir}`, '--cpu-prof-interval', '100']);
      if (run.error) { console.log(`failed: ${run.error}`); return { error: `${side}: ${run.error}` }; }
      const file = fs.readdirSync(sideDir).find((name) => name.endsWith('.cpuprofile'));
      if (!file) return { error: `${side}: no profile written` };
      const summary = summarize(JSON.parse(fs.readFileSync(path.join(sideDir, file), 'utf8')), { fromUs: run.timedWindowUs.from, toUs: run.timedWindowUs.to });
      const perCall = (ms) => round((ms * 1000) / run.timedWindowUs.calls, 2);
      sides[side] = {
        calls: run.timedWindowUs.calls,
        sampledUsPerCall: perCall(summary.totalMs),
        byOrigin: Object.fromEntries(summary.origins.map(({ origin, ms }) => [origin, perCall(ms)])),
        topFunctions: summary.functions.slice(0, 25).map((f) => ({ function: f.function, origin: f.origin, usPerCall: perCall(f.ms) })),
      };
      console.log(`${sides[side].sampledUsPerCall} µs sampled per call`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const origins = [...new Set([...Object.keys(sides.switchboard.byOrigin), ...Object.keys(sides.bare.byOrigin)])]
    .filter((origin) => origin !== '(idle)')
    .map((origin) => ({ origin, switchboard: sides.switchboard.byOrigin[origin] ?? 0, bare: sides.bare.byOrigin[origin] ?? 0 }))
    .map((o) => ({ ...o, extra: round(o.switchboard - o.bare, 2) }))
    .sort((a, b) => b.extra - a.extra);
  return { note: 'self time per call over the timed batches (sequential and concurrent), from one profiled run per side (sampling every 100 µs); (idle) is waiting for the server', origins, sides };
}

function printProfile(profile) {
  if (profile.error) { console.log(`  profile: ${profile.error}`); return; }
  console.log('  where the time per call goes (CPU profile, self time, µs per call; busy time only):');
  for (const o of profile.origins.filter((x) => x.switchboard >= 0.05 || x.bare >= 0.05)) {
    console.log(`    ${o.origin.padEnd(22)} ${String(o.switchboard).padStart(7)} vs ${String(o.bare).padStart(7)}   ${o.extra >= 0 ? '+' : ''}${o.extra}`);
  }
  const ours = profile.sides.switchboard.topFunctions.filter((f) => f.origin === 'Switchboard src/').slice(0, 6);
  if (ours.length > 0) console.log(`    Switchboard's own functions: ${ours.map((f) => `${f.function} ${f.usPerCall} µs`).join(' · ')}`);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const startedAt = Date.now();
  const marker = `${process.pid}-${startedAt.toString(36)}`;
  const { dir: buildDir, bundles } = await build({ quiet: true });
  const removeBuild = () => {
    if (options.keepBuild) console.log(`  bundles kept in ${buildDir}`);
    else fs.rmSync(buildDir, { recursive: true, force: true });
  };
  // Interrupted: the children die with the terminal's signal, but servers in their own process group
  // would not; stop whatever carries this run's marker.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      void killLeftovers(marker, processesWithMarker(marker) ?? []).finally(() => {
        removeBuild();
        process.exit(130);
      });
    });
  }
  try {
    await measure(options, bundles, startedAt, marker);
  } finally {
    removeBuild();
  }
}

/** The rounds, the figures, the JSON and the table. */
async function measure(options, bundles, startedAt, marker) {
  const deadline = startedAt + TOTAL_BUDGET_MS;
  const everything = everythingScript();
  const config = { servers: options.servers, calls: options.calls, concurrency: options.concurrency, warmupCalls: options.warmupCalls, batches: Math.max(1, options.batches), idleMs: options.idleMs };
  const args = [
    '--everything', everything, '--servers', String(config.servers), '--calls', String(config.calls),
    '--concurrency', String(config.concurrency), '--warmup-calls', String(config.warmupCalls),
    '--batches', String(config.batches), '--idle-ms', String(config.idleMs), '--marker', marker,
  ];

  const raw = [];
  const errors = [];
  const leftovers = [];
  const sides = ['switchboard', 'bare'];
  const totalRounds = options.rounds + (options.warmupRound ? 1 : 0);
  let completed = 0;
  let outOfTime = false;
  for (let r = 0; r < totalRounds && !outOfTime; r++) {
    const warmup = options.warmupRound && r === 0;
    const round = warmup ? 0 : r + (options.warmupRound ? 0 : 1);
    let roundOk = true;
    for (const side of sides) {
      const left = deadline - Date.now();
      if (left < MIN_CHILD_MS) {
        errors.push(`time budget of ${TOTAL_BUDGET_MS / 1000} s used up after ${completed} rounds`);
        outOfTime = true;
        roundOk = false;
        break;
      }
      process.stdout.write(`[bench] ${warmup ? 'warm-up' : `round ${round}/${options.rounds}`} · ${side}… `);
      const result = await runSide(bundles[side], args, Math.min(CHILD_TIMEOUT_MS, left));
      const leftBehind = processesWithMarker(marker);
      if (leftBehind && leftBehind.length > 0) {
        leftovers.push({ round, side, pids: leftBehind.length });
        await killLeftovers(marker, leftBehind);
      }
      if (result.error) {
        roundOk = false;
        errors.push(`${warmup ? 'warm-up' : `round ${round}`} ${side}: ${result.error}`);
        console.log(`failed: ${result.error}`);
      } else {
        console.log(`startup ${Math.round(result.startupMs)} ms · seq ${Math.round(result.seqMs)} ms · conc ${Math.round(result.concMs)} ms · ${result.rssPerConnectionMb.toFixed(2)} MB/conn${leftBehind?.length ? ` · ${leftBehind.length} LEFT BEHIND` : ''}`);
      }
      raw.push({ round, warmup, ...result, side });
    }
    if (!warmup && roundOk) completed++;
  }

  const measured = raw.filter((r) => !r.warmup && !r.error);
  const medianOf = (side, metric) => median(measured.filter((r) => r.side === side).map((r) => r[metric]));
  const figures = {};
  for (const figure of FIGURES) {
    const sw = medianOf('switchboard', figure.metric);
    const bare = medianOf('bare', figure.metric);
    let value = null;
    if (sw !== null && bare !== null) value = figure.kind === 'ratio' ? (bare > 0 ? sw / bare : null) : sw - bare;
    // Paired view: each round's switchboard run against the bare run right after it.
    const paired = [];
    for (const r of new Set(measured.map((m) => m.round))) {
      const a = measured.find((m) => m.round === r && m.side === 'switchboard');
      const b = measured.find((m) => m.round === r && m.side === 'bare');
      if (a && b) paired.push(figure.kind === 'ratio' ? a[figure.metric] / b[figure.metric] : a[figure.metric] - b[figure.metric]);
    }
    figures[figure.key] = {
      description: formatLabel(figure.label, config),
      value: round(value, figure.kind === 'ratio' ? 3 : 4),
      target: figure.target,
      pass: value !== null && value <= figure.target && completed >= 5,
      switchboard: round(sw),
      bare: round(bare),
      computedAs: figure.kind === 'ratio' ? `median(switchboard.${figure.metric}) / median(bare.${figure.metric})` : `median(switchboard.${figure.metric}) - median(bare.${figure.metric})`,
      pairedMedian: round(median(paired), 4),
      // Each round's own ratio (or difference): the spread says how much of the figure is load.
      pairedSpread: spreadOf(paired, 4),
    };
  }
  // The client's CPU per call: steadier than wall time on a shared machine (it does not count the
  // time the process waited for a core), so it is the figure to read when a wall-clock ratio moves.
  const cpuFigures = {};
  for (const metric of ['seqCpuUs', 'concCpuUs']) {
    const paired = [];
    for (const r of new Set(measured.map((m) => m.round))) {
      const a = measured.find((m) => m.round === r && m.side === 'switchboard');
      const b = measured.find((m) => m.round === r && m.side === 'bare');
      if (a && b && b[metric] > 0) paired.push(a[metric] / b[metric]);
    }
    const sw = medianOf('switchboard', metric);
    const bare = medianOf('bare', metric);
    cpuFigures[metric] = { ratio: sw !== null && bare ? round(sw / bare) : null, switchboard: round(sw), bare: round(bare), pairedSpread: spreadOf(paired, 4) };
  }
  const details = { switchboard: {}, bare: {}, ratios: {} };
  for (const metric of DETAILS) {
    details.switchboard[metric] = round(medianOf('switchboard', metric));
    details.bare[metric] = round(medianOf('bare', metric));
    details.ratios[metric] = details.bare[metric] ? round(details.switchboard[metric] / details.bare[metric]) : null;
  }

  const leftoverCheck = processesWithMarker(marker);
  if (leftoverCheck && leftoverCheck.length > 0) {
    leftovers.push({ round: 'end', side: 'any', pids: leftoverCheck.length });
    await killLeftovers(marker, leftoverCheck);
  }

  const result = {
    schema: 1,
    generatedAt: new Date().toISOString(),
    durationMs: Date.now() - startedAt,
    machine: machineInfo(),
    source: sourceInfo(),
    config: { ...config, rounds: options.rounds, warmupRound: options.warmupRound, nodeFlags: NODE_FLAGS, order: 'alternating: switchboard, bare, switchboard, bare, …', server: '@modelcontextprotocol/server-everything over stdio' },
    rounds: { requested: options.rounds, completed },
    pass: completed >= 5 && errors.length === 0 && leftovers.length === 0 && Object.values(figures).every((f) => f.pass),
    figures,
    cpuPerCall: cpuFigures,
    details,
    processCheck: process.platform === 'linux' ? { leftBehind: leftovers, clean: leftovers.length === 0 } : { skipped: `no /proc on ${process.platform}` },
    errors,
    notes: NOTES,
    raw,
  };
  if (options.profile) result.profile = await profilePair(bundles, args, deadline + 120_000);

  fs.mkdirSync(path.dirname(options.out), { recursive: true });
  const tmp = `${options.out}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(result, null, 2)}\n`);
  fs.renameSync(tmp, options.out);
  printTable(result);
  console.log(`  written: ${path.relative(process.cwd(), options.out) || options.out}`);
  for (const error of errors) console.log(`  error: ${error}`);
  if (leftovers.length > 0) console.log(`  LEFT BEHIND (killed): ${JSON.stringify(leftovers)}`);
  const failed = errors.length > 0 || leftovers.length > 0 || completed < 5;
  process.exitCode = failed || (options.check && !result.pass) ? 1 : 0;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
