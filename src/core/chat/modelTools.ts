// The MCP tools as a model gets them: every ready server's offered tools under their qualified names
// (`mcp__<server>__<tool>`), in the one sorted order, with a way back from a name to the server and
// tool. Which of them a turn sends in full is the deferred-loading plan's call (src/core/search).
import type { Catalog, ToolInfo } from '../lifecycle/types';
import { qualifyToolNames } from '../naming/toolNames';

/** A server as the chat reads it (a ServerView fits). */
export interface ChatServer<S extends { readonly kind: string } = { readonly kind: string }> {
  readonly id: string;
  readonly state: S;
  readonly catalog: Catalog;
}

/** One tool under the name a model knows it by. */
export interface ModelTool {
  readonly qualifiedName: string;
  readonly server: string;
  readonly tool: ToolInfo;
}

/** What a model is given for one tool (the shape of a language-model tool declaration). */
export interface ModelToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

/** Every ready server's tools, qualified and sorted; names resolve back to their server and tool. */
export class ModelToolCatalog {
  readonly tools: readonly ModelTool[];
  private readonly byName: ReadonlyMap<string, ModelTool>;

  constructor(servers: readonly ChatServer[]) {
    const ready = servers.filter((server) => server.state.kind === 'ready');
    const infos = new Map<string, ToolInfo>();
    for (const server of ready) for (const tool of server.catalog.tools) infos.set(key(server.id, tool.name), tool);
    this.tools = qualifyToolNames(ready.flatMap((server) => server.catalog.tools.map((tool) => ({ server: server.id, tool: tool.name })))).map((named) => {
      return { qualifiedName: named.qualifiedName, server: named.server, tool: infos.get(key(named.server, named.tool))! };
    });
    this.byName = new Map(this.tools.map((tool) => [tool.qualifiedName, tool]));
  }

  /** The tool a model named, if any. */
  find(qualifiedName: string): ModelTool | undefined {
    return this.byName.get(qualifiedName);
  }

  /** The tool of `server` named `tool`, if it is in the catalog. */
  findByRef(server: string, tool: string): ModelTool | undefined {
    return this.tools.find((candidate) => candidate.server === server && candidate.tool.name === tool);
  }

  /** Every qualified name, sorted (for "did you mean"). */
  names(): string[] {
    return this.tools.map((tool) => tool.qualifiedName);
  }
}

/** The declaration a model gets for a tool: its qualified name, a description that names the server, its input schema. */
export function toolSpecOf(tool: ModelTool): ModelToolSpec {
  const description = tool.tool.description?.trim() || tool.tool.title || tool.tool.name;
  return { name: tool.qualifiedName, description: `${description} (MCP server "${tool.server}")`, inputSchema: inputSchemaOf(tool.tool) };
}

/** A tool's input schema as models accept it: always an object schema. */
export function inputSchemaOf(tool: ToolInfo): Record<string, unknown> {
  const schema = tool.inputSchema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return { type: 'object', properties: {} };
  return schema.type === undefined ? { type: 'object', ...schema } : schema;
}

/** The size, in characters, of a tool list as it is sent (its JSON): what it costs in the model's context. */
export function toolListChars(specs: readonly ModelToolSpec[]): number {
  return JSON.stringify(specs).length;
}

function key(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}
