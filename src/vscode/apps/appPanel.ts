// An MCP App in a webview panel. The page (webview/app) holds the app in a sandboxed frame with the
// Apps host bridge; this side serves the page under a policy that admits only its own script and
// style, the app's own inline scripts and the origins the app's resource declared, and answers the
// page's requests: a tool call goes through the call gate as caller `app` (approvals and all) and only
// to a tool of the app's own server that lets apps call it; a message for the model and a link are
// shown to the person first.
import * as vscode from 'vscode';
import { appMayCall, cspText, panelDirectives, type AppPolicy } from '../../core/apps';
import type { ToolCallRequest, ToolCallResponse } from '../../core/calls';
import { DisposableStore } from '../../core/disposable';
import type { CallToolResult, ServerView } from '../../core/lifecycle';
import { parseAppPanelMessage, type AppLoad, type AppPanelRequest, type HostToAppPanel } from '../../protocol/appPanel';
import type { RequestMessage } from '../../protocol/rpc';
import { confirm } from '../ui/dialogs';
import { webviewPage } from '../ui/webviewPage';

/** What a panel needs from the extension. */
export interface AppPanelDeps {
  readonly extensionUri: vscode.Uri;
  server(id: string): ServerView | undefined;
  /** The one call path (resolve → decide → ask → send → record). */
  call(request: ToolCallRequest): Promise<ToolCallResponse>;
  /** Puts a message in front of the model (the chat), once the person said yes. */
  sendToModel(text: string): Thenable<unknown>;
  log: vscode.LogOutputChannel;
}

/** One app to show: what the panel page is sent, the policy its frame runs under, and the hashes of its inline scripts. */
export interface AppToShow {
  readonly load: Omit<AppLoad, 'theme' | 'hostVersion'>;
  readonly policy: AppPolicy;
  readonly inlineScriptHashes: readonly string[];
}

export class AppPanel implements vscode.Disposable {
  static readonly viewType = 'switchboard.app';
  private readonly store = new DisposableStore();
  private readonly panel: vscode.WebviewPanel;

  constructor(private readonly deps: AppPanelDeps, private readonly app: AppToShow, hostVersion: string) {
    const { load } = app;
    this.panel = vscode.window.createWebviewPanel(AppPanel.viewType, `${load.tool} app`, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
      enableScripts: true,
      enableCommandUris: false,
      // An app keeps its state while its tab is in the background, as it would in a chat.
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(deps.extensionUri, 'dist'), vscode.Uri.joinPath(deps.extensionUri, 'media')],
    });
    const webview = this.panel.webview;
    const theme = vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.Light || vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.HighContrastLight ? 'light' : 'dark';
    const full: AppLoad = { ...load, theme, hostVersion };
    this.store.add(webview.onDidReceiveMessage((data: unknown) => { void this.onMessage(full, data); }));
    this.store.add(this.panel.onDidDispose(() => this.store.dispose()));
    webview.html = this.html(webview);
  }

  /** Fires when the person closes the panel. */
  get onDidDispose(): vscode.Event<void> {
    return this.panel.onDidDispose;
  }

  dispose(): void {
    this.panel.dispose();
    this.store.dispose();
  }

  private post(message: HostToAppPanel): void {
    void this.panel.webview.postMessage(message);
  }

  private async onMessage(load: AppLoad, data: unknown): Promise<void> {
    const parsed = parseAppPanelMessage(data);
    if (!parsed.ok) {
      if (parsed.id !== undefined) this.post({ type: 'error', id: parsed.id, error: parsed.error });
      return;
    }
    const { message } = parsed;
    if (message.type === 'ready') {
      this.post({ type: 'load', app: load });
      return;
    }
    try {
      this.post(await this.answer(message));
    } catch (error) {
      this.post({ type: 'error', id: message.id, error: { code: 'failed', message: error instanceof Error ? error.message : String(error) } });
    }
  }

  private async answer(request: RequestMessage<AppPanelRequest>): Promise<HostToAppPanel> {
    const { serverId, tool } = this.app.load;
    switch (request.method) {
      case 'callTool': {
        const { name } = request.params;
        const listed = this.deps.server(serverId)?.catalog.tools.find((t) => t.name === name);
        // An app calls the tools of its own server only, and not those the server keeps for the model.
        if (listed !== undefined && !appMayCall(listed)) throw new Error(`${serverId} does not let its apps call ${name}.`);
        this.deps.log.info(`The ${tool} app of ${serverId} calls ${name}.`);
        const { result } = await this.deps.call({ serverId, tool: name, arguments: { ...request.params.arguments }, caller: 'app' });
        return { type: 'response', id: request.id, method: 'callTool', result: result satisfies CallToolResult };
      }
      case 'sendMessage': {
        const { text } = request.params;
        const yes = text.trim() !== '' && await confirm(`The ${tool} app of ${serverId} wants to send this message to the model in the chat:`, text, 'Send to Chat');
        if (yes) await this.deps.sendToModel(text);
        this.deps.log.info(`The ${tool} app of ${serverId} asked to send a message to the model: ${yes ? 'sent' : 'not sent'}.`);
        return { type: 'response', id: request.id, method: 'sendMessage', result: { sent: yes } };
      }
      case 'openLink': {
        const { url } = request.params;
        const web = /^https?:\/\//i.test(url);
        const yes = web && await confirm(`The ${tool} app of ${serverId} wants to open a link in your browser:`, url, 'Open Link');
        if (yes) await vscode.env.openExternal(vscode.Uri.parse(url, true));
        return { type: 'response', id: request.id, method: 'openLink', result: { opened: yes } };
      }
    }
  }

  private html(webview: vscode.Webview): string {
    return webviewPage(webview, this.deps.extensionUri, {
      script: 'appPanel.js', style: 'appPanel.css', title: `${this.app.load.tool} app`,
      // The frame inherits this page's policy (srcdoc): the app's, with the page's own script and style,
      // and inline scripts only by the hashes of the app's own. Both policies hold in the frame.
      csp: (nonce) => cspText(panelDirectives(this.app.policy.directives, {
        scriptNonce: nonce, inlineScriptHashes: this.app.inlineScriptHashes, styleSources: webview.cspSource.split(/\s+/).filter((source) => source !== ''),
      })),
    });
  }
}
