// Stopping code-server the orderly way, then sweeping: what `npm start` does on Ctrl-C.
//
// The order matters. SIGTERM to code-server's whole process group would also hit VS Code's extension
// host, which dies of it at once: no extension deactivates, and every MCP server is orphaned (each runs
// in its own process group, so the signal never reaches it). SIGTERM to code-server's leader alone
// makes it stop its VS Code server; the extension host sees its parent go and deactivates the
// extensions (VS Code allows 5 s), and MCP Switchboard stops each server: stdin closed → SIGTERM →
// SIGKILL of its group. Only after the tree is gone (or a bound has passed) does the sweep SIGKILL the
// leader's group and every process that still carries the run's marker.
import fs from 'node:fs';
import path from 'node:path';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Live processes (not zombies) whose environment carries `marker` ("KEY=value"), with their process
 * group, start time (tells a process from a later one reusing its pid) and command line. Linux (/proc)
 * only; elsewhere [].
 */
export function markedProcesses(marker, { exclude = process.pid } = {}) {
  if (!fs.existsSync('/proc/self/environ')) return [];
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === exclude) continue;
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (!environ.split('\0').includes(marker)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp … starttime(22) …": comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || fields[0] === 'X') continue;
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').trim();
      found.push({ pid: Number(entry), pgid: Number(fields[2]), start: fields[19], cmdline });
    } catch {
      // it ended while we looked, or is not ours to read
    }
  }
  return found;
}

/** Whether `proc` (as recorded: pid and start time) still runs, and is not a zombie (an exited process not yet reaped). */
export function stillRuns(proc) {
  try {
    const stat = fs.readFileSync(`/proc/${proc.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] === proc.start && fields[0] !== 'Z' && fields[0] !== 'X';
  } catch {
    return false;
  }
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops the tree led by `leaderPid` in order: SIGTERM to the leader alone, a wait until every process
 * carrying `marker` is gone (at most `graceMs`), then the
 * sweep: SIGKILL to the leader's group and to every marked process left. Returns what happened:
 * { waitedMs, stopped, killed } (process lists as markedProcesses gives them; `stopped` ended before
 * the sweep, `killed` had to be killed by it).
 */
export async function stopLeaderFirst({ leaderPid, marker, graceMs = 15_000, pollMs = 100 }) {
  const before = markedProcesses(marker);
  const t0 = Date.now();
  signal(leaderPid, 'SIGTERM');
  // The wait looks again each time, not only at the first look: while VS Code stops, an open workbench
  // may reconnect and have a process started that then ends with the rest; only what outlives the
  // grace period is the sweep's.
  while (Date.now() - t0 < graceMs && (before.some(stillRuns) || markedProcesses(marker).length > 0)) await sleep(pollMs);
  const waitedMs = Date.now() - t0;
  // The sweep: whatever is left, including what started after the first look.
  const left = markedProcesses(marker);
  signal(-leaderPid, 'SIGKILL');
  for (const proc of left) signal(proc.pid, 'SIGKILL');
  const killedPids = new Set(left.map((proc) => proc.pid));
  return {
    leaderPid,
    waitedMs,
    stopped: before.filter((proc) => !killedPids.has(proc.pid)),
    killed: left,
  };
}

/** A process as one short line: its pid, its program and the end of its command line (the script tells servers apart). */
function describe(proc, max = 100) {
  const program = path.basename(proc.cmdline.split(' ')[0] ?? '');
  const cmd = proc.cmdline.length > max ? `…${proc.cmdline.slice(-(max - 1))}` : proc.cmdline;
  return `pid ${proc.pid} (${program}): ${cmd}`;
}

/**
 * The report printed after a stop: VS Code's own processes (the leader's process group) and the
 * processes its extensions started in groups of their own (the MCP servers), each as stopped in order
 * or killed by the sweep.
 */
export function shutdownReport({ leaderPid, waitedMs, stopped, killed }) {
  const own = (proc) => proc.pgid === leaderPid;
  const lines = [];
  const vscodeStopped = stopped.filter(own);
  const serversStopped = stopped.filter((proc) => !own(proc));
  lines.push(`VS Code stopped in ${(waitedMs / 1000).toFixed(1)} s: ${vscodeStopped.length} process(es) of code-server ${leaderPid} (server, extension host, helpers)`);
  if (serversStopped.length === 0) lines.push('No server process was running under the extension host.');
  else {
    lines.push(`Stopped by the extension (stdin closed, then SIGTERM): ${serversStopped.length} server process(es)`);
    for (const proc of serversStopped) lines.push(`  ${describe(proc)}`);
  }
  if (killed.length === 0) lines.push('Killed by the final sweep: nothing (everything had stopped)');
  else {
    lines.push(`Killed by the final sweep (SIGKILL): ${killed.length} process(es) still running`);
    for (const proc of killed) lines.push(`  ${describe(proc)}`);
  }
  return lines;
}
