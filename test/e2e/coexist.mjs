// Switchboard beside VS Code's own MCP support, in a real VS Code (1.139) in a real browser: VS Code
// reads the workspace's root .mcp.json too and starts its servers when a chat message is sent or its
// CodeLens "Start" is clicked, with no trust prompt. The flow: the project server `memory` is trusted
// and runs in Switchboard; the overlap is told in one notification; an @mcp chat message makes VS Code
// start a second `memory` (two processes, measured); "Switchboard hosts them" turns VS Code's copy off
// through its own chat.mcp.access in the workspace settings — its copy stops, no CodeLens offers to
// start it, another chat message starts none; after a reload nothing asks again; then the command
// "Choose Who Hosts Project Servers…" hands the server to VS Code: Switchboard holds it back with the
// reason in the Sidebar and the Servers tree, the setting is gone, and VS Code's CodeLens runs the one
// copy. Processes are counted in /proc by a marker argument. Its own code-server, state folder and
// fixture (test/fixtures/e2e-coexist).
import fs from 'node:fs';
import path from 'node:path';
import { codeServerCli, startCodeServer } from '../harness/codeServer.mjs';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { repoRoot } from '../harness/paths.mjs';
import { packageScriptedModel } from '../harness/scriptedModel.mjs';
import { openChat, sendChatRequest, waitForAnswer } from './chatView.mjs';
import { processesWith, treeDescription, until } from './probes.mjs';
import * as ui from './workbench.mjs';
import { openWorkbench, runWorkbenchFlow } from './workbenchFlow.mjs';

const SERVER = 'memory';
const NOTIFICATION = /VS Code's own MCP support also runs the servers of this workspace's \.mcp\.json \("memory"\)/;
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
  const shot = async (name, target = browser?.page) => {
    const file = path.join(resultsDir, name);
    await target?.screenshot({ path: file }).catch((e) => log(`screenshot ${name} failed: ${e.message}`));
    return file;
  };
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
      fs.writeFileSync(path.join(fixture.workspace, '.mcp.json'), `${JSON.stringify({ mcpServers: { [SERVER]: entry } }, null, 2)}\n`);
      codeServerCli(stateDir, ['--install-extension', vsix]);
      codeServerCli(stateDir, ['--install-extension', packageScriptedModel(path.join(stateDir, 'scripted-model.vsix'))]);
      server = await startCodeServer({
        stateDir, home: fixture.home, logFile: path.join(resultsDir, 'code-server-coexist.log'), settings: { 'chat.disableAIFeatures': false },
      });
      browser = await openWorkbench({ server, folder: fixture.workspace, log, viewport: { width: 1600, height: 1000 } });
    });
    if (checks.blocked) return;
    const { page } = browser;
    const toast = () => page.locator('.notifications-toasts .notification-toast', { hasText: NOTIFICATION }).first();
    let webview;
    const row = () => webview.locator(`[data-testid="server-row"][data-server-id="${SERVER}"]`);
    const rowState = async () => (await row().locator('[data-testid="server-state"]').innerText().catch(() => '')).trim();

    let ours;
    await checks.gate('trusted in Switchboard\'s trust dialog, "memory" runs in Switchboard: one process', async () => {
      const dialog = await ui.waitForDialog(page, /MCP server "memory" defined by this workspace/, 60_000);
      await ui.clickDialogButton(dialog, 'Trust and start');
      await ui.openContainer(page, 'MCP Switchboard');
      await ui.expandPane(page, 'Sidebar');
      webview = ui.webviewFrame(page, manifest.id);
      await until('"memory" to be ready in the Sidebar', async () => (await rowState()) === 'ready', 60_000);
      const running = copies();
      if (running.length !== 1) throw new Error(`${running.length} processes: ${running.map((p) => p.cmdline).join(' | ')}`);
      ours = running[0].pid;
    });
    if (checks.blocked) return;

    await checks.gate('the overlap is told once: a notification names "memory", with Switchboard hosts them / VS Code hosts them / Later', async () => {
      await toast().waitFor({ state: 'visible', timeout: 30_000 });
      for (const label of ['Switchboard hosts them', 'VS Code hosts them', 'Later']) await toast().getByRole('button', { name: label }).waitFor();
      log(`  notification: ${(await toast().innerText()).replace(/\s+/g, ' ').slice(0, 300)}`);
      log(`  screenshot: ${await shot('coexist-notification.png')}`);
    });
    if (checks.blocked) return;

    await checks.check('before a choice, an @mcp chat message makes VS Code\'s own MCP start a second "memory": two processes', async () => {
      await openChat(page, { model: 'Scripted' });
      const request = await sendChatRequest(page, '@mcp what do you have?');
      await waitForAnswer(page, request, /I am a scripted model/);
      const both = await until('a second "memory" process', async () => (copies().length === 2 ? copies() : undefined), 30_000)
        .catch((error) => { throw new Error(`${error.message}; processes: ${copies().length}`); });
      log(`  ${both.length} "memory" processes: Switchboard's (pid ${ours}) and VS Code's (pid ${both.find((p) => p.pid !== ours)?.pid})`);
    });

    await checks.check('"Switchboard hosts them": chat.mcp.access "registry" lands in the workspace settings, VS Code\'s copy stops, Switchboard\'s runs on', async () => {
      // The toast may have gone to the notification center meanwhile: the answer is given there then.
      await (await notification(page, NOTIFICATION)).getByRole('button', { name: 'Switchboard hosts them' }).click();
      await until('chat.mcp.access in .vscode/settings.json', async () => workspaceAccess() === 'registry', 15_000);
      const left = await until('one "memory" process', async () => (copies().length === 1 ? copies() : undefined), 30_000)
        .catch((error) => { throw new Error(`${error.message}; processes: ${copies().length}`); });
      if (left[0].pid !== ours) throw new Error(`the process left is pid ${left[0].pid}, not Switchboard's ${ours}`);
      if ((await rowState()) !== 'ready') throw new Error(`Switchboard's row shows "${await rowState()}"`);
    });

    await checks.check('VS Code no longer starts it: no CodeLens "Start" over .mcp.json, and another @mcp chat message starts no second copy', async () => {
      await openEditor(page, '.mcp.json');
      // VS Code's MCP dropped the file: its lenses (Start, Running, tools) leave the editor.
      await until('no MCP CodeLens over .mcp.json', async () => (await page.locator('.monaco-editor .codelens-decoration').count()) === 0, 15_000);
      log(`  screenshot: ${await shot('coexist-switchboard-hosts.png')}`);
      const request = await sendChatRequest(page, '@mcp what do you have now?');
      await waitForAnswer(page, request, /I am a scripted model/);
      await expectQuiet(() => copies().length !== 1, QUIET_MS, () => `${copies().length} "memory" processes after the chat message`);
    });

    await checks.check('the choice is remembered: after a reload nothing asks again, Switchboard runs "memory", VS Code does not', async () => {
      await page.reload({ waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await ui.openContainer(page, 'MCP Switchboard');
      await ui.expandPane(page, 'Sidebar');
      webview = ui.webviewFrame(page, manifest.id);
      await until('"memory" to be ready again', async () => (await rowState()) === 'ready', 60_000);
      await expectQuiet(async () => (await toast().count()) > 0, QUIET_MS, () => 'the notification asked again');
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

/** The notification matching `pattern`: its toast, or else its entry in the notification center (opened for it). */
async function notification(page, pattern) {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: pattern }).first();
  if (await toast.isVisible()) return toast;
  await page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill('>Notifications: Show Notifications');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Show Notifications' }).first().click();
  const entry = page.locator('.notifications-center .notification-list-item', { hasText: pattern }).first();
  await entry.waitFor({ state: 'visible' });
  return entry;
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
