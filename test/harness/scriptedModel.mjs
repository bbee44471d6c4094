// The scripted chat model (test/fixtures/scripted-model) as a .vsix, for a VS Code that installs
// extensions the way a person does: `npm start` and the browser flows that chat with @mcp.
import cp from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fixturesDir, repoRoot } from './paths.mjs';

/** The vendor the model registers (what a test selects it by). */
export const SCRIPTED_MODEL_VENDOR = 'switchboard-scripted';

/** Packages the scripted model into `outFile` (plain JavaScript, nothing to build); returns the path. */
export function packageScriptedModel(outFile) {
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = cp.spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--skip-license', '--out', outFile], {
    cwd: path.join(fixturesDir, 'scripted-model'),
    encoding: 'utf8',
  });
  if (r.status !== 0 || !fs.existsSync(outFile)) {
    throw new Error(`packaging the scripted model failed (exit ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  }
  return outFile;
}
