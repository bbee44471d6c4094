#!/usr/bin/env node
// Builds the production bundles and packages mcp-switchboard-<version>.vsix with vsce.
// Fails when vsce warns or when the package holds anything outside the allowlist, so a
// stray file (node_modules, sources, test fixtures) can never ship unnoticed.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const vsix = join(root, `${pkg.name}-${pkg.version}.vsix`);
const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');

function run(args) {
  const r = spawnSync(process.execPath, [vsce, ...args], { cwd: root, encoding: 'utf8' });
  const out = `${r.stdout}${r.stderr}`;
  if (r.status !== 0) {
    process.stderr.write(out);
    process.exit(r.status ?? 1);
  }
  return out;
}

// vsce runs `vscode:prepublish` (the production esbuild) before packaging.
const out = run(['package', '--no-dependencies', '--out', vsix]);
process.stdout.write(out);
if (/WARNING/i.test(out)) {
  console.error('vsce printed a warning: fix it rather than ship with it.');
  process.exit(1);
}

const listing = run(['ls', '--no-dependencies']).split('\n').map((l) => l.trim()).filter(Boolean);
const allowed = /^(dist\/[^/]+|media\/.+|package\.json|README\.md|CHANGELOG\.md|LICENSE(\.txt)?)$/;
const stray = listing.filter((f) => !allowed.test(f));
if (stray.length) {
  console.error(`files outside the allowlist would ship:\n  ${stray.join('\n  ')}`);
  process.exit(1);
}
// The extension is a loader and an ES module split into chunks (esbuild.mjs): every chunk must ship.
const chunks = readdirSync(join(root, 'dist')).filter((f) => f.endsWith('.mjs'));
const unshipped = chunks.filter((f) => !listing.includes(`dist/${f}`));
if (!chunks.includes('extension.mjs') || unshipped.length) {
  console.error(`the extension's modules would not all ship: ${chunks.includes('extension.mjs') ? unshipped.join(', ') : 'dist/extension.mjs is missing'}`);
  process.exit(1);
}
const size = statSync(vsix).size;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const modules = chunks.reduce((n, f) => n + statSync(join(root, 'dist', f)).size, 0);
console.log(`packaged ${vsix.slice(root.length + 1)}: ${kib(size)}, ${listing.length} files; dist/extension.js ${kib(statSync(join(root, 'dist', 'extension.js')).size)} (loader), ${chunks.length} modules ${kib(modules)}`);
