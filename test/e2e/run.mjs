#!/usr/bin/env node
// The browser end-to-end tier: the packaged extension (.vsix) installed into a real VS Code 1.139
// (code-server), the fixture workspace opened in headless Chromium, and the UI checked the way a user
// sees it: the "MCP Switchboard" activity-bar tab, the Servers tree and the Sidebar webview. Then, in
// a workbench of its own, the trust flow (trust.mjs): the trust dialog answered as a person would, and
// no dialog ever for a definition typed by hand, only the Sidebar's card (trustEditing.mjs); then
// the OAuth sign-in flow (oauth.mjs) through the browser; the Restricted Mode flow (restricted.mjs) with
// workspace trust on; the approvals flow (approvals.mjs) against server-filesystem; the chat flow
// (chat.mjs): @mcp requests typed into the Chat view with the scripted model; the MCP Apps flow
// (apps.mjs): an app rendered and driven in Chromium, a hostile one kept in its frame; the tasks flow
// (tasks.mjs): long tool calls run as MCP tasks, followed, answered and cancelled in the Sidebar; the coexistence flow
// (coexist.mjs): VS Code's own MCP beside Switchboard on one .mcp.json; the gallery flow (gallery.mjs):
// Browse Servers and an install link against the local fixture registry; last, Ctrl-C on
// `npm start`'s session (ctrlc.mjs): VS Code stopped first, the servers shut down by the extension;
// and `npm start` itself stopped by SIGTERM and by SIGINT sent to the npm process alone
// (npmStartSignals.mjs): nothing below it is left.
//
// Expects `npm run package` to have produced <name>-<version>.vsix (test/run.mjs does it; when it is
// missing this runs scripts/package.mjs). Screenshots, logs and results.json go to .test-results/e2e/.
// Exit code: 0 all checks passed, 1 a check failed, 2 timeout, 3 the harness itself failed.
// Environment: SWITCHBOARD_EXTENSION_DIR, SWITCHBOARD_VSIX (a .vsix to install instead),
// SWITCHBOARD_E2E_TIMEOUT_MS (default 300000), SWITCHBOARD_E2E_TRUST_TIMEOUT_MS (default 180000),
// SWITCHBOARD_E2E_RESTRICTED_TIMEOUT_MS (default 180000), SWITCHBOARD_E2E_CTRLC_TIMEOUT_MS (default 120000),
// SWITCHBOARD_E2E_NPM_START_TIMEOUT_MS (default 180000, per signal),
// SWITCHBOARD_E2E_OAUTH_TIMEOUT_MS (default 180000), SWITCHBOARD_E2E_APPROVALS_TIMEOUT_MS (default 180000),
// SWITCHBOARD_E2E_CHAT_TIMEOUT_MS (default 180000), SWITCHBOARD_E2E_APPS_TIMEOUT_MS (default 240000),
// SWITCHBOARD_E2E_TASKS_TIMEOUT_MS (default 240000), SWITCHBOARD_E2E_COEXIST_TIMEOUT_MS (default 180000),
// SWITCHBOARD_E2E_GALLERY_TIMEOUT_MS (default 180000),
// SWITCHBOARD_KEEP_STATE=1, VERBOSE=1. SWITCHBOARD_E2E_FLOWS=tasks,chat runs only the flows named
// (main, sidebarWidths, trust, trustEditing, oauth, approvals, chat, apps, tasks, coexist, gallery, restricted, ctrlc):
// for iterating on one flow; unset, every flow runs.
import cp from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../harness/browser.mjs';
import { codeServerCli, codeServerVersion, startCodeServer, workbenchUrl } from '../harness/codeServer.mjs';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { elapsed, makeLogger } from '../harness/log.mjs';
import { assertToolchain, extensionDir, fixturesDir, freshResultsDir, readExtensionManifest, repoRoot } from '../harness/paths.mjs';
import { CheckList } from './checks.mjs';
import * as ui from './workbench.mjs';
import { checkDeactivateLeavesNoProcess } from './deactivate.mjs';
import { trustFlow } from './trust.mjs';
import { restrictedFlow } from './restricted.mjs';
import { ctrlCFlow } from './ctrlc.mjs';
import { trustEditingFlow } from './trustEditing.mjs';
import { npmStartSignalsFlow } from './npmStartSignals.mjs';
import { checkSidebar } from './sidebarActions.mjs';
import { oauthFlow } from './oauth.mjs';
import { approvalsFlow } from './approvals.mjs';
import { chatFlow } from './chat.mjs';
import { appsFlow } from './apps.mjs';
import { tasksFlow } from './tasks.mjs';
import { coexistFlow } from './coexist.mjs';
import { galleryFlow } from './gallery.mjs';
import { sidebarWidthsFlow } from './sidebarWidths.mjs';

const log = makeLogger('e2e');
const TIMEOUT_MS = Number(process.env.SWITCHBOARD_E2E_TIMEOUT_MS) || 300_000;
/** The trust flow (trust.mjs) runs after the main flow, in its own workbench, with its own limit. */
const TRUST_TIMEOUT_MS = Number(process.env.SWITCHBOARD_E2E_TRUST_TIMEOUT_MS) || 180_000;
/** The Restricted Mode flow (restricted.mjs) runs last, in its own workbench, with its own limit. */
const RESTRICTED_TIMEOUT_MS = Number(process.env.SWITCHBOARD_E2E_RESTRICTED_TIMEOUT_MS) || 180_000;
/** The Ctrl-C flow (ctrlc.mjs): `npm start`'s session stopped with SIGINT. */
const CTRLC_TIMEOUT_MS = Number(process.env.SWITCHBOARD_E2E_CTRLC_TIMEOUT_MS) || 120_000;
/** Per signal: `npm start` builds and installs before VS Code runs (npmStartSignals.mjs). */
const NPM_START_TIMEOUT_MS = Number(process.env.SWITCHBOARD_E2E_NPM_START_TIMEOUT_MS) || 180_000;
/** The OAuth sign-in flow (oauth.mjs) runs after the trust flow, in its own workbench, with its own limit. */
const OAUTH_TIMEOUT_MS = Number(process.env.SWITCHBOARD_E2E_OAUTH_TIMEOUT_MS) || 180_000;
/** The approvals flow (approvals.mjs) runs after the OAuth flow, in its own workbench, with its own limit. */
const APPROVALS_TIMEOUT_MS = Number(process.env.SWITCHBOARD_E2E_APPROVALS_TIMEOUT_MS) || 180_000;
/** The chat flow (chat.mjs) runs after the approvals flow, in its own workbench, with its own limit. */
const CHAT_TIMEOUT_MS = Number(process.env.SWITCHBOARD_E2E_CHAT_TIMEOUT_MS) || 300_000;
/** The MCP Apps flow (apps.mjs) runs after the chat flow, in its own workbench, with its own limit. */
const APPS_TIMEOUT_MS = Number(process.env.SWITCHBOARD_E2E_APPS_TIMEOUT_MS) || 240_000;
/** The tasks flow (tasks.mjs) runs after the apps flow, in its own workbench, with its own limit. */
const TASKS_TIMEOUT_MS = Number(process.env.SWITCHBOARD_E2E_TASKS_TIMEOUT_MS) || 240_000;
/** The coexistence flow (coexist.mjs) runs after the chat flow, in its own workbench, with its own limit. */
const COEXIST_TIMEOUT_MS = Number(process.env.SWITCHBOARD_E2E_COEXIST_TIMEOUT_MS) || 180_000;
/** The gallery flow (gallery.mjs) runs after the coexistence flow, in its own workbench, with its own limit. */
const GALLERY_TIMEOUT_MS = Number(process.env.SWITCHBOARD_E2E_GALLERY_TIMEOUT_MS) || 180_000;
const verbose = Boolean(process.env.VERBOSE);
const FLOWS = ['main', 'sidebarWidths', 'trust', 'trustEditing', 'oauth', 'approvals', 'chat', 'apps', 'tasks', 'coexist', 'gallery', 'restricted', 'ctrlc'];
/** The flows SWITCHBOARD_E2E_FLOWS names (all when it is unset); a name not known is an error, not a silent skip. */
function selectedFlows() {
  const named = (process.env.SWITCHBOARD_E2E_FLOWS ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = named.filter((name) => !FLOWS.includes(name));
  if (unknown.length) throw new Error(`SWITCHBOARD_E2E_FLOWS names unknown flows ${unknown.join(', ')}; known: ${FLOWS.join(', ')}`);
  return new Set(named.length ? named : FLOWS);
}
const flows = selectedFlows();
if (flows.size < FLOWS.length) console.log(`[e2e] only the flows ${[...flows].join(', ')} (SWITCHBOARD_E2E_FLOWS)`);

function locateVsix(manifest) {
  const vsix = path.resolve(process.env.SWITCHBOARD_VSIX || path.join(extensionDir, `${manifest.name}-${manifest.version}.vsix`));
  if (fs.existsSync(vsix)) return vsix;
  const packager = path.join(extensionDir, 'scripts', 'package.mjs');
  if (process.env.SWITCHBOARD_VSIX || !fs.existsSync(packager)) {
    throw new Error(`${vsix} not found; run \`npm run package\` first`);
  }
  log(`${path.basename(vsix)} missing: running scripts/package.mjs`);
  const r = cp.spawnSync(process.execPath, [packager], { cwd: extensionDir, stdio: 'inherit' });
  if (r.status !== 0 || !fs.existsSync(vsix)) throw new Error(`packaging failed (exit ${r.status}); ${vsix} not produced`);
  return vsix;
}

async function main() {
  const resultsDir = freshResultsDir('e2e');
  const checks = new CheckList(log);
  assertToolchain();
  const manifest = readExtensionManifest(extensionDir);
  const vsix = locateVsix(manifest);
  const expected = JSON.parse(fs.readFileSync(path.join(fixturesDir, 'e2e', 'expected.json'), 'utf8'));
  const stateDir = makeStateDir('e2e');
  const fixture = prepareFixture('e2e', stateDir);

  const version = codeServerVersion(stateDir);
  log(`VS Code ${version.vscode} (code-server ${version.codeServer}): ${version.line}`);

  const installed = await checks.gate(`${path.basename(vsix)} installs into an isolated extensions dir`, async () => {
    const out = codeServerCli(stateDir, ['--install-extension', vsix]);
    if (verbose) log(out);
    const listed = codeServerCli(stateDir, ['--list-extensions', '--show-versions']).split('\n').map((l) => l.trim());
    const want = `${manifest.id}@${manifest.version}`;
    if (!listed.includes(want)) throw new Error(`--list-extensions shows [${listed.join(', ')}], not ${want}`);
  });

  let server;
  let browser;
  let timer;
  let timedOut = false;
  const shot = async (name) => {
    const file = path.join(resultsDir, name);
    await browser?.page.screenshot({ path: file }).catch((e) => log(`screenshot ${name} failed: ${e.message}`));
    return file;
  };

  const flow = async () => {
    server = await startCodeServer({
      stateDir,
      home: fixture.home,
      logFile: path.join(resultsDir, 'code-server.log'),
      // The fixture's servers run from this repository's node_modules (`${env:SWITCHBOARD_REPO}`): no download.
      env: { SWITCHBOARD_REPO: repoRoot },
    });
    log(`code-server up on ${server.url} in ${server.startupMs} ms`);
    browser = await launchBrowser();
    const { page } = browser;
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (e) => log('page error:', e.message));
    page.on('console', (m) => {
      if (verbose) log(`[browser ${m.type()}]`, m.text());
    });

    await checks.gate('the workbench opens the fixture workspace', async () => {
      await page.goto(workbenchUrl(server, { folder: fixture.workspace }), { waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await page.locator('.part.activitybar').waitFor();
    });

    // The fixture's workspace defines project servers: the extension asks about them in one modal
    // dialog as it activates. Escape is "decide later": the checks below expect them to need trust.
    await checks.check('at activation one trust dialog asks about every project server; Escape leaves them waiting', async () => {
      const dialog = await ui.waitForDialog(page, /MCP servers defined by this workspace/, 60_000);
      const text = await dialog.innerText();
      const names = expected.effective.filter((s) => s.scope === 'project').map((s) => s.name);
      const missing = names.filter((name) => !text.includes(`■ ${name} — `));
      if (missing.length) throw new Error(`the dialog does not list ${missing.join(', ')}:\n${text}`);
      log(`  screenshot: ${await shot('trust-dialog-activation.png')}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    });

    await checks.gate('the "MCP Switchboard" activity-bar tab opens its container', async () => {
      await ui.dismissDialogs(page, log, () => shot('dialog.png'));
      await ui.openContainer(page, 'MCP Switchboard');
    });

    await checks.check('the Servers tree shows every effective server name', async () => {
      const pane = await ui.expandPane(page, 'Servers');
      const names = expected.effective.map((s) => s.name);
      await ui.waitForTreeNames(pane, names, 30_000);
    });

    await checks.check('the Servers tree shows each server\'s scope, transport and state', async () => {
      const pane = await ui.expandPane(page, 'Servers');
      const want = (s) => `${s.scope} · ${s.transport} · ${s.state}`;
      const t0 = Date.now();
      let rows = [];
      const wrong = () => expected.effective.filter((s) => !rows.some((r) => r.label === s.name && r.description.startsWith(want(s))));
      while (Date.now() - t0 < 45_000) {
        rows = await ui.readTreeRows(pane);
        if (wrong().length === 0) break;
        await page.waitForTimeout(250);
      }
      const bad = wrong();
      if (bad.length) {
        const seen = rows.map((r) => `${r.label} (${r.description})`).join(' | ');
        throw new Error(`rows lack ${bad.map((s) => `"${s.name}: ${want(s)}"`).join(', ')}; seen: ${seen}`);
      }
    });

    await checks.check('expanding a ready server in the tree lists its tools', async () => {
      const pane = await ui.expandPane(page, 'Servers');
      const ready = expected.effective.find((s) => s.state === 'ready');
      await ui.expandTreeRow(pane, ready.name);
      const isGroup = (r) => /^(Tools|Resources|Resource templates|Prompts) \(\d+\)$/.test(r.label);
      const t0 = Date.now();
      let groups = [];
      while (Date.now() - t0 < 10_000) {
        groups = (await ui.readTreeRows(pane)).filter(isGroup);
        if (groups.some((r) => r.label.startsWith('Tools ('))) break;
        await page.waitForTimeout(250);
      }
      const tools = groups.find((r) => r.label.startsWith('Tools ('));
      if (!tools || tools.label === 'Tools (0)') throw new Error(`no "Tools (N)" row under ${ready.name}: ${groups.map((g) => g.label).join(', ') || 'none'}`);
      log(`  ${ready.name}: ${groups.map((g) => g.label).join(', ')}`);
    });

    await checks.check('the status bar sums up the servers ("MCP: 1 ready · …")', async () => {
      const { ready, failed, needTrust } = expected.statusBar;
      const want = `MCP: ${ready} ready · ${failed} failed · ${needTrust} need trust`;
      const text = await ui.statusBarText(page, 'MCP:', { until: new RegExp(want), timeoutMs: 30_000 });
      if (!text.includes(want)) throw new Error(`status bar shows "${text}", not "${want}"`);
    });

    let webview;
    await checks.gate('the Sidebar webview renders server rows', async () => {
      await ui.expandPane(page, 'Sidebar');
      webview = ui.webviewFrame(page, manifest.id);
      await webview.locator('[data-testid="server-row"]').first().waitFor({ timeout: 60_000 });
    });

    const settled = Object.fromEntries(expected.effective.map((s) => [s.name, s.state]));
    const rows = webview && !checks.blocked ? await ui.waitForServerRows(webview, expected.effective.map((s) => s.name), 45_000, settled) : [];
    if (webview) log(`webview rows: ${rows.map((r) => `${r.name}(${r.scope}, ${r.transport}, ${r.state}${r.tools ? `, ${r.tools} tools` : ''})`).join(', ')}`);
    for (const want of expected.effective) {
      await checks.check(`"${want.name}" is listed with scope ${want.scope}`, async () => {
        const mine = rows.filter((r) => r.name === want.name);
        if (!mine.length) throw new Error(`no row named ${want.name}`);
        if (!mine.some((r) => r.scope.toLowerCase() === want.scope)) {
          throw new Error(`rows named ${want.name} show scope ${mine.map((r) => r.scope).join(', ')}`);
        }
      });
    }
    await checks.check('each server shows its transport', async () => {
      const wrong = expected.effective.filter((s) => !rows.some((r) => r.name === s.name && r.transport.toLowerCase().includes(s.transport)));
      if (wrong.length) throw new Error(`transport not shown for ${wrong.map((s) => `${s.name} (${s.transport})`).join(', ')}`);
    });
    await checks.check('no server is listed that is not effective', async () => {
      const extra = [...new Set(rows.map((r) => r.name))].filter((n) => !expected.effective.some((s) => s.name === n));
      if (extra.length) throw new Error(`unexpected rows: ${extra.join(', ')}`);
    });
    await checks.check('every row has a server id and a state', async () => {
      const bad = rows.filter((r) => !r.id || !r.state);
      if (bad.length) throw new Error(`rows without data-server-id or state: ${bad.map((r) => r.name).join(', ')}`);
    });
    await checks.check('each row shows its lifecycle state (ready, needs trust, failed)', async () => {
      const wrong = expected.effective.filter((s) => !rows.some((r) => r.name === s.name && r.state === s.state));
      if (wrong.length) {
        throw new Error(wrong.map((s) => `${s.name}: "${rows.find((r) => r.name === s.name)?.state}", not "${s.state}"`).join('; '));
      }
    });
    await checks.check('a failed server shows why, a ready one its tool count', async () => {
      const failed = rows.filter((r) => r.state === 'failed');
      const silent = failed.filter((r) => !r.error);
      if (!failed.length || silent.length) throw new Error(`failed rows without a reason: ${silent.map((r) => r.name).join(', ') || '(no failed row)'}`);
      for (const r of failed) log(`  ${r.name} failed: ${r.error}`);
      const ready = rows.filter((r) => r.state === 'ready');
      const uncounted = ready.filter((r) => !(Number(r.tools) > 0));
      if (!ready.length || uncounted.length) throw new Error(`ready rows without a tool count: ${uncounted.map((r) => r.name).join(', ') || '(no ready row)'}`);
      const idle = rows.filter((r) => r.state !== 'ready' && r.tools);
      if (idle.length) throw new Error(`rows that are not ready show tools: ${idle.map((r) => r.name).join(', ')}`);
    });
    await checks.check('the valid fixture shows no config problems', async () => {
      if (!webview) throw new Error('no webview');
      const problems = await webview.locator('[data-testid="problem"]').allInnerTexts();
      if (problems.length) throw new Error(`problems shown: ${problems.join(' | ')}`);
    });

    await page.mouse.move(700, 450); // no hover tooltip in the picture
    await page.waitForTimeout(500);
    log(`screenshot: ${await shot('workbench.png')}`);
    await page.locator('.part.sidebar').screenshot({ path: path.join(resultsDir, 'sidebar.png') }).catch(() => {});

    // Every row action clicked, the source links, whole command lines, Restart All (sidebarActions.mjs).
    if (webview && !checks.blocked) await checkSidebar({ checks, page, webview, expected, fixture, extensionId: manifest.id, log, shot });

    // Last, as it restarts the extension host: a deactivate leaves zero child processes (deactivate.mjs).
    await checkDeactivateLeavesNoProcess({ checks, page, server, extensionId: manifest.id, expected, log, resultsDir });
  };

  let exitCode;
  try {
    if (checks.blocked) throw new Error('not starting the workbench: a prerequisite failed');
    if (flows.has('main')) await Promise.race([
      flow(),
      new Promise((_, reject) => {
        timer = setTimeout(() => {
          timedOut = true;
          reject(new Error(`timeout after ${TIMEOUT_MS} ms`));
        }, TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    checks.error(err);
  } finally {
    clearTimeout(timer);
    if (checks.failed > 0 || timedOut) log(`failure screenshot: ${await shot('failure.png')}`);
    await browser?.close();
    const escaped = (await server?.stop()) ?? [];
    if (escaped.length) {
      log(`WARNING: ${escaped.length} process(es) outlived code-server and were killed:`);
      for (const p of escaped) log(`  pid ${p.pid}: ${p.cmdline}`);
    }
    if (!timedOut && flows.has('sidebarWidths')) {
      checks.blocked = undefined;
      log('sidebar widths flow (sidebarWidths.mjs): the built Sidebar page alone in Chromium, from 150 px up');
      await sidebarWidthsFlow({ checks, resultsDir, log });
    }
    if (installed && !timedOut && flows.has('trust')) {
      // Its own workbench: a failed step of the main flow does not block it.
      checks.blocked = undefined;
      log('trust flow (trust.mjs): the trust dialog, as a person answers it');
      await trustFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs: TRUST_TIMEOUT_MS });
    }
    if (installed && !timedOut && flows.has('trustEditing')) {
      checks.blocked = undefined;
      log('trust editing flow (trustEditing.mjs): a definition typed into .mcp.json with autosave on; no dialog, whatever the pause: only Trust and start on the card starts it');
      await trustEditingFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs: TRUST_TIMEOUT_MS });
    }
    if (installed && !timedOut && flows.has('oauth')) {
      checks.blocked = undefined;
      log('oauth flow (oauth.mjs): sign in to a server behind OAuth through the browser, then sign out');
      await oauthFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs: OAUTH_TIMEOUT_MS });
    }
    if (installed && !timedOut && flows.has('approvals')) {
      checks.blocked = undefined;
      log('approvals flow (approvals.mjs): tool calls approved, edited and rejected in the Sidebar against server-filesystem');
      await approvalsFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs: APPROVALS_TIMEOUT_MS });
    }
    if (installed && !timedOut && flows.has('chat')) {
      checks.blocked = undefined;
      log('chat flow (chat.mjs): @mcp requests typed into the Chat view with the scripted model; a tool call approved in the Sidebar, a mention, a slash prompt');
      await chatFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs: CHAT_TIMEOUT_MS });
    }
    if (installed && !timedOut && flows.has('apps')) {
      checks.blocked = undefined;
      log('apps flow (apps.mjs): MCP Apps rendered and driven in their panel: the example App server\'s tool called from the app through an approval card, a hostile app kept in its frame');
      await appsFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs: APPS_TIMEOUT_MS });
    }
    if (installed && !timedOut && flows.has('tasks')) {
      checks.blocked = undefined;
      log('tasks flow (tasks.mjs): long builds run as MCP tasks: followed under Tasks, a question answered mid-flight, one cancelled, one announced after its chat turn stopped');
      await tasksFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs: TASKS_TIMEOUT_MS });
    }
    if (installed && !timedOut && flows.has('coexist')) {
      checks.blocked = undefined;
      log('coexist flow (coexist.mjs): VS Code\'s own MCP and Switchboard on one .mcp.json; told once, Switchboard chosen, then VS Code');
      await coexistFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs: COEXIST_TIMEOUT_MS });
    }
    if (installed && !timedOut && flows.has('gallery')) {
      checks.blocked = undefined;
      log('gallery flow (gallery.mjs): Browse Servers against the local fixture registry, installed by keyboard; an install link\'s review');
      await galleryFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs: GALLERY_TIMEOUT_MS });
    }
    if (installed && !timedOut && flows.has('restricted')) {
      // Restricted Mode (restricted.mjs): its own workbench with workspace trust on.
      checks.blocked = undefined;
      log('restricted flow (restricted.mjs): Restricted Mode, then the workspace trusted as a person does it');
      await restrictedFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs: RESTRICTED_TIMEOUT_MS });
    }
    if (installed && !timedOut && flows.has('ctrlc')) {
      // Ctrl-C on `npm start` (ctrlc.mjs): its own session process, stopped with SIGINT.
      checks.blocked = undefined;
      log('Ctrl-C flow (ctrlc.mjs): npm start\'s session stopped with SIGINT, VS Code first');
      await ctrlCFlow({ checks, vsix, resultsDir, log, timeoutMs: CTRLC_TIMEOUT_MS });
      log('npm start stopped by a process manager (npmStartSignals.mjs): SIGTERM, then SIGINT, sent to the npm process alone');
      await npmStartSignalsFlow({ checks, resultsDir, log, timeoutMs: NPM_START_TIMEOUT_MS });
    }
    const results = { ...checks.summary(), vscodeVersion: version.vscode, codeServerVersion: version.codeServer };
    fs.writeFileSync(path.join(resultsDir, 'results.json'), JSON.stringify(results, null, 2));
    console.log('');
    log(`VS Code ${version.vscode} (code-server ${version.codeServer})`);
    log(`e2e tier: ${results.passed} passed, ${results.failed} failed, ${results.pending} pending (${elapsed()})`);
    exitCode = timedOut ? 2 : results.failed > 0 || results.passed === 0 ? 1 : 0;
    if (exitCode !== 0 || process.env.SWITCHBOARD_KEEP_STATE) {
      log(`screenshots, logs, results: ${resultsDir}`);
      log(`code-server log: ${server?.logFile ?? 'not started'}; state kept in ${stateDir}`);
    } else {
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
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
