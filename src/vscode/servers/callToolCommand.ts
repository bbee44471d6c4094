// "Call Tool…": pick a ready server's tool, fill its arguments (a form built from its input schema, one
// field at a time, or JSON), run it through the one call path, and show the result in a read-only
// editor. Useful on its own as an inspector, and how tests drive calls. With arguments
// (`{ serverId, tool, arguments }`) it asks nothing and runs at once; from a tool's row in the Servers
// tree (its Call action) it starts at that tool's arguments. A string that may hold text is written in
// an editor (several lines); every other field is one line, where a typed `\n` stays as typed.
import * as vscode from 'vscode';
import { counted } from '../../protocol/counts';
import type { ToolCallResponse } from '../../core/calls';
import type { CallToolResult, ServerView, ToolInfo } from '../../core/lifecycle';
import { fieldText, formatProblems, formFields, holdsText, parseFieldInput, validateArguments, type FormField } from '../../core/schema';
import { notifyError, notifyInfo, notifyWarning } from '../ui/notify';
import { plainText } from '../ui/plainText';
import { TextFieldEditor } from './textFieldEditor';

export const CALL_TOOL_COMMAND = 'switchboard.callTool';
export const CALL_RESULT_SCHEME = 'switchboard-call';

/** A call as the command runs it (the one call path's request). */
export interface CallToolRequest {
  serverId: string;
  tool: string;
  arguments: Record<string, unknown>;
  caller: string;
  signal?: AbortSignal;
}

export interface CallToolDeps {
  /** The ready servers with their offered catalog. */
  servers(): ServerView[];
  /**
   * The one call path (resolve → decide → ask → call → record): the result, and its record with the
   * arguments the server got (the person may have edited them on the approval card).
   */
  call(request: CallToolRequest): Promise<ToolCallResponse>;
}

/** What the command returns (tests read it): the result document and the result, or why nothing ran. */
export interface CallToolOutcome {
  uri?: string;
  result?: CallToolResult;
  error?: string;
}

/** Keeps the last results for the read-only result documents. */
class ResultDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private counter = 0;

  add(serverId: string, tool: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: CALL_RESULT_SCHEME, path: `/${encodeURIComponent(serverId)}/${encodeURIComponent(tool)} (${++this.counter}).json` });
    this.texts.set(uri.toString(), text);
    // Results can be large: only the last few stay available.
    while (this.texts.size > 20) this.texts.delete(this.texts.keys().next().value as string);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '// This result is no longer kept: call the tool again.';
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Registers "Call Tool…" and its result documents. */
export function registerCallTool(deps: CallToolDeps): vscode.Disposable {
  const documents = new ResultDocuments();
  const textFields = new TextFieldEditor();
  return vscode.Disposable.from(
    documents,
    textFields,
    vscode.workspace.registerTextDocumentContentProvider(CALL_RESULT_SCHEME, documents),
    vscode.commands.registerCommand(CALL_TOOL_COMMAND, async (given?: unknown): Promise<CallToolOutcome | undefined> => {
      const preset = presetOf(given);
      const picked = preset ?? treeRowTool(given, deps.servers()) ?? await pickTool(deps.servers());
      if (!picked) return undefined;
      const args = preset?.arguments ?? await askArguments(picked.serverId, picked.tool, textFields);
      if (args === undefined) return undefined;
      const started = Date.now();
      try {
        const { result, record } = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: plainText(`Calling ${picked.serverId} › ${picked.tool.name}…`), cancellable: true },
          (_progress, token) => {
            const controller = new AbortController();
            token.onCancellationRequested(() => controller.abort());
            return deps.call({ serverId: picked.serverId, tool: picked.tool.name, arguments: args, caller: 'command', signal: controller.signal });
          },
        );
        const text = JSON.stringify({ server: picked.serverId, tool: picked.tool.name, arguments: record.arguments, durationMs: Date.now() - started, ...result }, null, 2);
        const uri = documents.add(picked.serverId, picked.tool.name, `${text}\n`);
        const document = await vscode.workspace.openTextDocument(uri);
        await vscode.languages.setTextDocumentLanguage(document, 'json');
        // A call that waited for a card was answered in the Sidebar, and the person may have moved on
        // (opened the palette, started the next call): its result is shown without taking the keyboard,
        // which would close their quick input and send their typing into this read-only document.
        await vscode.window.showTextDocument(document, { preview: true, preserveFocus: record.decision?.approvalId !== undefined });
        if (result.isError) void notifyWarning(`${picked.serverId} › ${picked.tool.name} answered with an error (see the result).`);
        return { uri: uri.toString(), result };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        void notifyError(`MCP Switchboard: ${message}`);
        return { error: message };
      }
    }),
  );
}

interface Picked {
  serverId: string;
  tool: ToolInfo;
  arguments?: Record<string, unknown>;
}

/** `{ serverId, tool, arguments }` given by a test or another command: nothing is asked. */
function presetOf(given: unknown): Picked | undefined {
  if (typeof given !== 'object' || given === null) return undefined;
  const g = given as { serverId?: unknown; tool?: unknown; arguments?: unknown };
  if (typeof g.serverId !== 'string' || typeof g.tool !== 'string') return undefined;
  const args = typeof g.arguments === 'object' && g.arguments !== null && !Array.isArray(g.arguments) ? g.arguments as Record<string, unknown> : {};
  return { serverId: g.serverId, tool: { name: g.tool, inputSchema: {} }, arguments: args };
}

/** The tool of a Servers tree row (its Call action passes the row), as the ready server lists it. */
function treeRowTool(given: unknown, servers: ServerView[]): Picked | undefined {
  const data = (given as { data?: { serverId?: unknown; toolName?: unknown } } | undefined)?.data;
  if (typeof data?.serverId !== 'string' || typeof data.toolName !== 'string') return undefined;
  const view = servers.find((v) => v.id === data.serverId && v.state.kind === 'ready');
  const tool = view?.catalog.tools.find((t) => t.name === data.toolName);
  if (!tool) {
    void notifyInfo(`${data.serverId} › ${data.toolName} cannot be called now: the server is not ready or no longer offers it.`);
    return undefined;
  }
  return { serverId: data.serverId, tool };
}

async function pickTool(servers: ServerView[]): Promise<Picked | undefined> {
  const items: (vscode.QuickPickItem & { serverId?: string; tool?: ToolInfo })[] = [];
  for (const view of servers.filter((v) => v.state.kind === 'ready')) {
    if (view.catalog.tools.length === 0) continue;
    items.push({ label: view.id, kind: vscode.QuickPickItemKind.Separator });
    for (const tool of view.catalog.tools) {
      items.push({ label: tool.name, description: tool.title ?? view.id, detail: tool.description?.split('\n')[0], serverId: view.id, tool });
    }
  }
  if (items.length === 0) {
    void notifyInfo('No ready MCP server offers a tool.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Call which tool?', matchOnDescription: true, matchOnDetail: true });
  return picked?.serverId && picked.tool ? { serverId: picked.serverId, tool: picked.tool } : undefined;
}

/** The arguments, from a form (one input per field) or as JSON; undefined when the person cancelled. */
async function askArguments(serverId: string, tool: ToolInfo, textFields: TextFieldEditor): Promise<Record<string, unknown> | undefined> {
  const fields = formFields(tool.inputSchema);
  if (fields.length === 0) return {};
  const way = await vscode.window.showQuickPick([
    { label: 'Fill in the arguments', description: counted(fields.length, 'field'), id: 'form' },
    { label: 'Write the arguments as JSON', id: 'json' },
  ], { placeHolder: `Arguments of ${serverId} › ${tool.name}` });
  if (!way) return undefined;
  return way.id === 'form' ? askFields(serverId, tool, fields, textFields) : askJson(serverId, tool, fields);
}

async function askFields(serverId: string, tool: ToolInfo, fields: FormField[], textFields: TextFieldEditor): Promise<Record<string, unknown> | undefined> {
  const args: Record<string, unknown> = {};
  for (const [index, field] of fields.entries()) {
    const title = `${serverId} › ${tool.name} (${index + 1}/${fields.length}): ${field.title}${field.required ? '' : ' (optional)'}`;
    let value: unknown;
    if (field.kind === 'enum' || field.kind === 'boolean') {
      const choices = field.kind === 'boolean'
        ? [{ label: 'true', value: true as unknown }, { label: 'false', value: false as unknown }]
        : (field.choices ?? []).map((c) => ({ label: c.title, description: c.title === String(c.value) ? undefined : String(c.value), value: c.value as unknown }));
      const items = field.required ? choices : [{ label: '(leave out)', value: undefined as unknown }, ...choices];
      const picked = await vscode.window.showQuickPick(items, { title, placeHolder: field.description ?? field.title });
      if (!picked) return undefined;
      value = picked.value;
    } else if (holdsText(field)) {
      const problem = (input: string): string | undefined => {
        const parsed = parseFieldInput(field, input);
        return 'error' in parsed ? parsed.error : undefined;
      };
      const text = await textFields.ask(`${tool.name} ${field.title}${field.required ? '' : ' (optional)'}`, fieldText(field, field.default), problem);
      if (text === undefined) return undefined;
      const parsed = parseFieldInput(field, text);
      if ('error' in parsed) return undefined;
      value = 'value' in parsed ? parsed.value : undefined;
    } else {
      const text = await vscode.window.showInputBox({
        title,
        prompt: [field.description, oneLineNote(field)].filter(Boolean).join(' — '),
        value: fieldText(field, field.default),
        ignoreFocusOut: true,
        validateInput: (input) => {
          const parsed = parseFieldInput(field, input);
          return 'error' in parsed ? parsed.error : undefined;
        },
      });
      if (text === undefined) return undefined;
      const parsed = parseFieldInput(field, text);
      if ('error' in parsed) return undefined;
      value = 'value' in parsed ? parsed.value : undefined;
    }
    if (value !== undefined) args[field.name] = value;
  }
  const problems = formatProblems(validateArguments(tool.inputSchema, args));
  if (problems.length > 0) return askJson(serverId, tool, fields, args, problems);
  return args;
}

async function askJson(serverId: string, tool: ToolInfo, fields: FormField[], start?: Record<string, unknown>, problems: string[] = []): Promise<Record<string, unknown> | undefined> {
  const template = start ?? Object.fromEntries(fields.filter((f) => f.required || f.default !== undefined).map((f) => [f.name, f.default ?? placeholder(f)]));
  const text = await vscode.window.showInputBox({
    title: `${serverId} › ${tool.name}: arguments as JSON`,
    prompt: problems.length > 0 ? `Fix: ${problems.join('; ')}` : 'A JSON object, checked against the tool\'s input schema',
    value: JSON.stringify(template),
    ignoreFocusOut: true,
    validateInput: (input) => {
      let value: unknown;
      try { value = JSON.parse(input); } catch (error) { return `not JSON: ${(error as Error).message}`; }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the arguments must be a JSON object';
      const found = formatProblems(validateArguments(tool.inputSchema, value));
      return found.length > 0 ? found.join('; ') : undefined;
    },
  });
  if (text === undefined) return undefined;
  return JSON.parse(text) as Record<string, unknown>;
}

/** What a one-line field says about line breaks: a typed `\n` is sent as the two characters. */
function oneLineNote(field: FormField): string | undefined {
  return field.kind === 'string' ? 'one line: a typed \\n is sent as typed, not as a line break' : undefined;
}

function placeholder(field: FormField): unknown {
  switch (field.kind) {
    case 'string': return '';
    case 'number': case 'integer': return field.minimum ?? 0;
    case 'boolean': return false;
    case 'enum': return field.choices?.[0]?.value ?? null;
    case 'multiEnum': return [];
    case 'json': return null;
  }
}
