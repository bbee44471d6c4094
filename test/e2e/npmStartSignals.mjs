// `npm start` stopped the way a process manager stops it: SIGTERM (then, in a second run, SIGINT) sent
// to the npm process alone, not to the terminal's process group. npm forwards the signal to
// scripts/start.mjs, which stops VS Code first (the extension shuts the demo's servers down) and sweeps
// the rest. Every process below npm when the signal was sent — code-server, its extension host, the
// demo's user-scope servers — must be gone once npm has exited. Linux only (reads /proc).
import cp from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../harness/browser.mjs';
import { repoRoot } from '../harness/paths.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A server the demo's user file (demo/home/.mcp.json) starts without a trust prompt. */
const DEMO_SERVER = 'server-everything';
/** After the signal: VS Code's orderly stop (scripts/session.mjs STOP_GRACE_MS) plus the sweep. */
const EXIT_WITHIN_MS = 30_000;

export const NPM_START_SIGNALS = ['SIGTERM', 'SIGINT'];
export const npmStartTitles = (signal) => ({
  running: `npm start (for ${signal}): builds, installs, runs VS Code; the workbench starts the demo's ${DEMO_SERVER}`,
  exits: `${signal} sent to the npm start process alone: npm exits within ${EXIT_WITHIN_MS / 1000} s`,
  nothingLeft: `${signal} to npm start: every process below npm (code-server, extension host, servers) is gone`,
});

/** One /proc/<pid>/stat: ppid, start time (tells a reused pid apart) and whether it is a zombie. */
function readStat(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], ppid: Number(fields[1]), startTime: fields[19] };
  } catch {
    return undefined;
  }
}

function cmdline(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Every live descendant of `root`: { pid, startTime, cmdline }. */
export function descendants(root) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(entry);
    if (!stat || /^[ZX]/.test(stat.state)) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push({ pid: Number(entry), startTime: stat.startTime });
    children.set(stat.ppid, list);
  }
  const found = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()) ?? []) {
      found.push({ ...child, cmdline: cmdline(child.pid) });
      queue.push(child.pid);
    }
  }
  return found;
}

/** Those of `processes` still alive as the same process (same start time, not a zombie). */
function stillAlive(processes) {
  return processes.filter(({ pid, startTime }) => {
    const stat = readStat(pid);
    return stat && stat.startTime === startTime && !/^[ZX]/.test(stat.state);
  });
}

/** Runs `npm start` once per signal and checks that the signal to npm alone stops everything. */
export async function npmStartSignalsFlow({ checks, resultsDir, log, timeoutMs }) {
  for (const signal of NPM_START_SIGNALS) {
    if (process.platform !== 'linux') {
      for (const title of Object.values(npmStartTitles(signal))) {
        checks.results.push({ title, status: 'pending', reason: `Linux only (reads /proc); this is ${process.platform}` });
        log(`  - ${title} (skipped: Linux only)`);
      }
      continue;
    }
    // Each signal has its own npm start: a failed run does not block the other's checks.
    checks.blocked = undefined;
    await oneSignal({ checks, resultsDir, log, timeoutMs, signal });
  }
}

async function oneSignal({ checks, resultsDir, log, timeoutMs, signal }) {
  const titles = npmStartTitles(signal);
  // Inside the repository, as `npm start`'s own .demo-state is: npx finds the demo's servers in its node_modules.
  const stateDir = path.join(repoRoot, `.demo-state-e2e-${signal.toLowerCase()}`);
  let npm;
  let browser;
  let output = '';
  let exited;
  let tree = [];
  const deadline = Date.now() + timeoutMs;
  try {
    const running = await checks.gate(titles.running, async () => {
      npm = cp.spawn('npm', ['start'], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, SWITCHBOARD_DEMO_STATE: stateDir, SWITCHBOARD_PORT: '0' },
      });
      exited = new Promise((resolve) => npm.on('exit', (code, sig) => resolve({ code, signal: sig, at: Date.now() })));
      npm.stdout.on('data', (chunk) => { output += chunk; });
      npm.stderr.on('data', (chunk) => { output += chunk; });
      let url;
      while (!(url = /Open (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output)?.[1])) {
        if (Date.now() > deadline || npm.exitCode !== null) throw new Error(`npm start printed no URL:\n${output}`);
        await sleep(200);
      }
      browser = await launchBrowser();
      await browser.page.goto(url, { waitUntil: 'domcontentloaded' });
      while (!(tree = descendants(npm.pid)).some((p) => p.cmdline.includes(DEMO_SERVER))) {
        if (Date.now() > deadline) throw new Error(`no ${DEMO_SERVER} below npm start:\n${tree.map((p) => `${p.pid} ${p.cmdline.slice(0, 120)}`).join('\n')}`);
        await sleep(500);
      }
      // The server's own process, not only npx: give it a moment to be spawned, then take the tree.
      await sleep(2000);
      tree = descendants(npm.pid);
      log(`  ${tree.length} process(es) below npm start, among them: ${tree.filter((p) => /code-server|server-everything/.test(p.cmdline)).map((p) => p.cmdline.slice(0, 60)).join('; ')}`);
    });
    if (!running) return;
    await browser.close();
    browser = undefined;
    const sentAt = Date.now();
    npm.kill(signal);
    await checks.check(titles.exits, async () => {
      const result = await Promise.race([exited, sleep(EXIT_WITHIN_MS).then(() => undefined)]);
      if (!result) throw new Error(`npm still running ${EXIT_WITHIN_MS} ms after ${signal}; output:\n${output}`);
      log(`  npm exited (${result.code ?? result.signal}) ${result.at - sentAt} ms after ${signal}`);
      if (!output.includes(`${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping VS Code first`)) throw new Error(`start.mjs never began its orderly stop:\n${output}`);
    });
    await checks.check(titles.nothingLeft, async () => {
      const left = stillAlive(tree);
      if (left.length) throw new Error(`still running after npm exited: ${left.map((p) => `${p.pid} ${p.cmdline.slice(0, 120)}`).join('; ')}`);
    });
  } finally {
    await browser?.close();
    if (npm && npm.exitCode === null && npm.signalCode === null) {
      npm.kill('SIGINT');
      if (!(await Promise.race([exited, sleep(5000).then(() => undefined)]))) npm.kill('SIGKILL');
    }
    for (const { pid } of stillAlive(tree)) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    }
    fs.writeFileSync(path.join(resultsDir, `npm-start-${signal.toLowerCase()}.log`), output);
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}
