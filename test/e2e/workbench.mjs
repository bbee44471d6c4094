// Playwright helpers for VS Code's workbench DOM (1.139): activity bar, view panes, trees, webviews.
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Closes any modal dialog (e.g. a prompt shown at activation), after logging and photographing it. */
export async function dismissDialogs(page, log, screenshot) {
  for (let i = 0; i < 3; i++) {
    const dialog = page.locator('.monaco-dialog-box');
    if (!(await dialog.isVisible().catch(() => false))) return;
    log(`modal dialog open: ${(await dialog.innerText()).replace(/\s+/g, ' ').slice(0, 300)}`);
    await screenshot();
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
  }
}

/**
 * Opens the view container whose activity-bar tab is titled `title`. Clicking a tab that is already
 * selected would collapse the side bar, so it is only clicked when not selected.
 */
export async function openContainer(page, title) {
  const tab = page.locator('.part.activitybar').getByRole('tab', { name: new RegExp(`^${escapeRegExp(title)}`) });
  await tab.waitFor({ timeout: 60_000 });
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  await page
    .locator('.part.sidebar .composite.title', { hasText: new RegExp(escapeRegExp(title), 'i') })
    .waitFor({ state: 'visible' });
}

/**
 * Expands or collapses the pane whose header is `header`, by clicking its title, and waits until it has.
 * Not the middle of the header, where a plain click lands: with the pointer over an expanded header its
 * view's title actions show there (the Servers view's first one reloads the configuration).
 */
export async function setPaneExpanded(page, header, expanded) {
  if ((await header.getAttribute('aria-expanded')) === String(expanded)) return;
  await header.locator('.title').first().click();
  await page.waitForFunction(([el, want]) => el.getAttribute('aria-expanded') === want, [await header.elementHandle(), String(expanded)]);
}

/** The view pane titled `name` in the side bar, expanded (its header is clicked if it is collapsed). */
export async function expandPane(page, name) {
  const pane = page
    .locator('.part.sidebar .pane')
    .filter({ has: page.locator('.pane-header .title', { hasText: new RegExp(`^\\s*${escapeRegExp(name)}\\s*$`, 'i') }) });
  const header = pane.locator('.pane-header').first();
  await header.waitFor({ state: 'visible' });
  if ((await header.getAttribute('aria-expanded')) === 'false') {
    await header.click();
    await page.waitForFunction((el) => el.getAttribute('aria-expanded') === 'true', await header.elementHandle());
  }
  return pane;
}

/** The rows of the tree in `pane` as { label, description, aria } (label = the item's name). */
export async function readTreeRows(pane) {
  return pane.locator('.monaco-list-row').evaluateAll((rows) =>
    rows.map((row) => ({
      label: (row.querySelector('.label-name')?.textContent ?? '').trim(),
      description: (row.querySelector('.label-description')?.textContent ?? '').trim(),
      aria: row.getAttribute('aria-label') ?? '',
    })),
  );
}

/** Waits until the tree in `pane` shows every name as an item label (expanding collapsed rows on the way). */
export async function waitForTreeNames(pane, names, timeoutMs) {
  const t0 = Date.now();
  let rows = [];
  const shows = (name) => rows.some((r) => r.label === name || r.aria === name || r.aria.startsWith(`${name} `) || r.aria.startsWith(`${name},`));
  while (Date.now() - t0 < timeoutMs) {
    rows = await readTreeRows(pane);
    if (names.every(shows)) return rows;
    const collapsed = pane.locator('.monaco-list-row[aria-expanded="false"]');
    if (await collapsed.count()) await collapsed.first().click();
    else await pane.page().waitForTimeout(250);
  }
  const seen = rows.map((r) => `${r.label}${r.description ? ` (${r.description})` : ''}`).join(' | ');
  const body = (await pane.innerText().catch(() => '')).replace(/\s+/g, ' ').slice(0, 300);
  throw new Error(`tree rows [${seen}] lack ${names.filter((n) => !shows(n)).join(', ')}; pane text: ${body}`);
}

/**
 * Expands the tree row labelled `name` with its twistie (a click on the label would run the row's
 * command). A row may have no children yet (a server whose catalog is still loading): waits until it
 * can be expanded, at most `timeoutMs`.
 */
export async function expandTreeRow(pane, name, timeoutMs = 15_000) {
  const page = pane.page();
  const row = pane.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(name)}$`) }) }).first();
  await row.waitFor({ state: 'visible' });
  const t0 = Date.now();
  for (;;) {
    const expanded = await row.getAttribute('aria-expanded');
    if (expanded === 'true') return;
    if (expanded === 'false') await row.locator('.monaco-tl-twistie').click();
    else if (Date.now() - t0 > timeoutMs) throw new Error(`the tree row "${name}" has nothing to expand after ${timeoutMs} ms`);
    await page.waitForTimeout(200);
  }
}

/** The content frame of the extension's webview view: outer iframe.webview > inner iframe#active-frame. */
export function webviewFrame(page, extensionId) {
  return page.frameLocator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`).frameLocator('#active-frame');
}

/** Every [data-testid="server-row"] as { id, name, scope, transport, state, error, tools }. */
export async function readServerRows(frame) {
  return frame.locator('[data-testid="server-row"]').evaluateAll((rows) =>
    rows.map((row) => {
      const text = (id) => (row.querySelector(`[data-testid="${id}"]`)?.textContent ?? '').trim();
      return {
        id: row.getAttribute('data-server-id') ?? '',
        name: text('server-name'),
        scope: text('server-scope'),
        transport: text('server-transport'),
        state: text('server-state'),
        error: text('server-error'),
        tools: row.querySelector('[data-testid="server-tools"]')?.getAttribute('data-count') ?? '',
      };
    }),
  );
}

/**
 * Reads the rows until all `names` are present (the list may fill in as the config loads) and, when
 * `states` maps names to state labels, until those rows show them (servers start after the list shows).
 */
export async function waitForServerRows(frame, names, timeoutMs, states = {}) {
  const t0 = Date.now();
  const done = (rows) => names.every((n) => rows.some((r) => r.name === n))
    && Object.entries(states).every(([name, state]) => rows.some((r) => r.name === name && r.state === state));
  let rows = await readServerRows(frame);
  while (Date.now() - t0 < timeoutMs && !done(rows)) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    rows = await readServerRows(frame);
  }
  return rows;
}

/** The text of the status bar item that contains `needle` (polled until it shows `until`, if given). */
export async function statusBarText(page, needle, { until, timeoutMs = 15_000 } = {}) {
  const item = page.locator('.part.statusbar .statusbar-item', { hasText: needle }).first();
  await item.waitFor({ timeout: timeoutMs });
  const t0 = Date.now();
  let text = (await item.innerText()).trim();
  while (until && !until.test(text) && Date.now() - t0 < timeoutMs) {
    await page.waitForTimeout(250);
    text = (await item.innerText()).trim();
  }
  return text;
}

/** Waits for a modal dialog whose text matches `pattern` and returns its box. */
export async function waitForDialog(page, pattern, timeoutMs = 30_000) {
  const dialog = page.locator('.monaco-dialog-box').filter({ hasText: pattern });
  await dialog.first().waitFor({ state: 'visible', timeout: timeoutMs });
  return dialog.first();
}

/** Clicks the button labelled exactly `label` of a dialog box and waits for the dialog to close. */
export async function clickDialogButton(dialog, label) {
  const button = dialog.locator('.dialog-buttons .monaco-button').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) });
  await button.first().click();
  await dialog.waitFor({ state: 'detached', timeout: 10_000 }).catch(() => dialog.waitFor({ state: 'hidden', timeout: 5_000 }));
}

/**
 * Drags the sash between the side bar and the editor until the side bar is `width` px wide (VS Code
 * keeps it at 170 px or more), as a person resizes it. Resolves with the width it got.
 */
export async function resizeSidebar(page, width) {
  const sidebar = page.locator('.part.sidebar');
  const box = await sidebar.boundingBox();
  if (!box) throw new Error('no side bar on screen');
  const edge = box.x + box.width;
  const sashes = await page.locator('.monaco-sash.vertical').evaluateAll((all) => all.map((el, index) => {
    const r = el.getBoundingClientRect();
    return { index, x: r.x + r.width / 2, y: r.y + r.height / 2, height: r.height };
  }));
  const sash = sashes.filter((s) => s.height > 100).sort((a, b) => Math.abs(a.x - edge) - Math.abs(b.x - edge))[0];
  if (!sash || Math.abs(sash.x - edge) > 6) throw new Error(`no sash at the side bar's edge (x ${edge}): ${JSON.stringify(sashes)}`);
  await page.mouse.move(sash.x, sash.y);
  await page.mouse.down();
  await page.mouse.move(sash.x + (width - box.width) / 2, sash.y, { steps: 4 });
  await page.mouse.move(box.x + width, sash.y, { steps: 4 });
  await page.mouse.up();
  await page.waitForTimeout(300);
  return (await sidebar.boundingBox())?.width ?? 0;
}

/**
 * Where the elements `selectors` name sit in `frame`'s viewport, and whether anything there scrolls
 * sideways: { viewport: {width, height}, pageScrollsX, boxes: {selector: {left, right, top, bottom, scrollsX}} }.
 * `within` limits the search to the first element it matches.
 */
export async function layoutOf(frame, within, selectors) {
  return frame.locator(within).first().evaluate((root, names) => {
    const doc = root.ownerDocument.documentElement;
    const boxes = {};
    for (const name of names) {
      const el = root.querySelector(name);
      if (!el) { boxes[name] = null; continue; }
      const r = el.getBoundingClientRect();
      const scrollsX = el.scrollWidth > el.clientWidth + 1;
      // What sticks out, to say in the failure.
      const past = scrollsX
        ? [...el.querySelectorAll('*')].filter((child) => child.getBoundingClientRect().right > r.right + 1).slice(0, 3).map((child) => `${child.tagName.toLowerCase()}.${[...child.classList].join('.')}`)
        : [];
      boxes[name] = { left: r.left, right: r.right, top: r.top, bottom: r.bottom, scrollsX, past };
    }
    return { viewport: { width: doc.clientWidth, height: doc.clientHeight }, pageScrollsX: doc.scrollWidth > doc.clientWidth + 1, boxes };
  }, selectors);
}
