// Playwright helpers for VS Code's Chat view (1.139): open it, wait until a request can be typed, send
// one as a person types it, and read the answer that follows. Every wait is on a condition of the page.
import { until } from './probes.mjs';

const INPUT = '.interactive-session .interactive-input-part .monaco-editor';
// The chat's list is virtual: a row scrolled out of view leaves the DOM. Rows are addressed by their
// index in the conversation (data-index), never by their position among the rows on the page.
const ROWS = '.interactive-session .monaco-list-row';
const rowAt = (page, index) => page.locator(`${ROWS}[data-index="${index}"]`);

/** The highest conversation index on the page (-1 for an empty chat). */
async function lastIndex(page) {
  const indices = await page.locator(ROWS).evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-index'))));
  return Math.max(-1, ...indices.filter((i) => Number.isInteger(i)));
}

const squeeze = (text) => text.replace(/\s+/g, '');

/**
 * Opens the Chat view from the command palette ("Chat: Open Chat") and waits until its input is
 * there and the model picker shows `model` (VS Code offers a chat only once the models are resolved).
 * The first open of a fresh workbench loads the chat's parts: `timeoutMs` covers that.
 */
export async function openChat(page, { model, timeoutMs = 90_000 } = {}) {
  // Keys typed while a webview has the focus stay in its frame: the workbench gets the focus back first.
  await page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('F1');
  const palette = page.locator('.quick-input-widget input');
  await palette.waitFor({ state: 'visible' });
  await palette.fill('>Chat: Open Chat');
  await page.locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: /^Chat: Open Chat$/ }) }).first().click();
  await page.locator(INPUT).first().waitFor({ state: 'visible', timeout: timeoutMs });
  if (model) {
    const part = page.locator('.interactive-session .interactive-input-part').first();
    await until(`the chat's model picker to show "${model}"`, async () => (await part.innerText().catch(() => '')).includes(model), timeoutMs)
      .catch(async (error) => { throw new Error(`${error.message}; the input part shows: ${(await part.innerText().catch(() => '')).replace(/\s+/g, ' ')}`); });
  }
}

/**
 * Enters `text` into the chat input (whatever the input held before is replaced), closes any
 * suggestion list it opened, and sends it with Enter. Resolves once the request
 * shows in the chat, with its conversation index (the answer is the row after it, see `waitForAnswer`).
 */
export async function sendChatRequest(page, text) {
  const before = await lastIndex(page);
  const input = page.locator(INPUT).first();
  await input.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  // In one input event: typed key by key, a suggestion list ("@" participants and tools, "/" commands)
  // can take a later key for its own.
  await page.keyboard.insertText(text);
  // A suggestion list still open would take the Enter (it may sit outside the chat's own DOM).
  const suggest = page.locator('.suggest-widget.visible');
  if (await suggest.count()) {
    await page.keyboard.press('Escape');
    // One in another editor stays open, harmlessly: the Enter goes to the chat input, which has the focus.
    await suggest.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  }
  await page.keyboard.press('Enter');
  let index = -1;
  await until('the request to show in the chat', async () => {
    for (let i = await lastIndex(page); i > before; i--) {
      const row = rowAt(page, i).locator('.interactive-request');
      if ((await row.count()) && squeeze(await row.innerText().catch(() => '')).includes(squeeze(text))) { index = i; return true; }
    }
    return false;
  }, 30_000);
  return index;
}

/** The answer to the request at conversation index `request`. */
export function answerTo(page, request) {
  return rowAt(page, request + 1).locator('.interactive-response');
}

/** Waits until the answer to the request at index `request` shows text matching `pattern`; returns its text. */
export async function waitForAnswer(page, request, pattern, timeoutMs = 60_000) {
  const answer = answerTo(page, request);
  let text = '';
  await until(`an answer matching ${pattern}`, async () => {
    text = (await answer.innerText().catch(() => '')).trim();
    return pattern.test(text);
  }, timeoutMs).catch((error) => { throw new Error(`${error.message}; the answer shows: ${text.replace(/\s+/g, ' ').slice(0, 600)}`); });
  return text;
}

/**
 * Puts the keyboard in the chat input with `text` typed there (whatever it held is replaced), any
 * suggestion list it opened closed, and nothing sent.
 */
export async function typeIntoChatInput(page, text) {
  const input = page.locator(INPUT).first();
  await input.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(text);
  const suggest = page.locator('.suggest-widget.visible');
  if (await suggest.count()) {
    await page.keyboard.press('Escape');
    await suggest.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  }
}

/** What the chat input holds now, as shown (its lines joined, non-breaking spaces as spaces). */
export async function chatInputText(page) {
  const lines = page.locator(`${INPUT} .view-lines`).first();
  return (await lines.innerText().catch(() => '')).replace(/\u00a0/g, ' ').replace(/\n/g, '');
}

/** The rows of the open quick input as { label, description, focused }, in the order shown. */
export async function quickPickRows(page) {
  return page.locator('.quick-input-widget .quick-input-list .monaco-list-row').evaluateAll((rows) => rows
    .map((row) => ({
      index: Number(row.getAttribute('data-index')),
      label: (row.querySelector('.label-name')?.textContent ?? '').trim(),
      description: (row.querySelector('.label-description')?.textContent ?? '').trim(),
      focused: row.classList.contains('focused'),
    }))
    .sort((a, b) => a.index - b.index));
}
