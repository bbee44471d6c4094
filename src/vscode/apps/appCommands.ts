// "Open App…": shows a tool's MCP App (its `ui://` resource) in a panel. The chat's "Open <tool> app"
// button runs it with the call that named the app (`{ serverId, tool, arguments, result }`: the app
// gets them once it is ready); from the palette it offers the ready servers' tools that have an app.
import * as vscode from 'vscode';
import { appDocument, appPolicy, callAppUri, cspText, frameDocument, toolAppUri } from '../../core/apps';
import type { ToolCallRequest, ToolCallResponse } from '../../core/calls';
import type { CallToolResult, ServerView } from '../../core/lifecycle';
import { notifyError, notifyInfo } from '../ui/notify';
import { AppPanel } from './appPanel';

export const OPEN_APP_COMMAND = 'switchboard.openApp';

/** What the chat button passes (and any caller may). */
export interface OpenAppArgs {
  serverId: string;
  tool: string;
  arguments?: Record<string, unknown>;
  result?: CallToolResult;
}

export interface AppCommandDeps {
  readonly extensionUri: vscode.Uri;
  readonly hostVersion: string;
  servers(): ServerView[];
  readResource(serverId: string, uri: string): Promise<{ contents: ({ uri: string; mimeType?: string } & Record<string, unknown>)[] }>;
  call(request: ToolCallRequest): Promise<ToolCallResponse>;
  log: vscode.LogOutputChannel;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The arguments the command was given, if they are well formed. */
function openAppArgs(value: unknown): OpenAppArgs | undefined {
  if (!isRecord(value) || typeof value.serverId !== 'string' || typeof value.tool !== 'string') return undefined;
  const args = isRecord(value.arguments) ? value.arguments : undefined;
  const result = isRecord(value.result) && Array.isArray(value.result.content) ? value.result as unknown as CallToolResult : undefined;
  return { serverId: value.serverId, tool: value.tool, ...(args ? { arguments: args } : {}), ...(result ? { result } : {}) };
}

export function registerAppCommands(deps: AppCommandDeps): vscode.Disposable {
  const panels = new Set<AppPanel>();
  return vscode.Disposable.from(
    vscode.commands.registerCommand(OPEN_APP_COMMAND, async (given?: unknown): Promise<boolean> => {
      const args = given === undefined ? await pickApp(deps) : openAppArgs(given);
      if (args === undefined) {
        if (given !== undefined) void notifyError('Open App: the arguments are not { serverId, tool }.');
        return false;
      }
      try {
        const panel = await openApp(deps, args);
        panels.add(panel);
        panel.onDidDispose(() => panels.delete(panel));
        return true;
      } catch (error) {
        void notifyError(`Cannot open the ${args.tool} app of ${args.serverId}: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      }
    }),
    { dispose: () => { for (const panel of panels) panel.dispose(); panels.clear(); } },
  );
}

/** Reads the app's resource from its server and shows it. */
async function openApp(deps: AppCommandDeps, args: OpenAppArgs): Promise<AppPanel> {
  const view = deps.servers().find((s) => s.id === args.serverId);
  if (view === undefined) throw new Error('the server is not running');
  const tool = view.catalog.tools.find((t) => t.name === args.tool);
  if (tool === undefined) throw new Error('the server does not offer that tool');
  const uri = callAppUri(tool, args.result);
  if (uri === undefined) throw new Error('the tool has no app (no ui:// resource)');
  const listed = view.catalog.resources.find((r) => r.uri === uri) as { _meta?: unknown } | undefined;
  const doc = appDocument(uri, await deps.readResource(args.serverId, uri), listed?._meta, (b64) => Buffer.from(b64, 'base64').toString('utf8'));
  const policy = appPolicy(doc.declared);
  const frame = await frameDocument(doc.html, cspText(policy.directives));
  if (policy.refused.length > 0) deps.log.warn(`The ${args.tool} app of ${args.serverId} (${uri}) declared what is not allowed: ${policy.refused.join('; ')}.`);
  deps.log.info(`Opening the ${args.tool} app of ${args.serverId} (${uri}).`);
  return new AppPanel({
    extensionUri: deps.extensionUri,
    server: (id) => deps.servers().find((s) => s.id === id),
    call: deps.call,
    sendToModel: (text) => vscode.commands.executeCommand('workbench.action.chat.open', { query: `@mcp ${text}` }),
    log: deps.log,
  }, {
    load: {
      serverId: args.serverId, tool: args.tool, uri, frameDocument: frame.html, refused: policy.refused, permissionsAsked: policy.permissionsAsked,
      ...(args.arguments ? { toolInput: args.arguments } : {}), ...(args.result ? { toolResult: args.result } : {}),
    },
    policy,
    inlineScriptHashes: frame.inlineScriptHashes,
  }, deps.hostVersion);
}

/** The palette's way in: one of the ready servers' tools that have an app. */
async function pickApp(deps: AppCommandDeps): Promise<OpenAppArgs | undefined> {
  const items = deps.servers()
    .filter((s) => s.state.kind === 'ready')
    .flatMap((s) => s.catalog.tools.flatMap((t) => {
      const uri = toolAppUri(t);
      return uri === undefined ? [] : [{ label: t.title ?? t.name, description: s.id, detail: uri, serverId: s.id, tool: t.name }];
    }));
  if (items.length === 0) {
    void notifyInfo('No ready server offers a tool with an app (a ui:// resource).');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title: 'Open App', placeHolder: 'The tool whose app to open' });
  return picked === undefined ? undefined : { serverId: picked.serverId, tool: picked.tool };
}
