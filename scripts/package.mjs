#!/usr/bin/env node
// Builds the production bundles and packages mcp-switchboard-<version>.vsix with vsce.
// Fails when vsce warns or when the package holds anything outside the allowlist, so a
// stray file (node_modules, sources, test fixtures) can never ship unnoticed.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
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
const size = statSync(vsix).size;
const bundle = statSync(join(root, 'dist', 'extension.js')).size;
console.log(`packaged ${vsix.slice(root.length + 1)}: ${(size / 1024).toFixed(1)} KiB, ${listing.length} files; dist/extension.js ${(bundle / 1024).toFixed(1)} KiB`);
