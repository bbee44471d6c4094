// `npm run bench:search`: how well and how fast the tool search ranks, on the real catalog (snapshots
// of real MCP servers) and on the large one (the same plus look-alike tools of other products), and
// what the tool definitions of a chat request cost with and without deferred loading.
//
//   node bench/search/run.mjs [--misses] [--rounds 5] [--out bench/results/search.json]
//
// The search is the project's own (src/core/search, bundled from source with esbuild, as the
// extension is): nothing here is tuned to the queries. Offline: the catalogs are committed snapshots.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { largeCatalog, readSnapshots, realCatalog } from './large-catalog.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

function parseArgs(argv) {
  const options = { misses: false, rounds: 5, out: path.join(repoRoot, 'bench', 'results', 'search.json') };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--misses') options.misses = true;
    else if (argv[i] === '--rounds') options.rounds = Number(argv[++i]);
    else if (argv[i] === '--out') options.out = path.resolve(argv[++i]);
    else throw new Error(`unknown argument: ${argv[i]}`);
  }
  return options;
}

/** evaluate.ts and the search code it imports, bundled with the extension's settings into a temp folder. */
async function loadEvaluator() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-search-bench-'));
  try {
    const outfile = path.join(dir, 'evaluate.cjs');
    await esbuild.build({
      absWorkingDir: repoRoot,
      entryPoints: [path.join(here, 'evaluate.ts')],
      outfile,
      mainFields: ['module', 'main'],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'warning',
    });
    return createRequire(import.meta.url)(outfile);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function readQueries(file) {
  return fs.readFileSync(path.join(here, file), 'utf8').split('\n').filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

const pct = (value) => value.toFixed(3);
const ms = (value) => value.toFixed(3);
const pad = (value, width) => String(value).padStart(width);

const options = parseArgs(process.argv.slice(2));
const { evaluateRanking, tokenCosts, RANK_DEPTH } = await loadEvaluator();
const snapshots = readSnapshots();
// The development set, looked at while the ranking was improved, and the held-out set, written after
// the ranking was frozen and never used to change it (see README.md).
const queries = readQueries('queries.jsonl');
const heldOut = readQueries('queries-heldout.jsonl');
const catalogs = [
  { name: 'real', tools: realCatalog(snapshots) },
  { name: 'large', tools: largeCatalog(snapshots) },
];
// One realistic configuration besides "nothing marked": the file system server marked alwaysLoad.
const ALWAYS_LOAD_EXAMPLE = { filesystem: true };

const results = catalogs.map((catalog) => ({
  name: catalog.name,
  ranking: evaluateRanking(catalog.tools, queries, options.rounds),
  heldOut: evaluateRanking(catalog.tools, heldOut, options.rounds),
  tokens: tokenCosts(catalog.tools, queries),
  tokensWithFilesystemAlwaysLoad: tokenCosts(catalog.tools, queries, ALWAYS_LOAD_EXAMPLE),
}));

const chinese = (set) => set.filter((query) => /[\u4e00-\u9fff]/u.test(query.query)).length;
console.log(`Tool search: src/core/search ToolIndex (BM25 via MiniSearch); ${queries.length} development queries (${chinese(queries)} in Chinese), ${heldOut.length} held-out (${chinese(heldOut)} in Chinese)`);
console.log(`recall@k: share of queries with an expected tool in the top k; MRR over the top ${RANK_DEPTH}; latency of one query (k = 5), ${options.rounds} timed passes after one untimed`);
console.log(`wall-clock ms, and this process's CPU ms for the same queries (steadier on a busy machine: load average now ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)\n`);
console.log('catalog  queries    tools  servers  recall@1  recall@5  MRR     median ms  p95 ms  (CPU: median  p95)  index build ms');
for (const { name, ranking, heldOut: held } of results) {
  for (const [set, report] of [['dev', ranking], ['held-out', held]]) {
    console.log(`${name.padEnd(9)}${set.padEnd(9)}${pad(report.tools, 6)}${pad(report.servers, 9)}${pad(pct(report.recallAt1), 10)}${pad(pct(report.recallAt5), 10)}  ${pct(report.mrr)}${pad(ms(report.latency.medianMs), 11)}${pad(ms(report.latency.p95Ms), 8)}${pad(ms(report.cpu.medianMs), 13)}${pad(ms(report.cpu.p95Ms), 7)}${pad(report.indexBuildMs.toFixed(1), 15)}`);
  }
}

console.log('\nTokens of the tool definitions sent with each request, ESTIMATED as characters / 4 of the JSON');
console.log('definitions { name, description, inputSchema } as the model receives them (names mcp__server__tool):');
console.log('catalog   every tool  deferred (auto)  of which search tool  + top-5 found (mean)  auto decision');
for (const { name, tokens } of results) {
  console.log(`${name.padEnd(8)}${pad(tokens.allTokens, 12)}${pad(tokens.deferredTokens, 17)}${pad(tokens.searchToolTokens, 22)}${pad(Math.round(tokens.foundTop5Tokens), 22)}  ${tokens.autoMode} (${tokens.autoReason})`);
}
console.log('with the filesystem server marked alwaysLoad:');
for (const { name, tokensWithFilesystemAlwaysLoad: tokens } of results) {
  console.log(`${name.padEnd(8)}${pad(tokens.allTokens, 12)}${pad(tokens.deferredTokens, 17)}${pad(tokens.searchToolTokens, 22)}${pad(Math.round(tokens.foundTop5Tokens), 22)}  ${tokens.autoMode} (${tokens.autoReason}, ${tokens.deferredTools} tools always sent)`);
}
console.log('"deferred" is the first request of a turn; the tools a search finds join the following requests (last column: their mean cost for the top 5).');

if (options.misses) {
  for (const { name, ranking, heldOut: held } of results) {
    for (const [set, report] of [['dev', ranking], ['held-out', held]]) {
      const misses = report.outcomes.filter((outcome) => outcome.rank !== 1);
      console.log(`\n${name}, ${set}: ${misses.length} queries without an expected tool at rank 1`);
      for (const miss of misses) console.log(`  ${miss.id} rank ${miss.rank ?? `>${RANK_DEPTH}`}  "${miss.query}"  expected ${miss.expected.join(' | ')}  got ${miss.top.slice(0, 3).join(', ')}`);
    }
  }
}

const packages = snapshots.map((snapshot) => snapshot.package);
fs.mkdirSync(path.dirname(options.out), { recursive: true });
fs.writeFileSync(options.out, `${JSON.stringify({
  tokenEstimate: 'characters / 4 of JSON.stringify({ name, description, inputSchema }) per tool, rounded up',
  packages,
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg() },
  results,
}, null, 2)}\n`);
console.log(`\nwritten: ${path.relative(process.cwd(), options.out)}`);
