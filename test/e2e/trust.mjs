// The trust prompt in a real VS Code in a real browser, as a person meets it: a workspace whose
// .mcp.json defines a project server is opened, the modal trust dialog appears with the whole command
// line, "Trust and start" starts the server without a reload, an edit of its arguments brings the
// dialog back showing the change (the old process still running meanwhile), and "Don't trust" leaves
// no process with that command. Its own code-server, state folder and fixture (test/fixtures/e2e-trust),
// after the main flow has ended. Process checks read /proc (Linux).
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../harness/browser.mjs';
import { codeServerCli, startCodeServer, workbenchUrl } from '../harness/codeServer.mjs';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { repoRoot } from '../harness/paths.mjs';
import { processesWith, treeDescription, until } from './probes.mjs';
import * as ui from './workbench.mjs';
import { runWorkbenchFlow } from './workbenchFlow.mjs';

const SERVER = 'trusty';
/** The marker argument of test/fixtures/e2e-trust/workspace/.mcp.json: the process table finds the server by it. */
const MARKER = '--e2e-trust-marker=the-whole-command-line-must-be-visible-in-the-trust-dialog-even-when-it-is-longer-than-the-dialog-is-wide-3f9c1e';
const CHANGED_ARG = '--generation=2';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the trust checks into `checks`. Options: vsix (the package to install), manifest, resultsDir,
 * log, timeoutMs. Cleans up what it started, whatever happens.
 */
export async function trustFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs }) {
  const stateDir = makeStateDir('e2e-trust');
  const fixture = prepareFixture('e2e-trust', stateDir);
  const projectFile = path.join(fixture.workspace, '.mcp.json');
  let server;
  let browser;
  const shot = async (name) => {
    const file = path.join(resultsDir, name);
    await browser?.page.screenshot({ path: file }).catch((e) => log(`screenshot ${name} failed: ${e.message}`));
    return file;
  };

  const flow = async () => {
    await checks.gate('trust flow: a workspace whose .mcp.json defines a project server opens in the workbench', async () => {
      codeServerCli(stateDir, ['--install-extension', vsix]);
      server = await startCodeServer({
        stateDir,
        home: fixture.home,
        logFile: path.join(resultsDir, 'code-server-trust.log'),
        env: { SWITCHBOARD_REPO: repoRoot },
      });
      browser = await launchBrowser();
      browser.page.setDefaultTimeout(30_000);
      browser.page.on('pageerror', (e) => log('page error:', e.message));
      await browser.page.goto(workbenchUrl(server, { folder: fixture.workspace }), { waitUntil: 'domcontentloaded' });
      await browser.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    });
    if (checks.blocked) return;
    const { page } = browser;
    // The script's folder comes from ${env:SWITCHBOARD_REPO}, a value of the person's environment: the
    // dialog masks it (and names the variable) like every value the environment brings in.
    const command = `node '***/test/fixtures/servers/ok.mjs' ${MARKER}`;

    let dialog;
    await checks.gate('the trust dialog appears, with the whole command line of the project server', async () => {
      dialog = await ui.waitForDialog(page, /MCP server "trusty" defined by this workspace/, 60_000);
      const text = await dialog.innerText();
      log(`  dialog: ${text.replace(/\s+/g, ' ').slice(0, 400)}…`);
      if (!text.includes(`Command: ${command}`)) throw new Error(`the dialog does not show "Command: ${command}":\n${text}`);
      if (!/^From your environment: SWITCHBOARD_REPO=\*\*\*$/m.test(text)) throw new Error(`the dialog does not name the masked variable:\n${text}`);
      if (text.includes(repoRoot)) throw new Error('the dialog shows a value of the environment');
      if (!/⚠ outside-workspace: /.test(text)) throw new Error('the dialog shows no danger flag for a script outside the workspace');
      for (const label of ['Review…', 'Trust and start', "Don't trust"]) {
        if (!(await dialog.locator('.dialog-buttons .monaco-button', { hasText: label }).count())) throw new Error(`no "${label}" button`);
      }
      // The button a stray Enter or Space presses is the focused one: it must not trust.
      const focused = (await dialog.locator('.dialog-buttons .monaco-button:focus').textContent({ timeout: 2000 }).catch(() => undefined))?.trim();
      if (focused !== 'Review…') throw new Error(`the dialog's focused button is ${JSON.stringify(focused)}, not "Review…"`);
      // The command line is on screen: inside the dialog box, not cut off by it.
      const fits = await dialog.evaluate((box) => {
        const detail = box.querySelector('.dialog-message-detail');
        return !!detail && detail.scrollWidth <= detail.clientWidth + 1;
      });
      if (!fits) throw new Error('the detail is wider than the dialog: part of the command line is hidden');
      const running = processesWith(MARKER);
      if (running.length) throw new Error(`the server runs before it was trusted: ${running.map((p) => p.pid).join(', ')}`);
      log(`  screenshot: ${await shot('trust-dialog.png')}`);
    });

    await checks.check('"Trust and start" starts it at once, without a reload: ready in the Servers view', async () => {
      await ui.clickDialogButton(dialog, 'Trust and start');
      await ui.openContainer(page, 'MCP Switchboard');
      const pane = await ui.expandPane(page, 'Servers');
      await ui.waitForTreeNames(pane, [SERVER], 30_000);
      const description = await until('the server to be ready', async () => {
        const text = await treeDescription(pane, SERVER);
        return text === 'project · stdio · ready' && text;
      }, 30_000).catch(async (error) => { throw new Error(`${error.message}; row: ${await treeDescription(pane, SERVER)}`); });
      log(`  ${SERVER}: ${description}`);
      const running = processesWith(MARKER);
      if (running.length !== 1) throw new Error(`expected one process with the marker, found ${running.length}`);
    });

    await checks.check('the Sidebar shows the project server\'s danger flag', async () => {
      await ui.expandPane(page, 'Sidebar');
      const webview = ui.webviewFrame(page, manifest.id);
      const flag = webview.locator(`[data-testid="server-row"][data-server-id="${SERVER}"] [data-testid="server-danger"]`);
      await flag.first().waitFor({ timeout: 30_000 });
      const ids = await flag.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-flag')));
      if (!ids.includes('outside-workspace')) throw new Error(`danger flags shown: ${ids.join(', ') || 'none'}`);
      await page.mouse.move(700, 450);
      await sleep(300);
      log(`  screenshot (ready in the tree, its flag in the Sidebar): ${await shot('after-trust.png')}`);
    });

    let oldPid;
    await checks.gate('editing its args brings the dialog back, showing what changed, while the old process keeps running', async () => {
      [{ pid: oldPid }] = processesWith(MARKER);
      const text = fs.readFileSync(projectFile, 'utf8');
      const edited = text.replace(`"${MARKER}"`, `"${MARKER}", "${CHANGED_ARG}"`);
      if (edited === text) throw new Error('the marker argument was not found in the fixture');
      fs.writeFileSync(projectFile, edited);
      dialog = await ui.waitForDialog(page, /has changed since you trusted it/, 30_000);
      const shown = await dialog.innerText();
      if (!shown.includes(`args[2] added: "${CHANGED_ARG}"`)) throw new Error(`the dialog does not show the added argument:\n${shown}`);
      if (!shown.includes(`Command: ${command} ${CHANGED_ARG}`)) throw new Error(`the dialog does not show the new command line:\n${shown}`);
      const running = processesWith(MARKER);
      if (!running.some((p) => p.pid === oldPid)) throw new Error(`the trusted process ${oldPid} stopped before the answer`);
      if (running.some((p) => p.cmdline.includes(CHANGED_ARG))) throw new Error('the changed definition runs before it was trusted');
      log(`  screenshot: ${await shot('changed-dialog.png')}`);
    });

    await checks.check('"Don\'t trust" stops it: no process with that command is left, and the view says "not trusted"', async () => {
      await ui.clickDialogButton(dialog, "Don't trust");
      await until('no process with the marker', () => processesWith(MARKER).length === 0, 15_000)
        .catch((error) => { throw new Error(`${error.message}: ${processesWith(MARKER).map((p) => `${p.pid} ${p.cmdline}`).join('; ')}`); });
      const pane = await ui.expandPane(page, 'Servers');
      await until('the row to say "not trusted"', async () => /^project · stdio · not trusted/.test((await treeDescription(pane, SERVER)) ?? ''), 15_000);
    });
  };

  await runWorkbenchFlow({
    name: 'trust flow', timeoutMs, checks, log, shot, stateDir, flow,
    workbench: () => ({ browser, server }),
  });
}
