// Wires the chat surfaces to the context: the @mcp participant, the language-model tools, the
// resource documents behind chat references, and the Insert Resource Mention… / Run MCP Prompt…
// commands. Under an extension test run, argument questions can be answered from a script.
// The participant, the tools and the commands are registered here, at activation, with thin handlers;
// what answers them (chatWiring.ts: tool search, code mode, skills…) is imported with the first use.
import * as vscode from 'vscode';
import { CHAT_PARTICIPANT_ID, CHAT_TOOL_NAMES, LAZY_COMMAND_IDS } from '../lazyCommandIds';
import { lazyCommands } from '../lazyCommands';
import { buildSingleton } from '../../core/disposable';
import type { SwitchboardContext } from '../switchboardContext';
import { quickInputAsker, ScriptedAsker, type ArgumentAsker } from './argumentAsker';
import type { ChatWiring } from './chatWiring';
import { registerResourceDocuments } from './resourceDocuments';
import { ResourceWatching } from './resourceWatching';
import { ToolOutputStore } from './toolOutput';

/** Test-only commands (registered only under ExtensionMode.Test; the `_` keeps them out of the palette). */
export const CHAT_TEST_COMMANDS = {
  /** `(answers | null)`: answer every later argument question from `answers` (name → value); null restores the quick input. */
  setArgumentAnswers: '_switchboard.test.setArgumentAnswers',
  /** `()`: the questions asked through the script so far, with the suggestions the server offered. */
  askedArguments: '_switchboard.test.askedArguments',
  /** `()`: the folder where large tool results are saved. */
  toolOutputFolder: '_switchboard.test.toolOutputFolder',
  /** `()`: every call that went through the tool call gate since activation: `{ caller, serverId, tool, outcome }`. */
  gateCalls: '_switchboard.test.gateCalls',
  /** `(id, release, reason?)`: answers a held tool result as the Sidebar's card does. */
  answerHeldOutput: '_switchboard.test.answerHeldOutput',
  /** `()`: the watched resources: `{ server, uri, watchers, status, updates }` (core/subscriptions). */
  resourceWatches: '_switchboard.test.resourceWatches',
} as const;

export function registerChat(ctx: SwitchboardContext): vscode.Disposable {
  const storage = ctx.extension.storageUri ?? ctx.extension.globalStorageUri;
  const outputFolder = vscode.Uri.joinPath(storage, 'tool-output');
  const outputs = new ToolOutputStore(outputFolder);
  // Results saved in earlier sessions go once they are older than the retention period: looked at once
  // activation has returned (a microtask later), as nothing at activation waits for a file.
  void Promise.resolve().then(() => outputs.removeExpired()).catch((error: unknown) => ctx.log.warn(`could not remove old tool results: ${error instanceof Error ? error.message : String(error)}`));
  // Open resource documents and chat attachments are watched from activation on, chat loaded or not.
  const watching = new ResourceWatching(ctx.registry);
  let scripted: ScriptedAsker | undefined;
  const ask = (): ArgumentAsker => scripted?.ask ?? quickInputAsker;
  let loading: Promise<ChatWiring> | undefined;
  let wiring: ChatWiring | undefined;
  let disposed = false;
  const chat = (): Promise<ChatWiring> => {
    loading ??= import('./chatWiring').then((m) => {
      if (disposed) throw new Error('the chat was disposed');
      // Built once, on the first use, and disposed with the extension.
      wiring = buildSingleton(() => m.createChatWiring(ctx, outputs, ask, watching.attachments));
      return wiring;
    }, (error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, async (request, context, stream, token) => (await chat()).handler(request, context, stream, token));
  participant.iconPath = vscode.Uri.joinPath(ctx.extension.extensionUri, 'media', 'icon.png');
  const toolOf = async (name: string): Promise<vscode.LanguageModelTool<unknown>> => {
    const tool = (await chat()).tools.get(name);
    if (tool === undefined) throw new Error(`no language-model tool ${name}`);
    return tool;
  };
  const disposables: vscode.Disposable[] = [
    { dispose: () => { disposed = true; wiring?.dispose(); } },
    registerResourceDocuments((server, uri) => ctx.registry.readResource(server, uri), watching.onDidChangeDocument),
    watching,
    ...CHAT_TOOL_NAMES.map((name) => vscode.lm.registerTool<unknown>(name, {
      prepareInvocation: async (options, token) => (await toolOf(name)).prepareInvocation?.(options, token),
      invoke: async (options, token) => (await toolOf(name)).invoke(options, token),
    })),
    participant,
    lazyCommands(LAZY_COMMAND_IDS.chatCommands, async () => {
      const loaded = await chat();
      return () => loaded.registerCommands();
    }),
  ];
  if (ctx.testing) {
    const gateCalls: { caller: string; serverId: string; tool: string; outcome: string }[] = [];
    disposables.push(
      ctx.calls.onDidCall((record) => gateCalls.push({ caller: record.request.caller, serverId: record.request.serverId, tool: record.request.tool, outcome: record.outcome.kind })),
      vscode.commands.registerCommand(CHAT_TEST_COMMANDS.gateCalls, () => gateCalls.slice()),
      vscode.commands.registerCommand(CHAT_TEST_COMMANDS.setArgumentAnswers, (answers: Record<string, string> | null) => {
        scripted = answers ? new ScriptedAsker(answers) : undefined;
      }),
      vscode.commands.registerCommand(CHAT_TEST_COMMANDS.askedArguments, () => scripted?.asked ?? []),
      vscode.commands.registerCommand(CHAT_TEST_COMMANDS.toolOutputFolder, () => outputFolder.fsPath),
      vscode.commands.registerCommand(CHAT_TEST_COMMANDS.resourceWatches, () => watching.watches.list()),
      vscode.commands.registerCommand(CHAT_TEST_COMMANDS.answerHeldOutput, (id: string, release: boolean, reason?: string) => ctx.heldOutputs.answer(id, release, reason)),
    );
  }
  return vscode.Disposable.from(...disposables);
}
