// Switchboard's side of the benchmark: the servers go through the path the extension uses —
// ServerRegistry.reconcile → ServerController → RedactingConnector → NodeServerConnector
// (ServerEnvironment, ProcessTransport, SDK Client) — and every call goes through the call path the
// extension builds: the tool call gate (catalog lookup, filters), its decision step (the approval
// step with the real policy), the history record of the call (CallRecorder into a CallHistory:
// secrets scrubbed, the output scan, sizes), result conversion. Bundled by build.mjs and run by
// run.mjs in its own process.
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import { ApprovalBroker } from '../src/core/approvals/approvalBroker';
import { approvalStep } from '../src/core/approvals/approvalStep';
import { CallHistory } from '../src/core/approvals/callHistory';
import { CallRecorder, callIdSequence } from '../src/core/approvals/callRecorder';
import type { ApprovalRule } from '../src/core/approvals/rules';
import { ToolCallGate } from '../src/core/calls/toolCallGate';
import type { EffectiveServer } from '../src/core/config/types';
import type { ServerLog } from '../src/core/lifecycle/ports';
import { RedactingConnector } from '../src/core/lifecycle/redactingConnector';
import { ServerRegistry } from '../src/core/lifecycle/registry';
import type { CallToolResult, ContentBlock } from '../src/core/lifecycle/types';
import { loadBashParser } from '../src/node/bashParser';
import { NodeServerConnector } from '../src/node/connector';
import { nodePreviewFileSystem } from '../src/node/previewFileSystem';
import { looksGuiStarted } from '../src/node/process/loginShellPath';
import { main, type BenchSide, type WorkloadConfig } from './workload';

/**
 * The decision step: the extension's approval step (src/core/approvals/approvalStep.ts) with the real
 * policy in its default mode, "ask before edits", and the rule "Always allow" on echo leaves behind —
 * the path of a call a person allowed for good. A call the policy would not let through fails the run
 * (nobody is there to answer a card: a card is rejected at once).
 */
export const APPROVAL_STEP = 'approvalStep() in askBeforeEdits mode with an "always allow" rule for echo (src/core/approvals/approvalStep.ts), history by CallRecorder (src/core/approvals/callRecorder.ts)';
const ALWAYS_ALLOW_ECHO: ApprovalRule = { id: 'bench-echo', effect: 'allow', server: '*', tool: 'echo', scope: 'global', createdAt: 0, origin: 'bench' };

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
  private readonly broker = new ApprovalBroker();
  private readonly history = new CallHistory();
  private readonly target: string;

  constructor(config: WorkloadConfig) {
    this.servers = Array.from({ length: config.servers }, (_, i) => server(i, config));
    this.target = this.servers[0]?.id ?? '';
    this.registry = new ServerRegistry({
      connector: new RedactingConnector(new NodeServerConnector({ clientVersion: SWITCHBOARD_VERSION })),
      logFor: () => this.log,
    });
    // Nobody is there to answer a card: a call that asks is rejected, and the run fails.
    this.broker.onDidAsk((card) => this.broker.answer(card.id, { kind: 'reject', reason: 'the bench cannot answer a card' }));
    const roots = [process.cwd()];
    const home = os.homedir();
    this.calls = new ToolCallGate({
      registry: this.registry,
      decide: approvalStep({
        mode: () => 'askBeforeEdits',
        rules: () => [ALWAYS_ALLOW_ECHO],
        broker: this.broker,
        // A user-scope server: the person's own, trusted.
        serverTrusted: (server) => server.scope === 'user',
        shellParser: loadBashParser,
        // As the extension's: the workspace folders, the file system, what the server said it is.
        files: (call) => {
          const serverInfoName = this.registry.get(call.request.serverId)?.catalog.serverInfo?.name;
          return { roots, fs: nodePreviewFileSystem, home, ...(serverInfoName !== undefined ? { serverInfoName } : {}) };
        },
        remember: () => Promise.reject(new Error('the bench keeps no rule')),
        qualifiedName: (serverId, tool) => `mcp__${serverId}__${tool}`,
        now: () => Date.now(),
        newId: () => randomUUID(),
      }),
    });
    const recorder = new CallRecorder({ servers: this.registry, history: this.history, newId: callIdSequence(randomUUID()) });
    this.calls.onDidCall((record) => recorder.record(record));
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
    this.broker.dispose();
    this.registry.dispose();
  }

  extra(): Record<string, unknown> {
    return {
      logLines: this.log.lines,
      stderrLines: this.log.stderrLines,
      serverMessages: this.log.serverMessages,
      loginShellPath: looksGuiStarted(process.env),
      approvalStep: APPROVAL_STEP,
      historyRecords: this.history.list().length,
      historyRan: this.history.list().filter((record) => record.ran && record.decidedBy.kind === 'rule').length,
    };
  }
}

main('switchboard', (config) => new SwitchboardSide(config));
