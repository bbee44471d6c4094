// The ready servers' tools as the API a script calls: `tools.<server>.<tool>(args)`, under the names
// the model knows them by (the server and tool parts of `mcp__<server>__<tool>`), and how a call's
// answer becomes the script's value — or the error it throws.
import type { ModelTool, ModelToolCatalog } from '../chat/modelTools';
import { sanitizeNamePart } from '../naming/toolNames';
import type { CallToolResult } from '../lifecycle/types';

/** One tool of the code API. */
export interface CodeApiTool {
  /** The key under `tools.<server>` (a qualified name's tool part). */
  readonly key: string;
  readonly model: ModelTool;
}

/** One server of the code API. */
export interface CodeApiServer {
  /** The key under `tools` (the server part of the qualified names). */
  readonly key: string;
  /** The server's ids (more than one only when two ids sanitize alike; their tools' keys then differ by a hash). */
  readonly servers: readonly string[];
  readonly tools: readonly CodeApiTool[];
}

/** The tools object of a script, from the catalog a model sees. */
export class CodeApi {
  readonly servers: readonly CodeApiServer[];

  constructor(catalog: ModelToolCatalog) {
    const byKey = new Map<string, { servers: Set<string>; tools: CodeApiTool[] }>();
    for (const model of catalog.tools) {
      const serverKey = sanitizeNamePart(model.server);
      const prefix = `mcp__${serverKey}__`;
      // A name cut to 64 characters may have lost its separator: then the whole qualified name is the key.
      const key = model.qualifiedName.startsWith(prefix) ? model.qualifiedName.slice(prefix.length) : model.qualifiedName;
      const entry = byKey.get(serverKey) ?? { servers: new Set<string>(), tools: [] };
      entry.servers.add(model.server);
      entry.tools.push({ key, model });
      byKey.set(serverKey, entry);
    }
    this.servers = [...byKey].map(([key, entry]) => ({ key, servers: [...entry.servers], tools: entry.tools }));
  }

  /** server key → tool keys, what the sandbox installs. */
  names(): Record<string, string[]> {
    return Object.fromEntries(this.servers.map((server) => [server.key, server.tools.map((tool) => tool.key)]));
  }

  /** The server of the code API named `key` (by its key, or by a server id). */
  server(key: string): CodeApiServer | undefined {
    return this.servers.find((server) => server.key === key) ?? this.servers.find((server) => server.servers.includes(key));
  }

  /** The tool a script called. */
  tool(serverKey: string, toolKey: string): ModelTool | undefined {
    return this.servers.find((server) => server.key === serverKey)?.tools.find((tool) => tool.key === toolKey)?.model;
  }
}

/** An error a script sees when a tool call does not succeed. */
export class CodeCallError extends Error {}

/**
 * A call's answer as the script's value: the structured content when the tool declares an output
 * schema (and sent it), else the content blocks. A result marked isError throws with its text.
 */
export function codeValueOf(tool: ModelTool, result: CallToolResult): unknown {
  if (result.isError === true) {
    const text = result.content.filter((block): block is { type: 'text'; text: string } => block.type === 'text').map((block) => block.text).join('\n').trim();
    throw new CodeCallError(`${tool.server} › ${tool.tool.name} reported an error: ${text === '' ? '(no message)' : text}`);
  }
  if (tool.tool.outputSchema !== undefined && result.structuredContent !== undefined) return result.structuredContent;
  return result.content;
}

/** A short listing of the API's servers, for the model to choose which declarations to read. */
export function serverListing(api: CodeApi, instructions: (server: string) => string | undefined = () => undefined): string {
  if (api.servers.length === 0) return 'No MCP server is ready: the tools object is empty.';
  const lines = api.servers.map((server) => {
    const about = server.servers.map((id) => firstLine(instructions(id))).filter((text) => text !== '').join(' ');
    const names = server.tools.map((tool) => tool.key);
    const shown = names.length <= 12 ? names.join(', ') : `${names.slice(0, 12).join(', ')} and ${names.length - 12} more`;
    return `- tools.${server.key} (${names.length} tool${names.length === 1 ? '' : 's'}: ${shown})${about === '' ? '' : ` — ${about}`}`;
  });
  return `${lines.join('\n')}\n\nRead a server's TypeScript declarations before calling its tools.`;
}

function firstLine(text: string | undefined): string {
  const line = (text ?? '').trim().split('\n')[0]?.trim() ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}
