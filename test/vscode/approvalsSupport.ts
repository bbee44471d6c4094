// Driving approvals from tests the way the sidebar page does: raw messages of the page's typed
// protocol go through the same parser and handlers (`_switchboard.test.sidebarRequest`), and the
// pending cards are read from the snapshot the page is sent.
import * as vscode from 'vscode';
import type { ApprovalCard, ApprovalMode } from '../../src/protocol/approvals';
import type { ParamsOf, ResultOf } from '../../src/protocol/rpc';
import type { HostToWebviewMessage, SidebarMethod, SidebarRequest } from '../../src/protocol/sidebarMessages';
import { waitFor } from './configTestSupport';
import { sidebarSnapshot } from './userServersSupport';

let nextId = 1;

/** Sends one request as the page would; resolves with its result, rejects with the error the page would show. */
export async function sidebarRequest<M extends SidebarMethod>(method: M, params: ParamsOf<SidebarRequest, M>): Promise<ResultOf<SidebarRequest, M>> {
  const id = nextId++;
  const reply = await vscode.commands.executeCommand<HostToWebviewMessage | undefined>('_switchboard.test.sidebarRequest', { type: 'request', id, method, params });
  if (reply === undefined) throw new Error(`no reply to ${method}`);
  if (reply.type === 'error') throw new Error(reply.error.message);
  if (reply.type !== 'response' || reply.id !== id || reply.method !== method) throw new Error(`unexpected reply to ${method}: ${JSON.stringify(reply)}`);
  return reply.result as ResultOf<SidebarRequest, M>;
}

/** The cards the sidebar shows now, oldest first. */
export async function pendingCards(): Promise<readonly ApprovalCard[]> {
  return (await sidebarSnapshot()).approvals.pending;
}

/** Waits for a card of this tool (and server, when given). */
export function waitForCard(tool: string, serverId?: string, timeoutMs = 10_000): Promise<ApprovalCard> {
  return waitFor(`a card for ${tool}`, async () => (await pendingCards()).find((card) => card.tool === tool && (serverId === undefined || card.serverId === serverId)), timeoutMs, 25);
}

/** Approves the next card of `tool` with its arguments unchanged. */
export async function approveNextCard(tool: string, serverId?: string): Promise<ApprovalCard> {
  const card = await waitForCard(tool, serverId);
  await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'approve', args: card.args } });
  return card;
}

/** Sets the approval mode in the user settings (as the sidebar's picker does) and waits until the extension uses it. */
export async function setApprovalMode(mode: ApprovalMode): Promise<void> {
  await sidebarRequest('setApprovalMode', { mode });
  await waitFor(`the mode ${mode}`, async () => (await sidebarSnapshot()).approvals.mode === mode, 5000);
}
