// Bundles: the extension (node, cjs, vscode external), the headless CLI (node, cjs) and the sidebar
// webview (browser). Type checking is `npm run typecheck`; esbuild only transpiles and bundles.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
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

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] },
  { ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20', banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022' },
];

// The bash parser behind command signatures (src/node/bashParser.ts) and code mode's JavaScript engine
// (src/node/quickjsEngine.ts) load these from next to the bundles.
const require = createRequire(import.meta.url);
mkdirSync('dist', { recursive: true });
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
