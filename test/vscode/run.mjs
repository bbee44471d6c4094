#!/usr/bin/env node
// The extension-host tier: runs out/test/vscode/index.js (mocha, every *.test.js beside it) inside the
// extension host of a real VS Code 1.139 — code-server's web workbench opened in headless Chromium.
//
// How: VS Code's own browser integration tests use the same door. The workbench reads a `payload`
// query parameter (extensionDevelopmentPath / extensionTestsPath as vscode-remote URIs); a built VS Code
// honours it only with the smoke-test driver enabled. When the tests end the workbench calls
// window.codeAutomationExit(code, logs); log lines arrive through window.codeAutomationLog(type, args).
//
// Builds nothing: `node test/run.mjs vscode` builds and compiles first.
// Exit code: 0 all passed, 1 a test failed (or none ran), 2 timeout, 3 the harness itself failed.
// Environment: SWITCHBOARD_EXTENSION_DIR (extension under test, default the repo), SWITCHBOARD_TESTS_PATH
// (tests module without .js), SWITCHBOARD_VSCODE_TIMEOUT_MS (default 300000), SWITCHBOARD_TEST_GREP,
// SWITCHBOARD_KEEP_STATE=1 (keep the temp folder), VERBOSE=1 (all workbench output).
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../harness/browser.mjs';
import { installedVersions, remoteUri, startCodeServer, workbenchUrl } from '../harness/codeServer.mjs';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { makeLogger, elapsed } from '../harness/log.mjs';
import { assertToolchain, extensionDir, freshResultsDir, readExtensionManifest, repoRoot } from '../harness/paths.mjs';

const log = makeLogger('vscode');
const TIMEOUT_MS = Number(process.env.SWITCHBOARD_VSCODE_TIMEOUT_MS) || 300_000;
const testsModule = path.resolve(process.env.SWITCHBOARD_TESTS_PATH || path.join(repoRoot, 'out', 'test', 'vscode', 'index'));
const verbose = Boolean(process.env.VERBOSE);

// The automation logger forwards all workbench log output; these lines are noise for a test run.
const NOISE = new RegExp(
  [
    '\\[AgentHost', '\\[ChatModelSelection\\]', '\\[AccountPolicyGate\\]', 'open-vsx\\.org', '^\\s+at .*workbench\\.js',
    '^Resolving connection token', '^Resolved connection token', '^Creating a socket', '^\\[reconnection-grace-time\\]',
    '^Updating additional builtin extensions cache', '^\\[Service Worker\\]', '^Canceled: Canceled',
  ].join('|'),
);

function preflight() {
  assertToolchain();
  if (!fs.existsSync(`${testsModule}.js`)) {
    throw new Error(`${testsModule}.js not found: compile the tests first (npx tsc -p test)`);
  }
  const manifest = readExtensionManifest(extensionDir);
  const main = manifest.main && path.join(extensionDir, manifest.main);
  if (main && !fs.existsSync(main) && !fs.existsSync(`${main}.js`)) {
    throw new Error(`${main} not found: build the extension first (npm run build)`);
  }
  return manifest;
}

/**
 * One folder that holds every extension to load for development, each linked in as a subfolder.
 *
 * Why not one `extensionDevelopmentPath` payload entry per extension: the workbench reads the payload
 * into a Map, so a second entry with that key replaces the first (only the last extension would load).
 * A development path without a package.json of its own is scanned for extensions one level down, so
 * this single path loads all of them, as development extensions (which `disableExtensions` keeps on).
 * Links, not copies: the extension under test runs from the repository (VS Code resolves the link
 * when it maps modules to extensions); the links go away with the state dir, their targets stay.
 */
function developmentExtensionsDir(stateDir, extensions) {
  const dir = path.join(stateDir, 'development-extensions');
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, target] of Object.entries(extensions)) {
    if (!fs.existsSync(path.join(target, 'package.json'))) throw new Error(`${target} has no package.json: not an extension`);
    fs.symlinkSync(target, path.join(dir, name), 'junction');
  }
  return dir;
}

function readResults(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

async function main() {
  const resultsDir = freshResultsDir('vscode');
  const resultsFile = path.join(resultsDir, 'results.json');
  const consoleLog = fs.createWriteStream(path.join(resultsDir, 'workbench-console.log'));
  const manifest = preflight();
  const versions = installedVersions();
  log(`VS Code ${versions.vscode} (code-server ${versions.codeServer}); extension ${manifest.id} from ${extensionDir}`);

  const stateDir = makeStateDir('vscode');
  const fixture = prepareFixture('vscode', stateDir);
  // The extension under test, and beside it the fixture's declarative extension (id
  // switchboard-fixtures.plugin-servers) whose contributes.mcpServers make up the plugin scope.
  const developmentDir = developmentExtensionsDir(stateDir, {
    'extension-under-test': extensionDir,
    'plugin-extension': path.join(fixture.root, 'plugin-extension'),
  });
  const server = await startCodeServer({
    stateDir,
    home: fixture.home,
    logFile: path.join(resultsDir, 'code-server.log'),
    args: ['--vscode-option', 'enable-smoke-test-driver'],
    env: {
      // The fixtures' servers run from this repository (its node_modules and test/fixtures/servers):
      // `${env:SWITCHBOARD_REPO}` in their .mcp.json files, so nothing is downloaded at run time.
      SWITCHBOARD_REPO: repoRoot,
      SWITCHBOARD_FIXTURE_WORKSPACE: fixture.workspace,
      SWITCHBOARD_FIXTURE_HOME: fixture.home,
      SWITCHBOARD_TEST_RESULTS: resultsFile,
      ...(process.env.SWITCHBOARD_TEST_GREP ? { SWITCHBOARD_TEST_GREP: process.env.SWITCHBOARD_TEST_GREP } : {}),
    },
  });
  log(`code-server up on ${server.url} in ${server.startupMs} ms (log ${server.logFile})`);

  let browser;
  let timer;
  let exitCode = 3;
  let why = 'harness error';
  try {
    browser = await launchBrowser();
    const { page } = browser;
    page.on('pageerror', (e) => log('page error:', e.message));
    page.on('console', (m) => {
      consoleLog.write(`[browser ${m.type()}] ${m.text()}\n`);
      if (verbose) log(`[browser ${m.type()}]`, m.text());
    });

    let settle;
    const finished = new Promise((resolve) => {
      settle = resolve;
    });
    timer = setTimeout(() => settle({ code: 2, why: `timeout after ${TIMEOUT_MS} ms` }), TIMEOUT_MS);
    await page.exposeFunction('codeAutomationExit', (code, logs) => {
      // logs: the workbench's log files ([{ relativePath, contents }]): keep them next to the results
      for (const entry of logs ?? []) {
        try {
          const file = path.join(resultsDir, 'workbench-logs', entry.relativePath);
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, entry.contents);
        } catch {
          // a log we cannot keep is no reason to fail the run
        }
      }
      settle({ code: Number(code), why: 'tests finished' });
    });
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const parts = Array.isArray(args) ? args : [args];
      consoleLog.write(`${parts.map(String).join(' ')}\n`);
      if (!verbose && NOISE.test(String(parts[0]))) return;
      (console[type] ?? console.log).apply(console, parts);
    });

    const payload = [
      // one entry only (see developmentExtensionsDir): the extension under test and the plugin fixture
      ['extensionDevelopmentPath', remoteUri(server, developmentDir)],
      ['extensionTestsPath', remoteUri(server, testsModule)],
      ['extensionDevelopmentKind', 'workspace'],
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
      // like --disable-extensions for the desktop: everything but the extensions under development is off
      ['disableExtensions', 'true'],
    ];
    // A multi-root workspace whose one folder is the fixture workspace (see fixture.code-workspace), so
    // tests may add folders; the web workbench opens one with `?workspace=`.
    const workspaceFile = path.join(fixture.root, 'fixture.code-workspace');
    const url = `${workbenchUrl(server, { payload })}&workspace=${encodeURIComponent(workspaceFile)}`;
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    log('workbench opened; running the tests in the extension host');
    const outcome = await finished;
    exitCode = outcome.code;
    why = outcome.why;
    if (exitCode === 2) {
      await page.screenshot({ path: path.join(resultsDir, 'timeout.png') }).catch(() => {});
    }
  } catch (err) {
    log('harness error:', err?.stack ?? err);
  } finally {
    clearTimeout(timer);
    await browser?.close();
    const escaped = await server.stop();
    if (escaped.length) {
      log(`WARNING: ${escaped.length} process(es) outlived code-server and were killed:`);
      for (const p of escaped) log(`  pid ${p.pid}: ${p.cmdline}`);
    }
    consoleLog.end();
  }

  const results = readResults(resultsFile);
  if (exitCode === 0 && (!results || results.failed > 0 || results.passed === 0)) exitCode = 1;
  const vscodeVersion = results?.vscodeVersion ?? versions.vscode;
  console.log('');
  log(`VS Code ${vscodeVersion} (code-server ${versions.codeServer}, extension host Node ${results?.node ?? '?'}, ${results?.uiKind ?? '?'} UI)`);
  if (results) {
    for (const f of results.failures ?? []) log(`FAILED: ${f.title}\n${f.error}`);
    log(`vscode tier: ${results.passed} passed, ${results.failed} failed, ${results.pending} pending (${why}, ${elapsed()})`);
  } else {
    log(`vscode tier: no results (${why}, ${elapsed()})`);
  }
  if (exitCode !== 0 || process.env.SWITCHBOARD_KEEP_STATE) {
    log(`results, logs and screenshots: ${resultsDir}`);
    log(`code-server log: ${server.logFile}; state kept in ${stateDir}`);
  } else {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log('harness error:', err?.stack ?? err);
    process.exit(3);
  },
);
