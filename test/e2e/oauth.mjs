// Signing in to an OAuth-protected server in a real VS Code in a real browser, as a person does it:
// the server (test/fixtures/servers/oauth-protected.mjs, built from the SDK's server auth) answers 401,
// the Servers view and the Sidebar say "needs sign-in"; "Sign in" in the Sidebar asks first, naming
// the site; "Open Browser" opens the fixture's authorization page in the same headless browser; Approve
// sends the browser back to the extension's loopback listener; the server is then ready in VS Code with
// its tool listed. Sign Out (from the command palette, confirmed in its dialog) makes it need a
// sign-in again. Its own code-server, state folder and fixture (test/fixtures/e2e-oauth).
import cp from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../harness/browser.mjs';
import { codeServerCli, startCodeServer, workbenchUrl } from '../harness/codeServer.mjs';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { repoRoot } from '../harness/paths.mjs';
import { treeDescription, until } from './probes.mjs';
import * as ui from './workbench.mjs';
import { runWorkbenchFlow } from './workbenchFlow.mjs';

const SERVER = 'secured';

/** Starts the OAuth fixture server in its own process group; resolves with { child, port }. */
function startOAuthServer() {
  const child = cp.spawn(process.execPath, [path.join(repoRoot, 'test', 'fixtures', 'servers', 'oauth-protected.mjs')], {
    cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the OAuth fixture did not report its port: ${out}`)), 10_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{"port"'));
      if (line) { clearTimeout(timer); resolve({ child, port: JSON.parse(line).port }); }
    });
    child.stderr.on('data', (chunk) => { out += chunk; });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the OAuth fixture exited with ${code}: ${out}`)); });
  });
}

function stopGroup(child) {
  try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
}

/**
 * Runs the OAuth checks into `checks`. Options: vsix, manifest, resultsDir, log, timeoutMs. Cleans up
 * what it started, whatever happens.
 */
export async function oauthFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs }) {
  const stateDir = makeStateDir('e2e-oauth');
  const fixture = prepareFixture('e2e-oauth', stateDir);
  let oauthServer;
  let server;
  let browser;
  const shot = async (name, page = browser?.page) => {
    const file = path.join(resultsDir, name);
    await page?.screenshot({ path: file }).catch((e) => log(`screenshot ${name} failed: ${e.message}`));
    return file;
  };

  const flow = async () => {
    await checks.gate('oauth flow: a user server behind OAuth is configured and the workbench opens', async () => {
      oauthServer = await startOAuthServer();
      const url = `http://127.0.0.1:${oauthServer.port}/mcp`;
      fs.writeFileSync(path.join(fixture.home, '.mcp.json'), `${JSON.stringify({ mcpServers: { [SERVER]: { type: 'http', url } } }, null, 2)}\n`);
      codeServerCli(stateDir, ['--install-extension', vsix]);
      // portProxy: VS Code for the Web opens the loopback authorization URL through code-server's port proxy.
      server = await startCodeServer({ stateDir, home: fixture.home, logFile: path.join(resultsDir, 'code-server-oauth.log'), env: { SWITCHBOARD_REPO: repoRoot }, portProxy: true });
      browser = await launchBrowser();
      browser.page.setDefaultTimeout(30_000);
      browser.page.on('pageerror', (e) => log('page error:', e.message));
      await browser.page.goto(workbenchUrl(server, { folder: fixture.workspace }), { waitUntil: 'domcontentloaded' });
      await browser.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    });
    if (checks.blocked) return;
    const { page, context } = browser;
    const origin = `http://127.0.0.1:${oauthServer.port}`;

    let webview;
    await checks.gate('the server answering 401 shows "needs sign-in" in the Servers view and the Sidebar, with Sign in', async () => {
      await ui.openContainer(page, 'MCP Switchboard');
      const pane = await ui.expandPane(page, 'Servers');
      await ui.waitForTreeNames(pane, [SERVER], 30_000);
      const description = await until('the row to need a sign-in', async () => {
        const text = await treeDescription(pane, SERVER);
        return /^user · http · needs sign-in/.test(text ?? '') && text;
      }, 30_000).catch(async (error) => { throw new Error(`${error.message}; row: ${await treeDescription(pane, SERVER)}`); });
      log(`  ${SERVER}: ${description}`);
      await ui.expandPane(page, 'Sidebar');
      webview = ui.webviewFrame(page, manifest.id);
      const row = webview.locator(`[data-testid="server-row"][data-server-id="${SERVER}"]`);
      await row.locator('[data-testid="server-action-signIn"]').waitFor({ timeout: 30_000 });
      const status = await ui.statusBarText(page, 'MCP:', { until: /1 needs sign-in/, timeoutMs: 15_000 });
      if (!status.includes('MCP: 1 needs sign-in')) throw new Error(`status bar shows "${status}"`);
      log(`  screenshot: ${await shot('oauth-needs-sign-in.png')}`);
    });

    let popup;
    await checks.gate('"Sign in" names the site first; "Open Browser" opens the fixture\'s authorization page in the browser', async () => {
      await webview.locator(`[data-testid="server-row"][data-server-id="${SERVER}"] [data-testid="server-action-signIn"]`).click();
      const dialog = await ui.waitForDialog(page, new RegExp(`Sign in to "${SERVER}" at ${origin.replace(/[.]/g, '\\.')}\\?`), 30_000);
      log(`  dialog: ${(await dialog.innerText()).replace(/\s+/g, ' ').slice(0, 300)}`);
      log(`  screenshot: ${await shot('oauth-confirm.png')}`);
      const opened = context.waitForEvent('page', { timeout: 30_000 });
      await ui.clickDialogButton(dialog, 'Open Browser');
      popup = await opened;
      await popup.waitForLoadState('domcontentloaded');
      // VS Code may route a loopback address through its port forwarding: the page is the fixture's either way.
      await popup.locator('#approve').waitFor({ timeout: 30_000 })
        .catch(async (error) => { throw new Error(`${error.message.split('\n')[0]}; the new page is ${popup.url()}: ${(await popup.content()).replace(/\s+/g, " ").slice(0, 3000)}`); });
      log(`  authorization page: ${popup.url().split('?')[0]} — ${(await popup.locator('#client').innerText()).trim()}`);
      log(`  screenshot: ${await shot('oauth-authorization-page.png', popup)}`);
    });

    await checks.check('Approve brings the browser back to VS Code: the server is ready and its tool listed', async () => {
      await popup.locator('#approve').click();
      await popup.getByText('You are signed in').waitFor({ timeout: 30_000 });
      log(`  redirect landed on ${new URL(popup.url()).origin}${new URL(popup.url()).pathname}`);
      await popup.close();
      const pane = await ui.expandPane(page, 'Servers');
      await until('the row to be ready', async () => (await treeDescription(pane, SERVER)) === 'user · http · ready', 30_000)
        .catch(async (error) => { throw new Error(`${error.message}; row: ${await treeDescription(pane, SERVER)}`); });
      await ui.expandTreeRow(pane, SERVER);
      await until('"Tools (1)" under the server', async () => (await ui.readTreeRows(pane)).some((r) => r.label === 'Tools (1)'), 15_000);
      await ui.expandTreeRow(pane, 'Tools (1)');
      await until('the whoami tool row', async () => (await ui.readTreeRows(pane)).some((r) => r.label === 'whoami'), 15_000);
      log(`  screenshot: ${await shot('oauth-ready.png')}`);
    });

    await checks.check('Sign Out (command palette) makes it need a sign-in again', async () => {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      await input.fill('>MCP Switchboard: Sign Out of Server');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Sign Out of Server' }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: SERVER }).first().waitFor();
      await input.fill(SERVER);
      await page.keyboard.press('Enter');
      // Signing out asks first.
      await ui.clickDialogButton(await ui.waitForDialog(page, new RegExp(`Sign out of "${SERVER}"\\?`), 15_000), 'Sign Out');
      const pane = await ui.expandPane(page, 'Servers');
      await until('the row to need a sign-in again', async () => /^user · http · needs sign-in/.test((await treeDescription(pane, SERVER)) ?? ''), 30_000)
        .catch(async (error) => { throw new Error(`${error.message}; row: ${await treeDescription(pane, SERVER)}`); });
    });
  };

  await runWorkbenchFlow({
    name: 'oauth flow', timeoutMs, checks, log, shot, stateDir, flow,
    workbench: () => ({ browser, server }),
    cleanup: () => { if (oauthServer) stopGroup(oauthServer.child); },
  });
}
