// Small probes shared by the browser flows: the process table, polling, and a Servers-tree row.
import fs from 'node:fs';
import { readTreeRows } from './workbench.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Live processes whose command line contains `needle`, from /proc (zombies left out). */
export function processesWith(needle) {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').trim();
      if (cmdline.includes(needle)) found.push({ pid: Number(entry), cmdline });
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** Polls `probe` every 200 ms until it returns something truthy; throws after `timeoutMs`. */
export async function until(what, probe, timeoutMs) {
  const t0 = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(200);
  }
}

/** The description of the tree row labelled `name` in the Servers pane, or undefined. */
export async function treeDescription(pane, name) {
  return (await readTreeRows(pane)).find((row) => row.label === name)?.description;
}
