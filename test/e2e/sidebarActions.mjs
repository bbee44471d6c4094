// The sidebar and the Servers tree as a person uses them (run by run.mjs on its workbench): whole
// command lines that wrap only between words, the tree's order, every row action clicked (with what it
// visibly did), the source links and what the host refuses to open, and Restart All keeping the tree's
// expanded rows.
/* global document, NodeFilter, window -- functions passed to evaluate() run in the page */
import { processesWith, until } from './probes.mjs';
import { runFromPalette } from './deactivate.mjs';
import * as ui from './workbench.mjs';

const GRANDCHILD_MARKER = 'e2e-grandchild-marker';

/** The text of a row's state label in the webview. */
async function rowState(webview, id) {
  return ((await webview.locator(`[data-testid="server-row"][data-server-id="${id}"] [data-testid="server-state"]`).textContent()) ?? '').trim();
}

async function waitForRowState(webview, id, state, timeoutMs = 30_000) {
  return until(`"${id}" to show "${state}"`, async () => (await rowState(webview, id)) === state, timeoutMs);
}

async function rowActions(webview, id) {
  return webview.locator(`[data-testid="server-row"][data-server-id="${id}"] .row-action`).allInnerTexts();
}

async function clickAction(webview, id, action) {
  await webview.locator(`[data-testid="server-row"][data-server-id="${id}"] [data-testid="server-action-${action}"]`).click();
}

/** The channel the Output panel shows, from its channel picker. */
async function outputChannel(page) {
  return page.locator('.part.panel select').evaluateAll((selects) =>
    selects.map((s) => s.options[s.selectedIndex]?.text ?? '').find((text) => text !== '') ?? '');
}

/** Where each server row's command line breaks, measured in the page: a line may only end at a space or after a separator. */
function measureLaunchLines(elements) {
  return elements.map((el) => {
    const row = el.closest('[data-testid="server-row"]');
    let prevTop;
    let prevChar = '';
    let sawSpace = false;
    let lines = 0;
    const badBreaks = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i++) {
        const ch = node.data[i];
        if (/\s/.test(ch)) { sawSpace = true; continue; }
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        const top = Math.round(rect.top);
        if (prevTop === undefined || top > prevTop + 2) {
          lines++;
          if (prevTop !== undefined && !sawSpace && !/[/\\?&=,]/.test(prevChar)) badBreaks.push(`${prevChar}|${ch}`);
        }
        prevTop = top;
        prevChar = ch;
        sawSpace = false;
      }
    }
    return {
      id: row?.getAttribute('data-server-id') ?? '',
      text: el.textContent ?? '',
      title: el.getAttribute('title') ?? '',
      lines,
      badBreaks,
      clippedX: el.scrollWidth > el.clientWidth + 1,
      clippedY: el.scrollHeight > el.clientHeight + 1,
    };
  });
}

/** The contentFrame of the webview's outer iframe (VS Code's host page) and of its inner page. */
async function webviewFrames(page, extensionId) {
  const outer = await page.locator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`).first().elementHandle();
  const host = await outer?.contentFrame();
  const inner = host?.childFrames().find((frame) => frame.name() === 'active-frame' || frame.url().includes('fake.html'))
    ?? (await (await host?.$('#active-frame'))?.contentFrame());
  if (!host || !inner) throw new Error('the webview frames were not found');
  return { host, inner };
}

/**
 * Sends one request as the page would (through VS Code's webview host page, the way `postMessage`
 * of `acquireVsCodeApi()` does) and returns the host's reply.
 */
async function requestFromPage(page, extensionId, request) {
  const { host, inner } = await webviewFrames(page, extensionId);
  await inner.evaluate((id) => {
    window.__switchboardReplies = window.__switchboardReplies ?? {};
    window.addEventListener('message', (event) => {
      if (event.data?.id === id) window.__switchboardReplies[id] = event.data;
    });
  }, request.id);
  await host.evaluate((message) => window.__vscode_post_message__('onmessage', { message }), { type: 'request', ...request });
  return until(`the reply to request ${request.id}`, () => inner.evaluate((id) => window.__switchboardReplies?.[id], request.id), 10_000);
}

/** The tooltip (full path) or label of the active editor tab. */
async function activeTab(page) {
  const tab = page.locator('.part.editor .tabs-container .tab.active').first();
  await tab.waitFor({ timeout: 10_000 });
  return `${(await tab.getAttribute('title')) ?? ''} ${(await tab.getAttribute('aria-label')) ?? ''}`.trim();
}

export async function checkSidebar({ checks, page, webview, expected, fixture, extensionId, log, shot }) {
  const names = expected.effective.map((s) => s.name);

  await checks.check('the sidebar shows whole command lines, wrapped only between words or after a separator', async () => {
    const measured = await webview.locator('[data-testid="server-launch"]').evaluateAll(measureLaunchLines);
    for (const m of measured) log(`  ${m.id}: ${m.lines} line(s): ${m.text}`);
    const problems = measured.flatMap((m) => [
      m.text !== m.title && `${m.id}: shown "${m.text}" but the whole line is "${m.title}"`,
      /…/.test(m.text) && `${m.id}: cut with an ellipsis`,
      m.clippedY && `${m.id}: clipped vertically`,
      m.badBreaks.length > 0 && `${m.id}: breaks inside a word at ${m.badBreaks.join(', ')}`,
    ]).filter(Boolean);
    if (problems.length) throw new Error(problems.join('\n'));
    if (!measured.some((m) => m.lines >= 2)) throw new Error(`no command line is long enough to wrap here: ${measured.map((m) => `${m.id}=${m.lines}`).join(', ')}`);
  });

  await checks.check('the sidebar lists the servers in the Servers tree\'s order', async () => {
    const pane = await ui.expandPane(page, 'Servers');
    const treeOrder = [...new Set((await ui.readTreeRows(pane)).map((r) => r.label).filter((label) => names.includes(label)))];
    const sidebarOrder = (await ui.readServerRows(webview)).map((r) => r.name);
    if (treeOrder.join() !== sidebarOrder.join()) throw new Error(`tree: ${treeOrder.join(', ')}; sidebar: ${sidebarOrder.join(', ')}`);
  });

  await checks.check('a ready server offers Stop, Restart and Show logs; each does what it says', async () => {
    const labels = await rowActions(webview, 'wrapped');
    if (labels.join() !== 'Stop,Restart,Show logs') throw new Error(`"wrapped" offers ${labels.join(', ')}`);
    await clickAction(webview, 'wrapped', 'showLogs');
    await until('the Output panel to show "MCP Switchboard: wrapped"', async () => (await outputChannel(page)) === 'MCP Switchboard: wrapped', 10_000);

    const before = processesWith(GRANDCHILD_MARKER).map((p) => p.pid);
    if (before.length === 0) throw new Error('"wrapped" has no process before Restart');
    await clickAction(webview, 'wrapped', 'restart');
    await until('a new "wrapped" process', () => {
      const now = processesWith(GRANDCHILD_MARKER).map((p) => p.pid);
      return now.length > 0 && !now.some((pid) => before.includes(pid));
    }, 30_000);
    await waitForRowState(webview, 'wrapped', 'ready');

    await clickAction(webview, 'wrapped', 'stop');
    await waitForRowState(webview, 'wrapped', 'stopped');
    await until('no "wrapped" process after Stop', () => processesWith(GRANDCHILD_MARKER).length === 0, 15_000);
    const stopped = await rowActions(webview, 'wrapped');
    if (stopped.join() !== 'Start') throw new Error(`a stopped server offers ${stopped.join(', ')}`);
    await clickAction(webview, 'wrapped', 'start');
    await waitForRowState(webview, 'wrapped', 'ready');
    if (processesWith(GRANDCHILD_MARKER).length === 0) throw new Error('Start left no "wrapped" process');
  });

  await checks.check('a failed server offers Show logs and Retry; a server that needs trust offers Trust…', async () => {
    const failed = await rowActions(webview, 'notes');
    if (failed.join() !== 'Show logs,Retry') throw new Error(`"notes" offers ${failed.join(', ')}`);
    await clickAction(webview, 'notes', 'restart');
    await waitForRowState(webview, 'notes', 'failed');
    await clickAction(webview, 'notes', 'showLogs');
    await until('the Output panel to show "MCP Switchboard: notes"', async () => (await outputChannel(page)) === 'MCP Switchboard: notes', 10_000);

    const parked = await rowActions(webview, 'docs');
    if (parked.join() !== 'Trust…') throw new Error(`"docs" offers ${parked.join(', ')}`);
    await clickAction(webview, 'docs', 'start');
    const dialog = await ui.waitForDialog(page, /defined by this workspace/, 15_000);
    const text = await dialog.innerText();
    if (!text.includes('docs')) throw new Error(`the trust dialog does not name "docs": ${text}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    if ((await rowState(webview, 'docs')) !== 'needs trust') throw new Error(`"docs" shows "${await rowState(webview, 'docs')}" after the prompt was closed`);
    if (await webview.locator('[data-testid="notice"]').count()) throw new Error(`a request failed: ${await webview.locator('[data-testid="notice"]').innerText()}`);
  });

  await checks.check('source links open the definition; the host refuses a file that is not a servers file', async () => {
    const userFile = `${fixture.home}/.mcp.json`;
    await webview.locator('[data-testid="server-row"][data-server-id="everything"] [data-testid="server-name"]').click();
    const server = await activeTab(page);
    await webview.locator('[data-testid="shadowed-row"]').first().click();
    const shadowed = await activeTab(page);
    log(`  opened: ${server} | ${shadowed}`);
    for (const [what, tab] of [['a server name', server], ['a shadowed entry', shadowed]]) {
      if (!tab.includes('.mcp.json')) throw new Error(`${what} opened "${tab}", not a .mcp.json`);
    }
    const reply = await requestFromPage(page, extensionId, { id: 900001, method: 'openSource', params: { target: 'location', file: '/etc/passwd', line: 1, column: 1 } });
    if (reply.type !== 'error' || !/is not a servers file of this workspace/.test(reply.error?.message ?? '')) {
      throw new Error(`the host answered ${JSON.stringify(reply)}`);
    }
    const allowed = await requestFromPage(page, extensionId, { id: 900002, method: 'openSource', params: { target: 'location', file: userFile, line: 1, column: 1 } });
    if (allowed.type !== 'response') throw new Error(`the user file was refused: ${JSON.stringify(allowed)}`);
    const tabs = await page.locator('.part.editor .tabs-container .tab').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
    if (tabs.some((label) => label.includes('passwd'))) throw new Error(`an editor opened /etc/passwd: ${tabs.join(', ')}`);
    await runFromPalette(page, ['View: Close All Editors']);
  });

  await checks.check('Restart All says what it did and keeps the tree\'s expanded rows expanded', async () => {
    const pane = await ui.expandPane(page, 'Servers');
    await ui.expandTreeRow(pane, 'everything');
    const toolsRow = pane.locator('.monaco-list-row[aria-level="2"]', { has: page.locator('.label-name', { hasText: /^Tools \(\d+\)$/ }) }).first();
    await toolsRow.waitFor({ timeout: 15_000 });
    if ((await toolsRow.getAttribute('aria-expanded')) !== 'true') await toolsRow.locator('.monaco-tl-twistie').click();
    await until('the Tools row to expand', async () => (await toolsRow.getAttribute('aria-expanded')) === 'true', 5_000);

    await runFromPalette(page, ['MCP Switchboard: Restart All Servers']);
    const message = await ui.statusBarText(page, 'restarted', { timeoutMs: 45_000 });
    log(`  status bar: ${message}`);
    if (!/MCP Switchboard: restarted \d+ servers?: \d+ ready/.test(message)) throw new Error(`the status bar says "${message}"`);
    await waitForRowState(webview, 'everything', 'ready');
    const everything = pane.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: /^everything$/ }) }).first();
    await until('"everything" and its Tools row to be expanded again', async () =>
      (await everything.getAttribute('aria-expanded')) === 'true' && (await toolsRow.getAttribute('aria-expanded').catch(() => null)) === 'true', 15_000)
      .catch(async (error) => {
        await shot('restart-all-tree.png');
        throw new Error(`${error.message}: everything=${await everything.getAttribute('aria-expanded')}, tools=${await toolsRow.getAttribute('aria-expanded').catch(() => 'gone')}`);
      });
    await shot('restart-all-tree.png');
  });
}
