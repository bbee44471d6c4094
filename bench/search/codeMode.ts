// The code-mode row of the token table: one multi-step task over the real catalog, done the two ways
// the @mcp participant can do it, with the tokens each request of the turn carries (tool definitions
// plus the conversation so far, ESTIMATED as characters / 4 of their JSON, like the rest of the table).
//
// The task: "Of the 2 000 files in the project folder, find the five largest TypeScript files and write
// their names and sizes to report.md." Direct calls: the tool definitions that `auto` sends (the search
// when the catalog is large), list_directory_with_sizes whose 2 000-line answer enters the context,
// then write_file. Code mode: the two code tools, the server listing, the filesystem server's
// declarations (generated from its real schemas), one script, and its five printed lines.
import { ModelToolCatalog, runToolSearch, type ChatServer } from '../../src/core/chat';
import { CODE_API_TOOL, CodeApi, codeRunText, RUN_CODE_TOOL, serverDeclarations, serverListing } from '../../src/core/code';
import type { ToolInfo } from '../../src/core/lifecycle/types';
import { definitionsForRequest, estimateTokens, planToolLoading, type ModelToolDefinition } from '../../src/core/search/deferredLoading';
import type { SearchableTool } from '../../src/core/search/toolSearch';

export interface CodeModeWay {
  readonly requests: number;
  /** Estimated tokens of each request, in order. */
  readonly perRequest: readonly number[];
  readonly total: number;
}

export interface CodeModeReport {
  readonly task: string;
  readonly direct: CodeModeWay;
  readonly code: CodeModeWay;
}

const TASK = 'Of the 2 000 files in the project folder, find the five largest TypeScript files and write their names and sizes to report.md.';
const FOLDER = '/home/dev/project';

/** The folder's listing as server-filesystem's list_directory_with_sizes answers it (deterministic sizes). */
function listing(): { text: string; largest: { name: string; size: number }[] } {
  const files = Array.from({ length: 2000 }, (_, i) => {
    const ext = ['ts', 'md', 'json', 'css', 'ts'][i % 5];
    return { name: `module-${String(i).padStart(4, '0')}.${ext}`, size: ((i * 7919) % 65_521) + 100 };
  });
  const lines = files.map((file) => `[FILE] ${file.name.padEnd(30)} ${(file.size / 1024).toFixed(2).padStart(10)} KB`);
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const text = `${lines.join('\n')}\n\nTotal: 2000 files, 0 directories\nCombined size: ${(total / 1024).toFixed(2)} KB`;
  const largest = files.filter((file) => file.name.endsWith('.ts')).sort((a, b) => b.size - a.size).slice(0, 5);
  return { text, largest };
}

type Message = { role: 'user' | 'assistant'; parts: unknown[] };

function requestTokens(definitions: readonly ModelToolDefinition[], messages: readonly Message[]): number {
  return definitions.reduce((sum, definition) => sum + estimateTokens(definition), 0) + Math.ceil(JSON.stringify(messages).length / 4);
}

function way(perRequest: number[]): CodeModeWay {
  return { requests: perRequest.length, perRequest, total: perRequest.reduce((sum, value) => sum + value, 0) };
}

function chatServers(catalog: readonly SearchableTool[]): ChatServer[] {
  const byServer = new Map<string, ToolInfo[]>();
  for (const tool of catalog) {
    byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), {
      name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), inputSchema: { ...(tool.inputSchema ?? {}) },
    }]);
  }
  return [...byServer].map(([id, tools]) => ({ id, state: { kind: 'ready' }, catalog: { tools, resources: [], resourceTemplates: [], prompts: [] } }));
}

/** Both ways of the task over `catalog` (which must hold the filesystem server's tools). */
export async function codeModeTokens(catalog: readonly SearchableTool[]): Promise<CodeModeReport> {
  const servers = chatServers(catalog);
  const models = new ModelToolCatalog(servers);
  const { text: listed, largest } = listing();
  const report = largest.map((file) => `- ${file.name}: ${file.size} bytes`).join('\n');
  const user: Message = { role: 'user', parts: [{ text: TASK }] };
  const call = (name: string, input: unknown): Message => ({ role: 'assistant', parts: [{ toolCall: name, input }] });
  const result = (text: string): Message => ({ role: 'user', parts: [{ toolResult: text }] });

  // Direct calls, as the participant runs them with `auto`: the plan's definitions, the search when it defers.
  const plan = planToolLoading(servers.map((server) => ({ server: server.id, tools: server.catalog.tools })), 'auto');
  const found: { server: string; tool: string }[] = [];
  const direct: number[] = [];
  const messages: Message[] = [user];
  if (plan.searchTool) {
    direct.push(requestTokens(definitionsForRequest(plan, found), messages));
    const search = runToolSearch(models, 'list a directory with file sizes', 5);
    for (const hit of search.found) found.push({ server: hit.server, tool: hit.tool.name });
    const write = runToolSearch(models, 'write a file', 5);
    for (const hit of write.found) found.push({ server: hit.server, tool: hit.tool.name });
    messages.push(call('switchboard_search_tools', { query: 'list a directory with file sizes' }), result(search.text));
  }
  const directDefinitions = (): ModelToolDefinition[] => definitionsForRequest(plan, found);
  direct.push(requestTokens(directDefinitions(), messages));
  messages.push(call('mcp__filesystem__list_directory_with_sizes', { path: FOLDER, sortBy: 'size' }), result(listed));
  direct.push(requestTokens(directDefinitions(), messages));
  messages.push(call('mcp__filesystem__write_file', { path: `${FOLDER}/report.md`, content: report }), result(`Successfully wrote to ${FOLDER}/report.md`));
  direct.push(requestTokens(directDefinitions(), messages));

  // Code mode: the listing, one server's declarations, one script and its output.
  const api = new CodeApi(models);
  const codeDefinitions = [CODE_API_TOOL, RUN_CODE_TOOL];
  const code: number[] = [];
  const conversation: Message[] = [user];
  code.push(requestTokens(codeDefinitions, conversation));
  conversation.push(call(CODE_API_TOOL.name, {}), result(serverListing(api)));
  code.push(requestTokens(codeDefinitions, conversation));
  const filesystem = api.server('filesystem');
  if (filesystem === undefined) throw new Error('the catalog has no filesystem server');
  conversation.push(call(CODE_API_TOOL.name, { server: 'filesystem' }), result(await serverDeclarations(filesystem)));
  code.push(requestTokens(codeDefinitions, conversation));
  const script = [
    `const { content } = await tools.filesystem.list_directory_with_sizes({ path: "${FOLDER}", sortBy: "size" });`,
    'const files = content.split("\\n").map((line) => /^\\[FILE\\] (\\S+\\.ts)\\s+([\\d.]+) KB$/.exec(line)).filter(Boolean)',
    '  .map((m) => ({ name: m[1], kb: Number(m[2]) })).sort((a, b) => b.kb - a.kb).slice(0, 5);',
    'const report = files.map((f) => `- ${f.name}: ${Math.round(f.kb * 1024)} bytes`).join("\\n");',
    `await tools.filesystem.write_file({ path: "${FOLDER}/report.md", content: report });`,
    'console.log(report);',
  ].join('\n');
  const output = codeRunText({ output: `${report}\n`, calls: [{ server: 'filesystem', tool: 'list_directory_with_sizes', ok: true }, { server: 'filesystem', tool: 'write_file', ok: true }] });
  conversation.push(call(RUN_CODE_TOOL.name, { code: script }), result(output));
  code.push(requestTokens(codeDefinitions, conversation));

  return { task: TASK, direct: way(direct), code: way(code) };
}
