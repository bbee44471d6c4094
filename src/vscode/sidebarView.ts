// The sidebar webview view: serves the page, posts full snapshots when the page can receive them,
// and answers the page's requests. What a request does is up to the handlers it is given.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import { DisposableStore } from '../core/disposable';
import type { ErrorMessage, RequestMessage, RpcError } from '../protocol/rpc';
import type { SidebarSnapshot } from '../protocol/sidebar';
import {
  parseWebviewMessage,
  type HostToWebviewMessage, type OpenSourceParams, type ServerActionParams, type SidebarCommand, type SidebarRequest,
} from '../protocol/sidebarMessages';

/** Where the view's data comes from: the current snapshot, and an event when it may have changed. */
export interface SidebarSource {
  readonly onDidChange: (listener: () => void) => vscode.Disposable;
  snapshot(): SidebarSnapshot;
}

/** What the view's requests do. A thrown error is shown in the view. */
export interface SidebarHandlers {
  /** Opens a server's definition (look up its current source by id) or an exact file position. */
  openSource(params: OpenSourceParams): Promise<void> | void;
  /** Runs `switchboard.<command>`. */
  runCommand(command: SidebarCommand): Promise<void> | void;
  /** Starts, stops or restarts a server, or shows its log. */
  serverAction(params: ServerActionParams): Promise<void> | void;
}

/** Changes that arrive together (a server's four catalog kinds, say) are posted as one snapshot. */
const POST_DELAY_MS = 30;

export class SidebarViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'switchboard.sidebar';

  private readonly store = new DisposableStore();
  /** Listeners of the current view; replaced when VS Code resolves the view again. */
  private viewStore: DisposableStore | undefined;
  private view: vscode.WebviewView | undefined;
  /** Counts `ready` handshakes of the current view. 0: the page has not said it listens yet. */
  private session = 0;
  private postTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly source: SidebarSource,
    private readonly handlers: SidebarHandlers,
  ) {
    // A hidden view drops messages; it gets a full snapshot when it becomes visible instead.
    this.store.add(source.onDidChange(() => this.schedulePost()));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.viewStore?.dispose();
    const store = new DisposableStore();
    this.viewStore = store;
    this.view = view;
    this.session = 0;

    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    store.add(view.webview.onDidReceiveMessage((data: unknown) => this.onMessage(view, data)));
    store.add(view.onDidChangeVisibility(() => this.postSnapshot()));
    store.add(view.onDidDispose(() => {
      if (this.view === view) {
        this.view = undefined;
        this.viewStore = undefined;
        this.session = 0;
      }
      store.dispose();
    }));
    view.webview.html = this.html(view.webview);
  }

  dispose(): void {
    clearTimeout(this.postTimer);
    this.store.dispose();
    this.viewStore?.dispose();
    this.viewStore = undefined;
    this.view = undefined;
  }

  private schedulePost(): void {
    if (this.postTimer !== undefined) return;
    this.postTimer = setTimeout(() => {
      this.postTimer = undefined;
      this.postSnapshot();
    }, POST_DELAY_MS);
  }

  /** Posts the full state, but only to a page that said `ready` and only while it can receive it. */
  private postSnapshot(): void {
    if (this.session === 0 || !this.view?.visible) return;
    this.post({ type: 'snapshot', snapshot: this.source.snapshot() });
  }

  private post(message: HostToWebviewMessage): void {
    // Resolves false when the view is gone or hidden; the next `ready` or visibility change resends.
    void this.view?.webview.postMessage(message);
  }

  private onMessage(view: vscode.WebviewView, data: unknown): void {
    if (view !== this.view) return;
    const parsed = parseWebviewMessage(data);
    if (!parsed.ok) {
      if (parsed.id !== undefined) this.post(errorReply(parsed.id, parsed.error));
      return;
    }
    const { message } = parsed;
    switch (message.type) {
      case 'ready':
        // Also sent again when VS Code reloads a hidden page (without retainContextWhenHidden).
        this.session++;
        this.postSnapshot();
        return;
      case 'request':
        void this.handleRequest(message, this.session);
        return;
      default:
        assertNever(message);
    }
  }

  private async handleRequest(request: RequestMessage<SidebarRequest>, session: number): Promise<void> {
    // A reply to a page that has since reloaded would hit a request of the new page with the same id.
    const reply = (message: HostToWebviewMessage): void => {
      if (session === this.session) this.post(message);
    };
    try {
      switch (request.method) {
        case 'openSource': {
          const invalid = this.checkOpenSource(request.params);
          if (invalid) {
            reply(errorReply(request.id, { code: 'invalidParams', message: invalid }));
            return;
          }
          await this.handlers.openSource(request.params);
          reply({ type: 'response', id: request.id, method: request.method, result: null });
          return;
        }
        case 'runCommand':
          await this.handlers.runCommand(request.params.command);
          reply({ type: 'response', id: request.id, method: request.method, result: null });
          return;
        case 'serverAction':
          if (!this.source.snapshot().servers.some((s) => s.id === request.params.serverId)) {
            reply(errorReply(request.id, { code: 'invalidParams', message: `The server "${request.params.serverId}" is no longer configured.` }));
            return;
          }
          await this.handlers.serverAction(request.params);
          reply({ type: 'response', id: request.id, method: request.method, result: null });
          return;
        default:
          assertNever(request);
      }
    } catch (error) {
      reply(errorReply(request.id, { code: 'failed', message: error instanceof Error ? error.message : String(error) }));
    }
  }

  /**
   * The page may only open what the current configuration shows: a known server id, or a file
   * that a server, a shadowed entry or a problem points into.
   */
  private checkOpenSource(params: OpenSourceParams): string | undefined {
    const snapshot = this.source.snapshot();
    switch (params.target) {
      case 'server':
        return snapshot.servers.some((s) => s.id === params.serverId)
          ? undefined
          : `The server "${params.serverId}" is no longer configured.`;
      case 'location': {
        const known = new Set<string>([
          ...snapshot.servers.map((s) => s.source.file),
          ...snapshot.shadowed.flatMap((s) => [s.source.file, s.shadowedBy.file]),
          ...snapshot.problems.map((p) => p.file),
        ]);
        return known.has(params.file) ? undefined : `${params.file} is not a servers file of this workspace.`;
      }
      default:
        return assertNever(params);
    }
  }

  private html(webview: vscode.Webview): string {
    const nonce = crypto.randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'sidebar.css'));
    const csp = [
      `default-src 'none'`,
      `script-src 'nonce-${nonce}'`,
      // vscode-elements style their shadow roots with constructable stylesheets, which CSP does not govern.
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>MCP Switchboard</title>
</head>
<body>
<main id="app" aria-busy="true"></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
  }
}

function errorReply(id: number, error: RpcError): ErrorMessage {
  return { type: 'error', id, error };
}

function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
