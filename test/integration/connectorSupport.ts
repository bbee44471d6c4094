// What the suites of NodeServerConnector share: the version the client announces, a log that keeps
// everything it is given, an entry for a launch, and a launcher that remembers every process it started
// (so that each suite can check that none survives it).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EffectiveServer, LaunchDefinition } from '../../src/core/config/types';
import type { RequestOptions, ServerLog } from '../../src/core/lifecycle/ports';
import type { McpLogLevel } from '../../src/core/lifecycle/types';
import { processLauncher, type NodeServerConnector, type StdioLauncher } from '../../src/node/connector';
import type { ProcessTransport } from '../../src/node/process/processTransport';
import { isAlive, type HelperServers } from './helperServers';
import { REPO_ROOT } from './support';

export const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
export const OPTS: RequestOptions = { timeoutMs: 10_000 };

/** A ServerLog that keeps everything, for assertions. */
export class RecordingLog implements ServerLog {
  readonly lines: { kind: 'info' | 'warn' | 'error' | 'stderr'; text: string }[] = [];
  readonly messages: { level: McpLogLevel; logger: string | undefined; data: unknown }[] = [];
  readonly traces: { direction: 'send' | 'receive'; message: unknown }[] = [];
  info(text: string): void { this.lines.push({ kind: 'info', text }); }
  warn(text: string): void { this.lines.push({ kind: 'warn', text }); }
  error(text: string): void { this.lines.push({ kind: 'error', text }); }
  stderr(text: string): void { this.lines.push({ kind: 'stderr', text }); }
  serverMessage(level: McpLogLevel, logger: string | undefined, data: unknown): void { this.messages.push({ level, logger, data }); }
  trace(direction: 'send' | 'receive', message: unknown): void { this.traces.push({ direction, message }); }
  has(kind: string, pattern: RegExp): boolean { return this.lines.some((l) => l.kind === kind && pattern.test(l.text)); }
  dump(): string { return this.lines.map((l) => `${l.kind}: ${l.text}`).join('\n'); }
  /** How many requests of `method` went out. */
  sent(method: string): number {
    return this.traces.filter((t) => t.direction === 'send' && (t.message as { method?: string }).method === method).length;
  }
}

/**
 * A user-scope entry for `launch`. The connector remembers a stdio server's generation per definition
 * (its fingerprint): a suite that compares first and later starts gives each launch its own.
 */
export function effectiveServer(launch: Partial<LaunchDefinition> & Pick<LaunchDefinition, 'type'>, fingerprint = 'test'): EffectiveServer {
  return {
    name: 'test',
    id: 'test',
    scope: 'user',
    launch: { args: [], env: {}, headers: {}, ...launch },
    disabled: false,
    alwaysLoad: false,
    needsInput: [],
    source: { file: 'test.mcp.json', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
    fingerprint,
    needsTrust: false,
  };
}

export const stdio = (command: string, args: string[], env: Record<string, string> = {}) => ({ type: 'stdio' as const, command, args, env });
export const node = (script: string, args: string[] = [], env: Record<string, string> = {}) => stdio(process.execPath, [script, ...args], env);

/** The text blocks of a tool result, one per line. */
export const textOf = (result: { content: { type: string }[] }) => result.content.map((c) => (c as { text?: string }).text ?? '').join('\n');

/** The real stdio launcher, adding every process it starts to `spawned`. */
export function recordingLauncher(spawned: ProcessTransport[]): StdioLauncher {
  const launchProcess = processLauncher();
  return async (request) => {
    const launch = await launchProcess(request);
    spawned.push(launch.transport as ProcessTransport);
    return launch;
  };
}

/** Ends a suite: the connector and the helper servers stop, and no process the suite started still runs. */
export async function endSuite(connector: NodeServerConnector, helpers: HelperServers, spawned: readonly ProcessTransport[]): Promise<void> {
  await connector.dispose();
  await helpers.stopAll();
  const alive = spawned.map((t) => t.pid).filter((pid): pid is number => pid !== undefined && isAlive(pid));
  assert.deepEqual(alive, [], 'stdio server processes left running');
  assert.deepEqual(helpers.pids.filter(isAlive), [], 'helper servers left running');
}
