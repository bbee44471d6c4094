// Ctrl-C on `npm start`, proven with real processes: the session of scripts/session.mjs (what
// scripts/start.mjs runs once the extension is installed) is started in a process of its own on a
// workspace whose user-scope servers record how they are shut down (test/fixtures/servers/
// shutdown-recorder.mjs, once directly and once behind `sh -c`). The workbench is opened in the browser
// so the extension activates and starts them; then the session gets SIGINT as under `npm start` in a
// terminal (twice: from the terminal and forwarded by npm). VS Code
// must be stopped first, so that the extension shuts each server down (stdin closed, then SIGTERM, which
// only MCP Switchboard's staged stop sends to a server's process group), and the printed report must
// name what was stopped, with nothing left for the sweep. Linux only (reads /proc). `npm start` itself,
// stopped by a signal to the npm process alone (as a process manager does), is npmStartSignals.mjs.
import cp from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../harness/browser.mjs';
import { codeServerCli } from '../harness/codeServer.mjs';
import { makeStateDir } from '../harness/fixture.mjs';
import { repoRoot } from '../harness/paths.mjs';

const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sessionDriver.mjs');
const RECORDER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'shutdown-recorder.mjs');
/** VS Code's stop: about one grace period (2 s) of the servers' staged stop, plus VS Code's own shutdown. */
const EXIT_WITHIN_MS = 20_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const TITLES = {
  running: 'npm start\'s session runs VS Code; the workbench activates the extension, which starts both recording servers',
  exits: `Ctrl-C: the session stops and exits by itself (code 0) within ${EXIT_WITHIN_MS / 1000} s`,
  graceful: 'each server was shut down by the extension, in order: stdin closed, then SIGTERM',
  report: 'the printed report names the servers the extension stopped, and the final sweep killed nothing',
  nothingLeft: 'no process of the session is left',
};

const readLines = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

/** Live processes whose command line contains `text` (from /proc). */
function processesWith(text) {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) continue;
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').trim();
      if (cmdline.includes(text)) found.push({ pid: Number(entry), cmdline });
    } catch {
      // it ended while we looked
    }
  }
  return found;
}

/** Runs the Ctrl-C checks into `checks`. Options: vsix, resultsDir, log, timeoutMs. Cleans up what it started. */
export async function ctrlCFlow({ checks, vsix, resultsDir, log, timeoutMs }) {
  if (process.platform !== 'linux') {
    for (const title of Object.values(TITLES)) {
      checks.results.push({ title, status: 'pending', reason: `Linux only (reads /proc); this is ${process.platform}` });
      log(`  - ${title} (skipped: Linux only)`);
    }
    return;
  }
  const stateDir = makeStateDir('e2e-ctrlc');
  const home = path.join(stateDir, 'home');
  const workspace = path.join(stateDir, 'workspace');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, 'README.md'), 'A workspace for the Ctrl-C check: its servers come from the user scope.\n');
  const records = { direct: path.join(stateDir, 'direct.log'), wrapped: path.join(stateDir, 'wrapped.log') };
  fs.writeFileSync(path.join(home, '.mcp.json'), JSON.stringify({
    mcpServers: {
      direct: { command: process.execPath, args: [RECORDER, records.direct] },
      // Two commands: the shell stays, so the server's process group has two members.
      wrapped: { command: 'sh', args: ['-c', '"$0" "$1" "$2"; exit $?', process.execPath, RECORDER, records.wrapped] },
    },
  }, null, 2));

  let driver;
  let browser;
  let output = '';
  let exited;
  const deadline = Date.now() + timeoutMs;
  try {
    const running = await checks.gate(TITLES.running, async () => {
      codeServerCli(stateDir, ['--install-extension', vsix], { home });
      driver = cp.spawn(process.execPath, [DRIVER, stateDir, workspace, home], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      // 'close', not 'exit': the report is read from the output, which may still be arriving at 'exit'.
      exited = new Promise((resolve) => driver.on('close', (code, signal) => resolve({ code, signal, at: Date.now() })));
      driver.stdout.on('data', (chunk) => { output += chunk; });
      driver.stderr.on('data', (chunk) => { output += chunk; });
      let url;
      while (!(url = /Open (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output)?.[1])) {
        if (Date.now() > deadline || driver.exitCode !== null) throw new Error(`the session printed no URL:\n${output}`);
        await sleep(100);
      }
      browser = await launchBrowser();
      await browser.page.goto(url, { waitUntil: 'domcontentloaded' });
      while (!Object.values(records).every((file) => readLines(file).some((line) => line.startsWith('started ')))) {
        if (Date.now() > deadline) throw new Error(`the servers did not start: direct ${JSON.stringify(readLines(records.direct))}, wrapped ${JSON.stringify(readLines(records.wrapped))}`);
        await sleep(200);
      }
      log(`  servers running: ${Object.entries(records).map(([name, file]) => `${name} ${readLines(file)[0]}`).join(', ')}`);
    });
    if (!running) return;

    const sentAt = Date.now();
    // Under `npm start` a terminal's Ctrl-C arrives twice: from the terminal, and forwarded by npm.
    driver.kill('SIGINT');
    await sleep(30);
    driver.kill('SIGINT');
    await checks.check(TITLES.exits, async () => {
      const result = await Promise.race([exited, sleep(EXIT_WITHIN_MS).then(() => undefined)]);
      if (!result) throw new Error(`still running ${EXIT_WITHIN_MS} ms after SIGINT; output:\n${output}`);
      if (result.code !== 0) throw new Error(`exited with ${result.code ?? result.signal}; output:\n${output}`);
      log(`  exited ${result.at - sentAt} ms after SIGINT`);
    });
    await checks.check(TITLES.graceful, async () => {
      for (const [name, file] of Object.entries(records)) {
        const lines = readLines(file);
        if (JSON.stringify(lines.slice(1)) !== JSON.stringify(['stdin closed', 'SIGTERM'])) {
          throw new Error(`${name} recorded ${JSON.stringify(lines)}, not started → stdin closed → SIGTERM`);
        }
      }
    });
    await checks.check(TITLES.report, async () => {
      const report = output.slice(output.indexOf('Ctrl-C: stopping VS Code first'));
      log(`  report:\n    ${report.trim().split('\n').join('\n    ')}`);
      if (!report.startsWith('Ctrl-C: stopping VS Code first')) throw new Error(`no stop announced:\n${output}`);
      const stoppedBlock = /Stopped by the extension[^\n]*\n((?: {2}pid[^\n]*\n?)+)/.exec(report)?.[1] ?? '';
      for (const file of Object.values(records)) {
        if (!stoppedBlock.includes(file)) throw new Error(`the report does not name the server recording to ${file} among those the extension stopped:\n${report}`);
      }
      if (!/Killed by the final sweep: nothing/.test(report)) throw new Error(`the sweep had something to kill:\n${report}`);
      if (!/VS Code stopped in \d+\.\d s: [1-9]\d* process\(es\) of code-server/.test(report)) throw new Error(`no line about VS Code itself:\n${report}`);
    });
    await checks.check(TITLES.nothingLeft, async () => {
      const left = processesWith(stateDir);
      if (left.length) throw new Error(`still running: ${left.map((p) => `${p.pid} ${p.cmdline.slice(0, 120)}`).join('; ')}`);
    });
  } finally {
    await browser?.close();
    if (driver && driver.exitCode === null && driver.signalCode === null) {
      // A second SIGINT makes the session sweep at once; SIGKILL if even that does not end it.
      driver.kill('SIGINT');
      if (!(await Promise.race([exited, sleep(5000).then(() => undefined)]))) driver.kill('SIGKILL');
    }
    for (const { pid } of processesWith(stateDir)) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    }
    fs.writeFileSync(path.join(resultsDir, 'ctrlc-session.log'), output);
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}
