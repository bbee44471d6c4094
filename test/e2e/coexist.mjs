// Switchboard beside VS Code's own MCP support, in a real VS Code (1.139) in a real browser: VS Code
// reads the workspace's root .mcp.json too and starts its servers when a chat message is sent or its
// CodeLens "Start" is clicked, with no trust prompt. The flow: the project server `memory` is trusted
// in Switchboard's trust dialog, and right after it, in the same moment, a second modal asks who hosts
// it, saying that an answer writes "chat.mcp.access" to .vscode/settings.json (nothing is written while
// it is open); closed unanswered, the safe default holds: VS Code's copy is turned off through that
// setting, and the first @mcp chat message starts no second `memory`, no CodeLens offers to start it;
// after a reload nothing asks again; then the command
// "Choose Who Hosts Project Servers…" hands the server to VS Code: Switchboard holds it back with the
// reason in the Sidebar and the Servers tree, the setting is gone, and VS Code's CodeLens runs the one
// copy. Processes are counted in /proc by a marker argument. Its own code-server, state folder and
// fixture (test/fixtures/e2e-coexist).
import fs from 'node:fs';
import path from 'node:path';
import { startCodeServer } from '../harness/codeServer.mjs';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { repoRoot } from '../harness/paths.mjs';
import { openChat, sendChatRequest, waitForAnswer } from './chatView.mjs';
import { processesWith, treeDescription, until } from './probes.mjs';
import * as ui from './workbench.mjs';
import { installWithScriptedModel, openWorkbench, runWorkbenchFlow, screenshots, writeServers } from './workbenchFlow.mjs';

const SERVER = 'memory';
const QUESTION = /VS Code's own MCP would also run "memory" from this workspace's \.mcp\.json/;
/** The old way of asking: a notification toast beside the trust dialog (it must not come back). */
const TOAST = /Who should host/;
/** How long a check that something does NOT happen watches for it (VS Code started its copy within ~4 s of a chat message here). */
const QUIET_MS = 8_000;

/** Runs the coexistence checks into `checks`. Options: vsix, manifest, resultsDir, log, timeoutMs. */
export async function coexistFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs }) {
  const stateDir = makeStateDir('e2e-coexist');
  const fixture = prepareFixture('e2e-coexist', stateDir);
  const marker = `--e2e-coexist-marker=${path.basename(stateDir)}`;
  const settingsFile = path.join(fixture.workspace, '.vscode', 'settings.json');
  const copies = () => processesWith(marker);
  let server;
  let browser;
  const shot = screenshots(resultsDir, log, () => browser?.page);
  const workspaceAccess = () => {
    try {
      return JSON.parse(fs.readFileSync(settingsFile, 'utf8'))['chat.mcp.access'];
    } catch {
      return undefined;
    }
  };

  const flow = async () => {
    await checks.gate('coexist flow: a workspace whose .mcp.json defines "memory" opens, chat on, with the scripted model', async () => {
      const entry = {
        command: 'node',
        args: [path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js'), marker],
        env: { MEMORY_FILE_PATH: path.join(fixture.workspace, '.memory.jsonl') },
      };
      writeServers(path.join(fixture.workspace, '.mcp.json'), { [SERVER]: entry });
      installWithScriptedModel(stateDir, vsix);
      server = await startCodeServer({
        stateDir, home: fixture.home, logFile: path.join(resultsDir, 'code-server-coexist.log'), settings: { 'chat.disableAIFeatures': false, 'chat.mcp.access': 'all' },
      });
      browser = await openWorkbench({ server, folder: fixture.workspace, log, viewport: { width: 1600, height: 1000 } });
    });
    if (checks.blocked) return;
    const { page } = browser;
    const toast = () => page.locator('.notifications-toasts .notification-toast', { hasText: TOAST }).first();
    let webview;
    const row = () => webview.locator(`[data-testid="server-row"][data-server-id="${SERVER}"]`);
    const rowState = async () => (await row().locator('[data-testid="server-state"]').innerText().catch(() => '')).trim();

    let ours;
    let question;
    await checks.gate('the trust moment: "Trust and start" in the trust dialog, then at once a modal asks who hosts "memory", naming .vscode/settings.json and chat.mcp.access; no toast, nothing written yet', async () => {
      const dialog = await ui.waitForDialog(page, /MCP server "memory" defined by this workspace/, 60_000);
      if (await toast().isVisible().catch(() => false)) throw new Error('the hosting question came as a toast beside the trust dialog');
      await ui.clickDialogButton(dialog, 'Trust and start');
      const answeredAt = Date.now();
      question = await ui.waitForDialog(page, QUESTION, 10_000);
      const text = await question.innerText();
      log(`  hosting question ${Date.now() - answeredAt} ms after the trust answer: ${text.replace(/\s+/g, ' ').slice(0, 500)}`);
      if (!text.includes(`writes "chat.mcp.access": "registry" to ${settingsFile}`)) throw new Error(`the question does not say which file and key it writes:\n${text}`);
      if (!/Closed without an answer, Switchboard hosts it/.test(text)) throw new Error(`the question does not say what closing it does:\n${text}`);
      for (const label of ['Switchboard hosts them', 'VS Code hosts them']) {
        if (!(await question.locator('.dialog-buttons .monaco-button', { hasText: label }).count())) throw new Error(`no "${label}" button`);
      }
      if (workspaceAccess() !== undefined) throw new Error('chat.mcp.access was written before the question was answered');
      if (await toast().count()) throw new Error('a hosting toast is shown as well');
      log(`  screenshot: ${await shot('coexist-question.png')}`);
    });
    if (checks.blocked) return;

    await checks.gate('closed unanswered: the safe default — chat.mcp.access "registry" lands in the workspace settings, and "memory" runs in Switchboard: one process', async () => {
      await ui.clickDialogButton(question, 'Cancel');
      await until('chat.mcp.access in .vscode/settings.json', async () => workspaceAccess() === 'registry', 15_000);
      await ui.openContainer(page, 'MCP Switchboard');
      await ui.expandPane(page, 'Sidebar');
      webview = ui.webviewFrame(page, manifest.id);
      await until('"memory" to be ready in the Sidebar', async () => (await rowState()) === 'ready', 60_000);
      const running = copies();
      if (running.length !== 1) throw new Error(`${running.length} processes: ${running.map((p) => p.cmdline).join(' | ')}`);
      ours = running[0].pid;
      await until('the notice of the default', async () => (await page.locator('.notifications-toasts .notification-toast', { hasText: /closed without an answer/ }).count()) > 0, 15_000)
        .catch(() => { throw new Error('no notice says that the default was applied and what it wrote'); });
    });
    if (checks.blocked) return;

    await checks.check('the unanswered default holds at the first chat message: an @mcp message starts no second "memory", and VS Code offers no CodeLens "Start" over .mcp.json', async () => {
      await openChat(page, { model: 'Scripted' });
      const request = await sendChatRequest(page, '@mcp what do you have?');
      const answer = await waitForAnswer(page, request, /I am a scripted model/);
      await expectQuiet(() => copies().length !== 1, QUIET_MS, () => `${copies().length} "memory" processes after the first chat message`);
      if (/requires interaction to start/i.test(String(answer ?? ''))) throw new Error(`VS Code's MCP speaks in the answer: ${answer}`);
      if (copies()[0].pid !== ours) throw new Error(`the process left is pid ${copies()[0].pid}, not Switchboard's ${ours}`);
      await openEditor(page, '.mcp.json');
      await expectQuiet(async () => (await page.locator('.monaco-editor .codelens-decoration').count()) > 0, 3_000, () => 'VS Code shows its MCP CodeLens over .mcp.json');
      log(`  screenshot: ${await shot('coexist-switchboard-hosts.png')}`);
    });

    await checks.check('the choice is remembered: after a reload nothing asks again, Switchboard runs "memory", VS Code does not', async () => {
      await page.reload({ waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await ui.openContainer(page, 'MCP Switchboard');
      await ui.expandPane(page, 'Sidebar');
      webview = ui.webviewFrame(page, manifest.id);
      await until('"memory" to be ready again', async () => (await rowState()) === 'ready', 60_000);
      const asked = async () => (await toast().count()) > 0 || page.locator('.monaco-dialog-box').filter({ hasText: QUESTION }).isVisible().catch(() => false);
      await expectQuiet(asked, QUIET_MS, () => 'the hosting question came again');
      if (copies().length !== 1) throw new Error(`${copies().length} "memory" processes`);
    });

    await checks.check('"Choose Who Hosts Project Servers…" → VS Code: Switchboard holds "memory" back with the reason, the setting goes, VS Code\'s CodeLens runs the one copy', async () => {
      await page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.fill('>MCP Switchboard: Choose Who Hosts Project Servers');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Choose Who Hosts Project Servers' }).first().click();
      const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'VS Code hosts them' }).first();
      await pick.waitFor();
      const current = await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Switchboard hosts them' }).first().innerText();
      if (!/current choice/.test(current)) throw new Error(`the pick does not mark the current choice: ${current.replace(/\s+/g, ' ')}`);
      await pick.click();
      await until('"memory" held back in the Sidebar', async () => (await rowState()) === 'disabled', 15_000);
      const reason = (await row().locator('[data-testid="server-reason"]').innerText()).trim();
      if (!/VS Code hosts it in this workspace/.test(reason)) throw new Error(`the row's reason: "${reason}"`);
      await until('no "memory" process', async () => copies().length === 0, 15_000);
      await until('chat.mcp.access gone from the workspace settings', async () => workspaceAccess() === undefined, 15_000);
      const pane = await ui.expandPane(page, 'Servers');
      const description = await until('the tree row to say disabled', async () => {
        const text = await treeDescription(pane, SERVER);
        return /^project · stdio · disabled/.test(text ?? '') && text;
      }, 15_000);
      log(`  Sidebar reason: ${reason}; tree: ${description}`);
      await openEditor(page, '.mcp.json');
      const start = page.locator('.monaco-editor .codelens-decoration a[role=button]', { hasText: /^\s*Start\s*$/ }).first();
      await start.waitFor({ timeout: 30_000 });
      await start.click();
      await until('VS Code\'s "memory" process', async () => copies().length === 1, 30_000);
      await expectQuiet(() => copies().length !== 1, 3_000, () => `${copies().length} "memory" processes`);
      if ((await rowState()) !== 'disabled') throw new Error(`Switchboard's row shows "${await rowState()}"`);
      log(`  screenshot: ${await shot('coexist-vscode-hosts.png')}`);
    });
  };

  await runWorkbenchFlow({
    name: 'coexist flow', timeoutMs, checks, log, shot, stateDir, flow,
    workbench: () => ({ browser, server }),
  });
}

/** Opens `name` with Quick Open, as a person does (Ctrl+P, the name, Enter). */
async function openEditor(page, name) {
  await page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ControlOrMeta+P');
  const input = page.locator('.quick-input-widget input');
  await input.fill(name);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.part.editor .monaco-editor .view-lines').first().waitFor();
}

/** Watches `happened()` for `ms`: throws `what()` as soon as it is true (a check that something does not happen). */
async function expectQuiet(happened, ms, what) {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (await happened()) throw new Error(what());
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
