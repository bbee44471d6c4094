// The sidebar's projection and handlers: what the webview is sent (a snapshot of the configuration,
// the lifecycle, tool review and trust) and what its requests do. The view itself is sidebarView.ts.
import * as vscode from 'vscode';
import { serverWarnings } from '../../core/lifecycle';
import { toSidebarSnapshot } from '../../core/sidebarSnapshot';
import { taskRows } from '../../core/tasks/taskView';
import type { SidebarSnapshot, TrustCardRow } from '../../protocol/sidebar';
import { approvalAttention, watchAttention } from '../approvals/approvalAttention';
import { revealSource } from '../commands';
import { notifyInfo } from '../ui/notify';
import { ProposalDocuments } from '../approvals/proposalDocuments';
import { approvalHandlers } from './sidebarApprovals';
import { restartServer, startServer, stopServer } from '../servers/serverCommands';
import { SidebarViewProvider } from './sidebarView';
import { openTaskResult, watchTaskResults } from '../tasks/taskResults';
import type { SwitchboardContext } from '../switchboardContext';

/** Internal command: the snapshot the sidebar is sent now (tests read it). */
export const SIDEBAR_SNAPSHOT_COMMAND = '_switchboard.sidebarSnapshot';
/** Test-only command: answers raw message data as the sidebar would answer the page. */
export const SIDEBAR_REQUEST_TEST_COMMAND = '_switchboard.test.sidebarRequest';
/** Saves the call history as JSON (to the given file, or one the person picks). */
export const EXPORT_HISTORY_COMMAND = 'switchboard.exportCallHistory';
/** The chat's "Show the approval card" button (chat/participant.ts); a string here: the chat loads on its own. */
const SHOW_APPROVAL_COMMAND = 'switchboard.showApproval';

/** The snapshot of everything the sidebar shows, built from the context's current state. */
export function sidebarSnapshotOf(ctx: SwitchboardContext): SidebarSnapshot {
  const { config, registry, toolReview, trust } = ctx;
  return withTrustCards(toSidebarSnapshot(config.current, {
    generatedAt: Date.now(),
    workspaceName: vscode.workspace.name,
    stateOf: (server) => {
      const view = registry.get(server.id);
      if (!view) return 'notStarted';
      const { tools, resources, resourceTemplates, prompts } = view.catalog;
      return {
        state: view.state,
        counts: { tools: tools.length, resources: resources.length, resourceTemplates: resourceTemplates.length, prompts: prompts.length },
        toolReview: toolReview.summary(server.id),
        refusedTools: view.catalog.refusedTools,
        warnings: serverWarnings(view),
      };
    },
    trustOf: (server) => {
      const waiting = trust.waiting(server);
      return { decision: trust.decide(server), flags: trust.flags(server), ...(waiting !== undefined ? { waiting } : {}) };
    },
    approvals: ctx.approvals.view(),
    elicitations: ctx.elicitations.cards(),
    sampling: ctx.sampling.cards(),
    heldOutputs: ctx.heldOutputs.cards(),
    tasks: taskRows(ctx.tasks.list()),
  }), trust.cards());
}

/** The snapshot with the trust cards, when there are any. */
function withTrustCards(snapshot: SidebarSnapshot, cards: readonly TrustCardRow[]): SidebarSnapshot {
  return cards.length > 0 ? { ...snapshot, trustCards: cards } : snapshot;
}

/** Registers the sidebar view and its snapshot command. */
export function registerSidebar(ctx: SwitchboardContext): vscode.Disposable {
  const { config, registry, toolReview, trust, serverLogs } = ctx;
  const snapshot = () => sidebarSnapshotOf(ctx);
  const proposals = new ProposalDocuments();
  // Fired every second while a task runs, so its elapsed time moves in the view.
  const tick = new vscode.EventEmitter<void>();
  const handlers = approvalHandlers(ctx.approvals, proposals);
  const sidebar = new SidebarViewProvider(ctx.extension.extensionUri, {
    onDidChange: (listener) => vscode.Disposable.from(
      config.onDidChange(() => listener()),
      registry.onDidChangeState(() => listener()),
      registry.onDidChangeCatalog(() => listener()),
      registry.onDidChangeServers(() => listener()),
      toolReview.onDidChange(() => listener()),
      trust.onDidChange(() => listener()),
      ctx.approvals.onDidChange(() => listener()),
      ctx.elicitations.broker.onDidChange(() => listener()),
      ctx.sampling.broker.onDidChange(() => listener()),
      ctx.heldOutputs.onDidChange(() => listener()),
      ctx.tasks.onDidChange(() => listener()),
      tick.event(() => listener()),
    ),
    snapshot,
  }, {
    openSource: async (request) => {
      await revealSource(config, request.target === 'server' ? request.serverId : request);
    },
    runCommand: async ({ command }) => {
      await vscode.commands.executeCommand(`switchboard.${command}`);
    },
    serverAction: async ({ serverId, action }) => {
      switch (action) {
        case 'start': return startServer(registry, serverId, trust);
        case 'stop': return stopServer(registry, serverId);
        case 'restart': return restartServer(registry, serverId, trust);
        case 'showLogs': return serverLogs.show(serverId, false);
        case 'signIn': { await vscode.commands.executeCommand('switchboard.signIn', serverId); return; }
      }
    },
    ...handlers,
    exportHistory: () => handlers.exportHistory(),
    checkElicitation: (params) => ctx.elicitations.check(params),
    answerElicitation: (params) => ctx.elicitations.answer(params),
    answerSampling: ({ samplingId, answer, reason }) => ctx.sampling.answer(samplingId, answer, reason),
    answerHeldOutput: ({ heldId, release, reason }) => ctx.heldOutputs.answer(heldId, release, reason),
    cancelTask: ({ taskId }) => ctx.tasks.cancel(taskId),
    openTaskResult: ({ taskId }) => openTaskResult(ctx.tasks, taskId),
    clearTasks: () => ctx.tasks.clearEnded(),
    answerTrustCard: ({ serverId, fingerprint, answer }) => trust.answerCard(serverId, fingerprint, answer),
  }, (line) => ctx.log.trace(line));
  return vscode.Disposable.from(
    proposals,
    sidebar,
    tick,
    watchTaskResults(ctx.tasks, () => tick.fire(), () => sidebar.reveal()),
    vscode.commands.registerCommand(EXPORT_HISTORY_COMMAND, (target?: vscode.Uri) => handlers.exportHistory(target)),
    // The chat's "Show the approval card" button: the card of that call, or word that it no longer waits.
    vscode.commands.registerCommand(SHOW_APPROVAL_COMMAND, async (approvalId?: unknown): Promise<boolean> => {
      if (typeof approvalId === 'string' && ctx.approvals.broker.get(approvalId) === undefined) {
        void notifyInfo('That tool call no longer waits for your approval: it was answered or cancelled.');
        return false;
      }
      if (typeof approvalId === 'string') await sidebar.revealApproval(approvalId);
      else await vscode.commands.executeCommand(`${SidebarViewProvider.viewId}.focus`);
      return true;
    }),
    ...(ctx.testing ? [
      // Tests speak the page's typed protocol: raw message data in, the reply the page would get out.
      vscode.commands.registerCommand(SIDEBAR_REQUEST_TEST_COMMAND, (data: unknown) => sidebar.respondTo(data)),
    ] : []),
    watchAttention(sidebar, ctx.log, [approvalAttention(ctx.approvals.broker), ctx.elicitations.attention(), ctx.sampling.attention()]),
    vscode.commands.registerCommand(SIDEBAR_SNAPSHOT_COMMAND, snapshot),
    vscode.window.registerWebviewViewProvider(SidebarViewProvider.viewId, sidebar),
  );
}
