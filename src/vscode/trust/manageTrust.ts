// "MCP Switchboard: Manage Trust…": every remembered trust decision, grouped per workspace folder (the
// open ones first), with what was trusted or refused. Selecting one (or its trash button) revokes it:
// a trusted server stops and waits for trust again, a refused one may be asked about again.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EffectiveServer } from '../../core/config/types';
import { redactLaunch } from '../../core/lifecycle';
import type { TrustRecord } from '../../core/trust';
import type { Feedback } from '../ui/feedback';
import type { ProjectTrust } from './projectTrust';
import { notifyError, notifyInfo } from '../ui/notify';
import { registerReportingCommand } from '../reportingCommand';
import { confirm } from '../ui/dialogs';

export const MANAGE_TRUST_COMMAND = 'switchboard.manageTrust';

export interface ManageTrustDeps {
  trust: ProjectTrust;
  folders(): readonly string[];
  servers(): readonly EffectiveServer[];
  log: vscode.LogOutputChannel;
  /** Where a revocation says what it did. */
  feedback: Feedback;
  /** Under an extension test run: a failed Manage Trust rejects (see registerReportingCommand). */
  testing: boolean;
}

/** One decision as the pick shows it (plain data, also what tests read). */
export interface TrustItemData {
  folder: string;
  name: string;
  state: 'trusted' | 'refused';
  label: string;
  description: string;
  detail: string;
}

interface TrustItem extends vscode.QuickPickItem {
  decision?: TrustItemData;
}

const REVOKE_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Revoke this decision' };

export class ManageTrust implements vscode.Disposable {
  private open: vscode.QuickPick<TrustItem> | undefined;
  private readonly registration: vscode.Disposable;

  constructor(private readonly deps: ManageTrustDeps) {
    this.registration = registerReportingCommand(MANAGE_TRUST_COMMAND, () => this.show(), deps);
  }

  /** The decisions the open pick lists, or undefined when it is not open. */
  openItems(): TrustItemData[] | undefined {
    return this.open?.items.flatMap((item) => (item.decision ? [{ ...item.decision }] : []));
  }

  dispose(): void {
    this.open?.dispose();
    this.registration.dispose();
  }

  /** Shows the pick; resolves when it is closed. */
  private async show(): Promise<void> {
    this.open?.dispose();
    // Right after activation the decisions may still be being read: the list waits for them.
    await this.deps.trust.loaded;
    const items = this.items();
    if (items.length === 0) {
      void notifyInfo('MCP Switchboard remembers no trust decision yet: project servers ask for trust when they first appear.');
      return;
    }
    const pick = vscode.window.createQuickPick<TrustItem>();
    this.open = pick;
    pick.title = 'Manage Trust of Project MCP Servers';
    pick.placeholder = 'Select a decision to revoke it: the server stops and asks for trust again';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    // Revoking asks in a dialog first: the pick stays open behind it.
    pick.ignoreFocusOut = true;
    pick.items = items;
    const revoke = async (item: TrustItem | undefined): Promise<void> => {
      const decision = item?.decision;
      if (decision === undefined) return;
      const what = decision.state === 'trusted' ? 'trust in' : 'the refusal of';
      const detail = decision.state === 'trusted' ? 'It stops, and waits for trust at its next start.' : 'Its next start asks for trust again.';
      if (!await confirm(`Revoke ${what} "${decision.name}"?`, `${detail} (${decision.folder})`, 'Revoke')) return;
      await this.deps.trust.store.revoke(decision.folder, decision.name);
      // Revoking is not a request to be asked at once: the server waits for its next Start.
      this.deps.trust.prompts.postpone(this.deps.servers().filter((server) => server.folder === decision.folder && server.name === decision.name));
      this.deps.log.info(`trust: revoked the decision about "${decision.name}" in ${decision.folder}`);
      this.deps.feedback.show(decision.state === 'trusted'
        ? `$(workspace-untrusted) MCP Switchboard: "${decision.name}" is no longer trusted: it stops and waits for trust`
        : `$(workspace-trusted) MCP Switchboard: "${decision.name}" is no longer refused: its next start asks for trust again`);
      const left = this.items();
      if (left.length === 0) pick.hide();
      else pick.items = left;
    };
    const failed = (error: unknown): void => {
      void notifyError(`MCP Switchboard: could not revoke: ${error instanceof Error ? error.message : String(error)}`);
    };
    pick.onDidAccept(() => { revoke(pick.activeItems[0]).catch(failed); });
    pick.onDidTriggerItemButton((event) => { revoke(event.item).catch(failed); });
    await new Promise<void>((resolve) => {
      pick.onDidHide(() => {
        if (this.open === pick) this.open = undefined;
        pick.dispose();
        resolve();
      });
      pick.show();
    });
  }

  /** Separators per workspace folder (open folders first, in their order), then each decision by name. */
  private items(): TrustItem[] {
    const open = this.deps.folders();
    const workspaces = this.deps.trust.store.list().filter((workspace) => workspace.servers.length > 0);
    const rank = (folder: string): number => (open.includes(folder) ? open.indexOf(folder) : open.length);
    workspaces.sort((a, b) => rank(a.folder) - rank(b.folder));
    const current = this.deps.servers();
    const items: TrustItem[] = [];
    for (const workspace of workspaces) {
      const isOpen = open.includes(workspace.folder);
      items.push({ label: `${noIcons(path.basename(workspace.folder))}${isOpen ? '' : ' (not open)'} — ${workspace.folder}`, kind: vscode.QuickPickItemKind.Separator });
      for (const entry of workspace.servers) {
        const now = current.find((server) => server.folder === workspace.folder && server.name === entry.name);
        for (const [state, record] of [['trusted', entry.trusted], ['refused', entry.refused]] as const) {
          if (record === undefined) continue;
          const decision = describe(workspace.folder, entry.name, state, record, now);
          items.push({ label: decision.label, description: decision.description, detail: decision.detail, buttons: [REVOKE_BUTTON], decision });
        }
      }
    }
    return items;
  }
}

function describe(folder: string, name: string, state: 'trusted' | 'refused', record: TrustRecord, now: EffectiveServer | undefined): TrustItemData {
  const when = record.at.slice(0, 10);
  const currency = now === undefined ? 'not in the configuration now'
    : now.fingerprint === record.fingerprint ? 'the current definition' : 'an earlier definition (it has changed since)';
  return {
    folder,
    name,
    state,
    label: `${state === 'trusted' ? '$(workspace-trusted)' : '$(workspace-untrusted)'} ${noIcons(name)}`,
    description: `${state === 'trusted' ? 'trusted' : 'not trusted'} on ${when} · ${currency}`,
    detail: noIcons(redactLaunch(record.launch)),
  };
}

/** Text from a repository, with `$(…)` kept as text rather than drawn as an icon. */
function noIcons(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}
