// The Apps host bridge between the app's frame and the extension: the project's AppBridge speaks the
// Apps postMessage protocol with the frame (and only with it: the transport takes messages from the
// frame's window alone); what leaves the panel — a tool call, a message for the model, a link — is
// relayed to the extension, which puts it through the call gate or before the person.
import { AppBridge, PostMessageTransport, type McpUiHostCapabilities } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppLoad, AppPanelRequest, AppToolResult } from '../../src/protocol/appPanel';

/** Sends one request to the extension and resolves with its result. */
export type Relay = <M extends AppPanelRequest['method']>(
  method: M, params: Extract<AppPanelRequest, { method: M }>['params'],
) => Promise<Extract<AppPanelRequest, { method: M }>['result']>;

/** What the host offers the app: its server's tools, messages to the model (text), and links. */
const CAPABILITIES: McpUiHostCapabilities = { serverTools: {}, message: { text: {} }, openLinks: {} };

/** Connects a bridge to `frame` (before its document loads, so the app's `ui/initialize` is heard). */
export async function connectBridge(frame: HTMLIFrameElement, app: AppLoad, relay: Relay, onSize: (height: number) => void): Promise<AppBridge> {
  const target = frame.contentWindow;
  if (target === null) throw new Error('the app frame has no window');
  const bridge = new AppBridge(null, { name: 'MCP Switchboard', version: app.hostVersion }, CAPABILITIES, {
    hostContext: { theme: app.theme, displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'desktop' },
  });
  bridge.oncalltool = async (params) => {
    const result = await relay('callTool', { name: params.name, arguments: params.arguments ?? {} });
    return result as Awaited<ReturnType<NonNullable<AppBridge['oncalltool']>>>;
  };
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
    if (typeof height === 'number') onSize(height);
  };
  bridge.oninitialized = () => {
    if (app.toolInput !== undefined) void bridge.sendToolInput({ arguments: { ...app.toolInput } });
    if (app.toolResult !== undefined) void bridge.sendToolResult(app.toolResult as AppToolResult as Parameters<AppBridge['sendToolResult']>[0]);
  };
  await bridge.connect(new PostMessageTransport(target, target));
  return bridge;
}
