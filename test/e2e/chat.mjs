// The @mcp chat participant in a real VS Code in a real browser, as a person uses it: the packaged
// extension and the scripted model (test/fixtures/scripted-model, installed beside it as `npm start`
// does) with chat on and the default approval mode, server-everything as a user server. Three requests
// are typed into the Chat view and their answers read from the page: one that makes the model call a
// tool that is not read-only (its card waits in the Sidebar, Approve is clicked there, the answer shows
// the tool's result), one with an @everything:… resource mention (the answer shows the attachment
// reached the model), and one /mcp__everything__args-prompt slash command with an argument (the answer
// shows the prompt's message reached the model). While the call waits, the answer says it waits for
// the person's approval, with a button that brings the card back on screen. Then the pickers, prompt
// arguments and Call Tool… of chatUx.mjs. Screenshots kept. Its own code-server, state folder and
// fixture (test/fixtures/e2e-chat).
import path from 'node:path';
import { startCodeServer } from '../harness/codeServer.mjs';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { repoRoot } from '../harness/paths.mjs';
import { answerTo, openChat, sendChatRequest, waitForAnswer } from './chatView.mjs';
import { chatUxChecks } from './chatUx.mjs';
import { until } from './probes.mjs';
import * as ui from './workbench.mjs';
import { installWithScriptedModel, openSidebar, openWorkbench, runWorkbenchFlow, screenshots, writeServers } from './workbenchFlow.mjs';

const SERVER = 'everything';
/** A tool of server-everything annotated readOnlyHint: false, with no arguments: the default mode asks before it runs. */
const TOOL = 'toggle-simulated-logging';
const RESOURCE = 'demo://resource/static/document/architecture.md';
/** The resource's first line, which the scripted model repeats for every attachment it was given. */
const RESOURCE_FIRST_LINE = '# Everything Server – Architecture';

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Runs the chat checks into `checks`. Options: vsix, manifest, resultsDir, log, timeoutMs. */
export async function chatFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs }) {
  const stateDir = makeStateDir('e2e-chat');
  const fixture = prepareFixture('e2e-chat', stateDir);
  let server;
  let browser;
  const shot = screenshots(resultsDir, log, () => browser?.page);

  const flow = async () => {
    await checks.gate('chat flow: the extension and the scripted model are installed, chat is on, the workbench opens', async () => {
      const entry = { command: 'node', args: [path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')] };
      writeServers(path.join(fixture.home, '.mcp.json'), { [SERVER]: entry });
      installWithScriptedModel(stateDir, vsix);
      // Chat on (the quiet test settings turn it off); no approval setting: the default mode, ask before edits.
      server = await startCodeServer({
        stateDir, home: fixture.home, logFile: path.join(resultsDir, 'code-server-chat.log'), settings: { 'chat.disableAIFeatures': false },
      });
      browser = await openWorkbench({ server, folder: fixture.workspace, log, viewport: { width: 1600, height: 1000 } });
    });
    if (checks.blocked) return;
    const { page } = browser;

    let webview;
    await checks.gate('the Sidebar shows server-everything ready, and the Chat view opens with the scripted model', async () => {
      webview = await openSidebar(page, manifest.id);
      const rows = await ui.waitForServerRows(webview, [SERVER], 60_000, { [SERVER]: 'ready' });
      if (!rows.some((r) => r.name === SERVER && r.state === 'ready')) throw new Error(`rows: ${JSON.stringify(rows)}`);
      await openChat(page, { model: 'Scripted' });
    });
    if (checks.blocked) return;

    await checks.check(`a request for ${TOOL} waits as a card in the Sidebar; Approve there, and the answer shows the tool's result`, async () => {
      const request = await sendChatRequest(page, `@mcp call mcp__${SERVER}__${TOOL}`);
      const card = webview.locator('[data-testid="approval-card"]').first();
      await card.waitFor({ state: 'visible', timeout: 30_000 });
      const text = await card.innerText();
      for (const want of [TOOL, SERVER, `mcp__${SERVER}__${TOOL}`]) {
        if (!text.includes(want)) throw new Error(`the card lacks "${want}": ${text.slice(0, 600)}`);
      }
      // Nothing ran yet: the answer says the call waits for the person, with a button to its card.
      const waiting = await waitForAnswer(page, request, /waits for your approval/, 15_000);
      if (/The tool answered/.test(waiting)) throw new Error(`the answer shows a result before the approval: ${waiting.slice(0, 300)}`);
      const show = answerTo(page, request).getByRole('button', { name: 'Show the approval card' });
      await show.waitFor({ state: 'visible', timeout: 15_000 });
      log(`  waiting: ${waiting.replace(/\s+/g, ' ').slice(0, 240)}`);
      log(`  screenshot: ${await shot('chat-waiting-for-approval.png')}`);
      log(`  screenshot: ${await shot('chat-approval-card.png')}`);
      // Another view takes the side bar: the button brings the Sidebar, and the card, back.
      await ui.openContainer(page, 'Explorer');
      const tab = page.locator('.part.activitybar').getByRole('tab', { name: /^MCP Switchboard/ });
      if ((await tab.getAttribute('aria-selected')) === 'true') throw new Error('the MCP Switchboard view is still shown after opening the Explorer');
      await show.click();
      await until('the MCP Switchboard view to be shown again', async () => (await tab.getAttribute('aria-selected')) === 'true', 15_000);
      await card.waitFor({ state: 'visible', timeout: 15_000 });
      log(`  screenshot: ${await shot('chat-approval-card-revealed.png')}`);
      await card.locator('[data-testid="approval-approve"]').click();
      await webview.locator('[data-testid="approval-card"]').waitFor({ state: 'detached', timeout: 15_000 });
      const answer = await waitForAnswer(page, request, /The tool answered: Started simulated, random-leveled logging/);
      if (!new RegExp(`✓ ran\\s+mcp__${SERVER}__${escapeRegExp(TOOL)}`).test(answer)) throw new Error(`the answer does not say which tool ran: ${answer.slice(0, 600)}`);
      log(`  answer: ${answer.replace(/\s+/g, ' ').slice(0, 240)}`);
      log(`  screenshot: ${await shot('chat-tool-answer.png')}`);
    });

    await checks.check('the card you wait for is in view: scrolled down to History, a call from chat brings its card into view; scrolled away again, Show puts its top in the frame and focuses its first button; the chat line says "waited … · ran …"', async () => {
      // The Servers tree expanded beside it: the Sidebar's page is taller than its frame and scrolls.
      const servers = page.locator('.part.sidebar .pane-header', { hasText: /^\s*Servers/i }).first();
      await ui.setPaneExpanded(page, servers, true);
      const card = webview.locator('[data-testid="approval-card"]').first();
      /** The card's top and the frame's height, from inside the Sidebar's page. */
      const cardPlace = () => card.evaluate((element) => ({ top: element.getBoundingClientRect().top, height: element.ownerDocument.documentElement.clientHeight, scrollY: element.ownerDocument.defaultView.scrollY }));
      const toHistory = async () => {
        await webview.locator('[data-section="history"]').scrollIntoViewIfNeeded();
        await webview.locator('[data-section="history"] .section-header').evaluate((element) => element.scrollIntoView({ block: 'end' }));
      };
      try {
        await toHistory();
        const request = await sendChatRequest(page, `@mcp call mcp__${SERVER}__${TOOL}`);
        await card.waitFor({ state: 'attached', timeout: 30_000 });
        const arrived = await until('the new card to be scrolled into view', async () => {
          const place = await cardPlace();
          return place.top >= 0 && place.top < place.height && place;
        }, 10_000).catch(async (error) => { throw new Error(`${error.message}: ${JSON.stringify(await cardPlace())}`); });
        log(`  arrived: card top ${Math.round(arrived.top)} px in a ${arrived.height} px frame (scrolled ${Math.round(arrived.scrollY)} px)`);
        await toHistory();
        const away = await cardPlace();
        if (away.top >= 0 && away.top < away.height) throw new Error(`the page did not scroll away from the card: ${JSON.stringify(away)}`);
        const show = answerTo(page, request).getByRole('button', { name: 'Show the approval card' });
        await show.waitFor({ state: 'visible', timeout: 15_000 });
        await show.click();
        const shown = await until('Show to put the card\'s top in the frame', async () => {
          const place = await cardPlace();
          return place.top >= 0 && place.top < place.height && place;
        }, 10_000).catch(async (error) => { throw new Error(`${error.message}: ${JSON.stringify(await cardPlace())}`); });
        const focused = await until('the card\'s first button to have the focus', () => card.evaluate((element) => {
          const first = element.querySelector('button:not([disabled])');
          return first !== null && element.ownerDocument.activeElement === first && first.textContent.trim();
        }), 10_000);
        log(`  Show: card top ${Math.round(shown.top)} px in a ${shown.height} px frame; focused: ${focused}`);
        log(`  screenshot: ${await shot('chat-approval-card-shown.png')}`);
        await card.locator('[data-testid="approval-approve"]').click();
        const answer = await waitForAnswer(page, request, /The tool answered/);
        const line = new RegExp(`✓ ran\\s+mcp__${SERVER}__${escapeRegExp(TOOL)}[^)]*waited \\d+(\\.\\d)? m?s · ran \\d+(\\.\\d)? m?s\\)`);
        if (!line.test(answer)) throw new Error(`the chat line does not say "waited … · ran …": ${answer.slice(0, 600)}`);
        log(`  answer: ${answer.replace(/\s+/g, ' ').slice(0, 240)}`);
      } finally {
        await ui.setPaneExpanded(page, servers, false);
      }
    });

    await checks.check(`an @${SERVER}:${RESOURCE} mention: the answer shows the resource reached the model`, async () => {
      const request = await sendChatRequest(page, `@mcp what is in @${SERVER}:${RESOURCE}`);
      const answer = await waitForAnswer(page, request, /You asked:/);
      const attached = `Attached: ${RESOURCE} (first line: ${RESOURCE_FIRST_LINE})`;
      if (!answer.includes(attached)) throw new Error(`the answer lacks "${attached}": ${answer.slice(0, 600)}`);
      log(`  answer: ${answer.replace(/\s+/g, ' ').slice(0, 240)}`);
      log(`  screenshot: ${await shot('chat-mention-answer.png')}`);
    });

    await checks.check(`/mcp__${SERVER}__args-prompt Oslo: the answer starts from the prompt, its message reached the model`, async () => {
      const request = await sendChatRequest(page, `@mcp /mcp__${SERVER}__args-prompt Oslo`);
      // The answer streams in: wait for the whole last sentence, not its first words.
      const answer = await waitForAnswer(page, request, /You asked: What's weather in Oslo\?/);
      for (const want of ['Started from the prompt', 'city="Oslo"', 'You asked: What\'s weather in Oslo?']) {
        if (!answer.includes(want)) throw new Error(`the answer lacks "${want}": ${answer.slice(0, 600)}`);
      }
      log(`  answer: ${answer.replace(/\s+/g, ' ').slice(0, 240)}`);
      log(`  screenshot: ${await shot('chat-prompt-answer.png')}`);
    });

    await chatUxChecks({ checks, page, log, shot });
  };

  await runWorkbenchFlow({
    name: 'chat flow', timeoutMs, checks, log, shot, stateDir, flow,
    workbench: () => ({ browser, server }),
  });
}
