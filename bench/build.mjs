// Bundles both sides of the benchmark with the same esbuild settings as the extension (node, cjs,
// node20), so the two child processes load code the same way and only what they do differs.
//
// The bundles go to a fresh folder in the OS temp dir, never into the repository: a bundle inside the
// tree would be picked up by `eslint .` and `tsc` of anyone working in it while a run is going.
//   node bench/build.mjs [--out DIR]   → DIR/{switchboard,bare}-path.cjs (prints DIR; DIR is kept)
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.dirname(benchDir);
export const SIDES = ['switchboard', 'bare'];

/**
 * Bundles both sides into `outDir` (default: a new temp folder). Resolves with the folder and the
 * bundle of each side; the caller removes the folder when done.
 */
export async function build({ outDir, quiet = false } = {}) {
  const dir = outDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-'));
  const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: SIDES.map((side) => ({ in: path.join(benchDir, `${side}-path.ts`), out: `${side}-path` })),
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    // As in esbuild.mjs: jsonc-parser's UMD `main` requires its own files at run time.
    mainFields: ['module', 'main'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // The client version Switchboard announces, as the extension takes it from package.json.
    define: { SWITCHBOARD_VERSION: JSON.stringify(version) },
    sourcemap: true,
    sourcesContent: false,
    legalComments: 'none',
    logLevel: quiet ? 'warning' : 'info',
  });
  return { dir, bundles: Object.fromEntries(SIDES.map((side) => [side, path.join(dir, `${side}-path.cjs`)])) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const { dir } = await build({ outDir: at === -1 ? undefined : path.resolve(process.argv[at + 1]) });
  console.log(dir);
}
