// The "Servers" tree: one row per effective server with its lifecycle state (its catalog and the
// entries it shadows as children) and a "Problems" node while any config file has problems. Every
// server row opens the definition it stands for; its actions come from its contextValue.
import * as vscode from 'vscode';
import type { ConfigSnapshot } from '../core/config';
import type { EffectiveServer } from '../core/config/types';
import type { Event as CoreEvent } from '../core/event';
import type { ServerState, ServerView } from '../core/lifecycle';
import type { ToolStatus } from '../core/trust/toolReview';
import type { DangerFlag, TrustDecision } from '../core/trust';
import { buildRows, type Row } from './serverTreeItems';

export { commandLine } from './serverTreeItems';

export const SERVERS_VIEW_ID = 'switchboard.servers';
export const REVEAL_SOURCE_COMMAND = 'switchboard.revealServerSource';

/** What `switchboard.revealServerSource` accepts from a row: a position in a file. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
}

/** One row of the tree as plain data (what tests and the reveal command look at). */
export interface ServerItemData {
  id: string;
  kind: 'server' | 'shadowed' | 'catalog' | 'catalogItem' | 'problems' | 'problem';
  /** The server a server, catalog or catalog item row belongs to. */
  serverId?: string;
  /** Tool rows: the tool's exact name (the label shows hidden characters as escapes). */
  toolName?: string;
  /** Server rows: the lifecycle state kind (`notStarted` while the lifecycle does not know the server). */
  state?: ServerState['kind'] | 'notStarted';
  /** The row's codicon id, e.g. `pass`, `loading~spin`. */
  icon: string;
  label: string;
  description: string;
  tooltip: string;
  contextValue: string;
  /** Where a click on the row goes. */
  location?: SourceLocation;
  children: ServerItemData[];
}

/** What the tree reads the configuration from. */
export interface ConfigSource {
  readonly current: ConfigSnapshot;
  readonly onDidChange: vscode.Event<ConfigSnapshot>;
}

/** What the tree reads the servers' lifecycle from (the ServerRegistry). */
export interface LifecycleSource {
  get(id: string): ServerView | undefined;
  readonly onDidChangeState: CoreEvent<unknown>;
  readonly onDidChangeCatalog: CoreEvent<unknown>;
  readonly onDidChangeServers: CoreEvent<void>;
}

/** What the tree reads about each tool: changed, new, flagged, blocked (the ToolReview). */
export interface ToolStatusSource {
  status(serverId: string, toolName: string): ToolStatus | undefined;
  readonly onDidChange: CoreEvent<void>;
}

/** What the tree reads about trust: each project server's decision and the danger flags of its definition. */
export interface TrustSource {
  decide(server: EffectiveServer): TrustDecision;
  flags(server: EffectiveServer): readonly DangerFlag[];
  readonly onDidChange: CoreEvent<void>;
}

export class ServersTreeProvider implements vscode.TreeDataProvider<Row>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Row | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** The rows as last built; dropped on every config, state or catalog change. */
  private rows: Row[] | undefined;

  constructor(
    private readonly config: ConfigSource, private readonly lifecycle: LifecycleSource, private readonly tools?: ToolStatusSource, private readonly trust?: TrustSource,
    /** Whether OAuth tokens are stored for a remote server (its row then offers Sign Out). */
    private readonly signedIn?: (server: EffectiveServer) => boolean,
  ) {
    const invalidate = (): void => {
      this.rows = undefined;
      this.changed.fire(undefined);
    };
    this.subscriptions = [
      config.onDidChange(invalidate),
      lifecycle.onDidChangeState(invalidate),
      lifecycle.onDidChangeCatalog(invalidate),
      lifecycle.onDidChangeServers(invalidate),
      ...(tools ? [tools.onDidChange(invalidate)] : []),
      ...(trust ? [trust.onDidChange(invalidate)] : []),
    ];
  }

  /** The rows as the tree shows them right now, as plain data. */
  getServerItems(): ServerItemData[] {
    const strip = (row: Row): ServerItemData => ({ ...row.data, icon: row.icon.id, children: row.children.map(strip) });
    return this.currentRows().map(strip);
  }

  getChildren(element?: Row): Row[] {
    return element ? element.children : this.currentRows();
  }

  getTreeItem(row: Row): vscode.TreeItem {
    const collapsible = row.children.length === 0
      ? vscode.TreeItemCollapsibleState.None
      : row.data.kind === 'problems' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(row.data.label, collapsible);
    item.id = row.data.id;
    item.description = row.data.description;
    item.tooltip = row.markdown;
    item.iconPath = row.icon;
    item.contextValue = row.data.contextValue;
    if (row.data.location) {
      item.command = { command: REVEAL_SOURCE_COMMAND, title: 'Open Server Definition', arguments: [row.data.location] };
    }
    return item;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }

  private currentRows(): Row[] {
    this.rows ??= buildRows(this.config.current, this.lifecycle, this.tools, this.trust, this.signedIn);
    return this.rows;
  }
}
