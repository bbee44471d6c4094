// What the sidebar's approval requests do: answer a card, check and preview edited arguments, open a
// change in the diff editor, revoke a rule, switch the mode, export or clear the history.
import * as vscode from 'vscode';
import { toPreviewView } from '../../core/approvals';
import type { ApprovalMode } from '../../protocol/approvals';
import type { AnswerApprovalParams, AnswerApprovalResult, CheckArgumentsParams, CheckArgumentsResult, OpenDiffParams } from '../../protocol/sidebarMessages';
import type { Approvals } from '../approvals/approvals';
import { confirm, saveDialog } from '../ui/dialogs';
import { count } from '../ui/feedback';
import type { ProposalDocuments } from '../approvals/proposalDocuments';
import { notifyInfo } from '../ui/notify';

const GONE = 'This call no longer waits for an answer: it was answered elsewhere or its caller cancelled it.';

export interface ApprovalHandlers {
  /** Settles a card; an Approve whose arguments do not fit the schema settles nothing and returns the problems. */
  answerApproval(params: AnswerApprovalParams): Promise<AnswerApprovalResult>;
  checkArguments(params: CheckArgumentsParams): Promise<CheckArgumentsResult>;
  openDiff(params: OpenDiffParams): Promise<void>;
  revokeRule(params: { readonly ruleId: string }): Promise<void>;
  setApprovalMode(params: { readonly mode: ApprovalMode }): Promise<void>;
  /** Saves the history as JSON to a file the person picks in the save dialog (`target` is only proposed there). */
  exportHistory(target?: vscode.Uri): Promise<void>;
  clearHistory(): Promise<void>;
}

export function approvalHandlers(approvals: Approvals, proposals: ProposalDocuments): ApprovalHandlers {
  const { broker } = approvals;
  return {
    answerApproval: async ({ approvalId, answer }) => {
      if (answer.kind === 'reject') {
        if (!broker.answer(approvalId, { kind: 'reject', ...(answer.reason !== undefined ? { reason: answer.reason } : {}) })) throw new Error(GONE);
        return { problems: [] };
      }
      const request = broker.get(approvalId);
      if (request === undefined) throw new Error(GONE);
      // One round trip: arguments that do not fit stay on the card with their problems (and a fresh
      // preview), as a form's do; the call keeps waiting for a corrected answer.
      const problems = (await argumentChecks()).validateArguments(request.inputSchema, answer.args);
      if (problems.length > 0) {
        const preview = await approvals.previewPending(approvalId, { ...answer.args });
        return { problems, ...(preview !== undefined ? { preview: toPreviewView(preview) } : {}) };
      }
      // A narrowing the approved arguments cannot hold (no path to narrow to, say) is refused here,
      // with the card kept, rather than quietly widened to the whole tool.
      if (answer.narrow !== undefined) approvals.checkNarrowing(approvalId, answer.args, answer.narrow);
      const remember = answer.remember ? { remember: answer.remember, ...(answer.narrow ? { narrow: answer.narrow } : {}) } : {};
      if (!broker.answer(approvalId, { kind: 'approve', args: { ...answer.args }, ...remember })) throw new Error(GONE);
      return { problems: [] };
    },
    checkArguments: async ({ approvalId, args }) => {
      const request = broker.get(approvalId);
      if (request === undefined) throw new Error(GONE);
      const preview = await approvals.previewPending(approvalId, { ...args });
      return {
        problems: (await argumentChecks()).validateArguments(request.inputSchema, args),
        ...(preview !== undefined ? { preview: toPreviewView(preview) } : {}),
      };
    },
    openDiff: async ({ approvalId, args, change }) => {
      const request = broker.get(approvalId);
      if (request === undefined) throw new Error(GONE);
      const preview = await approvals.previewPending(approvalId, { ...args });
      if (preview?.error !== undefined) throw new Error(`nothing to compare: the server would refuse this call (${preview.error})`);
      const found = preview?.changes[change];
      if (found === undefined) throw new Error('this call changes no file with these arguments');
      await proposals.openDiff(found, request.tool);
    },
    revokeRule: async ({ ruleId }) => {
      if (!await confirm('Revoke this approval rule?', 'Calls it allowed ask again.', 'Revoke')) return;
      if (!await approvals.rules.revoke(ruleId)) throw new Error('That rule is already gone.');
    },
    setApprovalMode: ({ mode }) => approvals.setMode(mode),
    exportHistory: async (given) => {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const name = `switchboard-call-history-${new Date().toISOString().slice(0, 10)}.json`;
      // A path given with the command is only proposed: whoever ran the command, the person picks the file.
      const proposed = given instanceof vscode.Uri && given.scheme === 'file' ? given : folder ? vscode.Uri.joinPath(folder, name) : undefined;
      const target = await saveDialog({
        title: 'Export Call History',
        saveLabel: 'Export',
        filters: { JSON: ['json'] },
        ...(proposed ? { defaultUri: proposed } : {}),
      });
      if (target === undefined) return;
      const calls = approvals.history.toJSON();
      await vscode.workspace.fs.writeFile(target, Buffer.from(`${JSON.stringify(calls, null, 2)}\n`, 'utf8'));
      void notifyInfo(`Exported ${count(calls.length, 'call')} to ${target.fsPath}.`);
    },
    clearHistory: async () => {
      const clear = 'Clear History';
      const choice = await vscode.window.showWarningMessage('Clear the call history of this workspace?', { modal: true }, clear);
      if (choice === clear) await approvals.history.clear();
    },
  };
}

/** The JSON Schema validator (ajv) checks edited arguments; it loads with the first card answered. */
function argumentChecks(): Promise<typeof import('../../core/schema/validateArguments')> {
  return import('../../core/schema/validateArguments');
}
