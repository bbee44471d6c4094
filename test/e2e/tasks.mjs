// Long-running tool calls as MCP tasks in a real VS Code in a real browser, as a person uses them: the
// packaged extension, the scripted model and one user server, `tasks` (test/fixtures/servers/task-tool.mjs,
// whose `build` runs as a task with progress, status messages and a question mid-flight). `@mcp` asks for
// three builds, each approved on its card in the Sidebar. The first is listed under Tasks with its tool,
// server, a moving elapsed time and its progress, and its chat answer says how far it is; its question waits as a card under Server requests, is
// answered, and the build goes on with the answer to its result in the chat. The second is cancelled from
// the Tasks section: it shows as cancelled, and the server's own log says its work stopped. For the third
// the chat turn is stopped: the task goes on with the Sidebar hidden, its result is announced, and Open
// Result shows it as a document; shown again, the Sidebar still lists all three. Last, the History lists
// each build with the task id the server gave it. Its own code-server, state folder and fixture
// (test/fixtures/e2e-tasks).
import fs from 'node:fs';
import path from 'node:path';
import { startCodeServer } from '../harness/codeServer.mjs';
import { makeStateDir, prepareFixture } from '../harness/fixture.mjs';
import { fixturesDir } from '../harness/paths.mjs';
import { answerTo, openChat, sendChatRequest, waitForAnswer } from './chatView.mjs';
import { until } from './probes.mjs';
import * as ui from './workbench.mjs';
import { installWithScriptedModel, openSidebar, openWorkbench, runWorkbenchFlow, screenshots, writeServers } from './workbenchFlow.mjs';

const SERVER = 'tasks';
const TOOL = 'build';
const MODEL_TOOL = `mcp__${SERVER}__${TOOL}`;
/** The build that asks which branch (after its first step), then runs long enough to watch it move. */
const ASKING = { steps: 15, stepMs: 600, ask: true };
/** The build that is cancelled: it would run for two minutes. */
const LONG = { steps: 300, stepMs: 400 };
/** The build whose chat turn is stopped: it ends a few seconds later, with the Sidebar hidden. */
const DETACHED = { steps: 12, stepMs: 500 };

/** The fixture's log (TASK_FIXTURE_LOG) as { taskId: [what happened, in order] }, and the order tasks were created. */
function readTaskLog(file) {
  const byTask = {};
  const created = [];
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  for (const line of text.split('\n').filter(Boolean)) {
    const at = line.indexOf(' ');
    const [taskId, what] = [line.slice(0, at), line.slice(at + 1)];
    (byTask[taskId] ??= []).push(what);
    if (what.startsWith('created: ')) created.push({ taskId, args: JSON.parse(what.slice('created: '.length)) });
  }
  return { byTask, created };
}

/** Runs the tasks checks into `checks`. Options: vsix, manifest, resultsDir, log, timeoutMs. */
export async function tasksFlow({ checks, vsix, manifest, resultsDir, log, timeoutMs }) {
  const stateDir = makeStateDir('e2e-tasks');
  const fixture = prepareFixture('e2e-tasks', stateDir);
  const taskLog = path.join(stateDir, 'task-fixture.log');
  let server;
  let browser;
  const shot = screenshots(resultsDir, log, () => browser?.page);

  const flow = async () => {
    await checks.gate('tasks flow: the extension and the scripted model are installed, the task server configured, the workbench opens', async () => {
      const entry = { command: 'node', args: [path.join(fixturesDir, 'servers', 'task-tool.mjs')], env: { TASK_FIXTURE_LOG: taskLog } };
      writeServers(path.join(fixture.home, '.mcp.json'), { [SERVER]: entry });
      installWithScriptedModel(stateDir, vsix);
      // Chat on (the quiet test settings turn it off); the default approval mode asks before `build` runs.
      server = await startCodeServer({
        stateDir, home: fixture.home, logFile: path.join(resultsDir, 'code-server-tasks.log'), settings: { 'chat.disableAIFeatures': false },
      });
      browser = await openWorkbench({ server, folder: fixture.workspace, log, viewport: { width: 1600, height: 1000 } });
    });
    if (checks.blocked) return;
    const { page } = browser;

    let webview;
    await checks.gate('the Sidebar shows the task server ready, and the Chat view opens with the scripted model', async () => {
      webview = await openSidebar(page, manifest.id);
      await ui.waitForServerRows(webview, [SERVER], 60_000, { [SERVER]: 'ready' });
      await openChat(page, { model: 'Scripted' });
    });
    if (checks.blocked) return;

    const card = () => webview.locator('[data-testid="approval-card"]').first();
    const tasksSection = () => webview.locator('[data-section="tasks"]');
    const taskRows = () => tasksSection().locator('[data-testid="task-row"]');
    const rowOf = (id) => tasksSection().locator(`[data-testid="task-row"][data-task-id="${id}"]`);
    const text = async (locator) => (await locator.innerText({ timeout: 5_000 }).catch(() => '')).replace(/\s+/g, ' ').trim();
    /** Asks @mcp for a build with `args`, approves its card, and waits for its row under Tasks; resolves with the request's index and the row. */
    const startBuild = async (args) => {
      const before = await taskRows().count();
      const listed = await taskRows().evaluateAll((items) => items.map((item) => item.getAttribute('data-task-id')));
      const request = await sendChatRequest(page, `@mcp call ${MODEL_TOOL} ${JSON.stringify(args)}`);
      await card().waitFor({ state: 'visible', timeout: 30_000 });
      const cardText = await card().innerText();
      for (const want of [TOOL, SERVER]) if (!cardText.includes(want)) throw new Error(`the card lacks "${want}": ${cardText.slice(0, 400)}`);
      if ((await taskRows().count()) !== before) throw new Error('a task was listed before its call was approved');
      await card().locator('[data-testid="approval-approve"]').click();
      await webview.locator('[data-testid="approval-card"]').waitFor({ state: 'detached', timeout: 15_000 });
      let id;
      await until('the task to be listed under Tasks', async () => {
        const ids = await taskRows().evaluateAll((items) => items.map((item) => item.getAttribute('data-task-id')));
        id = ids.find((candidate) => !listed.includes(candidate));
        return id !== undefined;
      }, 20_000);
      return { request, row: rowOf(id), id };
    };

    let asking;
    let askingRequest;
    await checks.gate(`@mcp calls ${TOOL} (approved on its card); it is listed under Tasks with its tool, server, a moving elapsed time and its progress`, async () => {
      ({ request: askingRequest, row: asking } = await startBuild(ASKING));
      const tool = await text(asking.locator('[data-testid="task-tool"]'));
      const where = await text(asking.locator('[data-testid="task-server"]'));
      if (tool !== TOOL || where !== SERVER) throw new Error(`the row shows "${tool}" of "${where}", not ${TOOL} of ${SERVER}`);
      await until('the row to show its progress', async () => /\b\d+ of 15\b/.test(await text(asking.locator('[data-testid="task-progress"]'))), 15_000);
      const progress = await text(asking.locator('[data-testid="task-progress"]'));
      if (!/step \d+ of 15/.test(progress)) throw new Error(`the progress lacks the server's progress message: "${progress}"`);
      const first = await text(asking.locator('[data-testid="task-elapsed"]'));
      let later = first;
      await until('the elapsed time to move', async () => {
        later = await text(asking.locator('[data-testid="task-elapsed"]'));
        return later !== first;
      }, 5_000);
      if (!/^· \d+ s$/.test(later)) throw new Error(`the elapsed time reads "${later}"`);
      log(`  row: ${await text(asking)} (elapsed ${first} → ${later})`);
      log(`  screenshot: ${await shot('tasks-running.png')}`);
    });
    if (checks.blocked) return;

    await checks.check('once approved, the chat answer goes on from "waiting for your approval" to how far the build is', async () => {
      const answer = await waitForAnswer(page, askingRequest, new RegExp(`${SERVER} › ${TOOL}: \\d+ of 15 · step \\d+ of 15…`), 15_000);
      // The progress line comes after the approval's: the last thing the answer says is how far the build is.
      const line = /(Waiting for your approval of [^\n]*)[\s\S]*(tasks › build: \d+ of 15[^\n]*)$/.exec(answer.trim());
      if (!line) throw new Error(`the answer does not end with the build's progress: ${answer.replace(/\s+/g, ' ').slice(-300)}`);
      log(`  answer: ${answer.replace(/\s+/g, ' ').slice(0, 300)}`);
      log(`  screenshot: ${await shot('tasks-chat-progress.png')}`);
    });

    await checks.check('its question mid-flight waits as a card under Server requests (the row says it needs input); answered, the build goes on with the answer', async () => {
      await until('the row to say the task needs input', async () => (await asking.getAttribute('data-status')) === 'input_required', 15_000);
      const hint = await text(asking.locator('[data-testid="task-input"]'));
      if (!hint.includes('Server requests')) throw new Error(`the row does not point at the question: "${hint}"`);
      const question = webview.locator('[data-section="requests"] [data-testid="elicitation-card"]').first();
      await question.waitFor({ state: 'visible', timeout: 15_000 });
      const message = await text(question.locator('[data-testid="elicitation-message"]'));
      if (message !== 'Which branch should be built?') throw new Error(`the card asks "${message}"`);
      const from = await text(question.locator('[data-testid="elicitation-server"]'));
      if (from !== SERVER) throw new Error(`the card says it is from "${from}"`);
      // While the person thinks the task waits: no step is taken, the elapsed time still moves.
      const waiting = await text(asking.locator('[data-testid="task-progress"]'));
      log(`  screenshot: ${await shot('tasks-question.png')}`);
      await page.waitForTimeout(1500);
      if ((await text(asking.locator('[data-testid="task-progress"]'))) !== waiting) throw new Error('the build went on before the question was answered');
      await question.locator('[data-testid="elicitation-input"][data-field="branch"]').fill('release');
      await question.locator('[data-testid="elicitation-accept"]').click();
      await question.waitFor({ state: 'detached', timeout: 15_000 });
      await until('the row to run again with the answer', async () => (await asking.getAttribute('data-status')) === 'working'
        && /^building release: step \d+ of 15$/.test(await text(asking.locator('[data-testid="task-message"]'))), 15_000);
      const message1 = await text(asking.locator('[data-testid="task-message"]'));
      let message2 = message1;
      await until('the status message to move on', async () => {
        message2 = await text(asking.locator('[data-testid="task-message"]'));
        return message2 !== message1;
      }, 10_000);
      log(`  status messages: "${message1}" → "${message2}"`);
      log(`  screenshot: ${await shot('tasks-answered.png')}`);
    });

    await checks.check('the answered build ends: its row shows completed with its result, and the chat answer has it', async () => {
      const done = taskRows().filter({ hasText: 'built release in 15 steps' }).first();
      await done.waitFor({ state: 'visible', timeout: 30_000 });
      const status = await done.getAttribute('data-status');
      if (status !== 'completed') throw new Error(`the row's status is ${status}`);
      if ((await done.locator('[data-testid="task-cancel"]').count()) !== 0) throw new Error('an ended task still offers Cancel');
      // The task server's tool declares no hints, so it may reach outside: its result comes fenced as data.
      const answer = await waitForAnswer(page, askingRequest, /The tool answered:[\s\S]*BEGIN UNTRUSTED TOOL OUTPUT[\s\S]*built release in 15 steps/, 30_000);
      log(`  answer: ${answer.replace(/\s+/g, ' ').slice(0, 240)}`);
    });

    let longRequest;
    await checks.check('a second build is cancelled from the Tasks section: it shows as cancelled, and the server stopped its work', async () => {
      const { request, row, id } = await startBuild(LONG);
      longRequest = request;
      await until('the long build to take a few steps', async () => {
        const match = /\b(\d+) of 300\b/.exec(await text(row.locator('[data-testid="task-progress"]')));
        return match && Number(match[1]) >= 3;
      }, 20_000);
      await row.locator('[data-testid="task-cancel"]').click();
      const cancelled = rowOf(id);
      await until('the row to show cancelled', async () => (await cancelled.getAttribute('data-status')) === 'cancelled', 15_000);
      const label = await text(cancelled.locator('[data-testid="task-status"]'));
      if (label !== 'cancelled') throw new Error(`the row says "${label}"`);
      const outcome = await text(cancelled.locator('[data-testid="task-outcome"]'));
      if (!/cancel/i.test(outcome)) throw new Error(`the row's outcome does not say it was cancelled: "${outcome}"`);
      const progressAtCancel = await text(cancelled.locator('[data-testid="task-progress"]'));
      log(`  screenshot: ${await shot('tasks-cancelled.png')}`);
      // The server's side: its log says the work stopped as cancelled, and no step follows.
      const task = readTaskLog(taskLog).created.find((t) => t.args.steps === LONG.steps)?.taskId;
      if (task === undefined) throw new Error(`the server's log has no task for the long build: ${fs.readFileSync(taskLog, 'utf8')}`);
      await until('the server to note that its work stopped', async () => readTaskLog(taskLog).byTask[task].some((what) => what.startsWith('stopped: cancelled')), 10_000);
      const stoppedAt = readTaskLog(taskLog).byTask[task].length;
      await page.waitForTimeout(3 * LONG.stepMs);
      const events = readTaskLog(taskLog).byTask[task];
      if (events.length !== stoppedAt) throw new Error(`the server went on after the cancel: ${events.slice(stoppedAt - 1).join(' | ')}`);
      const steps = events.filter((what) => what.startsWith('step ')).length;
      if (steps >= LONG.steps) throw new Error('the build ran to its end');
      if ((await text(cancelled.locator('[data-testid="task-progress"]'))) !== progressAtCancel) throw new Error('the cancelled row\'s progress still moves');
      log(`  server: ${events.at(-1)} (${steps} of ${LONG.steps} steps); row: ${outcome}`);
      const answer = await waitForAnswer(page, longRequest, /cancel/i, 30_000);
      log(`  answer: ${answer.replace(/\s+/g, ' ').slice(0, 240)}`);
    });

    let detachedTaskId;
    await checks.check('a build whose chat turn is stopped goes on with the Sidebar hidden; its result is announced, and Open Result shows it', async () => {
      const { request, row, id } = await startBuild(DETACHED);
      // The person stops the turn (the chat's Cancel): the task goes on, nobody waits for it any more.
      await page.locator('.interactive-session .interactive-input-part .action-label.codicon-stop-circle').first().click();
      await row.locator('[data-testid="task-detached"]').waitFor({ state: 'visible', timeout: 15_000 });
      if ((await row.getAttribute('data-status')) !== 'working') throw new Error(`the row is ${await row.getAttribute('data-status')} after the turn stopped`);
      log(`  answer after the stop: ${(await text(answerTo(page, request))).slice(0, 240)}`);
      log(`  screenshot: ${await shot('tasks-detached.png')}`);
      await ui.openContainer(page, 'Explorer');
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: `The task of ${TOOL} (${SERVER}) finished after the request that started it ended.` }).first();
      await toast.waitFor({ state: 'visible', timeout: DETACHED.steps * DETACHED.stepMs + 30_000 });
      log(`  screenshot: ${await shot('tasks-announced.png')}`);
      await toast.getByRole('button', { name: 'Open Result' }).click();
      const editor = page.locator('.part.editor .view-lines');
      await editor.filter({ hasText: `built main in ${DETACHED.steps} steps` }).waitFor({ timeout: 15_000 });
      const document = (await editor.first().innerText()).replace(/\u00a0/g, ' ');
      if (!document.includes(`# ${TOOL} (${SERVER})`)) throw new Error(`the result document lacks its title: ${document.slice(0, 400)}`);
      detachedTaskId = /Task `([^`]+)` completed/.exec(document)?.[1];
      if (detachedTaskId === undefined) throw new Error(`the result document does not name its completed task: ${document.slice(0, 400)}`);
      const serverSide = readTaskLog(taskLog).byTask[detachedTaskId] ?? [];
      if (!serverSide.includes('completed: built main')) throw new Error(`the server's log of ${detachedTaskId}: ${serverSide.join(' | ') || 'none'}`);
      log(`  screenshot: ${await shot('tasks-result-document.png')}`);
      webview = await openSidebar(page, manifest.id);
      const shown = rowOf(id);
      await until('the announced task to show as completed', async () => (await shown.getAttribute('data-status').catch(() => null)) === 'completed', 15_000);
    });

    await checks.check('hidden and shown again, the Sidebar lists all three tasks as they ended', async () => {
      await ui.openContainer(page, 'Explorer');
      await page.waitForTimeout(500);
      webview = await openSidebar(page, manifest.id);
      await taskRows().first().waitFor({ state: 'visible', timeout: 15_000 });
      const rows = await taskRows().evaluateAll((items) => items.map((item) => ({
        status: item.getAttribute('data-status'), tool: item.querySelector('[data-testid="task-tool"]')?.textContent?.trim(),
        outcome: item.querySelector('[data-testid="task-outcome"]')?.textContent?.trim(),
      })));
      log(`  rows: ${rows.map((r) => `${r.tool} ${r.status}: ${r.outcome}`).join(' | ')}`);
      const statuses = rows.map((r) => r.status);
      if (JSON.stringify(statuses) !== JSON.stringify(['completed', 'cancelled', 'completed'])) throw new Error(`the Tasks section shows ${JSON.stringify(statuses)}`);
      if (!rows.every((r) => r.tool === TOOL)) throw new Error(`rows of other tools: ${JSON.stringify(rows)}`);
      // An ended task's result is still one click away from the section.
      const first = taskRows().filter({ hasText: 'built release in 15 steps' }).first();
      await first.locator('[data-testid="task-open-result"]').click();
      await page.locator('.part.editor .view-lines').filter({ hasText: 'built release in 15 steps' }).waitFor({ timeout: 15_000 });
      log(`  screenshot: ${await shot('tasks-reshown.png')}`);
    });

    await checks.check('the History lists each build with the task id the server gave it', async () => {
      const rows = webview.locator('[data-testid="history-row"]', { hasText: TOOL });
      await until('three builds in the History', async () => (await rows.count()) >= 3, 15_000);
      const shown = (await rows.locator('[data-testid="history-task"] code').allInnerTexts()).map((t) => t.trim());
      const created = readTaskLog(taskLog).created.map((t) => t.taskId);
      log(`  history task ids: ${shown.join(', ')}; the server's: ${created.join(', ')}`);
      if (shown.length !== 3 || [...shown].sort().join() !== [...created].sort().join()) throw new Error(`the History shows task ids [${shown.join(', ')}], the server created [${created.join(', ')}]`);
      if (detachedTaskId !== undefined && !shown.includes(detachedTaskId)) throw new Error(`the announced task ${detachedTaskId} is not in the History`);
      await webview.locator('[data-testid="history-filter"]').fill(created[1]);
      await until('the filter to keep the cancelled build alone', async () => (await webview.locator('[data-testid="history-row"]').count()) === 1, 10_000);
      const kept = await text(webview.locator('[data-testid="history-row"]').first());
      if (!/cancel/i.test(kept)) throw new Error(`the row of the cancelled build does not say so: "${kept}"`);
      await webview.locator('[data-testid="history-filter"]').fill('');
      log(`  screenshot: ${await shot('tasks-history.png', page.locator('.part.sidebar'))}`);
    });
  };

  await runWorkbenchFlow({
    name: 'tasks flow', timeoutMs, checks, log, shot, stateDir, flow,
    workbench: () => ({ browser, server }),
  });
}
