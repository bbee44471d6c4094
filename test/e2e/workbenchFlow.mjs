// What every flow in a workbench of its own shares (trust.mjs, oauth.mjs, restricted.mjs): the flow
// runs within its time limit, a failure is recorded as a check, and whatever happened the workbench is
// closed the same way — a screenshot when something failed, the browser, code-server (reporting any
// process that outlived it), the flow's own cleanup, and its state folder (kept on failure or with
// SWITCHBOARD_KEEP_STATE=1).
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../harness/browser.mjs';
import { codeServerCli, workbenchUrl } from '../harness/codeServer.mjs';
import { packageScriptedModel } from '../harness/scriptedModel.mjs';
import * as ui from './workbench.mjs';

/**
 * Opens `folder` in a new headless browser on `server` and waits for the workbench; page errors are
 * logged. Resolves with the browser ({ page, context, close }).
 */
export async function openWorkbench({ server, folder, log, viewport }) {
  const browser = await launchBrowser(viewport ? { viewport } : undefined);
  browser.page.setDefaultTimeout(30_000);
  browser.page.on('pageerror', (e) => log('page error:', e.message));
  // The browser's console, webview frames included, beside code-server's log: a blank view in a failed run
  // leaves its reason there (code-server-X.log → workbench-console-X.log).
  if (server.logFile && path.basename(server.logFile).startsWith('code-server')) {
    const consoleLog = fs.createWriteStream(path.join(path.dirname(server.logFile), path.basename(server.logFile).replace(/^code-server/, 'workbench-console')));
    browser.page.on('console', (m) => consoleLog.write(`${new Date().toISOString()} [${m.type()}] ${m.text()}\n`));
    browser.page.on('close', () => consoleLog.end());
  }
  await browser.page.goto(workbenchUrl(server, { folder }), { waitUntil: 'domcontentloaded' });
  await browser.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  return browser;
}

/** Opens MCP Switchboard's container with the Sidebar expanded and the Servers tree collapsed (cards get the room); resolves with the Sidebar's frame. */
export async function openSidebar(page, extensionId) {
  await ui.openContainer(page, 'MCP Switchboard');
  const servers = page.locator('.part.sidebar .pane-header', { hasText: /^\s*Servers/i }).first();
  await ui.setPaneExpanded(page, servers, false);
  await ui.expandPane(page, 'Sidebar');
  return ui.webviewFrame(page, extensionId);
}

/** A flow's screenshots: `shot(name, target)` saves `target` (default: the flow's page now) into `resultsDir` and resolves with the file. */
export function screenshots(resultsDir, log, currentPage) {
  return async (name, target = currentPage()) => {
    const file = path.join(resultsDir, name);
    await target?.screenshot({ path: file }).catch((e) => log(`screenshot ${name} failed: ${e.message}`));
    return file;
  };
}

/** Writes `servers` as the `mcpServers` of the .mcp.json at `file`. */
export function writeServers(file, servers) {
  fs.writeFileSync(file, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
}

/** Installs the extension under test and the tests' scripted language model (no sign-in, no network) into the flow's code-server. */
export function installWithScriptedModel(stateDir, vsix) {
  codeServerCli(stateDir, ['--install-extension', vsix]);
  codeServerCli(stateDir, ['--install-extension', packageScriptedModel(path.join(stateDir, 'scripted-model.vsix'))]);
}

/**
 * Runs `flow()` under `name` ("trust flow") for at most `timeoutMs`. `workbench()` returns what the flow
 * opened so far ({ browser, server }); `cleanup()` ends anything else it started.
 */
export async function runWorkbenchFlow({ name, timeoutMs, checks, log, shot, stateDir, flow, workbench, cleanup = () => {} }) {
  let timer;
  try {
    await Promise.race([
      flow(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${name}: timeout after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (err) {
    checks.error(err);
  } finally {
    clearTimeout(timer);
    const { browser, server } = workbench();
    if (checks.failed > 0) log(`failure screenshot: ${await shot(`${name.split(' ')[0]}-failure.png`)}`);
    await browser?.close();
    const escaped = (await server?.stop()) ?? [];
    if (escaped.length) {
      log(`WARNING: ${escaped.length} process(es) outlived code-server (${name}) and were killed:`);
      for (const p of escaped) log(`  pid ${p.pid}: ${p.cmdline}`);
    }
    await cleanup();
    if (checks.failed > 0 || process.env.SWITCHBOARD_KEEP_STATE) log(`${name} state kept in ${stateDir}`);
    else fs.rmSync(stateDir, { recursive: true, force: true });
  }
}
