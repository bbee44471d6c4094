// Wires the chat surfaces to the context: the @mcp participant, the language-model tools, the
// resource documents behind chat references, and the Insert Resource Mention… / Run MCP Prompt…
// commands. Under an extension test run, argument questions can be answered from a script.
import * as vscode from 'vscode';
import { systemClock } from '../../core/lifecycle/clock';
import type { SwitchboardContext } from '../switchboardContext';
import { quickInputAsker, ScriptedAsker, type ArgumentAsker } from './argumentAsker';
import { registerChatCommands } from './chatCommands';
import { ChatServices } from './chatServices';
import { registerLanguageModelTools } from './lmTools';
import { registerParticipant } from './participant';
import { registerResourceDocuments } from './resourceDocuments';
import { SearchVectors, wordVectorsFolder } from './searchVectors';
import { SkillUse } from './skillUse';
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
} as const;

export function registerChat(ctx: SwitchboardContext): vscode.Disposable {
  const storage = ctx.extension.storageUri ?? ctx.extension.globalStorageUri;
  const outputFolder = vscode.Uri.joinPath(storage, 'tool-output');
  const outputs = new ToolOutputStore(outputFolder);
  // Results saved in earlier sessions go once they are older than the retention period.
  outputs.removeExpired().catch((error: unknown) => ctx.log.warn(`could not remove old tool results: ${error instanceof Error ? error.message : String(error)}`));
  const services = new ChatServices({
    registry: ctx.registry,
    call: (request) => ctx.calls.call(request),
    outputs,
    holdOutput: (held, signal) => ctx.heldOutputs.hold(held, signal),
    searchVectors: new SearchVectors(wordVectorsFolder(ctx.extension.globalStorageUri), (message) => ctx.log.info(message)),
  });
  const skills = new SkillUse({ config: ctx.config, registry: ctx.registry, trust: ctx.trust, clock: systemClock });
  let scripted: ScriptedAsker | undefined;
  const ask = (): ArgumentAsker => scripted?.ask ?? quickInputAsker;
  const disposables: vscode.Disposable[] = [
    services,
    skills,
    registerResourceDocuments((server, uri) => ctx.registry.readResource(server, uri)),
    registerLanguageModelTools(services),
    registerParticipant({ services, ask, skills, iconPath: vscode.Uri.joinPath(ctx.extension.extensionUri, 'media', 'icon.png') }),
    registerChatCommands(services, ask),
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
      vscode.commands.registerCommand(CHAT_TEST_COMMANDS.answerHeldOutput, (id: string, release: boolean, reason?: string) => ctx.heldOutputs.answer(id, release, reason)),
    );
  }
  return vscode.Disposable.from(...disposables);
}
