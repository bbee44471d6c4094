// Where a side's CPU time goes: reads V8 CPU profiles (.cpuprofile, from `node --cpu-prof`) of the
// bundled sides, maps every sample back to its original source through the bundle's source map, and
// sums self time per function and per origin (our src/, the MCP SDK, zod, other packages, Node itself,
// the garbage collector). `node bench/run.mjs --profile` uses it to put the two sides side by side.
//   node bench/profile.mjs FILE.cpuprofile [FILE2.cpuprofile]   → prints the summary of each
import * as fs from 'node:fs';
import { SourceMap } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Which part of the code a source path belongs to. */
export function originOf(source, functionName) {
  if (!source) {
    if (/^\((garbage collector|idle|program|root)\)$/.test(functionName)) return functionName;
    return 'node (native)';
  }
  if (source.startsWith('node:')) return 'node (js)';
  const p = source.replace(/\\/g, '/');
  if (p.includes('/node_modules/@modelcontextprotocol/sdk/')) return 'MCP SDK';
  if (p.includes('/node_modules/zod/')) return 'zod';
  if (p.includes('/node_modules/')) return `package ${p.split('/node_modules/').pop().split('/').slice(0, p.split('/node_modules/').pop().startsWith('@') ? 2 : 1).join('/')}`;
  const src = p.indexOf('/src/');
  if (src >= 0) return 'Switchboard src/';
  if (p.includes('/bench/')) return 'bench harness';
  return 'other';
}

const maps = new Map();
function sourceMapFor(url) {
  if (!maps.has(url)) {
    let map;
    try {
      const file = url.startsWith('file://') ? fileURLToPath(url) : url;
      const payload = JSON.parse(fs.readFileSync(`${file}.map`, 'utf8'));
      map = { map: new SourceMap(payload), dir: path.dirname(file) };
    } catch {
      map = undefined;
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

/** Self time (ms) per function and per origin of one profile, optionally limited to a window of the monotonic clock (µs, as `process.hrtime`). */
export function summarize(profile, { fromUs = -Infinity, toUs = Infinity } = {}) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < fromUs || t > toUs) continue;
    const next = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + next);
  }
  const functions = new Map();
  const origins = new Map();
  let total = 0;
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    const name = callFrame.functionName || '(anonymous)';
    let source = callFrame.url && !callFrame.url.startsWith('node:') ? undefined : callFrame.url;
    let line = callFrame.lineNumber + 1;
    const mapped = callFrame.url ? sourceMapFor(callFrame.url) : undefined;
    if (mapped && callFrame.lineNumber >= 0) {
      const entry = mapped.map.findEntry(callFrame.lineNumber, callFrame.columnNumber);
      if (entry && entry.originalSource) {
        source = path.resolve(mapped.dir, entry.originalSource.replace(/^file:\/\//, ''));
        line = entry.originalLine + 1;
      }
    } else if (callFrame.url && !source) source = callFrame.url;
    const origin = originOf(source, name);
    const key = `${name} ${source ? `${path.relative(process.cwd(), source)}:${line}` : ''}`.trim();
    functions.set(key, { origin, ms: (functions.get(key)?.ms ?? 0) + us / 1000 });
    origins.set(origin, (origins.get(origin) ?? 0) + us / 1000);
    total += us / 1000;
  }
  const sortDesc = (entries) => [...entries].sort((a, b) => b[1] - a[1]);
  return {
    totalMs: total,
    origins: sortDesc(origins).map(([origin, ms]) => ({ origin, ms })),
    functions: [...functions].sort((a, b) => b[1].ms - a[1].ms).map(([fn, v]) => ({ function: fn, origin: v.origin, ms: v.ms })),
  };
}

/** Prints a summary as two small tables: by origin, and the top functions. */
export function printSummary(title, summary, { top = 15, perCall = 1 } = {}) {
  const fmt = (ms) => (perCall > 1 ? `${((ms * 1000) / perCall).toFixed(2)} µs/call` : `${ms.toFixed(1)} ms`);
  console.log(`\n${title}: ${fmt(summary.totalMs)} sampled`);
  for (const { origin, ms } of summary.origins) console.log(`  ${origin.padEnd(24)} ${fmt(ms).padStart(16)}  ${((100 * ms) / summary.totalMs).toFixed(1).padStart(5)}%`);
  console.log('  top functions (self time):');
  for (const f of summary.functions.slice(0, top)) console.log(`  ${fmt(f.ms).padStart(16)}  ${f.origin.padEnd(18)} ${f.function}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const file of process.argv.slice(2)) printSummary(path.basename(file), summarize(JSON.parse(fs.readFileSync(file, 'utf8'))));
}
