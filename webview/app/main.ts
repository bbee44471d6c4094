// The MCP App panel's page: asks the extension for the app, shows it in a sandboxed frame (scripts
// only, no same origin: it reaches neither this page, nor VS Code's webview API, nor storage), and
// connects the Apps host bridge to it. The page's own policy admits nothing but its script, its style,
// the app's own inline scripts and the app's declared origins; the frame's document, built by the
// extension, carries the app's own policy first in its head.
import { isHostToAppPanel, type AppLoad, type AppPanelRequest, type HostToAppPanel } from '../../src/protocol/appPanel';
import { renderAbandonedCall } from './abandonedCall';
import { connectBridge, type Relay } from './bridge';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

const vscode = acquireVsCodeApi();
const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
let nextId = 1;
let frame: HTMLIFrameElement | undefined;

const relay: Relay = (method, params) => new Promise((resolve, reject) => {
  const id = nextId++;
  pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
  vscode.postMessage({ type: 'request', id, method, params } satisfies { type: 'request'; id: number; method: AppPanelRequest['method']; params: unknown });
});

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  // The app posts to this window too: its messages are the bridge's, never the extension's.
  if (frame !== undefined && event.source === frame.contentWindow) return;
  if (!isHostToAppPanel(event.data)) return;
  onHostMessage(event.data);
});
vscode.postMessage({ type: 'ready' });

function onHostMessage(message: HostToAppPanel): void {
  switch (message.type) {
    case 'load':
      if (frame === undefined) show(message.app);
      return;
    case 'response':
      pending.get(message.id)?.resolve(message.result);
      pending.delete(message.id);
      return;
    case 'error':
      pending.get(message.id)?.reject(new Error(message.error.message));
      pending.delete(message.id);
      return;
  }
}

function show(app: AppLoad): void {
  const root = document.getElementById('app');
  if (root === null) return;
  const header = document.createElement('header');
  const title = document.createElement('h1');
  title.textContent = `${app.tool} — ${app.serverId}`;
  const where = document.createElement('p');
  where.className = 'uri';
  where.textContent = app.uri;
  header.append(title, where);
  const notes = [
    ...app.refused.map((r) => `Not allowed: ${r}.`),
    ...(app.permissionsAsked.length > 0 ? [`Not granted: ${app.permissionsAsked.join(', ')}.`] : []),
  ];
  if (notes.length > 0) {
    const list = document.createElement('ul');
    list.className = 'refused';
    list.dataset.testid = 'app-refused';
    for (const note of notes) {
      const item = document.createElement('li');
      item.textContent = note;
      list.append(item);
    }
    header.append(list);
  }
  const status = document.createElement('p');
  status.className = 'status';
  status.dataset.testid = 'app-status';
  // Calls the app stopped waiting for, newest first, between the header and the frame.
  const abandoned = document.createElement('section');
  abandoned.className = 'abandoned-calls';
  frame = document.createElement('iframe');
  // Scripts run in the frame, in an origin of its own: no allow-same-origin, no forms, popups or navigation of this page.
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.title = `${app.tool} app`;
  frame.dataset.testid = 'app-frame';
  root.replaceChildren(header, status, abandoned, frame);
  const shown = frame;
  // The bridge listens before the document loads: the app's first message is its ui/initialize.
  connectBridge(shown, app, relay, {
    onSize: (height) => { shown.style.height = `${Math.max(120, Math.ceil(height))}px`; },
    onAbandoned: (call) => { abandoned.prepend(renderAbandonedCall(call)); },
  })
    .then(() => { status.textContent = ''; })
    .catch((error: unknown) => { status.textContent = `The app's bridge failed: ${error instanceof Error ? error.message : String(error)}`; });
  shown.srcdoc = app.frameDocument;
}
