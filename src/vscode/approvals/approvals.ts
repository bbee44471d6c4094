// Approvals in the extension: the policy's inputs (the mode from the user settings, the person's rules,
// trust, the bash parser, file previews over the workspace roots), the broker where a call waits for
// its card, and the history every call through the gate is recorded in, from the decision its record
// carries. The gate gets `decide`; the sidebar reads `view()` and answers through `broker`.
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  ApprovalBroker, approvalStep, CallRecorder, callIdSequence, fileEffectOfCall, narrowConstraints, pathStyleOf, toApprovalsView,
  type ApprovalMode, type CallFiles, type RuleNarrowing,
} from '../../core/approvals';
import { fileToolsOf, type FilePreview, type FileWriteToolsSetting } from '../../core/approvals/preview';
import type { DecideToolCall, ToolCallRecord } from '../../core/calls';
import { qualifyToolNames } from '../../core/naming/toolNames';
import type { EffectiveServer } from '../../core/config/types';
import { DisposableStore } from '../../core/disposable';
import type { ServerRegistry } from '../../core/lifecycle';
import type { ApprovalsView } from '../../protocol/approvals';
import { nodePreviewFileSystem } from '../../node/previewFileSystem';
import { onDidChangeApprovalSettings, readApprovalMode, readFileWriteTools, writeApprovalMode } from './approvalSettings';
import { APPROVAL_RULES_KEY, ApprovalRules } from './approvalRules';
import { CALL_HISTORY_KEY, CallHistoryStore } from './callHistoryStore';
import { notifyWarning } from '../ui/notify';
import type { ProjectTrust } from '../trust/projectTrust';

export interface ApprovalsOptions {
  readonly extension: vscode.ExtensionContext;
  readonly registry: ServerRegistry;
  readonly trust: ProjectTrust;
  readonly log: vscode.LogOutputChannel;
  /** The administrator's policy: an approval mode it fixes wins over the person's setting. */
  readonly policy?: { approvalLock(): { mode: ApprovalMode; origin: string } | undefined; readonly onDidChange: (listener: () => void) => { dispose(): void } };
}

export class Approvals implements vscode.Disposable {
  readonly broker = new ApprovalBroker();
  readonly rules: ApprovalRules;
  readonly history: CallHistoryStore;
  /** The gate's decision step. */
  readonly decide: DecideToolCall;
  private readonly store = new DisposableStore();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a card, a rule, the history or the mode changed. */
  readonly onDidChange = this.changed.event;
  private readonly recorder: CallRecorder;
  /** The home folder, read once: every call's file preview context names it. */
  private readonly home = os.homedir();
  /** The fileWriteTools setting, read again only after the approval settings changed (every call's preview context reads it). */
  private fileWriteTools: FileWriteToolsSetting | undefined;
  private mode: ApprovalMode;

  constructor(private readonly options: ApprovalsOptions) {
    const warn = (message: string): void => options.log.warn(`approvals: ${message}`);
    const readMode = (): ApprovalMode => options.policy?.approvalLock()?.mode ?? readApprovalMode(warn);
    this.mode = readMode();
    this.rules = new ApprovalRules(options.extension.workspaceState, options.extension.globalState, warn);
    this.history = new CallHistoryStore(options.extension.workspaceState, warn);
    this.recorder = new CallRecorder({ servers: options.registry, history: this.history, newId: callIdSequence(randomUUID()) });
    this.store.add(this.rules);
    this.store.add(this.history);
    this.store.add(this.broker);
    this.store.add(this.rules.onDidChange(() => this.changed.fire()));
    this.store.add(this.history.onDidChange(() => this.changed.fire()));
    this.store.add(this.broker.onDidChange(() => this.changed.fire()));
    this.store.add(onDidChangeApprovalSettings(() => {
      this.mode = readMode();
      this.fileWriteTools = undefined;
      const lock = options.policy?.approvalLock();
      // Changed in the settings while the policy fixes it: nothing changes, and the person is told why.
      if (lock !== undefined && readApprovalMode() !== lock.mode) {
        void notifyWarning(`MCP Switchboard: switchboard.approvals.mode has no effect: your administrator's policy fixes the approval mode to ${lock.mode} (${lock.origin}).`);
      }
      this.changed.fire();
    }));
    if (options.policy !== undefined) {
      this.store.add(options.policy.onDidChange(() => {
        this.mode = readMode();
        this.changed.fire();
      }));
    }
    this.decide = approvalStep({
      mode: () => this.mode,
      rules: () => this.rules.all(),
      broker: this.broker,
      serverTrusted: (server) => this.isTrusted(server),
      // The grammar loads with the first call that runs a command line, not at activation.
      shellParser: async () => (await import('../../node/bashParser')).loadBashParser(),
      files: (call) => this.files(call.request.serverId, call.server),
      remember: async (rule, scope) => { await this.rules.add(rule, scope); },
      qualifiedName: (serverId, tool) => this.qualifiedName(serverId, tool),
      now: () => Date.now(),
      newId: () => randomUUID(),
    });
  }

  /** Records a call the gate finished, with the decision its record carries (subscribe it to the gate's onDidCall). */
  recordCall(record: ToolCallRecord): void {
    this.recorder.record(record);
  }

  /** What the workspace and global state hold (for tests: proves where rules and the history are kept). */
  stored(): { workspaceRules: unknown[]; globalRules: unknown[]; history: unknown[] } {
    const { workspaceState, globalState } = this.options.extension;
    return {
      workspaceRules: workspaceState.get<unknown[]>(APPROVAL_RULES_KEY, []),
      globalRules: globalState.get<unknown[]>(APPROVAL_RULES_KEY, []),
      history: workspaceState.get<unknown[]>(CALL_HISTORY_KEY, []),
    };
  }

  currentMode(): ApprovalMode {
    return this.mode;
  }

  /** Where the policy fixes the mode, or undefined when the person chooses it. */
  modeLockedBy(): string | undefined {
    return this.options.policy?.approvalLock()?.origin;
  }

  /** Sets the person's mode; refused (and said) while the policy fixes it. */
  async setMode(mode: ApprovalMode): Promise<void> {
    const lock = this.options.policy?.approvalLock();
    if (lock !== undefined) {
      this.changed.fire();
      throw new Error(`the approval mode is fixed to ${lock.mode} by your administrator's policy (${lock.origin}); it cannot be changed here`);
    }
    await writeApprovalMode(mode);
    this.mode = mode;
    this.changed.fire();
  }

  /** What the sidebar's approvals sections show now. */
  view(): ApprovalsView {
    const lockedBy = this.modeLockedBy();
    return toApprovalsView({
      mode: this.mode,
      ...(lockedBy !== undefined ? { modeLockedBy: lockedBy } : {}),
      pending: this.broker.pending(),
      rules: this.rules.all(),
      history: this.history.list(),
      serverTrusted: (serverId) => {
        const server = this.options.registry.get(serverId)?.server;
        return server !== undefined && this.isTrusted(server);
      },
    });
  }

  /**
   * What a pending card's call would change with these arguments, or undefined when it writes no file
   * a preview understands (or the card is gone).
   */
  async previewPending(approvalId: string, args: Record<string, unknown>): Promise<FilePreview | undefined> {
    const request = this.broker.get(approvalId);
    const view = request === undefined ? undefined : this.options.registry.get(request.serverId);
    const tool = view?.catalog.tools.find((candidate) => candidate.name === request?.tool);
    if (request === undefined || view === undefined || tool === undefined) return undefined;
    return (await fileEffectOfCall({ server: view.server, tool }, args, this.files(request.serverId, view.server)))?.preview;
  }

  /**
   * Throws, saying why, when a card's narrower "always allow" cannot be kept for these arguments (a
   * path no rule can read, a value that is not a scalar): the card stays, and no wider rule is kept.
   */
  checkNarrowing(approvalId: string, args: Record<string, unknown>, narrow: RuleNarrowing): void {
    const request = this.broker.get(approvalId);
    if (request === undefined) return;
    if (request.signatures !== undefined) throw new Error('"Always allow" on a shell command is about its command signatures; it cannot be narrowed to a file or value');
    const roots = this.roots();
    narrowConstraints(narrow, args, request.pathArguments ?? [], roots, pathStyleOf(roots));
  }

  dispose(): void {
    this.store.dispose();
    this.changed.dispose();
  }

  /** The person trusts a server they configured themselves, and a project server they (or their verified repository) trusted. */
  private isTrusted(server: EffectiveServer): boolean {
    return this.options.trust.decide(server).state === 'allowed';
  }

  /** Where a server's file writes land: the workspace folders (none open: every write is outside). */
  private files(serverId: string, server: EffectiveServer): CallFiles {
    const catalog = this.options.registry.get(serverId)?.catalog;
    this.fileWriteTools ??= readFileWriteTools((message) => this.options.log.warn(`approvals: ${message}`));
    const fileTools = fileToolsOf(this.fileWriteTools, server);
    return {
      roots: this.roots(),
      fs: nodePreviewFileSystem,
      home: this.home,
      ...(catalog?.serverInfo?.name !== undefined ? { serverInfoName: catalog.serverInfo.name } : {}),
      ...(fileTools ? { fileTools } : {}),
    };
  }

  private roots(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  }

  private qualifiedName(serverId: string, tool: string): string {
    const refs = this.options.registry.list().flatMap((view) => view.catalog.tools.map((t) => ({ server: view.id, tool: t.name })));
    if (!refs.some((ref) => ref.server === serverId && ref.tool === tool)) refs.push({ server: serverId, tool });
    return qualifyToolNames(refs).find((q) => q.server === serverId && q.tool === tool)?.qualifiedName ?? `mcp__${serverId}__${tool}`;
  }
}
