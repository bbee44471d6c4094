// "A deactivate leaves zero child processes", proven in the browser tier: with the servers of the e2e
// fixture running under the real extension host (a shell wrapper whose server starts a child of its
// own among them), the extension host is restarted from the command palette as a user would:
// "Developer: Restart Extension Host" where VS Code offers it, else (the web workbench, code-server)
// "Developer: Reload Window". VS Code deactivates the extension (which stops every server: stdin →
// SIGTERM → SIGKILL of each process group) and then ends the extension host. Every server process
// recorded before, the grandchild included, must be gone within a bounded time, before the host
// ended; then the extension activates again and the servers come back with new processes.
//
// Linux only: the process tree is read from /proc. Elsewhere the checks are reported as skipped.
import fs from 'node:fs';
import path from 'node:path';
import * as ui from './workbench.mjs';
import { stillRuns } from '../harness/shutdown.mjs';

/** What marks a fixture server in a command line (the shell wrapper's included). */
const SERVER_PATTERNS = ['test/fixtures/servers/', '@modelcontextprotocol/server-'];
/** The shell-wrapped server of test/fixtures/e2e/home/.mcp.json and its child's marker argument. */
const WRAPPED_SCRIPT = 'grandchild.mjs';
const GRANDCHILD_MARKER = 'grandchild-of';
/**
 * The palette commands that end the extension host, in order of preference. VS Code desktop has
 * "Developer: Restart Extension Host"; the web workbench (code-server) has no such command: for a
 * remote window VS Code turns every extension host restart into a window reload, which terminates the
 * remote extension host (deactivating its extensions) and starts a new one.
 */
const RESTART_COMMANDS = ['Developer: Restart Extension Host', 'Developer: Reload Window'];
/** Deactivation takes about one grace period (2 s: stdin, then SIGTERM); VS Code itself waits 5 s at most. */
const GONE_WITHIN_MS = 10_000;
const BACK_WITHIN_MS = 60_000;
/** How long the restart is watched at most (VS Code gives deactivate 5 s, then the host starts anew). */
const WATCH_MS = 30_000;

const TITLES = {
  running: 'the user-scope servers run under the extension host: a shell wrapper, its server and the server\'s own child',
  restart: `the command palette restarts the extension host ("${RESTART_COMMANDS.join('", or in the web workbench "')}")`,
  gone: `a deactivate leaves zero child processes: every recorded server process is gone within ${GONE_WITHIN_MS / 1000} s`,
  back: 'after the restart the extension activates again: the user-scope servers are ready, with new processes',
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every process as Map<pid, { pid, ppid, state, start, cmdline }>, from /proc. `start` (the start time
 * in clock ticks) tells a process from a later one that reuses its pid.
 */
export function readProcessTable() {
  const table = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp … starttime(22) …": comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      table.set(Number(entry), { pid: Number(entry), state: fields[0], ppid: Number(fields[1]), start: fields[19], cmdline });
    } catch {
      // it ended while we looked
    }
  }
  return table;
}

function descendantsOf(table, rootPid) {
  const children = new Map();
  for (const p of table.values()) {
    if (!children.has(p.ppid)) children.set(p.ppid, []);
    children.get(p.ppid).push(p);
  }
  const found = [];
  const queue = [...(children.get(rootPid) ?? [])];
  while (queue.length) {
    const p = queue.shift();
    found.push(p);
    queue.push(...(children.get(p.pid) ?? []));
  }
  return found;
}

/** The extension host(s) started by the code-server process `serverPid`. */
function extensionHosts(table, serverPid) {
  return descendantsOf(table, serverPid).filter((p) => p.cmdline.includes('--type=extensionHost'));
}

/**
 * The server processes below the extension host(s) of code-server `serverPid`: every process whose
 * command line names a fixture server, and everything below it (a server's own children). Also
 * returns the shell-wrapped trio { wrapper, server, grandchild } when it is complete.
 */
function serverProcesses(serverPid) {
  const table = readProcessTable();
  const hosts = extensionHosts(table, serverPid);
  const procs = new Map();
  for (const host of hosts) {
    for (const p of descendantsOf(table, host.pid)) {
      if (procs.has(p.pid) || !SERVER_PATTERNS.some((s) => p.cmdline.includes(s))) continue;
      procs.set(p.pid, p);
      for (const below of descendantsOf(table, p.pid)) procs.set(below.pid, below);
    }
  }
  const list = [...procs.values()];
  const wrapper = list.find((p) => p.cmdline.includes(WRAPPED_SCRIPT) && /^(\S*\/)?(sh|bash|dash)\s+-c\b/.test(p.cmdline));
  const server = wrapper && list.find((p) => p.ppid === wrapper.pid && p.cmdline.includes(WRAPPED_SCRIPT));
  const grandchild = server && list.find((p) => p.ppid === server.pid && p.cmdline.includes(GRANDCHILD_MARKER));
  return { hosts, list, trio: grandchild ? { wrapper, server, grandchild } : undefined };
}

const describe = (p) => `${p.pid} ${p.cmdline.length > 110 ? `${p.cmdline.slice(0, 110)}…` : p.cmdline}`;

/** Opens the command palette with F1, as a user would; a modal dialog in the way is closed first (`dismiss`). */
async function openPalette(page, dismiss) {
  const widget = page.locator('.quick-input-widget');
  for (let attempt = 0; attempt < 3 && !(await widget.isVisible()); attempt++) {
    await dismiss();
    // the focus may sit in a webview, which keeps F1 to itself: give it back to the workbench first
    if (attempt > 0) await page.locator('.part.editor').click({ position: { x: 40, y: 40 }, timeout: 3_000 }).catch(() => {});
    await page.keyboard.press('F1');
    await widget.waitFor({ state: 'visible', timeout: 3_000 }).catch(() => {});
  }
  if (!(await widget.isVisible())) throw new Error('F1 did not open the command palette');
  return widget;
}

/**
 * Runs the first of `labels` the command palette offers: F1, type the label, Enter once the palette
 * has exactly that command in focus (a label that is not offered: Escape, next label). Returns
 * { label, enteredAt } (enteredAt: Date.now() when Enter was pressed).
 */
export async function runFromPalette(page, labels, dismiss = async () => {}) {
  const missing = [];
  for (const label of labels) {
    const widget = await openPalette(page, dismiss);
    await page.keyboard.type(label);
    const focused = widget.locator('.monaco-list-row.focused').first();
    const offered = (aria) => aria === label || aria.startsWith(`${label},`);
    const t0 = Date.now();
    let seen = '';
    while (Date.now() - t0 < 3_000 && !offered(seen)) {
      await page.waitForTimeout(100);
      seen = ((await focused.getAttribute('aria-label', { timeout: 1_000 }).catch(() => '')) ?? '').trim();
    }
    if (offered(seen)) {
      const enteredAt = Date.now();
      await page.keyboard.press('Enter');
      await widget.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
      return { label, enteredAt };
    }
    const rows = await widget.locator('.monaco-list-row').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    missing.push(`"${label}" (offered instead: ${rows.join(' | ') || 'nothing'})`);
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
  }
  throw new Error(`the command palette offers none of ${missing.join('; ')}`);
}

/**
 * Watches the restart that began at `since`: when each recorded server process stopped running (ms
 * after `since`), when the old extension host ended, which new host appeared. Polls until all of that
 * happened, or WATCH_MS.
 */
async function watchRestart(before, serverPid, since) {
  const deaths = new Map();
  let hostEndedMs;
  let newHosts = [];
  for (let round = 0; Date.now() - since < WATCH_MS; round++) {
    const now = Date.now() - since;
    for (const p of before.list) if (!deaths.has(p.pid) && !stillRuns(p)) deaths.set(p.pid, now);
    if (hostEndedMs === undefined && before.hosts.every((h) => !stillRuns(h))) hostEndedMs = now;
    if (round % 4 === 0) {
      newHosts = extensionHosts(readProcessTable(), serverPid).filter((h) => !before.hosts.some((o) => o.pid === h.pid && o.start === h.start));
    }
    if (deaths.size === before.list.length && hostEndedMs !== undefined && newHosts.length) break;
    await sleep(25);
  }
  return { since, deaths, hostEndedMs, newHosts };
}

/** Records a check as skipped (not run), the way CheckList reports skips. */
function skip(checks, title, reason) {
  checks.results.push({ title, status: 'pending', reason });
  checks.log(`  - ${title} (skipped: ${reason})`);
}

/**
 * The deactivate checks. Options:
 *  checks       the runner's CheckList        page     the Playwright page of the workbench
 *  server       the running code-server (its pid roots the process tree)
 *  extensionId  publisher.name, to find the Sidebar webview
 *  expected     test/fixtures/e2e/expected.json (which servers are ready, the status bar line)
 *  log, resultsDir
 * Returns { goneMs } (undefined when not measured).
 */
export async function checkDeactivateLeavesNoProcess({ checks, page, server, extensionId, expected, log, resultsDir }) {
  if (process.platform !== 'linux') {
    for (const title of Object.values(TITLES)) skip(checks, title, `Linux only (reads /proc); this is ${process.platform}`);
    return {};
  }
  // a modal dialog (e.g. a prompt shown at activation) is closed with Escape: "decide later"
  const dismiss = () => ui.dismissDialogs(page, log, () => page.screenshot({ path: path.join(resultsDir, 'dialog-deactivate.png') }).catch(() => {}));
  const userReady = expected.effective.filter((s) => s.scope === 'user' && s.state === 'ready').map((s) => s.name);

  // (1) the servers run, as processes below the extension host
  let before;
  const running = await checks.check(TITLES.running, async () => {
    const t0 = Date.now();
    let found = serverProcesses(server.pid);
    while (!found.trio && Date.now() - t0 < 30_000) {
      await sleep(250);
      found = serverProcesses(server.pid);
    }
    if (!found.hosts.length) throw new Error(`no extension host process below code-server (pid ${server.pid})`);
    if (!found.trio) {
      throw new Error(`no shell wrapper → ${WRAPPED_SCRIPT} → child chain below the extension host; server processes: ${found.list.map(describe).join('; ') || 'none'}`);
    }
    before = found;
    const { wrapper, server: wrapped, grandchild } = found.trio;
    log(`  extension host ${found.hosts.map((h) => h.pid).join(', ')}; ${found.list.length} server process(es):`);
    for (const p of found.list) log(`    ${describe(p)}`);
    log(`  shell wrapper ${wrapper.pid} → server ${wrapped.pid} → grandchild ${grandchild.pid}`);
  });

  if (!running) {
    const reason = checks.blocked ? `"${checks.blocked}" failed` : 'the server processes were not found';
    for (const title of [TITLES.restart, TITLES.gone, TITLES.back]) skip(checks, title, reason);
    return {};
  }

  // (2) a real deactivate: the extension host restarts; every recorded process is watched meanwhile
  let watched;
  const restarted = await checks.check(TITLES.restart, async () => {
    const { label, enteredAt } = await runFromPalette(page, RESTART_COMMANDS, dismiss);
    log(`  ran "${label}" from the command palette`);
    watched = await watchRestart(before, server.pid, enteredAt);
    const { hostEndedMs, newHosts } = watched;
    if (hostEndedMs === undefined || !newHosts.length) {
      throw new Error(`the extension host was not replaced within ${WATCH_MS / 1000} s (old: ${before.hosts.map(describe).join('; ')}; new: ${newHosts.map(describe).join('; ') || 'none'})`);
    }
    log(`  extension host ${before.hosts.map((h) => h.pid).join(', ')} ended ${hostEndedMs} ms after Enter; new one: ${newHosts.map((h) => h.pid).join(', ')}`);
  });

  // (3) zero processes left, measured from the Enter that ran the command
  let goneMs;
  if (!watched) skip(checks, TITLES.gone, 'the restart command did not run');
  else {
    await checks.check(TITLES.gone, async () => {
      const late = before.list.filter((p) => !(watched.deaths.get(p.pid) <= GONE_WITHIN_MS));
      if (late.length) {
        const when = (p) => (watched.deaths.has(p.pid) ? `gone after ${watched.deaths.get(p.pid)} ms` : 'still running');
        throw new Error(`${late.length} process(es) outlived the ${GONE_WITHIN_MS} ms bound: ${late.map((p) => `${describe(p)} (${when(p)})`).join('; ')}`);
      }
      goneMs = Math.max(...watched.deaths.values());
      // deactivate is what stopped them: the extension host, which waits for deactivate (5 s at most), ended after them
      if (watched.hostEndedMs !== undefined && watched.hostEndedMs < goneMs) {
        throw new Error(`the extension host ended (${watched.hostEndedMs} ms) before the last server process (${goneMs} ms): deactivate did not wait for them`);
      }
      const { wrapper, server: wrapped, grandchild } = before.trio;
      const at = (p) => watched.deaths.get(p.pid);
      log(`  zero server processes ${goneMs} ms after Enter (${before.list.length} recorded; shell wrapper ${at(wrapper)} ms, server ${at(wrapped)} ms, grandchild ${at(grandchild)} ms; extension host ended at ${watched.hostEndedMs ?? '?'} ms)`);
    });
  }

  // (4) the extension is back: servers ready again, new processes
  if (!restarted) skip(checks, TITLES.back, 'the extension host was not restarted');
  else {
    await checks.check(TITLES.back, async () => {
      const t0 = Date.now();
      const oldPids = new Set(before.list.map((p) => `${p.pid}/${p.start}`));
      let after = serverProcesses(server.pid);
      while (!after.trio && Date.now() - t0 < BACK_WITHIN_MS) {
        await sleep(250);
        after = serverProcesses(server.pid);
      }
      if (!after.trio) throw new Error(`the shell-wrapped server did not start again within ${BACK_WITHIN_MS / 1000} s; server processes: ${after.list.map(describe).join('; ') || 'none'}`);
      const reused = after.list.filter((p) => oldPids.has(`${p.pid}/${p.start}`));
      if (reused.length) throw new Error(`processes from before the restart still listed: ${reused.map(describe).join('; ')}`);

      // a window reload rebuilt the workbench: the container and the Sidebar view are shown again
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      for (let attempt = 0; ; attempt++) {
        await dismiss();
        try {
          await ui.openContainer(page, 'MCP Switchboard');
          await ui.expandPane(page, 'Sidebar');
          break;
        } catch (error) {
          if (attempt >= 2) throw error;
        }
      }
      const webview = ui.webviewFrame(page, extensionId);
      const states = Object.fromEntries(userReady.map((name) => [name, 'ready']));
      let rows = [];
      while (Date.now() - t0 < BACK_WITHIN_MS) {
        rows = await ui.waitForServerRows(webview, userReady, 2_000, states).catch(() => []);
        if (userReady.every((name) => rows.some((r) => r.name === name && r.state === 'ready'))) break;
      }
      const notReady = userReady.filter((name) => !rows.some((r) => r.name === name && r.state === 'ready'));
      if (notReady.length) {
        throw new Error(`not ready again in the Sidebar: ${notReady.join(', ')}; rows: ${rows.map((r) => `${r.name} (${r.state})`).join(', ') || 'none'}`);
      }
      // at least the user-scope servers count as ready again (a trust decision may have started more)
      const readyCount = (text) => Number(/MCP: (\d+) ready/.exec(text)?.[1] ?? -1);
      const text = await ui.statusBarText(page, 'MCP:', { until: { test: (t) => readyCount(t) >= userReady.length }, timeoutMs: 30_000 });
      if (readyCount(text) < userReady.length) throw new Error(`status bar shows "${text}", fewer than ${userReady.length} ready`);
      log(`  status bar: "${text}"`);
      const { wrapper, server: wrapped, grandchild } = after.trio;
      log(`  back ${Date.now() - watched.since} ms after Enter: ${userReady.join(', ')} ready; shell wrapper ${wrapper.pid} → server ${wrapped.pid} → grandchild ${grandchild.pid}`);
    });
    await dismiss();
    await page.mouse.move(700, 450);
    const file = path.join(resultsDir, 'after-restart.png');
    await page.screenshot({ path: file }).then(() => log(`screenshot: ${file}`), (e) => log(`screenshot after-restart.png failed: ${e.message}`));
  }
  return { goneMs };
}
