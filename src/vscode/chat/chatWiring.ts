// The chat's working parts behind the thin registrations of registerChat.ts: the services over the
// registry and the call gate (tool search, code mode, mentions), the skills in use, the @mcp handler,
// the language-model tools and the chat commands. Imported with the first chat turn, tool call or
// command, not at activation.
import * as vscode from 'vscode';
import { systemClock } from '../../core/lifecycle/clock';
import type { AttachmentChanges } from '../../core/subscriptions';
import type { SwitchboardContext } from '../switchboardContext';
import type { ArgumentAsker } from './argumentAsker';
import { registerChatCommands } from './chatCommands';
import { ChatServices } from './chatServices';
import { registerLanguageModelTools } from './lmTools';
import { participantHandler } from './participant';
import { SearchVectors, wordVectorsFolder } from './searchVectors';
import { SkillUse } from './skillUse';
import type { ToolOutputStore } from './toolOutput';

export interface ChatWiring extends vscode.Disposable {
  /** Answers @mcp. */
  readonly handler: vscode.ChatRequestHandler;
  /** The language-model tools, by name. */
  readonly tools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>>;
  /** Registers Insert Resource Mention… and Run MCP Prompt… (lazyCommands.ts). */
  registerCommands(): vscode.Disposable;
}

export function createChatWiring(ctx: SwitchboardContext, outputs: ToolOutputStore, ask: () => ArgumentAsker, attachments?: AttachmentChanges): ChatWiring {
  const services = new ChatServices({
    attachments,
    registry: ctx.registry,
    call: (request) => ctx.calls.call(request),
    outputs,
    holdOutput: (held, signal) => ctx.heldOutputs.hold(held, signal),
    searchVectors: new SearchVectors(wordVectorsFolder(ctx.extension.globalStorageUri), (message) => ctx.log.info(message)),
  });
  const skills = new SkillUse({ config: ctx.config, registry: ctx.registry, trust: ctx.trust, clock: systemClock });
  const tools = new Map<string, vscode.LanguageModelTool<unknown>>();
  // The tools are registered with VS Code by registerChat.ts; here they are only collected by name.
  registerLanguageModelTools(services, (name, tool) => {
    tools.set(name, tool as vscode.LanguageModelTool<unknown>);
    return new vscode.Disposable(() => tools.delete(name));
  });
  return {
    handler: participantHandler({ services, ask, skills }),
    tools,
    registerCommands: () => registerChatCommands(services, ask),
    dispose: () => {
      skills.dispose();
      services.dispose();
    },
  };
}
