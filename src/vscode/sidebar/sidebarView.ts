// The sidebar webview view: serves the page, posts full snapshots when the page can receive them,
// and answers the page's requests. What a request does is up to the handlers it is given.
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposable';
import type { ErrorMessage, RequestMessage, RpcError } from '../../protocol/rpc';
import type { SidebarSnapshot } from '../../protocol/sidebar';
import type { CheckedSidebarRequest, HostToWebviewMessage, OpenSourceParams, SidebarHandlers } from '../../protocol/sidebarMessages';
import { webviewPage } from '../ui/webviewPage';

export type { SidebarHandlers } from '../../protocol/sidebarMessages';

/** Where the view's data comes from: the current snapshot, and an event when it may have changed. */
export interface SidebarSource {
  readonly onDidChange: (listener: () => void) => vscode.Disposable;
  snapshot(): SidebarSnapshot;
}

type SidebarProtocol = typeof import('../../protocol/sidebarDispatch');
let protocolLoading: Promise<SidebarProtocol> | undefined;

/**
 * The checks of the page's messages (their schemas) and the dispatch, imported with the first message
 * (the page's `ready`): not at activation. Messages keep their order: each waits on the same promise.
 */
function sidebarProtocol(): Promise<SidebarProtocol> {
  protocolLoading ??= import('../../protocol/sidebarDispatch').catch((error: unknown) => {
    protocolLoading = undefined;
    throw error;
  });
  return protocolLoading;
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
  private badge: vscode.ViewBadge | undefined;
  /** The card the chat asked to show, posted once the page can receive it. */
  private revealWanted: string | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly source: SidebarSource,
    private readonly handlers: SidebarHandlers,
    /** The page's lifecycle at trace level: what a blank view in a bug report needs. */
    private readonly trace: (line: string) => void = () => {},
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
    this.trace(`sidebar: view resolved (visible: ${view.visible})`);

    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    store.add(view.webview.onDidReceiveMessage((data: unknown) => this.onMessage(view, data)));
    store.add(view.onDidChangeVisibility(() => {
      this.trace(`sidebar: visible ${view.visible}`);
      this.postSnapshot();
    }));
    store.add(view.onDidDispose(() => {
      if (this.view === view) {
        this.view = undefined;
        this.viewStore = undefined;
        this.session = 0;
      }
      store.dispose();
    }));
    view.badge = this.badge;
    view.webview.html = this.html(view.webview);
  }

  /** Whether the page is on screen now. */
  get visible(): boolean {
    return this.view?.visible === true;
  }

  /** Brings the view on screen without taking the keyboard focus from where the person types. */
  async reveal(): Promise<void> {
    if (this.view !== undefined) this.view.show(true);
    // Never shown in this window yet: the view's own focus command creates and shows it.
    else await vscode.commands.executeCommand(`${SidebarViewProvider.viewId}.focus`);
  }

  /**
   * Shows the view with the keyboard focus in it, and has the page scroll to this waiting card and
   * focus its first button (the chat's "Show the approval card").
   */
  async revealApproval(approvalId: string): Promise<void> {
    this.revealWanted = approvalId;
    // The view's own focus command creates it when needed, shows it, and moves the focus into it.
    await vscode.commands.executeCommand(`${SidebarViewProvider.viewId}.focus`);
    this.postReveal();
  }

  /** The count on the view (and on its container in the activity bar); 0 clears it. */
  setBadge(count: number, tooltip: string): void {
    this.badge = count > 0 ? { value: count, tooltip } : undefined;
    if (this.view !== undefined) this.view.badge = this.badge;
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
    const session = this.session;
    void this.view.webview.postMessage({ type: 'snapshot', snapshot: this.source.snapshot() } satisfies HostToWebviewMessage).then(
      (delivered) => this.trace(`sidebar: snapshot for session ${session} ${delivered ? 'delivered' : 'not delivered'}`),
      (error: unknown) => this.trace(`sidebar: snapshot for session ${session} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    // After the snapshot: the page scrolls once the card it names is drawn.
    this.postReveal();
  }

  /** Posts the wanted reveal to a page that said `ready` and is on screen; kept until then. */
  private postReveal(): void {
    if (this.revealWanted === undefined || this.session === 0 || !this.view?.visible) return;
    const approvalId = this.revealWanted;
    this.revealWanted = undefined;
    this.post({ type: 'reveal', approvalId });
  }

  private post(message: HostToWebviewMessage): void {
    // Resolves false when the view is gone or hidden; the next `ready` or visibility change resends.
    void this.view?.webview.postMessage(message);
  }

  private onMessage(view: vscode.WebviewView, data: unknown): void {
    if (isReady(data)) this.trace('sidebar: the page says ready');
    void sidebarProtocol().then((protocol) => this.handleMessage(view, protocol, data));
  }

  private handleMessage(view: vscode.WebviewView, protocol: SidebarProtocol, data: unknown): void {
    if (view !== this.view) return;
    const parsed = protocol.parseWebviewMessage(data);
    if (!parsed.ok) {
      if (parsed.id !== undefined) this.post(errorReply(parsed.id, parsed.error));
      return;
    }
    const { message } = parsed;
    switch (message.type) {
      case 'ready':
        // Also sent again when VS Code reloads a hidden page (without retainContextWhenHidden).
        this.session++;
        this.trace(`sidebar: page ready (session ${this.session}, visible: ${view.visible})`);
        this.postSnapshot();
        return;
      case 'request':
        void this.handleRequest(protocol, message, this.session);
        return;
      default:
        assertNever(message);
    }
  }

  private async handleRequest(protocol: SidebarProtocol, request: RequestMessage<CheckedSidebarRequest>, session: number): Promise<void> {
    const reply = await this.respond(protocol, request);
    // A reply to a page that has since reloaded would hit a request of the new page with the same id.
    if (session === this.session) this.post(reply);
  }

  /**
   * Checks raw message data as if the page had posted it and answers it (tests drive the typed
   * protocol through this; the page's own requests take the same path).
   */
  async respondTo(data: unknown): Promise<HostToWebviewMessage | undefined> {
    const protocol = await sidebarProtocol();
    const parsed = protocol.parseWebviewMessage(data);
    if (!parsed.ok) return parsed.id !== undefined ? errorReply(parsed.id, parsed.error) : undefined;
    return parsed.message.type === 'request' ? this.respond(protocol, parsed.message) : undefined;
  }

  /** Runs a request's handler and says what to reply. */
  private async respond(protocol: SidebarProtocol, request: RequestMessage<CheckedSidebarRequest>): Promise<HostToWebviewMessage> {
    const refused = this.refusal(request);
    if (refused !== undefined) return errorReply(request.id, { code: 'invalidParams', message: refused });
    return protocol.dispatchSidebarRequest(this.handlers, request);
  }

  /** Why the current state refuses a well-formed request (a server that is gone, a file that is not ours), if it does. */
  private refusal(request: RequestMessage<CheckedSidebarRequest>): string | undefined {
    switch (request.method) {
      case 'openSource': return this.checkOpenSource(request.params);
      case 'serverAction':
        return this.source.snapshot().servers.some((s) => s.id === request.params.serverId)
          ? undefined
          : `The server "${request.params.serverId}" is no longer configured.`;
      default: return undefined;
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
    return webviewPage(webview, this.extensionUri, {
      script: 'webview.js', style: 'sidebar.css', title: 'MCP Switchboard', rootAttributes: 'aria-busy="true"',
      csp: (nonce) => [
        `default-src 'none'`,
        `script-src 'nonce-${nonce}'`,
        // vscode-elements style their shadow roots with constructable stylesheets, which CSP does not govern.
        `style-src ${webview.cspSource}`,
        `font-src ${webview.cspSource}`,
        `img-src ${webview.cspSource} data:`,
      ].join('; '),
    });
  }
}

function isReady(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'ready';
}

function errorReply(id: number, error: RpcError): ErrorMessage {
  return { type: 'error', id, error };
}

function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
