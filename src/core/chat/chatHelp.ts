// What `@mcp /help` answers: the servers and their state, the prompts as the slash commands that run
// them, how to mention a resource, and the tools' count. Markdown, built from plain data.
import type { PromptInfo } from '../lifecycle/types';
import { counted } from '../../protocol/counts';
import { qualifyToolNames } from '../naming/toolNames';

export interface HelpServer {
  readonly id: string;
  /** The state in words ("ready", "needs trust", …). */
  readonly state: string;
  readonly ready: boolean;
  readonly tools: number;
  readonly resources: readonly { readonly uri: string; readonly name: string }[];
  readonly templates: readonly { readonly uriTemplate: string; readonly name: string }[];
  readonly prompts: readonly PromptInfo[];
}

/** How many resources and prompts per server the help lists before "and N more". */
const LIST_LIMIT = 8;

/** The slash command of each prompt (`mcp__<server>__<prompt>`), by server and prompt name. */
export function promptCommandNames(servers: readonly { id: string; prompts: readonly { name: string }[] }[]): Map<string, { server: string; prompt: string }> {
  const named = qualifyToolNames(servers.flatMap((server) => server.prompts.map((prompt) => ({ server: server.id, tool: prompt.name }))));
  return new Map(named.map((entry) => [entry.qualifiedName, { server: entry.server, prompt: entry.tool }]));
}

/** The help text for `@mcp /help`. */
export function chatHelpMarkdown(servers: readonly HelpServer[], participant = 'mcp'): string {
  const lines: string[] = [];
  lines.push(`**@${participant}** talks to a language model with the tools of your MCP servers. Every tool call goes through MCP Switchboard's approvals.`, '');
  if (servers.length === 0) {
    lines.push('No MCP server is configured for this workspace. Add one to `.mcp.json` (Open Project Servers) or to your user file (Open User Servers).');
    return lines.join('\n');
  }
  lines.push('### Servers', '');
  for (const server of servers) {
    const counts = server.ready ? ` — ${counted(server.tools, 'tool')}, ${counted(server.resources.length + server.templates.length, 'resource')}, ${counted(server.prompts.length, 'prompt')}` : '';
    lines.push(`- \`${server.id}\`: ${server.state}${counts}`);
  }
  const commands = promptCommandNames(servers.filter((s) => s.ready));
  const commandOf = new Map([...commands].map(([name, ref]) => [`${ref.server}\u0000${ref.prompt}`, name]));
  const withPrompts = servers.filter((s) => s.ready && s.prompts.length > 0);
  lines.push('', '### Prompts as slash commands', '');
  if (withPrompts.length === 0) lines.push('No ready server offers a prompt.');
  for (const server of withPrompts) {
    for (const prompt of server.prompts.slice(0, LIST_LIMIT)) {
      const args = (prompt.arguments ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
      const about = prompt.description ?? prompt.title;
      lines.push(`- \`/${commandOf.get(`${server.id}\u0000${prompt.name}`) ?? prompt.name}${args ? ` ${args}` : ''}\`${about ? ` — ${about}` : ''}`);
    }
    if (server.prompts.length > LIST_LIMIT) lines.push(`- … and ${server.prompts.length - LIST_LIMIT} more of \`${server.id}\` (Run MCP Prompt… lists them all)`);
  }
  lines.push('', 'Arguments go after the command, in order or as `name=value` (quote values with spaces). Missing required ones are asked for.');
  const withResources = servers.filter((s) => s.ready && (s.resources.length > 0 || s.templates.length > 0));
  lines.push('', '### Resources as mentions', '');
  lines.push('Write `@server:uri` anywhere in your message to attach that resource, e.g.');
  const example = withResources[0];
  const exampleUri = example?.resources[0]?.uri ?? example?.templates[0]?.uriTemplate;
  lines.push('', `    @${participant} summarize @${example?.id ?? 'docs'}:${exampleUri ?? 'file:///guide.md'}`, '');
  lines.push('Put a URI with spaces in `<…>`. A template\'s `{variables}` are asked for. Insert Resource Mention… picks one for you.');
  for (const server of withResources) {
    const items = [...server.resources.map((r) => `\`@${server.id}:${r.uri}\``), ...server.templates.map((t) => `\`@${server.id}:${t.uriTemplate}\``)];
    lines.push(`- \`${server.id}\`: ${items.slice(0, LIST_LIMIT).join(', ')}${items.length > LIST_LIMIT ? `, … ${items.length - LIST_LIMIT} more` : ''}`);
  }
  return lines.join('\n');
}
