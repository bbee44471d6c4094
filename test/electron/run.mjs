#!/usr/bin/env node
// The extension-host tier on desktop VS Code through @vscode/test-electron, for contributors whose
// machine can download VS Code (CI and the sandboxed machines cannot: there `npm run test:vscode` runs
// the same suite in code-server). Same tests module, same fixture, same environment as test/vscode/run.mjs.
//
//   npm run test:electron            (builds and compiles first; on a headless Linux: xvfb-run -a npm run test:electron)
// Environment: SWITCHBOARD_VSCODE_VERSION (default 1.139.1: the suite asserts 1.139.x),
// SWITCHBOARD_EXTENSION_DIR, SWITCHBOARD_TEST_GREP, SWITCHBOARD_KEEP_STATE=1.
import fs from 'node:fs';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { makeLogger } from '../harness/log.mjs';
import { extensionDir, freshResultsDir, repoRoot, toolchainDir } from '../harness/paths.mjs';
import { quietSettings } from '../harness/settings.mjs';

const log = makeLogger('electron');
const version = process.env.SWITCHBOARD_VSCODE_VERSION || '1.139.1';
const testsModule = path.join(repoRoot, 'out', 'test', 'vscode', 'index');

async function main() {
  if (!fs.existsSync(`${testsModule}.js`)) throw new Error(`${testsModule}.js not found: run npm run compile-tests`);
  const resultsDir = freshResultsDir('electron');
  const resultsFile = path.join(resultsDir, 'results.json');
  const stateDir = makeStateDir('electron');
  const fixture = prepareFixture('vscode', stateDir);
  const userData = path.join(stateDir, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(quietSettings, null, 2));

  log(`VS Code ${version} (desktop, downloaded to ${path.join(toolchainDir, 'vscode-test')}); extension from ${extensionDir}`);
  let code;
  try {
    code = await runTests({
      version,
      cachePath: path.join(toolchainDir, 'vscode-test'),
      // the fixture's plugin extension contributes plugin-scope servers (see test/fixtures/vscode/README.md)
      extensionDevelopmentPath: [extensionDir, path.join(fixture.root, 'plugin-extension')],
      extensionTestsPath: testsModule,
      extensionTestsEnv: {
        // the extension host's ~ is the fixture home, so ~/.mcp.json is the fixture's user scope
        HOME: fixture.home,
        SWITCHBOARD_FIXTURE_WORKSPACE: fixture.workspace,
        SWITCHBOARD_FIXTURE_HOME: fixture.home,
        SWITCHBOARD_TEST_RESULTS: resultsFile,
        // the fixture servers run the locally installed MCP servers through ${env:SWITCHBOARD_REPO}
        SWITCHBOARD_REPO: repoRoot,
        ...(process.env.SWITCHBOARD_TEST_GREP ? { SWITCHBOARD_TEST_GREP: process.env.SWITCHBOARD_TEST_GREP } : {}),
      },
      launchArgs: [
        // a one-folder multi-root workspace, so the roots test can add a folder (see test/vscode/run.mjs)
        path.join(fixture.root, 'fixture.code-workspace'),
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--user-data-dir', userData,
        '--extensions-dir', path.join(stateDir, 'extensions'),
      ],
    });
  } catch (err) {
    log(`VS Code exited with a failure: ${err?.message ?? err}`);
    code = typeof err?.code === 'number' && err.code !== 0 ? err.code : 1;
  }

  let results;
  try {
    results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  } catch {
    results = undefined;
  }
  if (code === 0 && (!results || results.failed > 0 || results.passed === 0)) code = 1;
  if (results) {
    log(`VS Code ${results.vscodeVersion}, extension host Node ${results.node}`);
    log(`electron tier: ${results.passed} passed, ${results.failed} failed, ${results.pending} pending`);
  } else {
    log('electron tier: no results written');
  }
  if (code === 0 && !process.env.SWITCHBOARD_KEEP_STATE) fs.rmSync(stateDir, { recursive: true, force: true });
  else log(`results: ${resultsDir}; state kept in ${stateDir}`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log('error:', err?.stack ?? err);
    process.exit(3);
  },
);
