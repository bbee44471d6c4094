// Helpers for the lifecycle tests of the extension-host tier: waiting for server states through the
// API, and the processes this extension host started (read from /proc, so Linux only).
import * as fs from 'fs';
import * as path from 'path';
import type { ServerState } from '../../src/core/lifecycle';
import type { SwitchboardApi } from '../../src/extension';
import { waitFor } from './configTestSupport';

/** A server's state as the API reports it now. */
export function stateOf(api: SwitchboardApi, id: string): ServerState | undefined {
  return api.getServerStates().find((s) => s.id === id)?.state;
}

/** Waits until every server of `ids` is in state `kind`; fails with the states seen last. */
export async function waitForStates(api: SwitchboardApi, ids: readonly string[], kind: ServerState['kind'], timeoutMs = 30_000): Promise<void> {
  try {
    await waitFor(`${ids.join(', ')} to be ${kind}`, () => ids.every((id) => stateOf(api, id)?.kind === kind), timeoutMs, 50);
  } catch (error) {
    const seen = ids.map((id) => `${id}: ${JSON.stringify(stateOf(api, id))}`).join('; ');
    throw new Error(`${error instanceof Error ? error.message : String(error)}; states: ${seen}`);
  }
}

/** Waits for the next change of `id` into `kind` (for a change the caller is about to cause). */
export function nextState(api: SwitchboardApi, id: string, kind: ServerState['kind'], timeoutMs = 30_000): Promise<ServerState> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`${id} did not become ${kind} within ${timeoutMs} ms (now ${JSON.stringify(stateOf(api, id))})`));
    }, timeoutMs);
    const subscription = api.onDidChangeServerState((change) => {
      if (change.id !== id || change.state.kind !== kind) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(change.state);
    });
  });
}

export interface ProcessInfo {
  pid: number;
  cmdline: string;
}

/** Every living descendant of this process (the extension host): the servers it started and theirs. */
export function descendants(root = process.pid): ProcessInfo[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid …; comm may contain spaces and parentheses, so read after the last ')'.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue; // a zombie is gone, it only waits to be reaped
      const ppid = Number(fields[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // ended meanwhile
    }
  }
  const found: ProcessInfo[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid, cmdline });
    } catch {
      continue;
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Descendants whose command line contains `needle`. */
export function processesRunning(needle: string): ProcessInfo[] {
  return descendants().filter((p) => p.cmdline.includes(needle));
}

/**
 * This extension host's processes that run a fixture server: anything from the repository's installed
 * MCP servers or test/fixtures/servers (`SWITCHBOARD_REPO`, set by the runner). Not a plain "below the
 * repository" test: the test toolchain (and so VS Code's own language servers) lives there too.
 */
export function serverProcesses(): ProcessInfo[] {
  const repo = process.env.SWITCHBOARD_REPO;
  if (!repo) throw new Error('SWITCHBOARD_REPO is not set: the runner sets it to the repository root');
  const roots = [path.join(repo, 'node_modules', '@modelcontextprotocol'), path.join(repo, 'test', 'fixtures', 'servers')];
  return descendants().filter((p) => roots.some((root) => p.cmdline.includes(root)));
}

/** Whether a process with this pid is alive (and not a zombie). */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The pids a server printed in `… started (pid N)` stderr lines, oldest first. */
export function startedPids(api: SwitchboardApi, id: string): number[] {
  return api.getServerLog(id).flatMap((line) => {
    const match = /started \(pid (\d+)\)/.exec(line);
    return match ? [Number(match[1])] : [];
  });
}
