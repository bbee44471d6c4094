// `/mcp__<server>__<prompt> args…` in an @mcp request: find the prompt, bind the arguments, ask for the
// missing required ones (with the server's completions), run prompts/get, and give the messages that
// start the conversation.
import { bindPromptArguments, promptToModelMessages, type ModelMessage, type SlashCommand } from '../../core/chat';
import { closestQualifiedNames } from '../../core/naming';
import type { PromptInfo } from '../../core/lifecycle';
import type { ArgumentAsker, AskedArgument } from './argumentAsker';
import type { ChatServices } from './chatServices';

export type PromptStart =
  | { readonly kind: 'messages'; readonly server: string; readonly prompt: PromptInfo; readonly args: Record<string, string>; readonly messages: ModelMessage[]; readonly description?: string }
  | { readonly kind: 'problem'; readonly message: string }
  | { readonly kind: 'cancelled' };

/** The arguments of `prompt` to ask for, with completions from its server. */
export function askedArguments(services: ChatServices, server: string, prompt: PromptInfo, names: readonly string[]): AskedArgument[] {
  return (prompt.arguments ?? []).filter((a) => names.includes(a.name)).map((argument) => ({
    name: argument.name,
    ...(argument.description !== undefined ? { description: argument.description } : {}),
    required: argument.required === true,
    complete: (value, filled) => services.complete(server, { ref: { type: 'ref/prompt', name: prompt.name }, argument: { name: argument.name, value }, context: { arguments: { ...filled } } }),
  }));
}

/** Runs the prompt a slash command names, asking for what is missing. */
export async function startFromPrompt(services: ChatServices, command: SlashCommand, ask: ArgumentAsker, signal?: AbortSignal): Promise<PromptStart> {
  const prompts = services.prompts();
  const found = prompts.get(command.name);
  if (!found) {
    const near = closestQualifiedNames(command.name, [...prompts.keys()]);
    return { kind: 'problem', message: `There is no MCP prompt /${command.name}${near.length > 0 ? `; did you mean ${near.map((n) => `/${n}`).join(' or ')}?` : '.'} \`@mcp /help\` lists the prompts there are.` };
  }
  if (command.error) return { kind: 'problem', message: `The arguments of /${command.name} could not be read: ${command.error}.` };
  const { server, prompt } = found;
  const declared = prompt.arguments ?? [];
  const bound = bindPromptArguments(command, declared);
  const takes = declared.length > 0 ? declared.map((a) => (a.required ? a.name : `${a.name} (optional)`)).join(', ') : 'no arguments';
  if (bound.unknown.length > 0) return { kind: 'problem', message: `/${command.name} has no argument ${bound.unknown.join(', ')}; it takes ${takes}.` };
  if (bound.extra.length > 0) return { kind: 'problem', message: `/${command.name} takes ${takes}; these values are left over: ${bound.extra.map((e) => JSON.stringify(e)).join(', ')}. Quote a value that has spaces.` };
  let args = bound.args;
  if (bound.missing.length > 0) {
    const answered = await ask(`${server} › ${prompt.title ?? prompt.name}`, askedArguments(services, server, prompt, bound.missing), args);
    if (answered === undefined) return { kind: 'cancelled' };
    args = answered;
  }
  const result = await services.getPrompt(server, prompt.name, args, signal);
  return { kind: 'messages', server, prompt, args, messages: promptToModelMessages(result.messages), ...(result.description ? { description: result.description } : {}) };
}

/** `/command a=b c="d e"` for a prompt and its values (what Run MCP Prompt… sends to @mcp). */
export function slashCommandText(name: string, args: Readonly<Record<string, string>>): string {
  const words = Object.entries(args).map(([key, value]) => `${key}=${/^[^\s"'=]+$/.test(value) ? value : JSON.stringify(value)}`);
  return [`/${name}`, ...words].join(' ');
}
