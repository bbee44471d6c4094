// The chat and Call Tool… as a person types them, in the chat flow's workbench (server-everything, the
// scripted model): the pickers reached from the chat input with their keybindings, a prompt's
// arguments picked from the server's completions by typing (the server's best one is the default),
// and Call from a tool's row in the Servers tree with a multi-line argument typed into its editor.
import { until } from './probes.mjs';
import { chatInputText, quickPickRows, sendChatRequest, typeIntoChatInput, waitForAnswer } from './chatView.mjs';
import * as ui from './workbench.mjs';

const SERVER = 'everything';
const RESOURCE = 'demo://resource/static/document/architecture.md';
const squeeze = (text) => text.replace(/\s+/g, '');

/** Waits for the quick input to show and its rows to satisfy `ready(rows)`; resolves with the rows. */
async function quickPick(page, what, ready = (rows) => rows.length > 0, timeoutMs = 15_000) {
  await page.locator('.quick-input-widget').waitFor({ state: 'visible', timeout: timeoutMs });
  let rows = [];
  await until(what, async () => ready(rows = await quickPickRows(page)), timeoutMs)
    .catch((error) => { throw new Error(`${error.message}; the quick input shows: ${JSON.stringify(rows)}`); });
  return rows;
}

/** Runs the checks into `checks`; `page` shows the workbench with the Chat view open. */
export async function chatUxChecks({ checks, page, log, shot }) {
  await checks.check('Ctrl+Alt+M in the chat input opens Insert Resource Mention…, and the mention is typed at the cursor', async () => {
    await typeIntoChatInput(page, '@mcp what is in ');
    await page.keyboard.press('Control+Alt+M');
    await quickPick(page, 'the resource picker', (rows) => rows.some((r) => r.description === RESOURCE));
    await page.keyboard.type('architecture.md');
    await quickPick(page, 'the picker to narrow to the resource', (rows) => rows.length > 0 && rows.find((r) => r.focused)?.description === RESOURCE);
    log(`  screenshot: ${await shot('chat-mention-picker.png')}`);
    await page.keyboard.press('Enter');
    const want = `@mcp what is in @${SERVER}:${RESOURCE}`;
    let text = '';
    await until('the mention in the chat input', async () => squeeze(text = await chatInputText(page)).includes(squeeze(want)), 10_000)
      .catch((error) => { throw new Error(`${error.message}; the input holds: ${text}`); });
    log(`  chat input: ${text}`);
    log(`  screenshot: ${await shot('chat-mention-inserted.png')}`);
  });

  await checks.check('Ctrl+Alt+P in the chat input opens Run MCP Prompt…, and the slash command lands in the input, not sent', async () => {
    await typeIntoChatInput(page, '');
    await page.keyboard.press('Control+Alt+P');
    await quickPick(page, 'the prompt picker', (rows) => rows.some((r) => r.description === `/mcp__${SERVER}__simple-prompt`));
    await page.keyboard.type('simple-prompt');
    await quickPick(page, 'the picker to narrow to simple-prompt', (rows) => rows.find((r) => r.focused)?.description === `/mcp__${SERVER}__simple-prompt`);
    await page.keyboard.press('Enter');
    let text = '';
    await until('the slash command in the chat input', async () => squeeze(text = await chatInputText(page)).includes(squeeze(`@mcp /mcp__${SERVER}__simple-prompt`)), 10_000)
      .catch((error) => { throw new Error(`${error.message}; the input holds: ${text}`); });
    log(`  chat input: ${text}`);
    await typeIntoChatInput(page, '');
  });

  await checks.check('a prompt\'s arguments typed in the picker: the server\'s completion is the default, the typed text second', async () => {
    const request = await sendChatRequest(page, `@mcp /mcp__${SERVER}__completable-prompt`);
    await quickPick(page, 'the question for department');
    await page.keyboard.type('Sal');
    const rows = await quickPick(page, 'the server\'s suggestion for "Sal"', (r) => r.some((row) => row.label === 'Sales') && r.some((row) => /Sal — as typed/.test(row.description)));
    const focused = rows.find((r) => r.focused);
    if (focused?.label !== 'Sales') throw new Error(`the default is not the server's "Sales": ${JSON.stringify(rows)}`);
    const typedAt = rows.findIndex((r) => /Sal — as typed/.test(r.description));
    if (typedAt <= rows.findIndex((r) => r.label === 'Sales')) throw new Error(`the typed text is not below the suggestion: ${JSON.stringify(rows)}`);
    log(`  picker rows: ${rows.map((r) => `${r.focused ? '>' : ' '}${r.label} ${r.description}`).join(' | ')}`);
    log(`  screenshot: ${await shot('chat-argument-picker.png')}`);
    await page.keyboard.press('Enter');
    await quickPick(page, 'the question for name', (r) => r.length === 0 || !r.some((row) => row.label === 'Sales'));
    await page.keyboard.type('Ev');
    // The rows for "Ev" itself (the typed row names it), not those still shown for "E", with Eve the default.
    const named = await quickPick(page, 'the server\'s suggestion for "Ev"', (r) => r.find((row) => row.focused)?.label === 'Eve' && r.some((row) => /Ev — as typed/.test(row.description)));
    log(`  picker rows: ${named.map((r) => `${r.focused ? '>' : ' '}${r.label} ${r.description}`).join(' | ')}`);
    await page.keyboard.press('Enter');
    const answer = await waitForAnswer(page, request, /You asked: Please promote Eve to the head of the Sales team\./);
    log(`  answer: ${answer.replace(/\s+/g, ' ').slice(0, 240)}`);
  });

  await checks.check('Call on a tool\'s row in the Servers tree opens Call Tool… on it; a text argument is typed over two lines in its editor', async () => {
    await ui.openContainer(page, 'MCP Switchboard');
    const pane = await ui.expandPane(page, 'Servers');
    await ui.expandTreeRow(pane, SERVER, 30_000);
    const tools = (await ui.readTreeRows(pane)).find((r) => /^Tools \(\d+\)$/.test(r.label));
    if (!tools) throw new Error(`no Tools row under ${SERVER}: ${JSON.stringify(await ui.readTreeRows(pane))}`);
    await ui.expandTreeRow(pane, tools.label);
    const row = pane.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: /^echo$/ }) }).first();
    await row.scrollIntoViewIfNeeded();
    await row.hover();
    await row.locator('.action-label[aria-label="Call Tool…"]').click();
    await quickPick(page, 'the choice of form or JSON', (rows) => rows.find((r) => r.focused)?.label === 'Fill in the arguments');
    await page.keyboard.press('Enter');
    // The message is text: it is written in an editor of its own.
    const tab = page.locator('.tabs-container .tab', { hasText: /echo message/ }).first();
    await tab.waitFor({ state: 'visible', timeout: 15_000 });
    await page.keyboard.type('line one');
    await page.keyboard.press('Enter');
    await page.keyboard.type('line two');
    log(`  screenshot: ${await shot('call-tool-text-field.png')}`);
    await page.keyboard.press('Control+Enter');
    const result = page.locator('.editor-instance .monaco-editor .view-lines').first();
    let text = '';
    await until('the result of echo', async () => (text = (await result.innerText().catch(() => '')).replace(/\u00a0/g, ' ')).includes('Echo: line one\\nline two'), 20_000)
      .catch((error) => { throw new Error(`${error.message}; the editor shows: ${text.slice(0, 400)}`); });
    if (await tab.isVisible().catch(() => false)) throw new Error('the text field\'s editor is still open');
    log(`  result: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
    log(`  screenshot: ${await shot('call-tool-result.png')}`);
  });
}
