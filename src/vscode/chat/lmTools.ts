// The language-model tools declared in package.json (contributes.languageModelTools): a small, fixed
// surface through which any chat agent (Copilot's agent mode included) reaches every MCP tool behind
// MCP Switchboard's approvals — search the catalog, call a tool by its model name, read a resource.
import * as vscode from 'vscode';
import { counted, nounFor } from '../../protocol/counts';
import { DEFAULT_SEARCH_LIMIT, parseMentions, runToolSearch } from '../../core/chat';
import { CODE_API_TOOL_NAME, RUN_CODE_TOOL_NAME } from '../../core/code';
import { SEARCH_TOOL_NAME } from '../../core/search';
import type { ChatServices } from './chatServices';
import { toolResultContent } from './lmParts';

export const CALL_TOOL_NAME = 'switchboard_call_tool';
export const READ_RESOURCE_NAME = 'switchboard_read_resource';

interface SearchInput { query?: unknown; limit?: unknown }
interface CallInput { name?: unknown; arguments?: unknown }
interface ReadInput { resource?: unknown }
interface RunCodeInput { code?: unknown }
interface CodeApiInput { server?: unknown }

/** An AbortSignal that aborts when `token` is cancelled (what the MCP request listens to). */
export function signalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const subscription = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => subscription.dispose() };
}

function text(value: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);
}

/** Registers the tools: search, call, read a resource, and code mode's API and run (`register`: with VS Code, by default). */
export function registerLanguageModelTools(services: ChatServices, register: typeof vscode.lm.registerTool = (name, tool) => vscode.lm.registerTool(name, tool)): vscode.Disposable {
  return vscode.Disposable.from(
    register<SearchInput>(SEARCH_TOOL_NAME, {
      invoke(options) {
        const query = typeof options.input.query === 'string' ? options.input.query : '';
        if (query.trim() === '') return text('Give a query: what the tool should do, in words.');
        const limit = typeof options.input.limit === 'number' ? options.input.limit : DEFAULT_SEARCH_LIMIT;
        const outcome = runToolSearch(services.tools(), query, limit, services.searchContext());
        if (outcome.found.length === 0) return text(`${outcome.text} ${counted(services.tools().tools.length, 'tool')} ${nounFor(services.tools().tools.length, 'is', 'are')} available.`);
        return text(outcome.text);
      },
    }),
    register<CallInput>(CALL_TOOL_NAME, {
      // No confirmationMessages, on purpose: the call goes through MCP Switchboard's approvals (the
      // sidebar card when the policy asks), so VS Code's own confirmation would ask a second time.
      prepareInvocation(options) {
        const name = typeof options.input.name === 'string' ? options.input.name : '';
        const tool = services.tools().find(name);
        return { invocationMessage: tool ? `Calling ${tool.server} › ${tool.tool.name} (approvals by MCP Switchboard)` : `Calling ${name}` };
      },
      async invoke(options, token) {
        const name = typeof options.input.name === 'string' ? options.input.name : '';
        if (name === '') return text('Give the tool\'s name (mcp__<server>__<tool>, as switchboard_search_tools returns it).');
        const args = options.input.arguments;
        if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return text('"arguments" must be a JSON object.');
        const { signal, dispose } = signalOf(token);
        try {
          const outcome = await services.callByModelName(name, (args ?? {}) as Record<string, unknown>, 'lm-tool', signal);
          // Data parts are newer than the typings of the oldest supported VS Code.
          return new vscode.LanguageModelToolResult(toolResultContent(outcome.output.parts, outcome.output.isError) as vscode.LanguageModelTextPart[]);
        } finally {
          dispose();
        }
      },
    }),
    register<CodeApiInput>(CODE_API_TOOL_NAME, {
      async invoke(options) {
        return text(await services.describeCodeApi(options.input.server));
      },
    }),
    register<RunCodeInput>(RUN_CODE_TOOL_NAME, {
      // As for switchboard_call_tool: each call of the script asks through MCP Switchboard's approvals.
      prepareInvocation(options) {
        const lines = typeof options.input.code === 'string' ? options.input.code.split('\n').length : 0;
        return { invocationMessage: `Running a script of ${lines} line${lines === 1 ? '' : 's'} against the MCP tools (approvals by MCP Switchboard)` };
      },
      async invoke(options, token) {
        const code = typeof options.input.code === 'string' ? options.input.code : '';
        if (code.trim() === '') return text('Give the script as "code": the body of an async function that calls tools.<server>.<tool>(args).');
        const { signal, dispose } = signalOf(token);
        try {
          // Scanned (and fenced or held) as a direct call's result is, when the script read outside content.
          const run = await services.runCodeForModel(code, { signal });
          return new vscode.LanguageModelToolResult(toolResultContent(run.parts, false) as vscode.LanguageModelTextPart[]);
        } finally {
          dispose();
        }
      },
    }),
    register<ReadInput>(READ_RESOURCE_NAME, {
      async invoke(options, token) {
        const resource = typeof options.input.resource === 'string' ? options.input.resource.trim() : '';
        if (resource === '') return text('Give the resource as @server:uri or as a URI.');
        const mention = parseMentions(resource)[0];
        let server: string;
        let uri: string;
        if (mention && mention.start === 0) {
          ({ server, uri } = mention);
        } else {
          const owner = services.serverOfUri(resource);
          if ('error' in owner) return text(owner.error);
          server = owner.server;
          uri = resource;
        }
        const { signal, dispose } = signalOf(token);
        try {
          // The model chose this resource: a flagged one is reviewed (and held, under `hold`) as a tool result is.
          return text((await services.readForModel(server, uri, signal)).text);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          // A template needs its variables: say which, so the model can fill them and ask again.
          const target = services.resolve(server, uri);
          if (target.kind === 'template') return text(`${uri} is a template: read a URI made from it, with values for ${target.variables.map((v) => `{${v}}`).join(', ')}.`);
          return text(message);
        } finally {
          dispose();
        }
      },
    }),
  );
}
