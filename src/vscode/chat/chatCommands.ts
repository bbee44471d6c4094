// "Insert Resource Mention…" and "Run MCP Prompt…": pick from every ready server's resources and
// templates (or prompts), fill a template's variables or a prompt's arguments with the server's
// completions, then open the chat with `@mcp` and the mention (to go on typing) or the slash command
// (sent at once). Given `{ server, uri | template, values }` or `{ server, prompt, args }` they ask
// nothing (other commands and tests use that). Their keybindings in the chat input pass
// `{ into: 'chatInput' }`: VS Code's stable API completes neither `@server:uri` nor a participant's
// dynamic slash commands, so the pickers are what completes them there. A mention is then typed at the
// cursor (what the input holds stays); a prompt is put in the input, not sent, so it can be read first.
import * as vscode from 'vscode';
import { expandTemplate, templateVariables } from '../../core/chat';
import type { PromptInfo } from '../../core/lifecycle';
import type { ArgumentAsker } from './argumentAsker';
import type { ChatServices } from './chatServices';
import { askedArguments, slashCommandText } from './promptRequest';
import { notifyError, notifyInfo } from '../ui/notify';

export const INSERT_MENTION_COMMAND = 'switchboard.insertResourceMention';
export const RUN_PROMPT_COMMAND = 'switchboard.runPrompt';
const PARTICIPANT = '@mcp';

/** What the commands return: the chat query they opened, or nothing when the person cancelled. */
export interface ChatCommandOutcome {
  query: string;
}

/** The mention of a resource, with `<…>` around a URI that has white space. */
export function mentionText(server: string, uri: string): string {
  return `@${server}:${/\s/.test(uri) ? `<${uri}>` : uri}`;
}

export function registerChatCommands(services: ChatServices, ask: () => ArgumentAsker): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(INSERT_MENTION_COMMAND, async (given?: unknown): Promise<ChatCommandOutcome | undefined> => {
      const picked = presetResource(given) ?? await pickResource(services);
      if (!picked) return undefined;
      let uri = picked.uri;
      if (picked.template !== undefined) {
        const variables = templateVariables(picked.template);
        const values = picked.values ?? await ask()(`${picked.server} › ${picked.template}`, variables.map((name) => ({
          name,
          required: true,
          complete: (value, filled) => services.complete(picked.server, { ref: { type: 'ref/resource', uri: picked.template! }, argument: { name, value }, context: { arguments: { ...filled } } }),
        })), {});
        if (values === undefined) return undefined;
        uri = expandTemplate(picked.template, values);
      }
      const mention = `${mentionText(picked.server, uri!)} `;
      if (fromChatInput(given)) {
        // The quick pick gave the focus back to the chat input: the mention is typed at its cursor.
        await vscode.commands.executeCommand('type', { text: mention });
        return { query: mention };
      }
      const query = `${PARTICIPANT} ${mention}`;
      // A partial query: the mention is put in the chat input and the person goes on typing.
      await vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: true });
      return { query };
    }),
    vscode.commands.registerCommand(RUN_PROMPT_COMMAND, async (given?: unknown): Promise<ChatCommandOutcome | undefined> => {
      const prompts = services.prompts();
      const preset = presetPrompt(given);
      const entry = preset
        ? [...prompts].find(([, p]) => p.server === preset.server && p.prompt.name === preset.prompt)
        : await pickPrompt(prompts);
      if (!entry) {
        if (preset) void notifyError(`MCP Switchboard: no ready server "${preset.server}" offers the prompt "${preset.prompt}".`);
        return undefined;
      }
      const [name, { server, prompt }] = entry;
      let args: Record<string, string> = preset?.args ?? {};
      const missing = (prompt.arguments ?? []).filter((a) => !(a.name in args)).map((a) => a.name);
      if (!preset && missing.length > 0) {
        const answered = await ask()(`${server} › ${prompt.title ?? prompt.name}`, askedArguments(services, server, prompt, missing), args);
        if (answered === undefined) return undefined;
        args = answered;
      }
      const query = `${PARTICIPANT} ${slashCommandText(name, args)}`;
      await vscode.commands.executeCommand('workbench.action.chat.open', fromChatInput(given) ? { query: `${query} `, isPartialQuery: true } : { query });
      return { query };
    }),
  );
}

/** Whether the command was run from the chat input (its keybinding passes `{ into: 'chatInput' }`). */
function fromChatInput(given: unknown): boolean {
  return typeof given === 'object' && given !== null && (given as { into?: unknown }).into === 'chatInput';
}

interface PickedResource { server: string; uri?: string; template?: string; values?: Record<string, string> }

function presetResource(given: unknown): PickedResource | undefined {
  if (typeof given !== 'object' || given === null) return undefined;
  const g = given as { server?: unknown; uri?: unknown; template?: unknown; values?: unknown };
  if (typeof g.server !== 'string') return undefined;
  if (typeof g.uri === 'string') return { server: g.server, uri: g.uri };
  if (typeof g.template === 'string') {
    const values = typeof g.values === 'object' && g.values !== null ? Object.fromEntries(Object.entries(g.values).map(([k, v]) => [k, String(v)])) : undefined;
    return { server: g.server, template: g.template, ...(values ? { values } : {}) };
  }
  return undefined;
}

async function pickResource(services: ChatServices): Promise<PickedResource | undefined> {
  type Item = vscode.QuickPickItem & { target?: PickedResource };
  const items: Item[] = [];
  for (const view of services.servers().filter((v) => v.state.kind === 'ready')) {
    const { resources, resourceTemplates } = view.catalog;
    if (resources.length + resourceTemplates.length === 0) continue;
    items.push({ label: view.id, kind: vscode.QuickPickItemKind.Separator });
    for (const r of resources) items.push({ label: r.title ?? r.name, description: r.uri, detail: r.description, target: { server: view.id, uri: r.uri } });
    for (const t of resourceTemplates) items.push({ label: `$(symbol-variable) ${t.title ?? t.name}`, description: t.uriTemplate, detail: t.description, target: { server: view.id, template: t.uriTemplate } });
  }
  if (items.length === 0) {
    void notifyInfo('No ready MCP server offers a resource.');
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder: 'Mention which resource?', matchOnDescription: true, matchOnDetail: true }))?.target;
}

function presetPrompt(given: unknown): { server: string; prompt: string; args: Record<string, string> } | undefined {
  if (typeof given !== 'object' || given === null) return undefined;
  const g = given as { server?: unknown; prompt?: unknown; args?: unknown };
  if (typeof g.server !== 'string' || typeof g.prompt !== 'string') return undefined;
  const args = typeof g.args === 'object' && g.args !== null ? Object.fromEntries(Object.entries(g.args).map(([k, v]) => [k, String(v)])) : {};
  return { server: g.server, prompt: g.prompt, args };
}

async function pickPrompt(prompts: ReturnType<ChatServices['prompts']>): Promise<[string, { server: string; prompt: PromptInfo }] | undefined> {
  if (prompts.size === 0) {
    void notifyInfo('No ready MCP server offers a prompt.');
    return undefined;
  }
  const entries = [...prompts];
  const items = entries.map(([name, { server, prompt }], index) => ({
    label: prompt.title ?? prompt.name,
    description: `/${name}`,
    detail: [server, prompt.description].filter(Boolean).join(' — '),
    index,
  }));
  const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Run which MCP prompt in @mcp?', matchOnDescription: true, matchOnDetail: true });
  return picked ? entries[picked.index] : undefined;
}
