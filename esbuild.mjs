// Bundles: the extension (node, vscode external), the headless CLI (node, cjs), the sidebar webview and the app panel
// (browser). Type checking is `npm run typecheck`; esbuild only transpiles and bundles.
//
// The extension is an ES module split into chunks: what activation needs is one chunk graph, and what
// only a first use needs (the bash grammar, the JSON language service, OAuth, ajv…) sits behind
// `import()` in chunks of its own, read from disk when first asked for. VS Code loads an extension's
// main with require(), so dist/extension.js is a small CommonJS loader (src/extensionLoader.ts) that
// imports dist/extension.mjs.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  // jsonc-parser's UMD build (its `main`) requires its own files at run time; the ESM build bundles cleanly.
  mainFields: ['module', 'main'],
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'info',
  legalComments: 'none',
  // web-tree-sitter's ESM build finds itself through import.meta.url, which a CommonJS bundle lacks.
  // The same for QuickJS's Emscripten loader (code mode): its CommonJS build needs no import.meta.
  alias: {
    'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs',
    '@jitl/quickjs-wasmfile-release-sync/emscripten-module': './node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.cjs',
  },
};

/**
 * `vscode` exists only as what the extension host's require() hands out (it tells extensions apart by
 * the requiring file), so the chunks get it through require, never through an ES import.
 */
const vscodeThroughRequire = {
  name: 'vscode-through-require',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.kind === 'require-call' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-require' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-require' }, () => ({ contents: "module.exports = require('vscode');", loader: 'js' }));
    // `import * as vscode` of a CommonJS module makes esbuild copy the API's ~200 names into a new object
    // in every module that imports it (about 80); a plain require hands each the one object, as tsc does.
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      return { contents: text.replace(/^import \* as vscode from 'vscode';$/m, "const vscode = require('vscode');"), loader: 'ts' };
    });
  },
};

// Every chunk gets the CommonJS names the bundled code (and its CommonJS dependencies) use.
const esmBanner = [
  "import { createRequire as __sbRequire } from 'node:module';",
  "import { dirname as __sbDirname } from 'node:path';",
  "import { fileURLToPath as __sbPath } from 'node:url';",
  'const require = __sbRequire(import.meta.url);',
  'const __filename = __sbPath(import.meta.url);',
  'const __dirname = __sbDirname(__filename);',
].join(' ');

const builds = [
  // Chunks go flat into dist/ (bashParser and quickjsEngine find their .wasm next to themselves).
  {
    ...common, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist', splitting: true, format: 'esm', platform: 'node', target: 'node20',
    outExtension: { '.js': '.mjs' }, entryNames: '[name]', chunkNames: 'chunk-[hash]', plugins: [vscodeThroughRequire], banner: { js: esmBanner }, metafile: true,
  },
  { ...common, entryPoints: ['src/extensionLoader.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] },
  { ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20', banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022' },
  // An MCP App's panel: the Apps host bridge beside the app's sandboxed frame.
  { ...common, entryPoints: ['webview/app/main.ts'], outfile: 'dist/appPanel.js', platform: 'browser', format: 'iife', target: 'es2022' },
];

// The bash parser behind command signatures (src/node/bashParser.ts) and code mode's JavaScript engine
// (src/node/quickjsEngine.ts) load these from next to the bundles.
const require = createRequire(import.meta.url);
mkdirSync('dist', { recursive: true });
// Chunk names carry a content hash: the chunks of an earlier build would otherwise pile up (and ship).
for (const f of readdirSync('dist')) if (/\.mjs(\.map)?$/.test(f)) rmSync(`dist/${f}`);
for (const file of ['web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm']) {
  copyFileSync(require.resolve(file), `dist/${file.slice(file.indexOf('/') + 1)}`);
}
copyFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'), 'dist/quickjs.wasm');

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[esbuild] watching…');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
