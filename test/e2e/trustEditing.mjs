// No keystroke trusts a server, in a real VS Code in a real browser: a project .mcp.json is opened in
// the editor and a server definition is typed into it by hand, with autosave on (as VS Code in the
// browser is used). No modal dialog ever appears for what the person types: while the file is half
// typed (saved, but not parsing), while the valid definition is saved and the person keeps typing, and
// after the typing stops, however long the pause. The server shows "changed — review to trust" in the
// Servers view and the Sidebar, whose card shows the definition; nothing starts until Trust and start
// is clicked on it. Then the report's edit: `, "/tm` added to the trusted server's args, a 2.6 s pause,
// the rest of the word and a space: still no dialog, the changed definition does not start, the card
// shows the change, and only its Trust and start starts it. Its own code-server, state folder and
// workspace. Process checks read /proc (Linux).
import fs from 'node:fs';
import path from 'node:path';
import { codeServerCli, startCodeServer } from '../harness/codeServer.mjs';
import { makeStateDir } from '../harness/fixture.mjs';
import { repoRoot } from '../harness/paths.mjs';
import { processesWith, treeDescription, until } from './probes.mjs';
import * as ui from './workbench.mjs';
import { openWorkbench, runWorkbenchFlow } from './workbenchFlow.mjs';

const SERVER = 'typed';
const MARKER = '--e2e-typed-by-hand';
const WAITING = 'changed — review to trust';
/** The argument added by hand to the trusted definition: typed in two parts, with the report's pause between. */
const ADDED_ARG = '/tmp/e2e-half-typed-arg';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The editor as a person types in it: autosave shortly after each pause, nothing typed for them. */
const EDITOR_SETTINGS = {
  'files.autoSave': 'afterDelay',
  'files.autoSaveDelay': 300,
  'editor.autoClosingBrackets': 'never',
  'editor.autoClosingQuotes': 'never',
  'editor.autoSurround': 'never',
  'editor.autoIndent': 'none',
  'editor.formatOnType': false,
  'editor.quickSuggestions': { other: false, comments: false, strings: false },
  'editor.suggestOnTriggerCharacters': false,
  'editor.acceptSuggestionOnEnter': 'off',
  'editor.parameterHints.enabled': false,
};

/** What the Sidebar's webview shows now, for a failure's message: its frames, and the page's text. */
async function describeSidebar(page, webview, extensionId) {
  const frames = await page.locator(`iframe.webview[src*="extensionId=${extensionId}"]`).count();
  const ready = await page.locator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`).count();
  const busy = await webview.locator('#app').getAttribute('aria-busy', { timeout: 2000 }).catch((e) => `unreadable (${e.message.split('\n')[0]})`);
  const text = await webview.locator('body').innerText({ timeout: 2000 }).catch((e) => `unreadable (${e.message.split('\n')[0]})`);
  return `its webview frames: ${frames} (${ready} ready); #app aria-busy: ${busy}; its text: ${JSON.stringify(text.slice(0, 600))}`;
}

/** Whether a modal dialog is open right now. */
const dialogOpen = (page) => page.locator('.monaco-dialog-box').isVisible().catch(() => false);

/** Fails if a dialog opens within `ms` (polled): what the person types must never meet a modal. */
async function noDialogFor(page, ms, when) {
  for (let t0 = Date.now(); Date.now() - t0 < ms;) {
    if (await dialogOpen(page)) throw new Error(`a dialog opened ${when}`);
    await sleep(150);
  }
}

/** Runs the checks into `checks`. Options: vsix, manifest, resultsDir, log, timeoutMs. Cleans up what it started. */
export async function trustEditingFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs }) {
  const stateDir = makeStateDir('e2e-trust-editing');
  const workspace = path.join(stateDir, 'workspace');
  const home = path.join(stateDir, 'home');
  fs.mkdirSync(workspace, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  const projectFile = path.join(workspace, '.mcp.json');
  // No server yet: opening the workspace asks nothing. Line 3 is where the definition is typed.
  fs.writeFileSync(projectFile, '{\n  "mcpServers": {\n    \n  }\n}\n');
  let server;
  let browser;
  const shot = async (name) => {
    const file = path.join(resultsDir, name);
    await browser?.page.screenshot({ path: file }).catch((e) => log(`screenshot ${name} failed: ${e.message}`));
    return file;
  };

  const flow = async () => {
    await checks.gate('editing flow: a workspace with an empty project .mcp.json opens, the file in the editor beside the Servers view and the Sidebar', async () => {
      codeServerCli(stateDir, ['--install-extension', vsix], { home });
      server = await startCodeServer({
        stateDir, home, settings: EDITOR_SETTINGS,
        logFile: path.join(resultsDir, 'code-server-trust-editing.log'),
        env: { SWITCHBOARD_REPO: repoRoot },
      });
      browser = await openWorkbench({ server, folder: workspace, log });
      const { page } = browser;
      await ui.openContainer(page, 'MCP Switchboard');
      await ui.expandPane(page, 'Servers');
      await ui.expandPane(page, 'Sidebar');
      // The person looks at the Sidebar before typing: its page has loaded and shows the first state
      // (under load a webview's page may take many seconds to load; the checks below are about typing).
      const sidebarShown = Date.now();
      await ui.webviewFrame(page, manifest.id).locator('#app[aria-busy="false"]').waitFor({ state: 'attached', timeout: 90_000 });
      log(`  the Sidebar showed its first state ${Date.now() - sidebarShown} ms after it was expanded`);
      // Opened as a person does: from the palette.
      await page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      await input.fill('>MCP Switchboard: Open Project Servers');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Open Project Servers' }).first().waitFor();
      await page.keyboard.press('Enter');
      const editor = page.locator('.editor-instance .monaco-editor').first();
      await editor.waitFor({ state: 'visible' });
      await page.locator('.tabs-container .tab', { hasText: '.mcp.json' }).first().waitFor();
      await editor.click();
      await page.keyboard.press('Control+Home');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('End');
    });
    if (checks.blocked) return;
    const { page } = browser;
    const editor = page.locator('.editor-instance .monaco-editor').first();
    const serversPane = await ui.expandPane(page, 'Servers');
    const webview = ui.webviewFrame(page, manifest.id);
    const script = '${env:SWITCHBOARD_REPO}/test/fixtures/servers/ok.mjs';
    const head = `"${SERVER}": { "command": "node", "args": ["${script}", "${MARKER}"`;

    await checks.check('half typed and autosaved (does not parse): no dialog appears', async () => {
      await page.keyboard.type(head, { delay: 15 });
      await until('the half-typed text to be saved', () => fs.readFileSync(projectFile, 'utf8').includes(MARKER), 10_000);
      for (let t0 = Date.now(); Date.now() - t0 < 3000;) {
        if (await dialogOpen(page)) throw new Error(`a dialog opened for the half-typed file:\n${fs.readFileSync(projectFile, 'utf8')}`);
        await sleep(150);
      }
      if (processesWith(MARKER).length) throw new Error('the half-typed server runs');
    });

    await checks.check(`valid and saved while the person keeps typing: "${WAITING}" in the Servers view and the Sidebar, and no dialog`, async () => {
      await page.keyboard.type(' ] }', { delay: 15 });
      // Autosaved, then read: the server is in the configuration, its prompt held back.
      await until('the valid definition on disk', () => /\] \}\s*\n\s*\}/.test(fs.readFileSync(projectFile, 'utf8')), 10_000);
      await sleep(400);
      // Keep typing (a comment after the definition): the editor holds unsaved changes the whole time.
      const typing = page.keyboard.type(' // a server typed by hand, slowly, while the views are looked at', { delay: 120 });
      let tree;
      let sidebar;
      let dialogDuringTyping = false;
      let watchDone = false;
      const sidebarState = webview.locator(`[data-testid="server-row"][data-server-id="${SERVER}"] [data-testid="server-state"]`).first();
      const watch = (async () => {
        while (!watchDone) {
          if (await dialogOpen(page)) dialogDuringTyping = true;
          const row = await treeDescription(serversPane, SERVER);
          if (row?.includes(WAITING)) tree ??= row;
          const state = await sidebarState.textContent({ timeout: 500 }).catch(() => '');
          if (state?.includes(WAITING)) sidebar ??= state;
          await sleep(150);
        }
      })();
      await typing;
      log(`  screenshot (typing, the server waiting for trust): ${await shot('trust-editing-waiting.png')}`);
      watchDone = true;
      await watch;
      if (dialogDuringTyping) throw new Error('a dialog opened while the person was typing');
      if (!tree) throw new Error(`the Servers view never said "${WAITING}": ${await treeDescription(serversPane, SERVER)}`);
      if (!sidebar) throw new Error(`the Sidebar never said "${WAITING}"; ${await describeSidebar(page, webview, manifest.id)}`);
      log(`  Servers view while typing: ${tree}`);
      if (processesWith(MARKER).length) throw new Error('the server runs before it was trusted');
    });

    const card = webview.locator(`[data-testid="trust-card"][data-server-id="${SERVER}"]`);

    await checks.check('typing stops: no dialog, however long the pause (and a stray letter and space); nothing runs; the Sidebar\'s card shows the definition on disk', async () => {
      // Longer than the old settle delay and than the report's 2.6 s pause.
      await noDialogFor(page, 4000, 'after the typing stopped');
      await page.keyboard.type('x ', { delay: 60 });
      await noDialogFor(page, 2500, 'after a stray letter and space');
      if (processesWith(MARKER).length) throw new Error('the server runs before Trust was clicked');
      await card.waitFor({ state: 'visible', timeout: 10_000 });
      const definition = await card.locator('[data-testid="trust-card-definition"]').textContent();
      if (!definition.includes(`Command: node '***/test/fixtures/servers/ok.mjs' ${MARKER}`)) throw new Error(`the card does not show the definition on disk:\n${definition}`);
      const onDisk = fs.readFileSync(projectFile, 'utf8');
      if (!onDisk.includes('a server typed by hand')) throw new Error(`the last edit was not saved:\n${onDisk}`);
      log(`  screenshot: ${await shot('trust-editing-card.png')}`);
    });

    await checks.check('"Trust and start" on the card starts it', async () => {
      await until('the card\'s Trust and start to be offered', () => card.locator('[data-testid="trust-card-trust"]:not([disabled])').count(), 10_000);
      await card.locator('[data-testid="trust-card-trust"]').click();
      await until('the typed server to be ready', async () => (await treeDescription(serversPane, SERVER)) === 'project · stdio · ready', 30_000);
      if (processesWith(MARKER).length !== 1) throw new Error(`expected one process with the marker, found ${processesWith(MARKER).length}`);
    });

    await checks.check(`the report's edit: ', "/tm' added to the args, a 2.6 s pause, then the rest and a space: no dialog, the change waits on its card`, async () => {
      // The caret goes right after the marker's closing quote, as a person clicks there.
      await editor.click();
      await page.keyboard.press('Control+F');
      await page.keyboard.type(`${MARKER}"`);
      await page.keyboard.press('Escape');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.type(', "/tm', { delay: 40 });
      await noDialogFor(page, 2600, 'in the pause after `, "/tm`');
      await page.keyboard.type(`${ADDED_ARG.slice(3)}"`, { delay: 40 });
      await page.keyboard.type(' ', { delay: 40 });
      await until('the changed definition on disk', () => fs.readFileSync(projectFile, 'utf8').includes(`"${ADDED_ARG}"`), 10_000);
      await noDialogFor(page, 4000, 'after the changed definition was saved');
      if (processesWith(ADDED_ARG).length) throw new Error('the changed definition runs before Trust was clicked');
      const description = await until(`"${WAITING}" in the Servers view`, async () => {
        const text = await treeDescription(serversPane, SERVER);
        return text?.includes(WAITING) && text;
      }, 10_000);
      log(`  Servers view: ${description}`);
      const changes = await card.locator('[data-testid="trust-card-changes"]').textContent({ timeout: 10_000 });
      if (!changes.includes(`args[2] added: "${ADDED_ARG}"`)) throw new Error(`the card does not show the change: ${changes}`);
      log(`  screenshot: ${await shot('trust-editing-changed-card.png')}`);
    });

    await checks.check('only "Trust and start" on the card starts the changed definition', async () => {
      await card.locator('[data-testid="trust-card-trust"]:not([disabled])').click({ timeout: 10_000 });
      await until('the changed definition to run', () => processesWith(ADDED_ARG).length === 1, 30_000);
      await until('the typed server to be ready', async () => (await treeDescription(serversPane, SERVER)) === 'project · stdio · ready', 30_000);
    });
  };

  await runWorkbenchFlow({
    name: 'trust editing flow', timeoutMs, checks, log, shot, stateDir, flow,
    workbench: () => ({ browser, server }),
  });
}
