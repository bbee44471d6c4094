// Approvals in a real VS Code in a real browser, against the real server-filesystem on a temp folder,
// clicked as a person does it: Call Tool… write_file on an existing file → the card in the Sidebar
// shows the diff (screenshot kept) → Reject with a reason → the file is unchanged and the result says
// why; again → the content edited in the card → Approve → the file holds the edited content; Always
// allow → the next identical call runs without a card; the history lists every call; "always allow"
// for files under one folder → a write under it runs without a card, one elsewhere still asks. A call made
// while the Sidebar is hidden reveals it, badges the container and notifies. Measures the time from
// the call to the card being visible and from the click to the call reaching the server (the file
// changing on disk). Then server-everything's requests of the person: an elicitation form filled and
// submitted by clicking, and a sampling card approved by clicking, answered by the scripted test model.
// Its own code-server, state folder and fixture (test/fixtures/e2e-approvals).
import fs from 'node:fs';
import path from 'node:path';
import { startCodeServer } from '../harness/codeServer.mjs';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { repoRoot } from '../harness/paths.mjs';
import { until } from './probes.mjs';
import * as ui from './workbench.mjs';
import { installWithScriptedModel, openSidebar, openWorkbench, runWorkbenchFlow, screenshots, writeServers } from './workbenchFlow.mjs';

const SERVER = 'fs';
const ORIGINAL = 'Shopping list\n- apples\n- bread\n- coffee\n';

/** Resolves with the time (ms since the epoch) at which `file` next changes on disk. */
function nextChange(file, timeoutMs = 30_000) {
  const before = fs.readFileSync(file, 'utf8');
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      let now;
      try { now = fs.readFileSync(file, 'utf8'); } catch { return; }
      if (now !== before) { clearInterval(timer); resolve(Date.now()); }
      else if (Date.now() - started > timeoutMs) { clearInterval(timer); reject(new Error(`${file} did not change within ${timeoutMs} ms`)); }
    }, 2);
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Runs the approvals checks into `checks`. Options: vsix, manifest, resultsDir, log, timeoutMs.
 * Returns the measured latencies { callToCardMs: [], clickToServerMs: [] }.
 */
export async function approvalsFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs }) {
  const stateDir = makeStateDir('e2e-approvals');
  const fixture = prepareFixture('e2e-approvals', stateDir);
  const notes = path.join(fixture.workspace, 'notes.txt');
  const latencies = { callToCardMs: [], clickToServerMs: [] };
  let server;
  let browser;
  const shot = screenshots(resultsDir, log, () => browser?.page);

  const flow = async () => {
    await checks.gate('approvals flow: server-filesystem on a temp folder is configured and the workbench opens', async () => {
      const entry = { command: 'node', args: [path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'), fixture.workspace] };
      // server-everything asks for input (elicitation) and for model completions (sampling).
      const everything = { command: 'node', args: [path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'), 'stdio'] };
      writeServers(path.join(fixture.home, '.mcp.json'), { [SERVER]: entry, everything });
      // The scripted language model (the tests' own) answers sampling requests: no sign-in, no network.
      installWithScriptedModel(stateDir, vsix);
      // The default approval mode (ask before edits): no approval setting is given. Chat (language models) on.
      server = await startCodeServer({ stateDir, home: fixture.home, logFile: path.join(resultsDir, 'code-server-approvals.log'), env: { SWITCHBOARD_REPO: repoRoot }, settings: { 'chat.disableAIFeatures': false } });
      browser = await openWorkbench({ server, folder: fixture.workspace, log, viewport: { width: 1400, height: 1000 } });
    });
    if (checks.blocked) return;
    const { page } = browser;

    let webview;
    await checks.gate('the Sidebar shows the filesystem server ready', async () => {
      webview = await openSidebar(page, manifest.id);
      const rows = await ui.waitForServerRows(webview, [SERVER], 45_000, { [SERVER]: 'ready' });
      if (!rows.some((r) => r.name === SERVER && r.state === 'ready')) throw new Error(`rows: ${JSON.stringify(rows)}`);
      await webview.locator('[data-testid="no-approvals"]').waitFor();
    });
    if (checks.blocked) return;

    /** Call Tool… from the palette: write_file with `args` as JSON. Resolves when the input box is submitted (the call starts). */
    /** Call Tool… from the palette: `tool` with `args` as JSON (undefined: a tool that takes none). Resolves when the call starts. */
    const callTool = async (tool, args) => {
      // Keys typed while a webview has the focus stay in its frame: the workbench gets the focus back first.
      await page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      await input.fill('>MCP Switchboard: Call Tool');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Call Tool' }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget input[placeholder="Call which tool?"]').waitFor();
      await input.fill(tool);
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: tool }).first().waitFor();
      await page.keyboard.press('Enter');
      if (args === undefined) return Date.now();
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Write the arguments as JSON' }).first().waitFor();
      await input.fill('as JSON');
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Write the arguments as JSON' }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'arguments as JSON' }).waitFor();
      await input.fill(JSON.stringify(args));
      await page.keyboard.press('Enter');
      return Date.now();
    };
    const callWriteFile = (args) => callTool('write_file', args);
    const card = () => webview.locator('[data-testid="approval-card"]').first();
    const waitForCard = async (since) => {
      await card().waitFor({ state: 'visible', timeout: 30_000 });
      const ms = Date.now() - since;
      latencies.callToCardMs.push(ms);
      return ms;
    };
    const cardsGone = () => webview.locator('[data-testid="approval-card"]').waitFor({ state: 'detached', timeout: 15_000 });
    const toast = (pattern) => page.locator('.notifications-toasts .notification-toast', { hasText: pattern }).first();

    const proposed = `${ORIGINAL.replace('- bread\n', '- sourdough bread\n')}- oranges\n`;

    await checks.check('in the default layout a waiting call\'s card is the first thing in the Sidebar view, in view without scrolling, its diff not a scroll box of its own', async () => {
      // The Servers tree expanded, as a new window shows it (openSidebar collapsed it; a person would not have).
      const servers = page.locator('.part.sidebar .pane-header', { hasText: /^\s*Servers/i }).first();
      await ui.setPaneExpanded(page, servers, true);
      try {
        await waitForCard(await callWriteFile({ path: notes, content: proposed }));
        const wanted = ['[data-testid="approval-card"]', '[data-testid="approval-card"] .card-header', '[data-testid="approval-reason"]', '[data-testid="approval-diff"]'];
        const { viewport, boxes } = await ui.layoutOf(webview, 'body', wanted);
        const scrolled = await webview.locator('body').evaluate((body) => body.ownerDocument.defaultView.scrollY);
        const nested = await card().locator('[data-testid="approval-diff"]').evaluate((pre) => pre.scrollHeight > pre.clientHeight + 1 || pre.scrollWidth > pre.clientWidth + 1);
        log(`  default layout: view ${viewport.width}×${viewport.height}, card top ${Math.round(boxes[wanted[0]].top)}, why-it-asks bottom ${Math.round(boxes[wanted[2]].bottom)}, scrolled ${scrolled}`);
        log(`  screenshot: ${await shot('approval-default-layout.png')}`);
        if (scrolled !== 0) throw new Error(`the view scrolled to show the card (${scrolled} px)`);
        for (const name of wanted.slice(1, 3)) {
          const box = boxes[name];
          if (!box || box.top < 0 || box.bottom > viewport.height) throw new Error(`${name} is not in view without scrolling: ${JSON.stringify(box)} in ${JSON.stringify(viewport)}`);
        }
        // Nothing of the page comes before the card but the section's header.
        if (boxes[wanted[0]].top > 80) throw new Error(`the card starts ${Math.round(boxes[wanted[0]].top)} px down the view`);
        if (nested) throw new Error('the diff scrolls inside the card');
      } finally {
        if (await card().count() > 0) {
          await card().locator('[data-testid="approval-approve"]').click();
          await cardsGone();
        }
        fs.writeFileSync(notes, ORIGINAL);
        await ui.setPaneExpanded(page, servers, false);
      }
    });

    await checks.check('the card reflows at 170, 240, 300 and 480 px: Reject, the reason, the diff and the mode dropdown under the card stay in view, nothing scrolls sideways; a long diff folds and Show all unfolds it', async () => {
      const sidebar = page.locator('.part.sidebar');
      const before = (await sidebar.boundingBox())?.width ?? 300;
      const long = `${ORIGINAL}${Array.from({ length: 60 }, (_, i) => `- item ${i + 1}: a line long enough that a narrow sidebar must wrap it rather than cut it, /workspace/a/deeply/nested/path/number/${i}`).join('\n')}\n`;
      await waitForCard(await callWriteFile({ path: notes, content: long }));
      const diff = card().locator('[data-testid="approval-diff"]');
      await card().locator('[data-testid="approval-diff-fold"]').first().waitFor({ timeout: 10_000 });
      const foldedLines = await diff.locator('.diff-line').count();
      const wanted = ['[data-testid="approval-card"]', '[data-testid="approval-reject"]', '[data-testid="approval-reason-input"]', '[data-testid="approval-diff"]', '[data-testid="approval-approve"]', '[data-testid="approval-mode"]'];
      try {
        for (const width of [170, 240, 300, 480]) {
          const got = await ui.resizeSidebar(page, width);
          if (Math.abs(got - width) > 2) throw new Error(`the side bar is ${got} px wide, not ${width}`);
          await until(`the view to take ${width} px`, async () => {
            const { viewport } = await ui.layoutOf(webview, 'body', []);
            return viewport.width <= width && viewport.width >= width - 30;
          }, 10_000);
          const { viewport, pageScrollsX, boxes } = await ui.layoutOf(webview, 'body', wanted);
          log(`  ${width} px: view ${viewport.width} px, card ${Math.round(boxes[wanted[0]].left)}–${Math.round(boxes[wanted[0]].right)}, Reject ${Math.round(boxes[wanted[1]].left)}–${Math.round(boxes[wanted[1]].right)}`);
          if (pageScrollsX) throw new Error(`at ${width} px the view scrolls sideways`);
          for (const name of wanted) {
            const box = boxes[name];
            if (!box) throw new Error(`at ${width} px there is no ${name}`);
            if (box.left < 0 || box.right > viewport.width + 0.5) throw new Error(`at ${width} px ${name} reaches outside the view: ${JSON.stringify(box)} in ${viewport.width} px`);
            if (box.scrollsX) throw new Error(`at ${width} px ${name} is wider than its box (${box.past.join(', ')} stick out)`);
          }
          if (width === 170 || width === 300) {
            await card().locator('[data-testid="approval-reject"]').scrollIntoViewIfNeeded();
            log(`  screenshot: ${await shot(`approval-card-${width}px.png`, sidebar)}`);
          }
        }
        await card().locator('[data-testid="approval-diff-show-all"]').click();
        await until('Show all to unfold the diff', async () => (await diff.locator('.diff-line').count()) > foldedLines, 5000);
        if (await card().locator('[data-testid="approval-diff-fold"]').count() > 0) throw new Error('Show all left a fold');
      } finally {
        await ui.resizeSidebar(page, before).catch((e) => log(`  could not restore the side bar's width: ${e.message}`));
        if (await card().count() > 0) {
          await card().locator('[data-testid="approval-approve"]').click();
          await cardsGone();
        }
        fs.writeFileSync(notes, ORIGINAL);
      }
    });
    await checks.gate('Call Tool… write_file on an existing file: the card shows server, tool, why it asks and the diff', async () => {
      const ms = await waitForCard(await callWriteFile({ path: notes, content: proposed }));
      log(`  call → card visible: ${ms} ms`);
      const text = await card().innerText();
      for (const want of ['write_file', SERVER, 'mcp__fs__write_file', 'Why it asks', 'destructive']) {
        if (!text.includes(want)) throw new Error(`the card lacks "${want}": ${text.slice(0, 600)}`);
      }
      const diff = await card().locator('[data-testid="approval-diff"]').innerText();
      for (const line of ['-- bread', '+- sourdough bread', '+- oranges']) {
        if (!diff.split('\n').includes(line)) throw new Error(`the diff lacks "${line}":\n${diff}`);
      }
      if ((await card().locator('[data-testid="approval-change"]').getAttribute('data-kind')) !== 'modify') throw new Error('the change is not a modify');
      await card().scrollIntoViewIfNeeded();
      log(`  screenshot of the diff card: ${await shot('approval-diff-card.png', page.locator('.part.sidebar'))}`);
      await shot('approval-workbench.png');
    });
    if (checks.blocked) return;

    await checks.check('Reject with a reason: the file is unchanged and the result carries the reason', async () => {
      await card().locator('[data-testid="approval-reason-input"]').fill('not now, the list is final');
      await card().locator('[data-testid="approval-reject"]').click();
      await cardsGone();
      const error = toast(/rejected by the person: not now, the list is final/);
      await error.waitFor({ timeout: 15_000 });
      log(`  notification: ${(await error.innerText()).replace(/\s+/g, ' ').slice(0, 200)}`);
      if (fs.readFileSync(notes, 'utf8') !== ORIGINAL) throw new Error('the file changed');
    });

    const edited = `${ORIGINAL}- tea (edited in the card)\n`;
    await checks.check('the content edited in the card, then Approve: the file holds the edited content', async () => {
      const ms = await waitForCard(await callWriteFile({ path: notes, content: proposed }));
      log(`  call → card visible: ${ms} ms`);
      const content = card().locator('[data-testid="approval-arg"][data-arg="content"]');
      await content.fill(edited);
      // The card checks the edit and shows its diff before it may be approved.
      await card().locator('[data-testid="approval-diff"]', { hasText: '+- tea (edited in the card)' }).waitFor({ timeout: 10_000 });
      const changed = nextChange(notes);
      const clicked = Date.now();
      await card().locator('[data-testid="approval-approve"]').click();
      const reached = await changed;
      latencies.clickToServerMs.push(reached - clicked);
      log(`  click Approve → file written by the server: ${reached - clicked} ms`);
      await cardsGone();
      const now = fs.readFileSync(notes, 'utf8');
      if (now !== edited) throw new Error(`the file holds ${JSON.stringify(now)}`);
      // The result editor shows the arguments the server got: the edited ones.
      const result = page.locator('.part.editor .view-lines');
      await result.filter({ hasText: 'tea (edited in the card)' }).waitFor({ timeout: 10_000 });
    });

    const always = `${edited}- milk\n`;
    await checks.check('Always allow (this workspace): the call runs, and the next identical call runs without a card', async () => {
      await waitForCard(await callWriteFile({ path: notes, content: always }));
      const changed = nextChange(notes);
      const clicked = Date.now();
      await card().locator('[data-testid="approval-alwaysWorkspace"]').click();
      latencies.clickToServerMs.push((await changed) - clicked);
      await cardsGone();
      await webview.locator('[data-testid="rule-row"][data-scope="workspace"]').waitFor({ timeout: 10_000 });
      fs.writeFileSync(notes, ORIGINAL);
      const rewritten = nextChange(notes);
      await callWriteFile({ path: notes, content: always });
      await rewritten;
      if (await webview.locator('[data-testid="approval-card"]').count() > 0) throw new Error('a card was shown for a call the rule allows');
      if (fs.readFileSync(notes, 'utf8') !== always) throw new Error('the file does not hold the allowed content');
    });

    await checks.check('the history lists every call with who decided', async () => {
      const rows = webview.locator('[data-testid="history-row"]');
      // Six: the two calls of the layout checks, then the four below.
      await until('six calls in the history', async () => (await rows.count()) >= 6, 10_000);
      const decided = (await webview.locator('[data-testid="history-row"] [data-testid="history-decided-by"]').allInnerTexts()).map((t) => t.trim());
      const want = ['by your rule', 'by you (Always allow)', 'by you (Approve)', 'by you (Reject)'];
      if (JSON.stringify(decided.slice(0, 4)) !== JSON.stringify(want)) throw new Error(`decided by: ${JSON.stringify(decided)}`);
      await webview.locator('[data-testid="history-filter"]').fill('Reject');
      await until('the filter to keep one call', async () => (await rows.count()) === 1, 5000);
      await webview.locator('[data-testid="history-filter"]').fill('');
      log(`  screenshot: ${await shot('approval-history.png', page.locator('.part.sidebar'))}`);
    });

    await checks.check('a call whose arguments do not fit in a notification, while the Sidebar is hidden, reveals it, badges the container and notifies with Show the card only (the arguments are approved on the card)', async () => {
      // Revoke the rule first, so the next call asks.
      await webview.locator('[data-testid="rule-revoke"]').first().click();
      await ui.clickDialogButton(await ui.waitForDialog(page, /Revoke this approval rule\?/, 10_000), 'Revoke');
      await webview.locator('[data-testid="rule-row"]').waitFor({ state: 'detached', timeout: 10_000 });
      await ui.openContainer(page, 'Explorer');
      await callWriteFile({ path: notes, content: `hidden\n${'x'.repeat(1200)}` });
      const notification = toast(/"fs" wants to run write_file/);
      await notification.waitFor({ timeout: 15_000 });
      await notification.getByRole('button', { name: 'Show the card' }).waitFor();
      for (const label of ['Approve', 'Reject']) {
        const count = await notification.getByRole('button', { name: label }).count();
        if (count !== 0) throw new Error(`the notification of a call whose arguments it cannot show offers ${label}, which would approve what it does not show`);
      }
      const badge = page.locator('.part.activitybar').getByRole('tab', { name: /^MCP Switchboard/ }).locator('.badge-content');
      await until('the badge to count one call', async () => (await badge.innerText().catch(() => '')).trim() === '1', 10_000);
      await page.locator('.part.sidebar .composite.title', { hasText: /MCP Switchboard/i }).waitFor({ state: 'visible', timeout: 10_000 });
      await card().waitFor({ state: 'visible', timeout: 10_000 });
      log(`  screenshot: ${await shot('approval-hidden-notification.png')}`);
      await card().locator('[data-testid="approval-reject"]').click();
      await cardsGone();
      await until('the badge to clear', async () => (await badge.count()) === 0 || (await badge.innerText().catch(() => '')).trim() === '', 10_000);
      if (fs.readFileSync(notes, 'utf8') !== always) throw new Error('a rejected call changed the file');
    });

    await checks.check('a call whose arguments fit, while the Sidebar is hidden, is notified with every argument and Approve, which runs it with them', async () => {
      const shown = path.join(fixture.workspace, 'shown.txt');
      await ui.openContainer(page, 'Explorer');
      await callWriteFile({ path: shown, content: 'shown\n' });
      const notification = toast(/"fs" wants to run write_file: .*shown\.txt/);
      await notification.waitFor({ timeout: 15_000 });
      const text = await notification.innerText();
      const args = `Arguments: ${JSON.stringify({ path: shown, content: 'shown\n' })}`;
      if (!text.replace(/\s+/g, ' ').includes(args)) throw new Error(`the notification does not show the arguments it approves (${args}): ${text}`);
      await notification.getByRole('button', { name: 'Show the card' }).waitFor();
      await notification.getByRole('button', { name: 'Approve' }).click();
      await until('the approved call to write the file', async () => fs.existsSync(shown) && fs.readFileSync(shown, 'utf8') === 'shown\n', 15_000);
      await cardsGone();
    });

    await checks.check('"Always allow" for files under this folder: a second write under it runs without a card, one elsewhere still asks; the history shows the wait and the run apart', async () => {
      const drafts = path.join(fixture.workspace, 'drafts');
      fs.mkdirSync(drafts, { recursive: true });
      const first = path.join(drafts, 'one.md');
      const second = path.join(drafts, 'two.md');
      const elsewhere = path.join(fixture.workspace, 'elsewhere.md');
      await waitForCard(await callWriteFile({ path: first, content: 'one\n' }));
      const choice = card().locator('[data-testid="approval-rule-choice"]');
      const labels = (await choice.locator('option').allInnerTexts()).map((t) => t.trim());
      if (!labels.includes('only files under drafts/') || !labels.includes('only this file: drafts/one.md')) throw new Error(`the menu offers ${JSON.stringify(labels)}`);
      await choice.selectOption('folder');
      log(`  screenshot: ${await shot('approval-rule-choice.png', page.locator('.part.sidebar'))}`);
      await card().locator('[data-testid="approval-alwaysWorkspace"]').click();
      await cardsGone();
      await until('the first file written', async () => fs.existsSync(first), 10_000);
      // Call Tool… opens the result once the call returns; the next call waits for it (opening it closes a palette).
      const resultShown = (name) => page.locator('.part.editor .view-lines').filter({ hasText: name }).first().waitFor({ timeout: 15_000 });
      await resultShown('one.md');
      const rule = webview.locator('[data-testid="rule-row"]', { has: webview.locator('[data-testid="rule-conditions"]') });
      await rule.waitFor({ timeout: 10_000 });
      const conditions = await rule.locator('[data-testid="rule-conditions"]').innerText();
      if (!conditions.includes(`${path.join(fs.realpathSync(fixture.workspace), 'drafts').split(path.sep).join('/')}/**`) && !conditions.includes(`${drafts.split(path.sep).join('/')}/**`)) {
        throw new Error(`the rule shows ${JSON.stringify(conditions)}`);
      }
      log(`  rule: ${conditions.replace(/\s+/g, ' ')}`);
      await callWriteFile({ path: second, content: 'two\n' });
      await until('the second file written without a card', async () => fs.existsSync(second), 15_000);
      await resultShown('two.md');
      if (await webview.locator('[data-testid="approval-card"]').count() > 0) throw new Error('a card was shown for a write the folder rule allows');
      await waitForCard(await callWriteFile({ path: elsewhere, content: 'elsewhere\n' }));
      await card().locator('[data-testid="approval-reject"]').click();
      await cardsGone();
      if (fs.existsSync(elsewhere)) throw new Error('the write outside the folder ran');
      const durations = webview.locator('[data-testid="history-row"]', { hasText: 'Always allow' }).first().locator('[data-testid="history-durations"]');
      const words = (await durations.innerText()).trim();
      if (!/waited \d/.test(words) || !/ran \d/.test(words)) throw new Error(`the approved call's durations read ${JSON.stringify(words)}`);
      log(`  history durations: ${words}`);
      await rule.locator('[data-testid="rule-revoke"]').click();
      await ui.clickDialogButton(await ui.waitForDialog(page, /Revoke this approval rule\?/, 10_000), 'Revoke');
      await rule.waitFor({ state: 'detached', timeout: 10_000 });
    });

    await checks.check('in the High Contrast theme the card keeps its marks, and it is answered with the keyboard alone', async () => {
      // The theme picked as a person does: Preferences: Color Theme.
      await page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.fill('>Preferences: Color Theme');
      await page.locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: /^Preferences: Color Theme$/ }) }).first().click();
      await page.locator('.quick-input-widget input[placeholder*="Color Theme" i]').waitFor();
      await input.fill('Dark High Contrast');
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Dark High Contrast' }).first().waitFor();
      await page.keyboard.press('Enter');
      await until('the high contrast theme', async () => (await webview.locator('body.vscode-high-contrast').count()) === 1, 15_000);
      await waitForCard(await callWriteFile({ path: notes, content: `${always}- high contrast\n` }));
      const marks = await card().locator('[data-testid="approval-diff"] .diff-add').first().evaluate((line) => line.ownerDocument.defaultView.getComputedStyle(line).borderLeftStyle);
      if (marks !== 'solid') throw new Error(`an added line has no marker border in high contrast (border-left-style: ${marks})`);
      const outline = await card().locator('[data-testid="approval-approve"]').evaluate((button) => button.ownerDocument.defaultView.getComputedStyle(button).borderTopStyle);
      if (outline !== 'solid') throw new Error(`the Approve button has no border in high contrast (${outline})`);
      log(`  screenshot: ${await shot('approval-high-contrast.png', page.locator('.part.sidebar'))}`);
      // Keyboard only: into the reason field, type, Tab to Reject, Enter.
      await card().locator('[data-testid="approval-reason-input"]').focus();
      await page.keyboard.type('checked with the keyboard');
      await page.keyboard.press('Tab');
      const focused = await webview.locator(':focus').getAttribute('data-testid');
      if (focused !== 'approval-reject') throw new Error(`Tab from the reason field focuses ${focused}, not Reject`);
      await page.keyboard.press('Enter');
      await cardsGone();
      await toast(/rejected by the person: checked with the keyboard/).waitFor({ timeout: 15_000 });
      if (fs.readFileSync(notes, 'utf8') !== always) throw new Error('a rejected call changed the file');
    });

    await checks.check('an elicitation form is filled and submitted by clicking; the server gets the values', async () => {
      await waitForCard(await callTool('trigger-elicitation-request'));
      await card().locator('[data-testid="approval-approve"]').click();
      const form = webview.locator('[data-testid="elicitation-card"]').first();
      await form.waitFor({ timeout: 15_000 });
      const field = (name) => form.locator(`[data-testid="elicitation-input"][data-field="${name}"]`);
      if ((await field('integer').inputValue()) !== '42') throw new Error('the default 42 is not filled in');
      await field('integer').fill('500');
      await form.locator('[data-testid="elicitation-field"][data-field="integer"] [data-testid="elicitation-field-error"]', { hasText: 'at most 100' }).waitFor({ timeout: 10_000 });
      await field('integer').fill('7');
      await field('name').click();
      await page.keyboard.type('Ada Lovelace');
      await field('check').click();
      await field('titledSingleSelectEnum').selectOption({ label: 'Wonder Woman' });
      await form.locator('[data-testid="elicitation-field"][data-field="titledMultipleSelectEnum"] label', { hasText: 'Salmon' }).click();
      await until('every field to be fine', async () => (await form.locator('[data-testid="elicitation-field-error"]').count()) === 0, 10_000);
      log(`  screenshot: ${await shot('elicitation-form.png', page.locator('.part.sidebar'))}`);
      await form.locator('[data-testid="elicitation-accept"]').click();
      await form.waitFor({ state: 'detached', timeout: 15_000 });
      const result = page.locator('.part.editor .view-lines');
      await result.filter({ hasText: 'Name: Ada Lovelace' }).waitFor({ timeout: 15_000 });
      for (const want of ['Agreed to terms: true', 'Favorite Integer: 7', 'hero-3', 'fish-2']) {
        if (!(await result.innerText()).replace(/\u00a0/g, ' ').includes(want)) throw new Error(`the result lacks "${want}"`);
      }
    });

    await checks.check('a sampling card is approved by clicking; the model\'s answer reaches the server', async () => {
      // Sampling is declared to a server that connects while a model is there: the scripted model
      // registers after the servers started, so everything is restarted from the Sidebar.
      // The model may register a moment later on a busy machine: restart until the tools appear.
      const row = webview.locator('[data-testid="server-row"][data-server-id="everything"]');
      const toolCount = async () => Number(await row.locator('[data-testid="server-tools"]').getAttribute('data-count', { timeout: 1000 }).catch(() => '0'));
      const before = await toolCount();
      await until('everything to offer its sampling tools', async () => {
        await row.locator('[data-testid="server-action-restart"]').click();
        await until('the restart to begin', async () => (await row.getAttribute('data-state')) !== 'ready', 5000).catch(() => undefined);
        return until('everything to be ready again', async () => (await row.getAttribute('data-state')) === 'ready' && (await toolCount()) > 0, 30_000)
          .then(async () => (await toolCount()) > before);
      }, 60_000);
      await waitForCard(await callTool('trigger-sampling-request', { prompt: 'name a colour', maxTokens: 40 }));
      // A tool that appeared with the restart is new: its card says so; approving runs it.
      await card().locator('[data-testid="approval-approve"]').click();
      const sampling = webview.locator('[data-testid="sampling-card"]').first();
      await sampling.waitFor({ timeout: 15_000 });
      const system = await sampling.locator('[data-testid="sampling-system"]').innerText();
      if (system !== 'You are a helpful test server.') throw new Error(`system prompt shown: ${system}`);
      if (!(await sampling.locator('[data-testid="sampling-messages"]').innerText()).includes('name a colour')) throw new Error('the message is not shown');
      log(`  screenshot: ${await shot('sampling-card.png', page.locator('.part.sidebar'))}`);
      await sampling.locator('[data-testid="sampling-approve"]').click();
      await sampling.waitFor({ state: 'detached', timeout: 15_000 });
      await page.locator('.part.editor .view-lines').filter({ hasText: 'I am a scripted model' }).waitFor({ timeout: 20_000 });
    });

    log(`  call → card visible: ${latencies.callToCardMs.join(', ')} ms (median ${median(latencies.callToCardMs)} ms)`);
    log(`  click → call reached the server (file written): ${latencies.clickToServerMs.join(', ')} ms (median ${median(latencies.clickToServerMs)} ms)`);
    fs.writeFileSync(path.join(resultsDir, 'approval-latencies.json'), `${JSON.stringify(latencies, null, 2)}\n`);
  };

  await runWorkbenchFlow({
    name: 'approvals flow', timeoutMs, checks, log, shot, stateDir, flow,
    workbench: () => ({ browser, server }),
  });
  return latencies;
}
