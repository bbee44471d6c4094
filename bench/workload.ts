// The work one side does in one child process, identical for both sides: start N servers, measure
// memory, make the echo calls, stop everything, and print one JSON line for the orchestrator (run.mjs).
// A side only says how it starts servers, makes one call and stops; the timing and the checks are here,
// so both sides are measured by the same code.

/** A content block as a tool result carries it. */
export interface Block {
  type: string;
  text?: unknown;
}

/** What the orchestrator passes to a side (as `--key value` arguments). */
export interface WorkloadConfig {
  /** Absolute path of server-everything's entry script. */
  everything: string;
  servers: number;
  calls: number;
  concurrency: number;
  /** Calls made before the timed phases, first one after the other, then with `concurrency` in flight. */
  warmupCalls: number;
  /** Timed batches of each kind (sequential, concurrent), alternated; a run reports its best batch of each. */
  batches: number;
  /** Put in every server's environment, so the orchestrator can find any process left behind. */
  marker: string;
  /** Idle time after startup before memory is read (server-everything asks for roots 350 ms after initialize). */
  idleMs: number;
}

/** One of the two things being compared. */
export interface BenchSide {
  /**
   * Starts every server and lists its catalog. Calls `initialized()` once all servers have completed
   * initialize, and resolves once every catalog is listed.
   */
  start(initialized: () => void): Promise<void>;
  /** One `echo` call on the first server through this side's call path; resolves with the content blocks. */
  echo(message: string): Promise<Block[]>;
  /** Stops every server; resolves when the processes are gone. */
  stop(): Promise<void>;
  /** What this side did beyond the shared work (e.g. log lines received), for the raw record. */
  extra?(): Record<string, unknown>;
}

/** What one side measured in one run; the orchestrator keeps it as raw data. */
export interface RunResult {
  side: string;
  initializeMs: number;
  startupMs: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  rssPerConnectionMb: number;
  heapPerConnectionMb: number;
  /** CPU time (user + system) this process spent starting the servers and listing catalogs. */
  startupCpuMs: number;
  /** The warm-up's sequential calls, timed: a fresh process, V8 still compiling the path. */
  coldSeqMs: number;
  /** The best (fastest) sequential batch: `calls` calls one after the other. */
  seqMs: number;
  seqCallUs: number;
  /** This process's CPU per call in its least-CPU sequential batch: the client-side cost, steadier than wall time. */
  seqCpuUs: number;
  /** The best concurrent batch: `calls` calls with `concurrency` in flight. */
  concMs: number;
  concCallsPerSecond: number;
  concCpuUs: number;
  stopMs: number;
  /** Every timed batch, in the order run. */
  batches: Batch[];
  /** When the timed batches ran (monotonic clock, µs) and how many calls they made. */
  timedWindowUs: { from: number; to: number; calls: number };
  extra: Record<string, unknown>;
}

/** One timed batch of calls, with where the client's time went (per call, from process.resourceUsage()). */
export interface Batch {
  kind: 'seq' | 'conc';
  ms: number;
  userUs: number;
  systemUs: number;
  voluntarySwitches: number;
  involuntarySwitches: number;
}

/** The prefix of the result line on stdout (anything else on stdout is ignored). */
export const RESULT_PREFIX = 'BENCH_RESULT ';

const MB = 1024 * 1024;

/** Reads `--key value` pairs. */
export function readConfig(argv: readonly string[]): WorkloadConfig {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    const value = argv[i + 1];
    if (!key?.startsWith('--') || value === undefined) throw new Error(`bad argument: ${key ?? ''}`);
    values.set(key.slice(2), value);
  }
  const text = (key: string): string => {
    const value = values.get(key);
    if (value === undefined || value === '') throw new Error(`missing --${key}`);
    return value;
  };
  const count = (key: string): number => {
    const value = Number(text(key));
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${key} must be a whole number`);
    return value;
  };
  return {
    everything: text('everything'),
    servers: count('servers'),
    calls: count('calls'),
    concurrency: Math.max(1, count('concurrency')),
    warmupCalls: count('warmup-calls'),
    batches: Math.max(1, count('batches')),
    marker: text('marker'),
    idleMs: count('idle-ms'),
  };
}

/** Runs the workload on `side` and prints the result line. */
export async function runWorkload(name: string, config: WorkloadConfig, side: BenchSide): Promise<RunResult> {
  const memoryBefore = settledMemory();
  const startCpu = process.cpuUsage();
  const started = performance.now();
  let initializedAt: number | undefined;
  await side.start(() => { initializedAt ??= performance.now(); });
  const listedAt = performance.now();
  const startupCpu = cpuMs(startCpu);

  // Both sides get the same quiet time, so the server's post-initialize traffic (roots/list, a log
  // message, tools/list_changed) has happened on both before memory is read.
  await delay(config.idleMs);
  const memoryAfter = settledMemory();

  let sequence = 0;
  const callOnce = async (): Promise<void> => {
    const message = `m${sequence++}`;
    const blocks = await side.echo(message);
    // The same cheap check on both sides: the answer is the server's echo of this very message.
    if (blocks.length !== 1 || blocks[0].type !== 'text' || blocks[0].text !== `Echo: ${message}`) {
      throw new Error(`unexpected echo result: ${JSON.stringify(blocks)}`);
    }
  };
  const inFlight = async (calls: number): Promise<void> => {
    let issued = 0;
    const worker = async (): Promise<void> => {
      while (issued < calls) {
        issued++;
        await callOnce();
      }
    };
    await Promise.all(Array.from({ length: Math.min(config.concurrency, calls) }, worker));
  };

  // Warm-up, the same on both sides: the first calls of a fresh process mostly measure V8 compiling
  // the path (kept as coldSeqMs); the figures are about the path once it is compiled.
  const coldStart = performance.now();
  for (let i = 0; i < config.warmupCalls; i++) await callOnce();
  const coldSeqMs = performance.now() - coldStart;
  await inFlight(config.warmupCalls);

  const batches: Batch[] = [];
  // The timed phase on the monotonic clock (µs), the clock V8's CPU profiles use: `--profile` reads
  // only the samples inside it, so startup and warm-up do not blur the cost of a call.
  const timedFromUs = Number(process.hrtime.bigint() / 1000n);
  for (let b = 0; b < config.batches; b++) {
    batches.push(await timed('seq', config.calls, async () => { for (let i = 0; i < config.calls; i++) await callOnce(); }));
    batches.push(await timed('conc', config.calls, () => inFlight(config.calls)));
  }
  const timedWindowUs = { from: timedFromUs, to: Number(process.hrtime.bigint() / 1000n), calls: 2 * config.batches * config.calls };
  const best = (kind: Batch['kind'], of: (batch: Batch) => number) => Math.min(...batches.filter((batch) => batch.kind === kind).map(of));
  const seqMs = best('seq', (batch) => batch.ms);
  const concMs = best('conc', (batch) => batch.ms);
  const cpuUs = (batch: Batch) => batch.userUs + batch.systemUs;

  const stopStart = performance.now();
  await side.stop();
  const stopMs = performance.now() - stopStart;

  const connections = Math.max(1, config.servers);
  const calls = Math.max(1, config.calls);
  const result: RunResult = {
    side: name,
    initializeMs: round((initializedAt ?? listedAt) - started),
    startupMs: round(listedAt - started),
    rssBeforeMb: round(memoryBefore.rss / MB),
    rssAfterMb: round(memoryAfter.rss / MB),
    rssPerConnectionMb: round((memoryAfter.rss - memoryBefore.rss) / MB / connections, 4),
    heapPerConnectionMb: round((memoryAfter.heapUsed - memoryBefore.heapUsed) / MB / connections, 4),
    startupCpuMs: round(startupCpu),
    coldSeqMs: round(coldSeqMs),
    seqMs: round(seqMs),
    seqCallUs: round((seqMs * 1000) / calls),
    seqCpuUs: round(best('seq', cpuUs), 1),
    concMs: round(concMs),
    concCallsPerSecond: Math.round(config.calls / (concMs / 1000)),
    concCpuUs: round(best('conc', cpuUs), 1),
    stopMs: round(stopMs),
    batches,
    timedWindowUs,
    extra: side.extra?.() ?? {},
  };
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
  return result;
}

/** Entry point of a side's child process: reads the config, runs, exits (1 with the reason on failure). */
export function main(name: string, create: (config: WorkloadConfig) => BenchSide): void {
  let config: WorkloadConfig;
  try {
    config = readConfig(process.argv.slice(2));
  } catch (error) {
    fail(error);
    return;
  }
  const side = create(config);
  runWorkload(name, config, side).then(
    () => process.exit(0),
    async (error: unknown) => {
      // Never leave servers behind, even when a step failed.
      await side.stop().catch(() => undefined);
      fail(error);
    },
  );
}

function fail(error: unknown): void {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
}

/** Memory after two full collections (both sides run with --expose-gc), so garbage does not count. */
function settledMemory(): NodeJS.MemoryUsage {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) { gc(); gc(); }
  return process.memoryUsage();
}

/** Runs `work` (`calls` calls) and measures its wall time, CPU and context switches per call. */
async function timed(kind: Batch['kind'], calls: number, work: () => Promise<void>): Promise<Batch> {
  const before = process.resourceUsage();
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const after = process.resourceUsage();
  const per = (value: number, digits: number) => round(value / Math.max(1, calls), digits);
  return {
    kind,
    ms: round(ms),
    userUs: per(after.userCPUTime - before.userCPUTime, 1),
    systemUs: per(after.systemCPUTime - before.systemCPUTime, 1),
    voluntarySwitches: per(after.voluntaryContextSwitches - before.voluntaryContextSwitches, 2),
    involuntarySwitches: per(after.involuntaryContextSwitches - before.involuntaryContextSwitches, 2),
  };
}

/** Milliseconds of CPU (user + system) this process used since `since`. */
function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
