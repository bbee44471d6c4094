// The messages between an MCP App's panel (the webview that holds the app's sandboxed frame and the
// Apps host bridge) and the extension. The app itself never speaks this protocol: it speaks the Apps
// postMessage protocol to the bridge, which relays the two things that leave the panel — a tool call
// and a message for the model — as the requests below.
import { isRecord, isRequestId, type ErrorMessage, type Request, type RequestMessage, type ResponseMessage, type RpcError } from './rpc';

/** A tool result as the protocol has it (the core's CallToolResult fits). */
export interface AppToolResult {
  readonly content: readonly ({ readonly type: string } & Readonly<Record<string, unknown>>)[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/** What the panel shows: the app's document, with the policy its frame runs under already in it. */
export interface AppLoad {
  /** The server and tool the app belongs to, for the panel's header. */
  readonly serverId: string;
  readonly tool: string;
  readonly uri: string;
  /** The frame's document (`srcdoc`): the app's HTML with the frame's Content-Security-Policy first in its head. */
  readonly frameDocument: string;
  /** What the resource declared that the host left out of the policy, with why. */
  readonly refused: readonly string[];
  /** Permissions the resource asked for; none is granted. */
  readonly permissionsAsked: readonly string[];
  /** The call that opened the app, when it was opened from one: sent to the app once it is ready. */
  readonly toolInput?: Readonly<Record<string, unknown>>;
  readonly toolResult?: AppToolResult;
  readonly hostVersion: string;
  readonly theme: 'light' | 'dark';
}

/** The panel's requests to the extension. */
export type AppPanelRequest =
  | Request<'callTool', { readonly name: string; readonly arguments: Readonly<Record<string, unknown>> }, AppToolResult>
  | Request<'sendMessage', { readonly text: string }, { readonly sent: boolean }>
  | Request<'openLink', { readonly url: string }, { readonly opened: boolean }>;

export type AppPanelToHost = { readonly type: 'ready' } | RequestMessage<AppPanelRequest>;
export type HostToAppPanel = { readonly type: 'load'; readonly app: AppLoad } | ResponseMessage<AppPanelRequest> | ErrorMessage;

/** What the extension makes of data the panel posted: a message it may act on, or why not. */
export type ParsedAppPanelMessage =
  | { readonly ok: true; readonly message: AppPanelToHost }
  | { readonly ok: false; readonly id?: number; readonly error: RpcError };

const invalid = (id: number, message: string): ParsedAppPanelMessage => ({ ok: false, id, error: { code: 'invalidParams', message } });

/** Checks data the panel posted and rebuilds it, so the extension never acts on extra or mistyped fields. Never throws. */
export function parseAppPanelMessage(data: unknown): ParsedAppPanelMessage {
  if (!isRecord(data)) return { ok: false, error: { code: 'invalidRequest', message: 'Message is not an object.' } };
  if (data.type === 'ready') return { ok: true, message: { type: 'ready' } };
  if (data.type !== 'request') return { ok: false, error: { code: 'invalidRequest', message: `Unknown message type: ${String(data.type)}.` } };
  const { id, method, params } = data;
  if (!isRequestId(id)) return { ok: false, error: { code: 'invalidRequest', message: 'Request has no valid id.' } };
  if (!isRecord(params)) return invalid(id, 'The params are not an object.');
  switch (method) {
    case 'callTool': {
      if (typeof params.name !== 'string' || params.name === '') return invalid(id, 'callTool needs the tool\'s name.');
      const args = params.arguments ?? {};
      if (!isRecord(args)) return invalid(id, 'callTool\'s arguments are not an object.');
      return { ok: true, message: { type: 'request', id, method, params: { name: params.name, arguments: { ...args } } } };
    }
    case 'sendMessage':
      if (typeof params.text !== 'string') return invalid(id, 'sendMessage needs a text.');
      return { ok: true, message: { type: 'request', id, method, params: { text: params.text } } };
    case 'openLink':
      if (typeof params.url !== 'string') return invalid(id, 'openLink needs a url.');
      return { ok: true, message: { type: 'request', id, method, params: { url: params.url } } };
    default:
      return { ok: false, id, error: { code: 'unknownMethod', message: `Unknown method: ${String(method)}.` } };
  }
}

/** Whether data from the extension is a message of this protocol (the panel checks before acting). */
export function isHostToAppPanel(data: unknown): data is HostToAppPanel {
  if (!isRecord(data)) return false;
  if (data.type === 'load') return isRecord(data.app) && typeof data.app.frameDocument === 'string';
  return (data.type === 'response' || data.type === 'error') && isRequestId(data.id);
}
