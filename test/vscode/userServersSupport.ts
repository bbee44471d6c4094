// Adding servers (and `inputs`) to the fixture's user file for one suite, and taking them away again.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ServerItemData } from '../../src/vscode/tree/serversTree';
import type { SidebarSnapshot } from '../../src/protocol/sidebar';
import type { SwitchboardApi } from '../../src/extension';
import { FileRestorer, serverItems, serverRow, userFile, waitFor } from './configTestSupport';

/** A server entry running a fixture of test/fixtures/servers with node. */
export function fixtureServer(script: string, extra: { args?: string[]; env?: Record<string, string>; envFile?: string } = {}): Record<string, unknown> {
  return {
    command: 'node',
    args: [`\${env:SWITCHBOARD_REPO}/test/fixtures/servers/${script}`, ...(extra.args ?? [])],
    ...(extra.env ? { env: extra.env } : {}),
    ...(extra.envFile ? { envFile: extra.envFile } : {}),
  };
}

/** Writes the fixture's user file with `servers` added (and `inputs` appended); `restorer` puts it back. */
export function addUserServers(restorer: FileRestorer, servers: Record<string, unknown>, inputs: unknown[] = []): void {
  const file = restorer.keep(userFile());
  const original = JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers?: Record<string, unknown>; inputs?: unknown[] };
  const next = {
    ...original,
    mcpServers: { ...original.mcpServers, ...servers },
    ...(inputs.length > 0 || original.inputs ? { inputs: [...(original.inputs ?? []), ...inputs] } : {}),
  };
  restorer.write(file, `${JSON.stringify(next, null, 2)}\n`);
}

/** The snapshot the sidebar webview is sent. */
export async function sidebarSnapshot(): Promise<SidebarSnapshot> {
  const snapshot = await vscode.commands.executeCommand<SidebarSnapshot>('_switchboard.sidebarSnapshot');
  if (!snapshot) throw new Error('_switchboard.sidebarSnapshot returned nothing');
  return snapshot;
}

/** The tree row of one tool of a server, if the tree shows it. */
export async function toolRow(serverId: string, tool: string): Promise<ServerItemData | undefined> {
  const tools = serverRow(await serverItems(), serverId)?.children.find((child) => child.kind === 'catalog' && child.label.startsWith('Tools ('));
  return tools?.children.find((child) => (child.toolName ?? child.label) === tool);
}

/** Every log file this extension host wrote so far (the output channels of every extension, the host's own logs). */
export async function logFiles(): Promise<{ file: string; text: string }[]> {
  const folder = await vscode.commands.executeCommand<string>('_switchboard.logFolder');
  if (typeof folder !== 'string') throw new Error('_switchboard.logFolder returned nothing');
  // <session>/exthostN/<extension id>: the whole session's logs.
  const session = path.dirname(path.dirname(folder));
  const found: { file: string; text: string }[] = [];
  for (const entry of fs.readdirSync(session, { recursive: true })) {
    const file = path.join(session, String(entry));
    if (!file.endsWith('.log') || !fs.statSync(file).isFile()) continue;
    found.push({ file, text: fs.readFileSync(file, 'utf8') });
  }
  return found;
}

/**
 * Resolves once the output channel file of each of these servers holds the last line its log received.
 * Channels are written to disk asynchronously, in order: once the last line is there, everything logged
 * before it is too, so a test may then check the files for what must not be in them.
 */
export async function logFilesCaughtUp(api: SwitchboardApi, ids: readonly string[]): Promise<void> {
  const expected = ids.flatMap((id) => {
    // The tail keeps `[level] text`; the file has a timestamp and the level before the same text.
    // (its start only: the tail cuts a long line where the file does not)
    const last = api.getServerLog(id).at(-1)?.replace(/^\[[a-z]+\] /, '').slice(0, 200);
    return last === undefined ? [] : [{ file: `MCP Switchboard ${id}.log`, last }];
  });
  await waitFor(`the log files of ${ids.join(', ')} to catch up`, async () => {
    const files = await logFiles();
    return expected.every(({ file, last }) => files.some((f) => path.basename(f.file) === file && f.text.includes(last)));
  }, 10_000, 50);
}

/** Runs `command` every `intervalMs` until `done()` holds (a quick input may take a moment to show). */
export async function repeatUntil(command: string, done: () => boolean | Promise<boolean>, timeoutMs = 20_000, intervalMs = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${command}: nothing happened within ${timeoutMs} ms`);
    await vscode.commands.executeCommand(command);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
