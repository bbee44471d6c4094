// Starting a server so that it and everything it starts can be stopped together, and signalling that
// group. POSIX: the server leads its own process group (detached), so `kill(-pid)` reaches a shell
// wrapper's grandchildren too. Windows: no groups; `taskkill /T` walks the process tree.
import * as cp from 'node:child_process';
import * as fs from 'node:fs';

/** How often a group that should be gone is checked. */
const GROUP_POLL_MS = 20;

// cross-spawn (already a dependency of the MCP SDK) makes Windows `.cmd`/`.bat` shims such as npx.cmd
// work (PATHEXT lookup, cmd.exe quoting); on POSIX it is plain child_process.spawn.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const crossSpawn = require('cross-spawn') as typeof cp.spawn;

export interface SpawnRequest {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Spawns with all three stdio streams piped; the caller must listen for 'error' and 'spawn'. */
export function spawnInOwnGroup(request: SpawnRequest, platform: NodeJS.Platform = process.platform): cp.ChildProcessWithoutNullStreams {
  const windows = platform === 'win32';
  return crossSpawn(request.command, [...request.args], {
    cwd: request.cwd,
    env: request.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // POSIX: a new process group led by the server. On Windows `detached` would open a console window.
    detached: !windows,
    windowsHide: true,
  }) as cp.ChildProcessWithoutNullStreams;
}

/**
 * Sends `signal` to the process group led by `pid` (POSIX). Returns false when no such group exists
 * any more. On Windows both signals end the whole tree (`taskkill /T /F`): there is no gentle stage.
 */
export function signalGroup(pid: number, signal: 'SIGTERM' | 'SIGKILL', platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'win32') {
    cp.execFile('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true }, () => { /* already gone is fine */ });
    return true;
  }
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: a member changed user (setuid); fall back to the leader alone.
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Whether any process of the group led by `pid` is still running (POSIX). On Linux zombies do not
 * count: under an init that never reaps orphans (some containers), they would otherwise look alive.
 */
export function groupAlive(pid: number, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'win32') return false;
  if (platform === 'linux') {
    const alive = liveGroupMembersFromProc(pid);
    if (alive !== undefined) return alive;
  }
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits until no process of the group led by `pid` runs (POSIX), polling; false when `ms` passed first. */
export async function groupGoneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
  }
  return true;
}

function liveGroupMembersFromProc(pgid: number): boolean | undefined {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp …": comm may contain spaces and parentheses, so parse after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}
