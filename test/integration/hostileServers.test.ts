// Hostile servers next to the host: one that floods notifications, one whose tool schemas are nested
// thousands deep. The host's memory stays bounded, the server keeps working, and what was dropped or
// refused is said.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { fingerprint, type EffectiveServer, type LaunchDefinition } from '../../src/core/config';
import { ServerRegistry, type McpLogLevel, type ServerLog } from '../../src/core/lifecycle';
import { ToolCallGate } from '../../src/core/calls';
import { NodeServerConnector, processLauncher } from '../../src/node/connector';
import { ServerEnvironment } from '../../src/node/process/environment';
import { FIXTURE_SERVERS } from './helperServers';
import { REPO_ROOT, TempDirs, delay, requireBuiltCli, runCli, writeJson } from './support';

const MB = 1024 * 1024;
/** A garbage collection on demand (mocha runs without --expose-gc). */
const collectGarbage = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

/** The bytes still reachable after a full collection: what the host keeps, not what it will free. */
function retainedBytes(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
    await delay(20);
  }
}

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function server(id: string, file: string, env: Record<string, string> = {}): EffectiveServer {
  const launch: LaunchDefinition = { type: 'stdio', command: process.execPath, args: [path.join(FIXTURE_SERVERS, file)], env, headers: {} };
  return {
    id, name: id, scope: 'user', launch, fingerprint: fingerprint(launch), disabled: false, timeout: 20_000,
    source: { file: 'test', line: 1, column: 1 },
  } as unknown as EffectiveServer;
}

/**
 * A log that keeps every line it is given, as an output channel does (its text stays in the editor):
 * whatever the host lets through to its log is memory the host holds.
 */
class KeepingLog implements ServerLog {
  readonly lines: string[] = [];
  info(message: string): void { this.lines.push(`info ${message}`); }
  warn(message: string): void { this.lines.push(`warn ${message}`); }
  error(message: string): void { this.lines.push(`error ${message}`); }
  stderr(line: string): void { this.lines.push(`stderr ${line}`); }
  serverMessage(level: McpLogLevel, logger: string | undefined, data: unknown): void {
    this.lines.push(`${level} ${logger ?? ''} ${typeof data === 'string' ? data : JSON.stringify(data)}`);
  }
  trace(direction: string, message: unknown): void { this.lines.push(`trace ${direction} ${JSON.stringify(message)}`); }
}

describe('Hostile servers (real processes)', function () {
  this.timeout(60_000);
  let registry: ServerRegistry | undefined;
  let connector: NodeServerConnector | undefined;
  const logs = new Map<string, KeepingLog>();

  function host(): { registry: ServerRegistry; calls: ToolCallGate } {
    connector = new NodeServerConnector({ clientVersion: VERSION, launchStdio: processLauncher(new ServerEnvironment({ loginShell: 'never' })) });
    registry = new ServerRegistry({
      connector,
      settings: { shutdownGraceMs: 200, requestTimeoutMs: 10_000 },
      logFor: (s) => { const log = new KeepingLog(); logs.set(s.id, log); return log; },
    });
    return { registry, calls: new ToolCallGate({ registry }) };
  }

  afterEach(async () => {
    await registry?.stopAll();
    await connector?.dispose();
    registry = undefined;
  });

  it('a server flooding notifications: what the host keeps grows by less than 50 MB over 5 s, the drops are counted, and its tool still answers', async () => {
    const { registry, calls } = host();
    registry.reconcile([server('flood', 'notification-flood.mjs', { PAYLOAD: '60000', FLOOD: 'message,progress,message,tools,message,updated,message,unknown,message,resources,message,prompts' })]);
    await waitUntil(() => registry.get('flood')?.state.kind === 'ready', 15_000);
    const before = retainedBytes();
    let peakRss = process.memoryUsage().rss;
    const rssBefore = peakRss;
    const started = Date.now();
    while (Date.now() - started < 5000) {
      await delay(50);
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
    const grew = (retainedBytes() - before) / MB;
    const rssGrew = (peakRss - rssBefore) / MB;
    const log = logs.get('flood')!;
    const { result } = await calls.call({ serverId: 'flood', tool: 'echo', arguments: { text: 'still here' }, caller: 'test', timeoutMs: 10_000 });
    assert.deepEqual(result.content, [{ type: 'text', text: 'still here' }]);
    assert.ok(grew < 50, `what the host keeps grew by ${grew.toFixed(1)} MB (${log.lines.length} log lines; the process peaked ${rssGrew.toFixed(0)} MB higher)`);
    assert.ok(rssGrew < 300, `the process grew by ${rssGrew.toFixed(0)} MB at its peak`);
    assert.ok(log.lines.some((line) => /^warn dropped \d+ log lines? of this server in the last/.test(line)), log.lines.slice(-5).join('\n'));
    assert.ok((registry.get('flood')?.droppedLogLines ?? 0) > 0, 'the server view counts the dropped lines');
  });
});

describe('A tool whose schema is nested 10 000 deep (built CLI, real server)', function () {
  this.timeout(60_000);
  const temp = new TempDirs();
  before(requireBuiltCli);
  afterEach(() => temp.cleanup());

  function workspace(): { home: string; ws: string } {
    const root = temp.make();
    const home = path.join(root, 'home');
    const ws = path.join(root, 'ws');
    writeJson(path.join(home, '.mcp.json'), { mcpServers: { deep: { command: process.execPath, args: [path.join(FIXTURE_SERVERS, 'deep-schema.mjs')] } } });
    writeJson(path.join(ws, '.mcp.json'), { mcpServers: {} });
    return { home, ws };
  }
  const REFUSED_INPUT = 'its input schema is nested more than 64 levels deep';
  const REFUSED_OUTPUT = 'its output schema is nested more than 64 levels deep';

  it('status: the server is ready with its one sound tool; the two deep ones are refused with the reason', () => {
    const { home, ws } = workspace();
    const table = runCli(['status', '--workspace', ws, '--home', home]);
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /^deep\s+user\s+ready\s+1\s+0\s+0\s+\d+ ms$/m);
    assert.ok(table.stdout.includes(`    tool 'deep' refused: ${REFUSED_INPUT}`), table.stdout);
    assert.ok(table.stdout.includes(`    tool 'deep-output' refused: ${REFUSED_OUTPUT}`), table.stdout);
    assert.doesNotMatch(table.stderr, /RangeError|Maximum call stack/);
    const json = runCli(['status', '--workspace', ws, '--home', home, '--json']);
    assert.equal(json.status, 0, json.stderr);
    const row = (JSON.parse(json.stdout) as { servers: Record<string, unknown>[] }).servers[0];
    assert.deepEqual(Object.keys(row), ['name', 'scope', 'state', 'error', 'tools', 'resources', 'prompts', 'startMs', 'warnings', 'stderr', 'hint'], 'the JSON contract keeps its shape');
    assert.equal(row.tools, 1);
    assert.ok(json.stderr.includes(`switchboard: server 'deep': tool 'deep' refused: ${REFUSED_INPUT}`), json.stderr);
  });

  it('tools: lists the sound tool and names the refused ones on stderr', () => {
    const { home, ws } = workspace();
    const result = runCli(['tools', '--workspace', ws, '--home', home, '--json']);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual((JSON.parse(result.stdout) as { tool: string }[]).map((row) => row.tool), ['echo']);
    assert.ok(result.stderr.includes(`switchboard: server 'deep': tool 'deep-output' refused: ${REFUSED_OUTPUT}`), result.stderr);
  });

  it('call: the sound tool answers; calling a refused tool fails with the reason', () => {
    const { home, ws } = workspace();
    const ok = runCli(['call', 'deep', 'echo', '{"text":"hi"}', '--workspace', ws, '--home', home]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.deepEqual((JSON.parse(ok.stdout) as { content: unknown }).content, [{ type: 'text', text: 'hi' }]);
    const refused = runCli(['call', 'deep', 'deep', '{}', '--workspace', ws, '--home', home]);
    assert.equal(refused.status, 1);
    assert.equal(refused.stdout, '');
    assert.ok(refused.stderr.includes(`switchboard: the tool 'deep' of 'deep' is refused: ${REFUSED_INPUT}`), refused.stderr);
  });
});
