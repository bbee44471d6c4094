// The two tools a model gets in code mode instead of the MCP tools' schemas: one to read the API
// (the servers, then one server's TypeScript declarations, on demand) and one to run a script against
// it. Their declarations here are the ones package.json declares as language-model tools.
import type { ModelToolSpec } from '../chat/modelTools';
import { CodeApi, serverListing } from './codeApi';
import type { CodeRunResult } from './codeRun';
import { serverDeclarations } from './declarations';

export const RUN_CODE_TOOL_NAME = 'switchboard_run_code';
export const CODE_API_TOOL_NAME = 'switchboard_code_api';

export const RUN_CODE_TOOL: ModelToolSpec = {
  name: RUN_CODE_TOOL_NAME,
  description: 'Runs JavaScript in a sandbox where the MCP servers\' tools are async functions: `const r = await tools.<server>.<tool>({ ...args })`. '
    + 'Top-level await works; only console.log output comes back (with the list of calls made), so filter, join and summarise data in the script and print just what is needed. '
    + 'A call returns the tool\'s structured result when it declares an output type, else its content blocks; a refused or failed call throws an Error with the reason. '
    + 'There are no modules, files, network or timers besides sleep(ms). Read the API with switchboard_code_api first. Every call goes through the person\'s approvals.',
  inputSchema: {
    type: 'object',
    properties: { code: { type: 'string', description: 'The script: the body of an async function.' } },
    required: ['code'],
  },
};

export const CODE_API_TOOL: ModelToolSpec = {
  name: CODE_API_TOOL_NAME,
  description: 'Describes the `tools` object of switchboard_run_code. Without "server": the MCP servers and their tool names. '
    + 'With "server": that server\'s tools as TypeScript declarations (arguments and results), to read before calling them.',
  inputSchema: {
    type: 'object',
    properties: { server: { type: 'string', description: 'A server key from the listing, e.g. "everything".' } },
  },
};

/** What the code API tool answers: the listing, or one server's declarations. */
export async function describeCodeApi(api: CodeApi, server: unknown, instructions?: (server: string) => string | undefined): Promise<string> {
  if (typeof server !== 'string' || server.trim() === '') return serverListing(api, instructions);
  const found = api.server(server.trim());
  if (found === undefined) return `There is no server "${server}" in the tools object.\n\n${serverListing(api, instructions)}`;
  return serverDeclarations(found);
}

/** A run as the model reads it: what the script printed, each call, and the error that ended it. */
export function codeRunText(result: CodeRunResult): string {
  const calls = result.calls.length === 0
    ? 'none'
    : result.calls.map((call) => `${call.server} › ${call.tool} ${call.ok ? 'ok' : `failed: ${call.error ?? ''}`}`).join('\n  ');
  return [
    result.output === '' ? 'Output: (nothing printed)' : `Output:\n${result.output.replace(/\n$/, '')}`,
    `Calls: ${calls}`,
    ...(result.error !== undefined ? [`Error: ${result.error}`] : []),
  ].join('\n');
}
