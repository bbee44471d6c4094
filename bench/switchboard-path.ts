// Switchboard's side of the benchmark: the servers go through the path the extension uses —
// ServerRegistry.reconcile → ServerController → NodeServerConnector (ServerEnvironment, ProcessTransport,
// SDK Client) — and every call goes through the call path: the tool call gate (catalog lookup, filters,
// its decision step with the approval policy), result conversion. Bundled by build.mjs and run by
// run.mjs in its own process.
import { ToolCallGate } from '../src/core/calls/toolCallGate';
import type { EffectiveServer } from '../src/core/config/types';
import type { ServerLog } from '../src/core/lifecycle/ports';
import { ServerRegistry } from '../src/core/lifecycle/registry';
import type { CallToolResult, ContentBlock, ToolInfo } from '../src/core/lifecycle/types';
import { NodeServerConnector } from '../src/node/connector';
import { looksGuiStarted } from '../src/node/process/loginShellPath';
import { main, type BenchSide, type WorkloadConfig } from './workload';

/**
 * The approval step. There is no approval-policy module in src/ yet (DESIGN.md §6 describes
 * `decide(...) → allow | ask | deny`), so this stands in for it and lets everything through. When the
 * policy exists, call it here instead; results/latest.json says which one was measured.
 */
export const APPROVAL_STEP = 'pass-through allow (no approval-policy module in src/ yet)';
function passThroughPolicy(_server: EffectiveServer, _tool: ToolInfo): 'allow' | 'ask' | 'deny' {
  return 'allow';
}

/** Result conversion: the content blocks as the server returned them; a tool error becomes an Error. */
function contentOf(result: CallToolResult): ContentBlock[] {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.content;
}

/** A log that counts what it is given, as cheaply as an output channel append can be assumed to be. */
class CountingLog implements ServerLog {
  lines = 0;
  stderrLines = 0;
  serverMessages = 0;
  info(): void { this.lines++; }
  warn(): void { this.lines++; }
  error(): void { this.lines++; }
  stderr(): void { this.stderrLines++; }
  serverMessage(): void { this.serverMessages++; }
  trace(): void { /* tracing is off, as by default */ }
}

function server(index: number, config: WorkloadConfig): EffectiveServer {
  const name = `everything-${index + 1}`;
  return {
    name,
    id: name,
    scope: 'user',
    launch: {
      type: 'stdio',
      command: process.execPath,
      args: [config.everything, 'stdio'],
      env: { SWITCHBOARD_BENCH_RUN: config.marker },
      headers: {},
    },
    disabled: false,
    alwaysLoad: false,
    needsInput: [],
    source: { file: 'bench.mcp.json', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
    fingerprint: `bench-${name}`,
    needsTrust: false,
  };
}

/** package.json's version, put in by build.mjs (esbuild `define`), as the extension announces it. */
declare const SWITCHBOARD_VERSION: string;

class SwitchboardSide implements BenchSide {
  private readonly log = new CountingLog();
  private readonly servers: EffectiveServer[];
  private readonly registry: ServerRegistry;
  private readonly calls: ToolCallGate;
  private readonly target: string;

  constructor(config: WorkloadConfig) {
    this.servers = Array.from({ length: config.servers }, (_, i) => server(i, config));
    this.target = this.servers[0]?.id ?? '';
    this.registry = new ServerRegistry({
      connector: new NodeServerConnector({ clientVersion: SWITCHBOARD_VERSION }),
      logFor: () => this.log,
    });
    this.calls = new ToolCallGate({
      registry: this.registry,
      decide: (call) => (passThroughPolicy(call.server, call.tool) === 'allow' ? { kind: 'allow' } : { kind: 'deny', reason: 'the policy said no' }),
    });
  }

  async start(initialized: () => void): Promise<void> {
    this.registry.reconcile(this.servers);
    const summary = await this.registry.settled();
    if (summary.ready.length !== this.servers.length) {
      throw new Error(`not every server became ready: ${JSON.stringify(summary)}`);
    }
    initialized();
    await this.registry.catalogsLoaded();
  }

  /** The call path: the gate finds the tool in the server's catalog and asks the policy; then the result is converted. */
  async echo(message: string): Promise<ContentBlock[]> {
    return contentOf(await this.calls.call({ serverId: this.target, tool: 'echo', arguments: { message }, caller: 'bench' }));
  }

  async stop(): Promise<void> {
    await this.registry.stopAll();
    this.calls.dispose();
    this.registry.dispose();
  }

  extra(): Record<string, unknown> {
    return {
      logLines: this.log.lines,
      stderrLines: this.log.stderrLines,
      serverMessages: this.log.serverMessages,
      loginShellPath: looksGuiStarted(process.env),
      approvalStep: APPROVAL_STEP,
    };
  }
}

main('switchboard', (config) => new SwitchboardSide(config));
