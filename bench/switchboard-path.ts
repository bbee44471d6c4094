// Switchboard's side of the benchmark: the servers go through the path the extension uses —
// ServerRegistry.reconcile → ServerController → NodeServerConnector (ServerEnvironment, ProcessTransport,
// SDK Client) — and every call goes through the call path: the tool call gate (catalog lookup, filters,
// its decision step with the approval policy), result conversion. Bundled by build.mjs and run by
// run.mjs in its own process.
import { labelOf } from '../src/core/approvals/approvalStep';
import { decide } from '../src/core/approvals/policy';
import type { ApprovalRule } from '../src/core/approvals/rules';
import { serverIdentityOf } from '../src/core/approvals/serverIdentity';
import { ToolCallGate } from '../src/core/calls/toolCallGate';
import type { ResolvedToolCall, ToolCallDecision } from '../src/core/calls/types';
import type { EffectiveServer } from '../src/core/config/types';
import type { ServerLog } from '../src/core/lifecycle/ports';
import { ServerRegistry } from '../src/core/lifecycle/registry';
import type { CallToolResult, ContentBlock } from '../src/core/lifecycle/types';
import { NodeServerConnector } from '../src/node/connector';
import { looksGuiStarted } from '../src/node/process/loginShellPath';
import { main, type BenchSide, type WorkloadConfig } from './workload';

/**
 * The approval step: the real policy (src/core/approvals/policy.ts) in its default mode, "ask before
 * edits", with the rule "Always allow" on echo leaves behind — the path of a call a person allowed
 * for good. A call the policy would not let through fails the run (nobody is there to answer a card).
 */
export const APPROVAL_STEP = 'decide() in askBeforeEdits mode with an "always allow" rule for echo (src/core/approvals/policy.ts)';
const ALWAYS_ALLOW_ECHO: ApprovalRule = { id: 'bench-echo', effect: 'allow', server: '*', tool: 'echo', scope: 'global', createdAt: 0, origin: 'bench' };
function approve(call: ResolvedToolCall): ToolCallDecision {
  const decision = decide({
    mode: 'askBeforeEdits', server: serverIdentityOf(call.server), tool: call.tool.name, annotations: call.tool.annotations, serverTrusted: true,
    pinnedState: 'accepted', flagged: false, rules: [ALWAYS_ALLOW_ECHO], args: call.arguments,
  });
  const basis = { decidedBy: labelOf(decision.decidedBy), verdict: decision.decision, why: decision.reason };
  return decision.decision === 'allow' ? { ...basis, kind: 'allow' } : { ...basis, kind: 'deny', reason: `the policy said ${decision.decision}: ${decision.reason}` };
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
      decide: approve,
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
    return contentOf((await this.calls.call({ serverId: this.target, tool: 'echo', arguments: { message }, caller: 'bench' })).result);
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
