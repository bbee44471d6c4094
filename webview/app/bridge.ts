// The Apps host bridge between the app's frame and the extension: the project's AppBridge speaks the
// Apps postMessage protocol with the frame (and only with it: the transport takes messages from the
// frame's window alone); what leaves the panel — a tool call, a message for the model, a link — is
// relayed to the extension, which puts it through the call gate or before the person.
//
// A tool call may wait on an approval card for minutes, but the app's side of the protocol gives up on
// a request after 60 s (the SDK's default request timeout) unless it hears progress: the App's
// callServerTool asks for progress and resets its timeout on each notification. So while a call is
// pending the bridge sends progress every few seconds. An app that does not reset on progress, or set
// a shorter limit of its own, still gives up (it sends notifications/cancelled); then the call goes on —
// the person may approve it — and the panel is told, with the result, since the app will never get it.
import { AppBridge, PostMessageTransport, type McpUiHostCapabilities } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Transport } from '@modelcontextprotocol/client';
import type { AppLoad, AppPanelRequest, AppToolResult } from '../../src/protocol/appPanel';

/** Sends one request to the extension and resolves with its result. */
export type Relay = <M extends AppPanelRequest['method']>(
  method: M, params: Extract<AppPanelRequest, { method: M }>['params'],
) => Promise<Extract<AppPanelRequest, { method: M }>['result']>;

/** A call the app stopped waiting for before it ended: what the panel tells the person. */
export interface AbandonedCall {
  readonly tool: string;
  /** From the app's request to its cancellation. */
  readonly waitedMs: number;
  /** How the call ended after that: its result, or the error the extension answered. */
  readonly result: AppToolResult;
}

export interface BridgeEvents {
  onSize(height: number): void;
  onAbandoned(call: AbandonedCall): void;
}

/** How often a pending tool call reports progress to the app: well inside any limit an app sets. */
export const KEEP_ALIVE_MS = 2000;

/** What the host offers the app: its server's tools, messages to the model (text), and links. */
const CAPABILITIES: McpUiHostCapabilities = { serverTools: {}, message: { text: {} }, openLinks: {} };

type CallToolHandler = NonNullable<AppBridge['oncalltool']>;
type CallToolContext = Parameters<CallToolHandler>[1];
type CallToolResult = Awaited<ReturnType<CallToolHandler>>;

/** Connects a bridge to `frame` (before its document loads, so the app's `ui/initialize` is heard). */
export async function connectBridge(frame: HTMLIFrameElement, app: AppLoad, relay: Relay, events: BridgeEvents): Promise<AppBridge> {
  const target = frame.contentWindow;
  if (target === null) throw new Error('the app frame has no window');
  return connectBridgeTo(new PostMessageTransport(target, target), app, relay, events);
}

/** Connects a bridge over any transport (the frame's, or an in-memory one in tests). */
export async function connectBridgeTo(transport: Transport, app: AppLoad, relay: Relay, events: BridgeEvents, keepAliveMs = KEEP_ALIVE_MS): Promise<AppBridge> {
  const bridge = new AppBridge(null, { name: 'MCP Switchboard', version: app.hostVersion }, CAPABILITIES, {
    hostContext: { theme: app.theme, displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'desktop' },
  });
  bridge.oncalltool = (params, context) => callTool(params, context, relay, events, keepAliveMs);
  bridge.onmessage = async (params) => {
    const text = params.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    const { sent } = await relay('sendMessage', { text });
    return sent ? {} : { isError: true };
  };
  bridge.onopenlink = async ({ url }) => {
    const { opened } = await relay('openLink', { url });
    return opened ? {} : { isError: true };
  };
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number') events.onSize(height);
  };
  bridge.oninitialized = () => {
    if (app.toolInput !== undefined) void bridge.sendToolInput({ arguments: { ...app.toolInput } });
    if (app.toolResult !== undefined) void bridge.sendToolResult(app.toolResult as AppToolResult as Parameters<AppBridge['sendToolResult']>[0]);
  };
  await bridge.connect(transport);
  return bridge;
}

async function callTool(params: Parameters<CallToolHandler>[0], context: CallToolContext, relay: Relay, events: BridgeEvents, keepAliveMs: number): Promise<CallToolResult> {
  const started = Date.now();
  const { signal } = context.mcpReq;
  let abandonedAfter: number | undefined;
  const stopKeepAlive = keepAlive(context, keepAliveMs);
  const onAbort = (): void => {
    abandonedAfter = Date.now() - started;
    stopKeepAlive();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  let result: AppToolResult;
  try {
    result = await relay('callTool', { name: params.name, arguments: params.arguments ?? {} });
  } catch (error) {
    if (abandonedAfter !== undefined) {
      const message = error instanceof Error ? error.message : String(error);
      events.onAbandoned({ tool: params.name, waitedMs: abandonedAfter, result: { content: [{ type: 'text', text: message }], isError: true } });
    }
    throw error;
  } finally {
    stopKeepAlive();
    signal.removeEventListener('abort', onAbort);
  }
  if (abandonedAfter !== undefined) events.onAbandoned({ tool: params.name, waitedMs: abandonedAfter, result });
  return result as CallToolResult;
}

/** Sends progress for the request until stopped; nothing when the app gave no progress token. */
function keepAlive(context: CallToolContext, intervalMs: number): () => void {
  const progressToken = context.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return () => undefined;
  let progress = 0;
  const timer = setInterval(() => {
    progress += 1;
    context.mcpReq.notify({
      method: 'notifications/progress',
      params: { progressToken, progress, message: 'The call is waiting (for its approval or its server).' },
    }).catch(() => undefined); // the app went away: the call's own outcome is reported as usual
  }, intervalMs);
  return () => clearInterval(timer);
}
