// VS Code's Restricted Mode in a real workbench, as a person meets it: with workspace trust on and no
// startup prompt, the e2e-trust workspace opens untrusted. No project server starts and no MCP trust
// dialog asks about it (whatever was trusted), while a user server still runs. The person then trusts
// the workspace through VS Code's own Workspace Trust editor; the MCP trust dialog follows at once,
// listing the project server's whole command, and "Trust and start" starts it. Its own code-server,
// state folder and copy of test/fixtures/e2e-trust (its home/.mcp.json given one user server in the
// copy), after the other flows. Process checks read /proc (Linux).
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../harness/browser.mjs';
import { codeServerCli, startCodeServer, workbenchUrl } from '../harness/codeServer.mjs';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { repoRoot } from '../harness/paths.mjs';
import { runFromPalette } from './deactivate.mjs';
import { processesWith, treeDescription, until } from './probes.mjs';
import * as ui from './workbench.mjs';
import { runWorkbenchFlow } from './workbenchFlow.mjs';

const PROJECT_SERVER = 'trusty';
const USER_SERVER = 'helper';
/** The marker argument of test/fixtures/e2e-trust/workspace/.mcp.json: the process table finds the project server by it. */
const PROJECT_MARKER = '--e2e-trust-marker=the-whole-command-line-must-be-visible-in-the-trust-dialog-even-when-it-is-longer-than-the-dialog-is-wide-3f9c1e';
/** The marker argument of the user server this flow adds to the copied home/.mcp.json. */
const USER_MARKER = '--e2e-restricted-user-marker=runs-in-restricted-mode-7d41a2';
/** How long the workbench is watched for a trust dialog that must not come. */
const QUIET_MS = 5_000;
const RESTRICTED_REASON = /^project · stdio · needs trust: Restricted Mode/;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The "Restricted Mode" entry of the status bar (VS Code's shield item), as a locator. */
function restrictedStatusItem(page) {
  return page.locator('.part.statusbar .statusbar-item', { hasText: 'Restricted Mode' }).first();
}

/**
 * Runs the Restricted Mode checks into `checks`. Options: vsix (the package to install), manifest,
 * resultsDir, log, timeoutMs. Cleans up what it started, whatever happens.
 */
export async function restrictedFlow({ checks, vsix, resultsDir, log, timeoutMs }) {
  const stateDir = makeStateDir('e2e-restricted');
  const fixture = prepareFixture('e2e-trust', stateDir);
  // One user server next to the project one, in the copy only: it must run in Restricted Mode.
  fs.writeFileSync(path.join(fixture.home, '.mcp.json'), JSON.stringify({
    mcpServers: { [USER_SERVER]: { command: 'node', args: ['${env:SWITCHBOARD_REPO}/test/fixtures/servers/ok.mjs', USER_MARKER] } },
  }, null, 2));
  let server;
  let browser;
  const shot = async (name) => {
    const file = path.join(resultsDir, name);
    await browser?.page.screenshot({ path: file }).catch((e) => log(`screenshot ${name} failed: ${e.message}`));
    return file;
  };

  const flow = async () => {
    await checks.gate('restricted flow: with workspace trust on, the workspace opens in Restricted Mode', async () => {
      codeServerCli(stateDir, ['--install-extension', vsix]);
      server = await startCodeServer({
        stateDir,
        home: fixture.home,
        logFile: path.join(resultsDir, 'code-server-restricted.log'),
        env: { SWITCHBOARD_REPO: repoRoot },
        // Workspace trust on, no modal at startup: a folder nobody trusted opens in Restricted Mode.
        workspaceTrust: true,
        settings: { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' },
      });
      browser = await launchBrowser();
      browser.page.setDefaultTimeout(30_000);
      browser.page.on('pageerror', (e) => log('page error:', e.message));
      await browser.page.goto(workbenchUrl(server, { folder: fixture.workspace }), { waitUntil: 'domcontentloaded' });
      await browser.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await restrictedStatusItem(browser.page).waitFor({ timeout: 30_000 });
      const banner = (await browser.page.locator('.part.banner').innerText({ timeout: 2_000 }).catch(() => '')).replace(/\s+/g, ' ').trim();
      log(`  status bar: "Restricted Mode"; banner: ${banner ? `"${banner.slice(0, 160)}"` : '(none)'}`);
    });
    if (checks.blocked) return;
    const { page } = browser;
    // The script's folder comes from ${env:SWITCHBOARD_REPO}, a value of the person's environment: the
    // dialog masks it (and names the variable) like every value the environment brings in.
    const command = `node '***/test/fixtures/servers/ok.mjs' ${PROJECT_MARKER}`;

    await checks.check('in Restricted Mode no trust dialog asks and the project server does not run; the view says why; the user server is ready', async () => {
      await ui.openContainer(page, 'MCP Switchboard');
      const pane = await ui.expandPane(page, 'Servers');
      await ui.waitForTreeNames(pane, [PROJECT_SERVER, USER_SERVER], 30_000);
      const userRow = await until(`"${USER_SERVER}" to be ready`, async () => {
        const text = await treeDescription(pane, USER_SERVER);
        return text === 'user · stdio · ready' && text;
      }, 30_000).catch(async (error) => { throw new Error(`${error.message}; row: ${await treeDescription(pane, USER_SERVER)}`); });
      if (processesWith(USER_MARKER).length !== 1) throw new Error(`expected one process of the user server, found ${processesWith(USER_MARKER).length}`);
      // Watch a while: no MCP trust dialog may open, no project server process may appear.
      const t0 = Date.now();
      while (Date.now() - t0 < QUIET_MS) {
        const dialog = page.locator('.monaco-dialog-box');
        if (await dialog.isVisible().catch(() => false)) {
          throw new Error(`a dialog opened in Restricted Mode: ${(await dialog.innerText()).replace(/\s+/g, ' ').slice(0, 300)}`);
        }
        const running = processesWith(PROJECT_MARKER);
        if (running.length) throw new Error(`the project server runs in Restricted Mode: pid ${running.map((p) => p.pid).join(', ')}`);
        await sleep(250);
      }
      const projectRow = await treeDescription(pane, PROJECT_SERVER);
      if (!RESTRICTED_REASON.test(projectRow ?? '')) throw new Error(`the "${PROJECT_SERVER}" row shows "${projectRow}", not the Restricted Mode reason`);
      log(`  ${PROJECT_SERVER}: ${projectRow}`);
      log(`  ${USER_SERVER}: ${userRow}`);
      await page.mouse.move(700, 450);
      await sleep(300);
      log(`  screenshot: ${await shot('restricted.png')}`);
    });

    let dialog;
    await checks.gate('trusting the workspace in VS Code\'s Workspace Trust editor brings the MCP trust dialog, with the whole command', async () => {
      const status = restrictedStatusItem(page);
      const trustButton = page.locator('.workspace-trust-editor .workspace-trust-buttons .monaco-button', { hasText: /^\s*Trust\s*$/ }).first();
      let via = 'the "Restricted Mode" status bar item';
      if (await status.isVisible().catch(() => false)) await status.click();
      if (!(await trustButton.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false))) {
        // the status item did not open the editor: the command palette does
        via = '"Workspaces: Manage Workspace Trust" from the command palette';
        await runFromPalette(page, ['Workspaces: Manage Workspace Trust']);
        await trustButton.waitFor({ state: 'visible', timeout: 30_000 });
      }
      log(`  Workspace Trust editor opened by ${via}; clicking "Trust"`);
      if (processesWith(PROJECT_MARKER).length) throw new Error('the project server runs before the workspace was trusted');
      await trustButton.click();
      await restrictedStatusItem(page).waitFor({ state: 'detached', timeout: 15_000 });
      dialog = await ui.waitForDialog(page, /MCP server "trusty" defined by this workspace/, 30_000);
      const text = await dialog.innerText();
      log(`  dialog: ${text.replace(/\s+/g, ' ').slice(0, 300)}…`);
      if (!text.includes(`Command: ${command}`)) throw new Error(`the dialog does not show "Command: ${command}":\n${text}`);
      if (!/^From your environment: SWITCHBOARD_REPO=\*\*\*$/m.test(text)) throw new Error(`the dialog does not name the masked variable:\n${text}`);
      if (text.includes(repoRoot)) throw new Error('the dialog shows a value of the environment');
      const running = processesWith(PROJECT_MARKER);
      if (running.length) throw new Error(`the project server runs before it was trusted: ${running.map((p) => p.pid).join(', ')}`);
      log(`  screenshot: ${await shot('after-grant-dialog.png')}`);
    });

    await checks.check('after the workspace is trusted, "Trust and start" starts the project server: ready, its process running', async () => {
      await ui.clickDialogButton(dialog, 'Trust and start');
      await ui.openContainer(page, 'MCP Switchboard');
      const pane = await ui.expandPane(page, 'Servers');
      const description = await until(`"${PROJECT_SERVER}" to be ready`, async () => {
        const text = await treeDescription(pane, PROJECT_SERVER);
        return text === 'project · stdio · ready' && text;
      }, 30_000).catch(async (error) => { throw new Error(`${error.message}; row: ${await treeDescription(pane, PROJECT_SERVER)}`); });
      log(`  ${PROJECT_SERVER}: ${description}`);
      const running = processesWith(PROJECT_MARKER);
      if (running.length !== 1) throw new Error(`expected one process with the project marker, found ${running.length}`);
      if (processesWith(USER_MARKER).length !== 1) throw new Error('the user server no longer runs');
    });
  };

  await runWorkbenchFlow({
    name: 'restricted flow', timeoutMs, checks, log, shot, stateDir, flow,
    workbench: () => ({ browser, server }),
  });
}
