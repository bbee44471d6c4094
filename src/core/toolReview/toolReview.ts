// What a person should know about each tool a server offers, kept in step with the catalogs: every
// tools listing of a ready server (first load, reconnect, list_changed) is recorded against the pins
// (a changed definition stays "changed" until accepted; a tool that appears on a known server is
// "new" until reviewed) and every tool is scanned for poisoning. The approval policy asks
// isToolSuspended(); the tool call gate (src/core/calls) reads status() and refuses a blocked or
// changed tool.
import type { EffectiveServer } from '../config/types';
import type { Disposable } from '../disposable';
import { Emitter, type Event } from '../event';
import type { CatalogChange } from '../lifecycle/serverController';
import type { ServerState } from '../lifecycle/state';
import type { Catalog, ToolInfo } from '../lifecycle/types';
import type { PinnedDefinition, PinStore, ServerIdentity } from './pinStore';
import { scanTool, type PoisonFinding } from './poisoning';

/** Where one tool stands. */
export interface ToolStatus {
  /** Its definition differs from the pinned one and nobody accepted it yet (a possible rug pull). */
  changed: boolean;
  /** It appeared on a server whose tools were known before, and nobody reviewed it yet. */
  new: boolean;
  /** What the poisoning scan found in its name, description, schema and annotations. */
  findings: PoisonFinding[];
  /** Flagged while `switchboard.blockFlaggedTools` is on: calls to it are refused. */
  blocked: boolean;
}

/** The counts a server row shows. */
export interface ToolReviewSummary {
  changed: number;
  new: number;
  /** Tools with at least one poisoning finding. */
  flagged: number;
  blocked: number;
  /** Each flagged tool with the reasons found, for a tooltip. */
  flaggedTools: { name: string; reasons: string[] }[];
}

/** A changed tool's pinned definition and the one the server now lists. */
export interface PendingToolChange {
  old: PinnedDefinition;
  new: PinnedDefinition;
}

/** What the review reads about a server (the ServerRegistry's views fit). */
export interface ReviewedServer {
  readonly server: Pick<EffectiveServer, 'scope' | 'folder' | 'name'>;
  readonly state: ServerState;
  readonly catalog: Catalog;
}

export interface ToolReviewOptions {
  pins: PinStore;
  get(serverId: string): ReviewedServer | undefined;
  onDidChangeCatalog: Event<CatalogChange>;
  /** Whether flagged tools are blocked (read at every check, so a settings change applies at once). */
  blockFlagged(): boolean;
  /** Told when recording a catalog failed (the pins file could not be written, say). */
  onProblem?(message: string): void;
}

/**
 * Whether every automatic approval ("always allow") of a tool is suspended: its definition changed
 * since it was pinned and no person accepted the new one. The approval policy must ask this before
 * it lets a remembered approval apply; a suspended tool is asked about again.
 */
export function isToolSuspended(pins: Pick<PinStore, 'isChanged'>, identity: ServerIdentity, toolName: string): boolean {
  return pins.isChanged(identity, toolName);
}

/** The pin identity of a server: scope, workspace folder and name (not its id, which can change with other folders). */
export function serverIdentity(server: Pick<EffectiveServer, 'scope' | 'folder' | 'name'>): ServerIdentity {
  const identity: ServerIdentity = { scope: server.scope, name: server.name };
  if (server.folder !== undefined) identity.folder = server.folder;
  return identity;
}

/** Records every tools listing against the pins and answers what each tool's status is. */
export class ToolReview implements Disposable {
  private readonly changeEmitter = new Emitter<void>();
  /** Fires after a catalog was recorded or a change accepted (statuses may differ). */
  readonly onDidChange: Event<void> = this.changeEmitter.event;
  private readonly subscription: Disposable;
  /** Tools reported new this session, per server id, until reviewed. */
  private readonly newTools = new Map<string, Set<string>>();
  private readonly findings = new WeakMap<ToolInfo, PoisonFinding[]>();
  private readonly recording = new Set<Promise<void>>();
  private disposed = false;

  constructor(private readonly options: ToolReviewOptions) {
    this.subscription = options.onDidChangeCatalog((change) => {
      if (change.kind === 'tools') this.record(change.id);
    });
  }

  /** The status of a tool the server lists now; undefined for a tool it does not list (or a server that is not ready). */
  status(serverId: string, toolName: string): ToolStatus | undefined {
    const view = this.options.get(serverId);
    const tool = view?.catalog.tools.find((candidate) => candidate.name === toolName);
    if (!view || !tool) return undefined;
    return this.statusOf(serverId, view, tool);
  }

  /** The counts over the tools a server lists now. */
  summary(serverId: string): ToolReviewSummary {
    const summary: ToolReviewSummary = { changed: 0, new: 0, flagged: 0, blocked: 0, flaggedTools: [] };
    const view = this.options.get(serverId);
    if (!view) return summary;
    for (const tool of view.catalog.tools) {
      const status = this.statusOf(serverId, view, tool);
      if (status.changed) summary.changed++;
      if (status.new) summary.new++;
      if (status.blocked) summary.blocked++;
      if (status.findings.length > 0) {
        summary.flagged++;
        summary.flaggedTools.push({ name: tool.name, reasons: [...new Set(status.findings.map((finding) => finding.reason))] });
      }
    }
    return summary;
  }

  /** See isToolSuspended(); answered from the pins, so it holds while the server is stopped too. */
  isSuspended(serverId: string, toolName: string): boolean {
    const view = this.options.get(serverId);
    return view !== undefined && isToolSuspended(this.options.pins, serverIdentity(view.server), toolName);
  }

  /** The pinned and the new definition of a changed tool; undefined when it is not changed. */
  pendingChange(serverId: string, toolName: string): PendingToolChange | undefined {
    const view = this.options.get(serverId);
    const pin = view && this.options.pins.pins(serverIdentity(view.server))?.[toolName];
    return pin?.pending ? { old: pin.definition, new: pin.pending.definition } : undefined;
  }

  /** A person reviewed the tool: a changed definition becomes the pin, a new tool stops being new. */
  async accept(serverId: string, toolName: string): Promise<void> {
    const view = this.options.get(serverId);
    if (!view) throw new Error(`No MCP server with the id "${serverId}".`);
    this.newTools.get(serverId)?.delete(toolName);
    await this.options.pins.accept(serverIdentity(view.server), toolName);
    this.fire();
  }

  /** Fires onDidChange (e.g. after the blocking setting changed). */
  refresh(): void {
    this.fire();
  }

  /** Resolves when every recording started so far is done. */
  async idle(): Promise<void> {
    while (this.recording.size > 0) await Promise.all([...this.recording]);
  }

  /** idle() while a recording runs, undefined when none does (the call gate then waits for nothing). */
  settling(): Promise<void> | undefined {
    return this.recording.size > 0 ? this.idle() : undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }

  private statusOf(serverId: string, view: ReviewedServer, tool: ToolInfo): ToolStatus {
    const findings = this.scan(tool);
    return {
      changed: this.options.pins.isChanged(serverIdentity(view.server), tool.name),
      new: this.newTools.get(serverId)?.has(tool.name) ?? false,
      findings,
      blocked: findings.length > 0 && this.options.blockFlagged(),
    };
  }

  private scan(tool: ToolInfo): PoisonFinding[] {
    let found = this.findings.get(tool);
    if (!found) {
      found = scanTool(tool);
      this.findings.set(tool, found);
    }
    return found;
  }

  private record(serverId: string): void {
    const view = this.options.get(serverId);
    // A stopped or crashed server's catalog is emptied: that is no listing, and must not become a baseline.
    if (!view || view.state.kind !== 'ready') return;
    const tools = view.catalog.tools;
    const identity = serverIdentity(view.server);
    const run = this.options.pins.recordCatalog(identity, tools).then((result) => {
      if (this.disposed) return;
      if (result.new.length > 0) {
        const marked = this.newTools.get(serverId) ?? new Set<string>();
        for (const name of result.new) marked.add(name);
        this.newTools.set(serverId, marked);
      }
      this.fire();
    }, (error: unknown) => {
      this.options.onProblem?.(`could not record the tools of ${serverId}: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.recording.add(run);
    void run.finally(() => this.recording.delete(run));
  }

  private fire(): void {
    if (!this.disposed) this.changeEmitter.fire();
  }
}
