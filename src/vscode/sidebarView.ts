// The sidebar webview view: serves the page, posts full snapshots when the page can receive them,
// and answers the page's requests. What a request does is up to the handlers it is given.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import { DisposableStore } from '../core/disposable';
import type { ErrorMessage, RequestMessage, RpcError } from '../protocol/rpc';
import type { SidebarSnapshot } from '../protocol/sidebar';
import type { ApprovalMode } from '../protocol/approvals';
import {
  parseWebviewMessage,
  type AnswerApprovalParams, type AnswerElicitationParams, type AnswerHeldOutputParams, type AnswerSamplingParams, type CheckArgumentsParams, type ElicitationProblemsResult, type ElicitationValuesParams, type CheckArgumentsResult, type HostToWebviewMessage, type OpenDiffParams,
  type OpenSourceParams, type ServerActionParams, type SidebarCommand, type SidebarRequest,
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
  /** Settles a pending approval with the person's answer (throws when it is no longer pending). */
  answerApproval(params: AnswerApprovalParams): Promise<void> | void;
  /** Checks a card's edited arguments against the tool's schema and previews them again. */
  checkArguments(params: CheckArgumentsParams): Promise<CheckArgumentsResult> | CheckArgumentsResult;
  /** Opens VS Code's diff editor for one change of a card's call. */
  openDiff(params: OpenDiffParams): Promise<void> | void;
  revokeRule(ruleId: string): Promise<void> | void;
  setApprovalMode(mode: ApprovalMode): Promise<void> | void;
  exportHistory(): Promise<void> | void;
  clearHistory(): Promise<void> | void;
  /** Checks a form elicitation's inputs; the problems at their fields. */
  checkElicitation(params: ElicitationValuesParams): Promise<ElicitationProblemsResult> | ElicitationProblemsResult;
  /** Answers an elicitation; a form with problems is not sent (they come back instead). */
  answerElicitation(params: AnswerElicitationParams): Promise<ElicitationProblemsResult> | ElicitationProblemsResult;
  /** Answers a sampling request (throws when it no longer waits). */
  answerSampling(params: AnswerSamplingParams): Promise<void> | void;
  /** Releases or withholds a held tool result (throws when it no longer waits). */
  answerHeldOutput(params: AnswerHeldOutputParams): Promise<void> | void;
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
    const reply = await this.respond(request);
    // A reply to a page that has since reloaded would hit a request of the new page with the same id.
    if (session === this.session) this.post(reply);
  }

  /**
   * Checks raw message data as if the page had posted it and answers it (tests drive the typed
   * protocol through this; the page's own requests take the same path).
   */
  async respondTo(data: unknown): Promise<HostToWebviewMessage | undefined> {
    const parsed = parseWebviewMessage(data);
    if (!parsed.ok) return parsed.id !== undefined ? errorReply(parsed.id, parsed.error) : undefined;
    return parsed.message.type === 'request' ? this.respond(parsed.message) : undefined;
  }

  /** Runs a request's handler and says what to reply. */
  private async respond(request: RequestMessage<SidebarRequest>): Promise<HostToWebviewMessage> {
    try {
      switch (request.method) {
        case 'openSource': {
          const invalid = this.checkOpenSource(request.params);
          if (invalid) {
            return errorReply(request.id, { code: 'invalidParams', message: invalid });
          }
          await this.handlers.openSource(request.params);
          return { type: 'response', id: request.id, method: request.method, result: null };
        }
        case 'runCommand':
          await this.handlers.runCommand(request.params.command);
          return { type: 'response', id: request.id, method: request.method, result: null };
        case 'serverAction':
          if (!this.source.snapshot().servers.some((s) => s.id === request.params.serverId)) {
            return errorReply(request.id, { code: 'invalidParams', message: `The server "${request.params.serverId}" is no longer configured.` });
          }
          await this.handlers.serverAction(request.params);
          return { type: 'response', id: request.id, method: request.method, result: null };
        case 'answerApproval':
          await this.handlers.answerApproval(request.params);
          return { type: 'response', id: request.id, method: request.method, result: null };
        case 'checkArguments':
          return { type: 'response', id: request.id, method: request.method, result: await this.handlers.checkArguments(request.params) };
        case 'openDiff':
          await this.handlers.openDiff(request.params);
          return { type: 'response', id: request.id, method: request.method, result: null };
        case 'revokeRule':
          await this.handlers.revokeRule(request.params.ruleId);
          return { type: 'response', id: request.id, method: request.method, result: null };
        case 'setApprovalMode':
          await this.handlers.setApprovalMode(request.params.mode);
          return { type: 'response', id: request.id, method: request.method, result: null };
        case 'exportHistory':
          await this.handlers.exportHistory();
          return { type: 'response', id: request.id, method: request.method, result: null };
        case 'clearHistory':
          await this.handlers.clearHistory();
          return { type: 'response', id: request.id, method: request.method, result: null };
        case 'checkElicitation':
          return { type: 'response', id: request.id, method: request.method, result: await this.handlers.checkElicitation(request.params) };
        case 'answerElicitation':
          return { type: 'response', id: request.id, method: request.method, result: await this.handlers.answerElicitation(request.params) };
        case 'answerSampling':
          await this.handlers.answerSampling(request.params);
          return { type: 'response', id: request.id, method: request.method, result: null };
        case 'answerHeldOutput':
          await this.handlers.answerHeldOutput(request.params);
          return { type: 'response', id: request.id, method: request.method, result: null };
        default:
          return assertNever(request);
      }
    } catch (error) {
      return errorReply(request.id, { code: 'failed', message: error instanceof Error ? error.message : String(error) });
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
