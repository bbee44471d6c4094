// MCP Apps in a real VS Code in a real browser, as a person uses them: the packaged extension and the
// scripted model, two user servers. `basic` is the published example App server
// (@modelcontextprotocol/server-basic-vanillajs): `@mcp` calls its get-time tool (approved on its card),
// the answer offers "Open get-time app", the app renders in its panel with the call's result, its
// "Get Server Time" button calls the tool again through an approval card (caller: an MCP App) and the
// new time reaches the app; its "Send Message" is shown in a dialog before anything is sent. `hostile`
// (test/fixtures/e2e-apps/hostile-app.mjs) is an app that tries to leave its frame: the parent frame,
// VS Code's webview API, storage and every way a script can ask for a URL it did not declare (a copied
// nonce, an integrity naming its own script's hash, a `<base>`, a dynamic import, an image, a fetch, a
// beacon, a WebSocket, window.open, an EventSource, a worker, a stylesheet's loads, a nested frame, a
// form post, a meta refresh) all fail — a 127.0.0.1 listener this flow runs gets no request — while
// what it declared (a second listener: a fetch, a script, an image) works, and the origins it declared
// that are not understood are named above it. `slow` (test/fixtures/e2e-apps/slow-app.mjs) is an App
// whose calls wait on their approval card past the app's own request limit (shortened to
// SLOW_APP_LIMIT_MS in the fixture; the SDK's default is 60 s): a call made as the SDK makes it by
// default gets its result however long the card waits (the panel reports progress meanwhile), and one
// from an app that gives up at its limit is reported by the panel — after how long, that the call ran,
// and its result behind Show result.
import http from 'node:http';
import path from 'node:path';
import { startCodeServer } from '../harness/codeServer.mjs';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { fixturesDir, repoRoot } from '../harness/paths.mjs';
import { answerTo, openChat, sendChatRequest, waitForAnswer } from './chatView.mjs';
import { until } from './probes.mjs';
import * as ui from './workbench.mjs';
import { installWithScriptedModel, openSidebar, openWorkbench, runWorkbenchFlow, screenshots, writeServers } from './workbenchFlow.mjs';

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/;
/** The slow app's request limit, and how long its approval cards are held: well past it. */
const SLOW_APP_LIMIT_MS = 4000;
const HOLD_CARD_MS = SLOW_APP_LIMIT_MS * 2 + 1000;

// A 1×1 transparent GIF, for the image the hostile app is allowed to load.
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A 127.0.0.1 listener that counts every request and WebSocket upgrade it gets, and answers each. */
async function startListener() {
  const hits = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.setHeader('Access-Control-Allow-Origin', '*');
    const { pathname } = new URL(req.url, 'http://127.0.0.1');
    if (pathname.endsWith('.gif')) {
      res.setHeader('Content-Type', 'image/gif');
      res.end(GIF);
    } else if (pathname.endsWith('.js')) {
      res.setHeader('Content-Type', 'text/javascript');
      res.end('window.declaredScriptRan = true;');
    } else {
      res.end('reached');
    }
  });
  server.on('upgrade', (req, socket) => {
    hits.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { hits, url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * The frame (a Playwright Frame) of the page that holds `selector`. The Sidebar and each app panel are
 * webviews of the same extension, which one locator of the webview frames cannot tell apart.
 */
async function frameWith(page, selector, timeoutMs = 30_000) {
  let found;
  await until(`a frame with ${selector}`, async () => {
    for (const frame of page.frames()) {
      if (await frame.$(selector).catch(() => null)) {
        found = frame;
        return true;
      }
    }
    return false;
  }, timeoutMs);
  return found;
}

/** The app panel's page and the app's own frame inside it, for the app frame titled `title`. */
async function appFrame(page, title) {
  const selector = `iframe[data-testid="app-frame"][title="${title}"]`;
  const panel = await frameWith(page, selector);
  const app = await (await panel.$(selector)).contentFrame();
  if (!app) throw new Error(`the ${title} frame has no document`);
  return { panel, app };
}

/** Runs the apps checks into `checks`. Options: vsix, manifest, resultsDir, log, timeoutMs. */
export async function appsFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs }) {
  const stateDir = makeStateDir('e2e-apps');
  const fixture = prepareFixture('e2e-apps', stateDir);
  // The hostile app's two destinations: one it never declared (it must get nothing), one it did.
  const listener = await startListener();
  const declaredListener = await startListener();
  let server;
  let browser;
  const shot = screenshots(resultsDir, log, () => browser?.page);

  const flow = async () => {
    await checks.gate('apps flow: the extension and the scripted model are installed, two App servers configured, the workbench opens', async () => {
      const servers = {
        basic: { command: 'node', args: [path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js'), '--stdio'] },
        hostile: {
          command: 'node', args: [path.join(fixturesDir, 'e2e-apps', 'hostile-app.mjs')],
          env: { HOSTILE_PROBE_URL: listener.url, HOSTILE_DECLARED_URL: declaredListener.url },
        },
        slow: { command: 'node', args: [path.join(fixturesDir, 'e2e-apps', 'slow-app.mjs')], env: { SLOW_APP_LIMIT_MS: String(SLOW_APP_LIMIT_MS) } },
      };
      writeServers(path.join(fixture.home, '.mcp.json'), servers);
      installWithScriptedModel(stateDir, vsix);
      server = await startCodeServer({
        stateDir, home: fixture.home, logFile: path.join(resultsDir, 'code-server-apps.log'), settings: { 'chat.disableAIFeatures': false },
      });
      browser = await openWorkbench({ server, folder: fixture.workspace, log, viewport: { width: 1600, height: 1000 } });
    });
    if (checks.blocked) return;
    const { page } = browser;

    let webview;
    await checks.gate('the Sidebar shows the App servers ready, and the Chat view opens with the scripted model', async () => {
      await ui.waitForServerRows(await openSidebar(page, manifest.id), ['basic', 'hostile', 'slow'], 60_000, { basic: 'ready', hostile: 'ready', slow: 'ready' });
      // The Sidebar's own frame: once an app panel is open, a locator of the extension's webviews finds two.
      webview = await frameWith(page, '[data-testid="server-row"]');
      await openChat(page, { model: 'Scripted' });
    });
    if (checks.blocked) return;

    let basic;
    let firstTime;
    await checks.gate('@mcp calls get-time (approved on its card); the answer offers "Open get-time app", which renders the app with the call\'s result', async () => {
      const request = await sendChatRequest(page, '@mcp call mcp__basic__get-time');
      const card = webview.locator('[data-testid="approval-card"]').first();
      await card.waitFor({ state: 'visible', timeout: 30_000 });
      await card.locator('[data-testid="approval-approve"]').click();
      await webview.locator('[data-testid="approval-card"]').waitFor({ state: 'detached', timeout: 15_000 });
      await waitForAnswer(page, request, /ran\s+mcp__basic__get-time/);
      const open = answerTo(page, request).getByRole('button', { name: 'Open get-time app' });
      await open.waitFor({ state: 'visible', timeout: 15_000 });
      await open.click();
      basic = await appFrame(page, 'get-time app');
      const time = basic.app.locator('#server-time');
      await time.waitFor({ state: 'visible', timeout: 30_000 });
      // The app got the call's result from the host bridge once it was ready.
      await until('the app to show the chat call\'s time', async () => ISO_TIME.test((await time.innerText()).trim()), 30_000);
      firstTime = (await time.innerText()).trim();
      const header = await basic.panel.locator('header').innerText();
      if (!header.includes('ui://get-time/mcp-app.html')) throw new Error(`the panel does not name the app's resource: ${header}`);
      log(`  the app shows ${firstTime}`);
      log(`  screenshot: ${await shot('apps-basic-rendered.png')}`);
    });
    if (checks.blocked) return;

    await checks.check('"Get Server Time" in the app calls get-time through an approval card (caller: an MCP App); the new result reaches the app', async () => {
      await page.waitForTimeout(1100); // a new time, to the millisecond, and visibly later
      await basic.app.locator('#get-time-btn').click();
      const card = webview.locator('[data-testid="approval-card"]').first();
      await card.waitFor({ state: 'visible', timeout: 30_000 });
      const text = await card.innerText();
      for (const want of ['get-time', 'basic', 'an MCP App']) if (!text.includes(want)) throw new Error(`the card lacks "${want}": ${text.slice(0, 600)}`);
      // Nothing reached the app before the approval.
      const waiting = (await basic.app.locator('#server-time').innerText()).trim();
      if (waiting !== firstTime) throw new Error(`the app shows ${waiting} before the call was approved`);
      log(`  screenshot: ${await shot('apps-basic-approval-card.png')}`);
      await card.locator('[data-testid="approval-approve"]').click();
      let shown = '';
      await until('the app to show the new time', async () => {
        shown = (await basic.app.locator('#server-time').innerText()).trim();
        return ISO_TIME.test(shown) && shown !== firstTime;
      }, 30_000);
      if (!(Date.parse(shown) > Date.parse(firstTime))) throw new Error(`the new time ${shown} is not after ${firstTime}`);
      log(`  the app shows ${shown} (was ${firstTime})`);
      log(`  screenshot: ${await shot('apps-basic-result.png')}`);
    });

    await checks.check('"Send Message" in the app is shown to the person in a dialog first: Cancel sends nothing, Send to Chat sends it to @mcp', async () => {
      const sent = page.locator('.interactive-session .interactive-request').filter({ hasText: 'This is message text.' });
      const ask = async () => {
        await basic.app.locator('#send-message-btn').click();
        const dialog = await ui.waitForDialog(page, /wants to send this message to the model/, 20_000);
        const text = await dialog.innerText();
        if (!text.includes('This is message text.')) throw new Error(`the dialog does not show the message: ${text}`);
        return dialog;
      };
      const first = await ask();
      log(`  screenshot: ${await shot('apps-message-dialog.png')}`);
      await ui.clickDialogButton(first, 'Cancel');
      await page.waitForTimeout(1500);
      if ((await sent.count()) > 0) throw new Error('the message reached the chat although the person cancelled');
      await ui.clickDialogButton(await ask(), 'Send to Chat');
      await sent.first().waitFor({ state: 'visible', timeout: 30_000 });
      const request = (await sent.first().innerText()).replace(/\s+/g, ' ');
      if (!request.includes('@mcp')) throw new Error(`the message went to the chat without @mcp: ${request}`);
      log(`  screenshot: ${await shot('apps-message-sent.png')}`);
    });

    let slow;
    await checks.gate('@mcp calls the slow clock; "Open clock app" renders it and its App connects', async () => {
      const request = await sendChatRequest(page, '@mcp call mcp__slow__clock');
      await waitForAnswer(page, request, /ran\s+mcp__slow__clock/);
      const open = answerTo(page, request).getByRole('button', { name: 'Open clock app' });
      await open.waitFor({ state: 'visible', timeout: 15_000 });
      await open.click();
      slow = await appFrame(page, 'clock app');
      await slow.app.locator('body[data-connected="true"]').waitFor({ state: 'attached', timeout: 30_000 });
    });

    /** Clicks `button` in the slow app, holds the approval card it raises for HOLD_CARD_MS, then approves. */
    const holdThenApprove = async (button) => {
      await slow.app.locator(button).click();
      const card = webview.locator('[data-testid="approval-card"]').first();
      await card.waitFor({ state: 'visible', timeout: 30_000 });
      await page.waitForTimeout(HOLD_CARD_MS);
      await card.locator('[data-testid="approval-approve"]').click();
    };

    if (!checks.blocked) {
      await checks.check(`a call from the App held on its card for ${HOLD_CARD_MS / 1000} s (past the app's ${SLOW_APP_LIMIT_MS / 1000} s limit) still reaches the app: the panel's progress kept its request alive`, async () => {
        await holdThenApprove('#call-kept');
        const out = slow.app.locator('#kept-result');
        await until('the app to show the tick', async () => /^(ok|error):/.test((await out.innerText()).trim()), 30_000);
        const shown = (await out.innerText()).trim();
        if (!/^ok: tick \d+$/.test(shown)) throw new Error(`the app shows "${shown}" after the held approval`);
        if (await slow.panel.locator('[data-testid="app-abandoned-call"]').count() > 0) throw new Error('the panel reports an abandoned call although the app got its result');
        log(`  the app shows "${shown}"`);
      });

      await checks.check('an App that gives up at its limit: the panel says "the app stopped waiting after 4 s; the call ran" and Show result shows the result', async () => {
        await slow.app.locator('#call-no-reset').click();
        const card = webview.locator('[data-testid="approval-card"]').first();
        await card.waitFor({ state: 'visible', timeout: 30_000 });
        const out = slow.app.locator('#no-reset-result');
        await until('the app to give up', async () => /^error:/.test((await out.innerText()).trim()), SLOW_APP_LIMIT_MS + 10_000);
        log(`  the app: "${(await out.innerText()).trim()}"`);
        await card.locator('[data-testid="approval-approve"]').click();
        const notice = slow.panel.locator('[data-testid="app-abandoned-call"]').first();
        await notice.waitFor({ state: 'visible', timeout: 30_000 });
        const text = (await notice.innerText()).replace(/\s+/g, ' ');
        const seconds = SLOW_APP_LIMIT_MS / 1000;
        if (!text.includes(`The app stopped waiting for tick after ${seconds} s; the call ran.`)) throw new Error(`the notice says: ${text}`);
        const result = slow.panel.locator('[data-testid="app-abandoned-result"]').first();
        if (await result.isVisible()) throw new Error('the result is shown before Show result');
        await notice.getByRole('button', { name: 'Show result' }).click();
        await result.waitFor({ state: 'visible', timeout: 5000 });
        const shown = (await result.innerText()).trim();
        if (!/^tick \d+$/.test(shown)) throw new Error(`Show result shows "${shown}"`);
        log(`  the panel: "${text.split('Show result')[0].trim()}", result "${shown}"`);
        log(`  screenshot: ${await shot('apps-slow-abandoned.png')}`);
      });
    }

    let hostile;
    await checks.gate('@mcp calls the hostile probe; "Open probe app" renders it, naming what its resource declared and was refused', async () => {
      const request = await sendChatRequest(page, '@mcp call mcp__hostile__probe');
      await waitForAnswer(page, request, /ran\s+mcp__hostile__probe/);
      const open = answerTo(page, request).getByRole('button', { name: 'Open probe app' });
      await open.waitFor({ state: 'visible', timeout: 15_000 });
      await open.click();
      hostile = await appFrame(page, 'probe app');
      await hostile.app.locator('#probe-results[data-done="true"]').waitFor({ state: 'attached', timeout: 30_000 });
      const refused = await hostile.panel.locator('[data-testid="app-refused"]').innerText();
      for (const want of ['"*" is not an origin', 'http only for the loopback', '"\'unsafe-inline\'" is not an origin', 'Not granted: camera']) {
        if (!refused.includes(want)) throw new Error(`the panel does not name "${want}": ${refused}`);
      }
      log(`  screenshot: ${await shot('apps-hostile.png')}`);
    });
    if (checks.blocked) return;

    await checks.check('the hostile app reaches neither the parent frame, nor VS Code\'s webview API, nor storage, nor any origin it did not declare', async () => {
      const results = JSON.parse(await hostile.app.locator('#probe-results').innerText());
      log(`  ${JSON.stringify(results)}`);
      const undeclared = ['parentDocument', 'parentLocation', 'topDocument', 'parentWebviewApi', 'ownWebviewApi', 'localStorage', 'cookie',
        'clonedNonce', 'integrityHash', 'baseTag', 'dynamicImport', 'fetch', 'image', 'beacon', 'websocket', 'windowOpen', 'eventSource', 'worker', 'css', 'nestedFrame'];
      const missing = undeclared.filter((name) => !(name in results));
      if (missing.length > 0) throw new Error(`the probe did not try ${missing.join(', ')}`);
      // A beacon, a stylesheet's loads and a nested frame's are only "tried" in the frame (a worker may be): the listener below says whether they arrived.
      const onlyTried = new Set(['beacon', 'css', 'nestedFrame', 'worker']);
      const reached = undeclared.filter((name) => !String(results[name]).startsWith('blocked') && !(onlyTried.has(name) && String(results[name]).startsWith('tried')));
      if (reached.length > 0) throw new Error(`the app got through: ${JSON.stringify(Object.fromEntries(reached.map((name) => [name, results[name]])))}`);
      // A blocked request never leaves the browser: give a late one time to arrive, then count.
      await page.waitForTimeout(1000);
      if (listener.hits.length > 0) throw new Error(`the undeclared listener got requests from the app: ${listener.hits.join(', ')}`);
    });

    await checks.check('what the hostile app declared still works: its fetch, script and image reach the declared listener', async () => {
      const results = JSON.parse(await hostile.app.locator('#probe-results').innerText());
      const declared = ['declaredFetch', 'declaredScript', 'declaredImage'];
      const failed = declared.filter((name) => !String(results[name]).startsWith('allowed'));
      if (failed.length > 0) throw new Error(`what the app declared did not work: ${JSON.stringify(Object.fromEntries(failed.map((name) => [name, results[name]])))}`);
      for (const want of ['GET /fetch', 'GET /script.js', 'GET /image.gif']) {
        if (!declaredListener.hits.includes(want)) throw new Error(`the declared listener did not get ${want}: ${declaredListener.hits.join(', ')}`);
      }
      log(`  the declared listener got: ${declaredListener.hits.join(', ')}`);
    });

    await checks.check('a form post and a meta refresh from the hostile app reach no origin it did not declare', async () => {
      // Each would take the app's document away: they run after its results were read.
      const before = listener.hits.length;
      await hostile.app.locator('#form-post').click();
      await page.waitForTimeout(1000);
      const afterForm = await hostile.app.locator('#probe-title').count().catch(() => 0);
      await hostile.app.locator('#meta-refresh').click({ timeout: 5000 }).catch((error) => log(`  the refresh button: ${error.message.split('\n')[0]}`));
      await page.waitForTimeout(2000);
      log(`  after the form post the app's document ${afterForm > 0 ? 'stayed' : 'was gone'}; the frame is now at ${hostile.app.url()}`);
      log(`  screenshot: ${await shot('apps-hostile-navigations.png')}`);
      const got = listener.hits.slice(before);
      if (got.length > 0) throw new Error(`the undeclared listener got requests from the app's form post or refresh: ${got.join(', ')}`);
    });
  };

  await runWorkbenchFlow({
    name: 'apps flow', timeoutMs, checks, log, shot, stateDir, flow,
    workbench: () => ({ browser, server }),
    cleanup: () => Promise.all([listener.close(), declaredListener.close()]),
  });
}
