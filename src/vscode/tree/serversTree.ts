// The "Servers" tree: one row per effective server with its lifecycle state (its catalog and the
// entries it shadows as children) and a "Problems" node while any config file has problems. Every
// server row opens the definition it stands for; its actions come from its contextValue.
import * as vscode from 'vscode';
import type { EffectiveServer } from '../../core/config/types';
import { buildRows } from './serverTreeItems';
import { groupSkillRows } from './skillTreeRows';
import {
  REVEAL_SOURCE_COMMAND, type ConfigSource, type LifecycleSource, type Row, type ServerItemData, type ToolStatusSource, type TrustSource,
} from './treeModel';

export { REVEAL_SOURCE_COMMAND, type ServerItemData, type SourceLocation } from './treeModel';

export const SERVERS_VIEW_ID = 'switchboard.servers';

export class ServersTreeProvider implements vscode.TreeDataProvider<Row>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Row | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** The rows as last built; dropped on every config, state or catalog change. */
  private rows: Row[] | undefined;
  /**
   * Ids of the rows a person expanded. A server row loses its children while it restarts (no catalog
   * until it is ready again); when they come back it is shown expanded again, as it was left.
   */
  private readonly expanded = new Set<string>();

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

  /** Creates the Servers view on this provider and follows what a person expands and collapses in it. */
  createView(viewId: string): vscode.Disposable {
    const view = vscode.window.createTreeView(viewId, { treeDataProvider: this, showCollapseAll: true });
    return vscode.Disposable.from(
      view,
      view.onDidExpandElement(({ element }) => this.expanded.add(element.data.id)),
      view.onDidCollapseElement(({ element }) => this.expanded.delete(element.data.id)),
    );
  }

  getTreeItem(row: Row): vscode.TreeItem {
    // Ids are stable across reloads and restarts (server:<id>, catalog:<id>:<kind>…), so VS Code keeps
    // a row's expansion; a row whose children went away and came back is expanded again from ours.
    const collapsible = row.children.length === 0
      ? vscode.TreeItemCollapsibleState.None
      : row.data.kind === 'problems' || this.expanded.has(row.data.id)
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed;
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
    this.rows ??= groupSkillRows(buildRows(this.config.current, this.lifecycle, this.tools, this.trust, this.signedIn), this.config.current.servers);
    return this.rows;
  }
}
