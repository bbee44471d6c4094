// Watching the resources a person looks at: a read-only resource document is watched while a tab shows
// it (its content provider is told to read it again when the server says it changed), and the resources
// attached in chat are watched so that the next @mcp request can say which changed. The bookkeeping —
// who watches, what each server was asked, restarts — is core/subscriptions.
import * as vscode from 'vscode';
import { AttachmentChanges, watchRegistry, type ResourceWatches, type WatchableRegistry } from '../../core/subscriptions';
import { parseResourceDocumentUri, RESOURCE_SCHEME } from './resourceDocuments';

export class ResourceWatching implements vscode.Disposable {
  readonly watches: ResourceWatches;
  /** The chat's attachments, watched (the most recent ones). */
  readonly attachments: AttachmentChanges;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** A watched resource document should be read again. */
  readonly onDidChangeDocument = this.changed.event;
  /**
   * The resource documents some tab shows, by their URI, with their watch. Tabs rather than documents:
   * VS Code keeps a document an extension opened for minutes after its last editor closed, and the
   * person's "close" is the tab's.
   */
  private readonly documents = new Map<string, { readonly uri: vscode.Uri; readonly server: string; readonly resource: string; readonly watch: vscode.Disposable }>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(registry: WatchableRegistry) {
    this.watches = watchRegistry(registry);
    this.attachments = new AttachmentChanges(this.watches);
    this.subscriptions = [
      vscode.window.tabGroups.onDidChangeTabs(() => this.followTabs()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.followTabs()),
      this.watches.onDidUpdate(({ server, uri }) => {
        for (const open of this.documents.values()) if (open.server === server && open.resource === uri) this.changed.fire(open.uri);
      }),
    ];
    this.followTabs();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    for (const open of this.documents.values()) open.watch.dispose();
    this.documents.clear();
    this.attachments.dispose();
    this.watches.dispose();
    this.changed.dispose();
  }

  /** Watches the resource documents the tabs show now, and stops watching those no tab shows. */
  private followTabs(): void {
    const shown = new Map<string, vscode.Uri>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        const uris = input instanceof vscode.TabInputText ? [input.uri] : input instanceof vscode.TabInputTextDiff ? [input.original, input.modified] : [];
        for (const uri of uris) if (uri.scheme === RESOURCE_SCHEME) shown.set(uri.toString(), uri);
      }
    }
    for (const [key, open] of this.documents) {
      if (shown.has(key)) continue;
      open.watch.dispose();
      this.documents.delete(key);
    }
    for (const [key, uri] of shown) {
      const ref = parseResourceDocumentUri(uri);
      if (!ref || this.documents.has(key)) continue;
      this.documents.set(key, { uri, server: ref.server, resource: ref.uri, watch: this.watches.watch(ref.server, ref.uri, key) });
    }
  }
}
