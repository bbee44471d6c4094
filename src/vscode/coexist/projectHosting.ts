// Who hosts the servers of this workspace's `.mcp.json` when VS Code's own MCP would run them too. The
// person's choice is kept in the workspace state; its effect (src/core/coexist) is applied here: VS
// Code's copy turned off through its own `chat.mcp.access` at workspace scope, or the servers held back
// from the registry with the reason shown. The overlap is asked about once per workspace, in the trust
// moment: in a modal right after the trust prompt due now (or alone when none is), saying which file and
// key an answer writes; closed unanswered, the safe choice holds (VS Code's copy off), so the first chat
// message never makes VS Code start a second copy.
import * as vscode from 'vscode';
import type { EffectiveServer } from '../../core/config/types';
import {
  HOSTING_ANSWERS, HOSTING_DEFAULT, NO_HOSTING_RECORD, VSCODE_COPY_OFF, hostingDefaultNotice, hostingQuestion, names, planProjectHosting,
  type HostingPlan, type HostingRecord, type ProjectHost, type VscodeMcpSettings,
} from '../../core/coexist';
import { pickAction } from '../ui/dialogs';
import { onDidChangeVscodeMcpSettings, readVscodeMcpSettings, setWorkspaceMcpAccess, workspaceSettingsFile } from './vscodeMcpSettings';
import { notifyError, notifyInfo, notifyWarning } from '../ui/notify';

/** Where the record lives in the workspace state. */
export const HOSTING_STATE_KEY = 'switchboard.projectServerHost';
export const CHOOSE_HOST_COMMAND = 'switchboard.chooseProjectServerHost';
const CHOOSE_HOST_TITLE = 'MCP Switchboard: Choose Who Hosts Project Servers…';


export interface ProjectHostingOptions {
  /** The workspace state (the record is per workspace). */
  state: vscode.Memento;
  /** The effective servers as configured now, and when they change. */
  servers(): readonly EffectiveServer[];
  onDidChangeServers: vscode.Event<unknown>;
  log: vscode.LogOutputChannel;
  /** Resolves once the trust prompt due now (if any) was answered: the question comes right after it. */
  trustMoment?(): Promise<void>;
}

/** What the registry is asked to do when the servers held back for VS Code changed. */
export interface HostedRegistry {
  applyGate(): void;
}

export class ProjectHosting implements vscode.Disposable {
  /** VS Code's MCP settings, read on first use (the first plan is made after activation returned). */
  private read?: VscodeMcpSettings;
  private get settings(): VscodeMcpSettings {
    return this.read ??= readVscodeMcpSettings();
  }
  private set settings(settings: VscodeMcpSettings) {
    this.read = settings;
  }
  private memo?: { servers: readonly EffectiveServer[]; settings: VscodeMcpSettings; record: string; plan: HostingPlan };
  /** Applying is serialized: a settings write and the events it causes never interleave with another. */
  private queue: Promise<void> = Promise.resolve();
  private applied = '';
  private problemShown = false;
  /** The question was put (or could not be) in this session: not again until the next one. */
  private asking = false;
  private registry?: HostedRegistry;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the plan's effect changed (servers held back, or VS Code's copy turned off or on). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly options: ProjectHostingOptions) {}

  /** The record of this workspace. */
  get record(): HostingRecord {
    return recordOf(this.options.state.get<unknown>(HOSTING_STATE_KEY));
  }

  /** The choice's effect for the servers and VS Code's settings as they are now. */
  plan(): HostingPlan {
    const servers = this.options.servers();
    const record = this.record;
    const key = JSON.stringify(record);
    if (this.memo?.servers === servers && this.memo.settings === this.settings && this.memo.record === key) return this.memo.plan;
    const plan = planProjectHosting(servers, this.settings, record);
    this.memo = { servers, settings: this.settings, record: key, plan };
    return plan;
  }

  /** The registry's question: why Switchboard must not start this server here (VS Code hosts it), if so. */
  hostedElsewhere(server: EffectiveServer): string | undefined {
    return this.plan().leftToVscode.get(server.id);
  }

  /** Follows the configuration and VS Code's settings from now on, and applies the plan once. */
  attach(registry: HostedRegistry): vscode.Disposable {
    this.registry = registry;
    const subscriptions = vscode.Disposable.from(
      onDidChangeVscodeMcpSettings(() => {
        this.settings = readVscodeMcpSettings();
        this.react();
      }),
      this.options.onDidChangeServers(() => this.react()),
    );
    this.react();
    return subscriptions;
  }

  /** The person's choice for this workspace, applied at once. Resolves once it took effect. */
  choose(host: ProjectHost): Promise<void> {
    return this.enqueue(async () => {
      const before = this.record;
      let wroteAccess = before.wroteAccess;
      if (host === 'switchboard' && planProjectHosting(this.options.servers(), this.settings, { ...before, host }).access === 'turnOff') {
        // VS Code's copy goes first; Switchboard starts the servers only after (never both at once).
        try {
          await setWorkspaceMcpAccess(VSCODE_COPY_OFF);
        } catch (error) {
          const message = `could not turn VS Code's copy off (chat.mcp.access in the workspace settings): ${error instanceof Error ? error.message : String(error)}. Nothing changed.`;
          this.options.log.error(`project servers: ${message}`);
          void notifyError(`MCP Switchboard ${message}`);
          return;
        }
        wroteAccess = true;
        this.settings = readVscodeMcpSettings();
      }
      await this.save({ ...before, host, asked: true, wroteAccess });
      this.options.log.info(`project servers: ${host === 'switchboard' ? 'Switchboard hosts' : 'VS Code hosts'} the servers of .mcp.json in this workspace`);
      await this.apply();
    });
  }

  dispose(): void {
    this.changed.dispose();
  }

  private react(): void {
    void this.enqueue(() => this.apply());
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task).catch((error: unknown) => {
      this.options.log.error('project servers:', error instanceof Error ? error : String(error));
    });
    this.queue = run;
    return run;
  }

  /** Brings the registry and VS Code's setting in line with the plan; asks when the plan says so. */
  private async apply(): Promise<void> {
    const plan = this.plan();
    // Held back first, so that handing the servers to VS Code never lets both run.
    const applied = JSON.stringify([...plan.leftToVscode]);
    if (applied !== this.applied) {
      this.applied = applied;
      this.registry?.applyGate();
      this.changed.fire();
    }
    const record = this.record;
    if (plan.access === 'turnOff') {
      await setWorkspaceMcpAccess(VSCODE_COPY_OFF);
      await this.save({ ...record, wroteAccess: true });
      this.settings = readVscodeMcpSettings();
      this.options.log.info(`project servers: VS Code's copy of ${names(plan.overlap)} was on; turned it off again (chat.mcp.access: "${VSCODE_COPY_OFF}" in the workspace settings), as chosen`);
      void notifyInfo(`VS Code's own MCP was about to run ${names(plan.overlap)} of this workspace's .mcp.json again: MCP Switchboard turned its copy off (chat.mcp.access: "${VSCODE_COPY_OFF}" in the workspace settings), as you chose. To change who hosts them, run "${CHOOSE_HOST_TITLE}".`);
      this.changed.fire();
    } else if (plan.access === 'restore') {
      await setWorkspaceMcpAccess(undefined);
      await this.save({ ...record, wroteAccess: false });
      this.settings = readVscodeMcpSettings();
      this.changed.fire();
    }
    if (plan.problem !== undefined && !this.problemShown) {
      this.problemShown = true;
      this.options.log.warn(`project servers: ${plan.problem}`);
      void notifyWarning(`MCP Switchboard: ${plan.problem}.`);
    }
    if (plan.ask && !this.asking) {
      // Asked once per workspace: the answer (or the default) is remembered by choose().
      this.asking = true;
      void this.ask();
    }
  }

  /** Asks right after the trust prompt due now; an unanswered question takes the safe default. */
  private async ask(): Promise<void> {
    try {
      await this.options.trustMoment?.();
    } catch (error) {
      this.options.log.warn(`project servers: the trust prompt before the hosting question failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    // The trust answer (or an edit meanwhile) may have changed what overlaps.
    const { overlap, ask } = this.plan();
    if (!ask) return;
    const settingsFile = workspaceSettingsFile();
    const { message, detail } = hostingQuestion(overlap, settingsFile);
    this.options.log.info(`project servers: VS Code's own MCP would also run ${names(overlap)}; asking who hosts them`);
    let answer: string | undefined;
    try {
      answer = await pickAction(message, detail, [HOSTING_ANSWERS.switchboard, HOSTING_ANSWERS.vscode]);
    } catch (error) {
      // No modal here (an extension test run): nothing is written, the question waits for the next session.
      this.options.log.warn(`project servers: could not ask who hosts ${names(overlap)} (${error instanceof Error ? error.message : String(error)}); nothing was written`);
      return;
    }
    const host: ProjectHost = answer === HOSTING_ANSWERS.vscode ? 'vscode' : answer === HOSTING_ANSWERS.switchboard ? 'switchboard' : HOSTING_DEFAULT;
    await this.choose(host);
    if (answer === undefined && this.record.host === host && this.record.wroteAccess) {
      this.options.log.info(`project servers: the hosting question was closed unanswered; the safe default holds (${host})`);
      void notifyInfo(hostingDefaultNotice(overlap, settingsFile));
    }
  }

  private async save(record: HostingRecord): Promise<void> {
    await this.options.state.update(HOSTING_STATE_KEY, record);
  }
}

/** The stored record, read leniently (anything unreadable counts as nothing chosen yet). */
function recordOf(value: unknown): HostingRecord {
  if (typeof value !== 'object' || value === null) return NO_HOSTING_RECORD;
  const { host, asked, wroteAccess } = value as Record<string, unknown>;
  return {
    ...(host === 'switchboard' || host === 'vscode' ? { host } : {}),
    asked: asked === true,
    wroteAccess: wroteAccess === true,
  };
}
