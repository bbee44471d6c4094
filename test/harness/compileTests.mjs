#!/usr/bin/env node
// Compiles the tests for mocha and the extension host: every test/**/*.ts (but the fixtures) and the
// sources they import, each file transpiled on its own by esbuild into out/ with the layout `tsc -p test`
// gave (test/unit/x.test.ts → out/test/unit/x.test.js, src/core/y.ts → out/src/core/y.js), because
// test/run.mjs, test/vscode/run.mjs, test/electron/run.mjs and tests that find files from __dirname rely
// on it. Types are not checked here: `npm run typecheck` does that (tsc --noEmit), once.
//
// Why not tsc: it type-checks the whole program before it emits, which made the unit tier wait ~25 s.
//
// Each round transpiles the files found so far; their relative imports stay `require`s of the same
// relative path and name the files for the next round, until nothing new turns up. A JSON file a source
// imports (package.json, a schema) is copied beside, as tsc's resolveJsonModule emit did.
//   node test/harness/compileTests.mjs    (npm run compile-tests)
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.mjs';

const outDir = path.join(repoRoot, 'out');
const SKIP_DIRS = new Set(['fixtures', 'node_modules']);

/** Every .ts file under test/, but the fixtures (servers and workspaces that tests start, not tests). */
function testSources(dir = path.join(repoRoot, 'test')) {
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) found.push(...testSources(full));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      found.push(full);
    }
  }
  return found;
}

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false; // missing, or a path through a file (package.json/index.ts)
  }
}

/** The file a relative import names, as TypeScript's module resolution finds it (or undefined). */
function resolveLocal(resolveDir, specifier) {
  const base = path.resolve(resolveDir, specifier);
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base].find(isFile);
}

/**
 * Transpiles `files` (one output per file, imports kept as they are) and resolves to the local files
 * they import.
 */
async function transpile(files) {
  const imported = new Set();
  await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: files,
    outdir: outDir,
    outbase: repoRoot,
    // Bundling only so that the plugin below sees every import; it marks each one external, so every
    // output holds its own file alone.
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // As tsc did for CommonJS: `await import('../x')` becomes a require of the compiled file.
    supported: { 'dynamic-import': false },
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [
      {
        name: 'each-file-alone',
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind === 'entry-point') return undefined;
            if (args.path.startsWith('.')) {
              const file = resolveLocal(args.resolveDir, args.path);
              if (!file) return { errors: [{ text: `cannot find ${args.path} imported by ${path.relative(repoRoot, args.importer)}` }] };
              imported.add(file);
            }
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  return imported;
}

function copyJson(file) {
  const target = path.join(outDir, path.relative(repoRoot, file));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(file, target);
}

async function compileTests() {
  const done = new Set();
  let next = testSources();
  while (next.length > 0) {
    for (const file of next) done.add(file);
    const imported = await transpile(next);
    next = [];
    for (const file of imported) {
      if (done.has(file)) continue;
      if (/\.tsx?$/.test(file)) next.push(file);
      else if (file.endsWith('.json')) {
        copyJson(file);
        done.add(file);
      } else throw new Error(`${path.relative(repoRoot, file)}: a test imports a file that is neither TypeScript nor JSON`);
    }
  }
  return done.size;
}

const started = Date.now();
compileTests().then(
  (count) => console.log(`[compile-tests] ${count} files into ${path.relative(process.cwd(), outDir) || '.'}/ in ${Date.now() - started} ms`),
  (err) => {
    // esbuild has printed its own errors already
    if (!(err && Array.isArray(err.errors))) console.error('[compile-tests]', err?.stack ?? err);
    process.exit(1);
  },
);
