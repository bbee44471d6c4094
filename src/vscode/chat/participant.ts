// The @mcp chat participant: runs the tool loop with vscode.lm over the MCP servers' tools (every call
// through the one call path and its approvals), attaches `@server:uri` mentions, starts from
// `/mcp__server__prompt` prompts, uses skills (`/skill-name`, or the model loading one with
// switchboard_use_skill: their text, and their servers' tools for that turn only), and answers `/help`. What ran, and which results the output scan flagged, is shown
// in the response and returned in the result's metadata.
import * as vscode from 'vscode';
import type { CallDurations } from '../../protocol/durations';
import {
  assistantText, chatHelpMarkdown, DEFAULT_MAX_ROUNDS, instructionsForModel, parseMentions, parseSlashCommand, runToolLoop, toolListChars, ToolOffer, userText,
  type ModelMessage, type ResourceMention, type ModelToolSpec, type OutputPart, type ToolCallRequestPart, type ToolRunResult,
} from '../../core/chat';
import { CODE_API_TOOL, CODE_API_TOOL_NAME, RUN_CODE_TOOL, RUN_CODE_TOOL_NAME } from '../../core/code';
import { ServerState } from '../../core/lifecycle';
import { estimateTokens, SEARCH_TOOL_NAME, type ToolLoadingSetting } from '../../core/search';
import { parseSkillCommand, skillInstructions, skillWithheldMessage, USE_SKILL_TOOL_NAME } from '../../core/skills';
import type { ArgumentAsker } from './argumentAsker';
import type { ChatServices } from './chatServices';
import { fromReplyPart, toChatMessages } from './lmParts';
import { signalOf } from './lmTools';
import { attachMentions, referenceMentions } from './mentionRequest';
import { startFromPrompt } from './promptRequest';
import { toolCallLine } from './toolCallLine';
import { outputWarningMarkdown } from './outputWarning';
import { plainText } from '../ui/plainText';
import { resourceDocumentUri } from './resourceDocuments';
import { TurnSkillLoader, type SkillLoadingMetadata } from './skillLoading';
import type { SkillUse, UsedSkill } from './skillUse';

/** Reveals the Sidebar with the card of a call that waits (registered with the sidebar; argument: the card's id). */
export const SHOW_APPROVAL_COMMAND = 'switchboard.showApproval';
/** The "Open <tool> app" button (apps/appCommands.ts); a string here: the app panel loads on its own. */
const OPEN_APP_COMMAND = 'switchboard.openApp';

export const PARTICIPANT_ID = 'switchboard.mcp';

/** What a response's metadata says about the turn (the chat keeps it; tests read it). */
export interface McpTurnMetadata {
  kind: 'help' | 'answer' | 'problem' | 'cancelled';
  model?: string;
  /** The names of the tools offered in the first round, and the size of their declarations in characters. */
  toolsOffered?: string[];
  toolsChars?: number;
  /** How the tools were chosen (the deferred-loading plan): all of them, or the alwaysLoad ones and a search. */
  toolLoading?: { mode: 'all' | 'search' | 'code'; reason: string; totalTools: number; totalTokens: number; sentTokens: number };
  /** In code mode: every call the scripts made, in order. */
  codeCalls?: { server: string; tool: string; ok: boolean; error?: string }[];
  toolCalls?: { name: string; server?: string; tool?: string; isError: boolean; durationMs: number; outputFindings?: string[]; outputVerdict?: string }[];
  /** The tools whose calls waited for the person's approval (each time one did), with their cards' ids. */
  awaitedApproval?: { name: string; approvalId: string }[];
  references?: string[];
  /** The attached resources marked for the model as changed since they were last attached. */
  changedResources?: string[];
  /** The servers' instructions: whose were sent (and how many characters), whose the poisoning scan kept out. */
  instructions?: { sent: { server: string; chars: number; cut: boolean }[]; withheld: { server: string; reasons: string[] }[] };
  prompt?: { server: string; name: string; args: Record<string, string> };
  answer?: string;
  rounds?: number;
  ended?: 'answered' | 'maxRounds' | 'cancelled';
  message?: string;
  /** The skill the turn used (`@mcp /skill-name`), and whether each of its servers was available. */
  skill?: { name: string; servers: { id: string; available: boolean; reason?: string }[] };
  /** The skills the model could load with switchboard_use_skill, those the scan kept out, and those it loaded. */
  skillLoading?: SkillLoadingMetadata;
}

export interface ParticipantDeps {
  services: ChatServices;
  /** How missing prompt arguments and template variables are asked for. */
  ask(): ArgumentAsker;
  /** The skills that `@mcp /skill-name` uses. */
  skills?: SkillUse;
}

/** What answers @mcp (registered by registerChat.ts, which loads this with the first turn). */
export function participantHandler(deps: ParticipantDeps): vscode.ChatRequestHandler {
  return (request, context, stream, token) => handle(deps, request, context, stream, token);
}

async function handle(deps: ParticipantDeps, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const { services } = deps;
  const problem = (message: string): vscode.ChatResult => {
    stream.markdown(message);
    return { metadata: { kind: 'problem', message } satisfies McpTurnMetadata };
  };
  if (request.command === 'help') {
    const help = helpText(services);
    stream.markdown(help);
    return { metadata: { kind: 'help', message: help } satisfies McpTurnMetadata };
  }
  const { signal, dispose } = signalOf(token);
  let used: UsedSkill | undefined;
  let loader: TurnSkillLoader | undefined;
  try {
    const model = request.model ?? (await vscode.lm.selectChatModels())[0];
    if (!model) return problem('No language model is available in this VS Code. Sign in to a chat provider or install one, then ask again.');

    const metadata: McpTurnMetadata = { kind: 'answer', model: `${model.vendor}/${model.id}` };
    // The ready servers' own words on using their tools come first, scanned like tool descriptions.
    const instructions = instructionsForModel(services.servers().filter((view) => view.state.kind === 'ready').map((view) => ({ id: view.id, instructions: view.catalog.instructions })));
    metadata.instructions = { sent: [...instructions.sent], withheld: instructions.withheld.map((w) => ({ server: w.server, reasons: [...w.reasons] })) };
    for (const kept of instructions.withheld) {
      // The reasons quote the server's text: shown as text, never as markdown.
      stream.markdown(new vscode.MarkdownString().appendText(`The instructions of the server "${kept.server}" were not sent to the model: the poisoning scan flagged them (${kept.reasons.join('; ')}).`).appendMarkdown('\n\n'));
    }
    const start: ModelMessage[] = [...(instructions.text !== undefined ? [userText(instructions.text)] : []), ...historyOf(context)];
    const slash = parseSlashCommand(request.prompt);
    const skillCommand = parseSkillCommand(request.prompt);
    const skill = skillCommand && !skillCommand.name.startsWith('mcp__') ? await deps.skills?.find(skillCommand.name) : undefined;
    let prompt = request.prompt;
    if (skill && skillCommand) {
      // The skill's text reaches the model only once its name, description and body pass the scan.
      const withheld = skillWithheldMessage(skill);
      if (withheld !== undefined) return problem(withheld);
      used = await deps.skills!.use(skill, (message) => stream.progress(message));
      metadata.skill = { name: skill.name, servers: used.servers.map(({ id, available, reason }) => ({ id, available, ...(reason ? { reason } : {}) })) };
      const unavailable = used.servers.filter((server) => !server.available);
      stream.markdown(`*Using the skill **${skill.name}**${used.servers.length > 0 ? ` with ${used.servers.length - unavailable.length} of its ${used.servers.length} servers` : ''}.*\n\n`);
      for (const server of unavailable) stream.markdown(`*The tools of its server ${server.server} are unavailable: ${server.reason ?? 'it did not start'}. The skill's instructions are used without them.*\n\n`);
      // A repository's skill of the same name was not taken for this one: say so (as text, it names files).
      for (const other of (await deps.skills!.notUsed()).filter((n) => n.skill.name === skill.name)) stream.markdown(new vscode.MarkdownString().appendText(other.reason).appendMarkdown('\n\n'));
      start.push(userText(skillInstructions(skill, unavailable.map((server) => ({ server: server.server, reason: server.reason ?? 'it did not start' })))));
      prompt = skillCommand.rest === '' ? `Follow the skill ${skill.name}.` : skillCommand.rest;
    }
    // The skills this turn uses (by SKILL.md): the one named, and any the model loads as the turn goes.
    const skills = used ? [used.skill.file] : [];
    if (!skill && slash && slash.name.startsWith('mcp__')) {
      stream.progress(`Getting the prompt /${slash.name}…`);
      const started = await startFromPrompt(services, slash, deps.ask(), signal);
      if (started.kind === 'problem') return problem(started.message);
      if (started.kind === 'cancelled') return problem(`/${slash.name} was not run: its arguments were not given.`);
      start.push(...started.messages);
      metadata.prompt = { server: started.server, name: started.prompt.name, args: started.args };
      const args = Object.entries(started.args).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ');
      stream.markdown(`*Started from the prompt **${started.server} › ${started.prompt.title ?? started.prompt.name}**${args ? ` (${args})` : ''}.*\n\n`);
    } else {
      const mentioned = await attachMentions(services, prompt, deps.ask(), signal, earlierMentions(context));
      if (mentioned.kind === 'problem') return problem(mentioned.message);
      referenceMentions(stream, mentioned.read);
      metadata.references = mentioned.read.map((r) => r.attached.uri);
      if (mentioned.changed.length > 0) {
        metadata.changedResources = [...mentioned.changed];
        stream.markdown(new vscode.MarkdownString().appendText(`Changed since it was attached: ${mentioned.changed.join(', ')} (its current content is attached).`).appendMarkdown('\n\n'));
      }
      for (const r of mentioned.read) {
        if (r.findings) stream.markdown(outputWarningMarkdown(r.attached.uri, r.findings, 'warned'));
        if (r.attached.cut) stream.markdown(`*${r.attached.uri} has ${r.attached.totalChars.toLocaleString('en-US')} characters: only its first part is attached (switchboard.maxToolOutputChars).*\n\n`);
      }
      start.push({ role: 'user', parts: mentioned.parts });
    }
    if (signal.aborted) return { metadata: { ...metadata, kind: 'cancelled' } };

    // The tools: all when the catalog is small, else the alwaysLoad ones and a search for the rest; in
    // code mode (/code, or the setting) only the code API and the run tool.
    const loading = readToolLoading();
    const codeMode = request.command === 'code' || loading === 'code';
    const offer = new ToolOffer(services.tools(skills), services.chatServers(skills), {
      setting: loading === 'code' ? 'auto' : loading,
      ...services.searchContext(),
    });
    // The model may load a skill (not in code mode, whose API is the servers' tools outside skills).
    loader = codeMode ? undefined : await TurnSkillLoader.create(deps.skills, services, skills, stream);
    const specs = (): ModelToolSpec[] => (codeMode ? [CODE_API_TOOL, RUN_CODE_TOOL] : [...offer.specs(), ...(loader?.specs() ?? [])]);
    metadata.toolsOffered = specs().map((t) => t.name);
    metadata.toolsChars = toolListChars(specs());
    const { mode, reason, totalTools, totalTokens, sentTokens } = offer.plan;
    metadata.toolLoading = codeMode
      ? { mode: 'code', reason: 'code mode: the model reads the tools as TypeScript on demand and calls them from a script', totalTools, totalTokens, sentTokens: specs().reduce((sum, spec) => sum + estimateTokens(spec), 0) }
      : { mode, reason, totalTools, totalTokens, sentTokens };
    metadata.toolCalls = [];
    if (loader) metadata.skillLoading = loader.metadata;
    if (codeMode) metadata.codeCalls = [];

    const reviewed = new Map<string, { findings: string[]; verdict?: string }>();
    /** The apps the turn's calls named (by server and tool, the last call's): the answer ends with a button for each. */
    const apps = new Map<string, { serverId: string; tool: string; arguments: Record<string, unknown>; result: unknown }>();
    /** Per call, the wait for the person and the server's run, for the line under it. */
    const durations = new Map<string, CallDurations>();
    const runTool = async (call: ToolCallRequestPart, callSignal: AbortSignal): Promise<ToolRunResult> => {
      if (codeMode) return runCodeTool(services, call, callSignal, stream, metadata, reviewed);
      if (loader?.isLoadTool(call.name)) return loader.load(call, stream);
      if (offer.isSearch(call.name)) return { content: [{ kind: 'text', text: offer.search(call.input) }], isError: false };
      const outcome = await services.callByModelName(call.name, call.input, 'chat', callSignal, {
        skills,
        onAwaitingApproval: (approvalId) => announceWaiting(stream, metadata, call.name, describeTool(services, call.name, skills), approvalId),
        // Once approved, a long call (a task) says how far it is, instead of still "waiting for your approval".
        onProgress: (progress) => stream.progress(`${describeTool(services, call.name, skills)}: ${progressWords(progress)}…`),
      });
      if (outcome.durations) durations.set(call.callId, outcome.durations);
      if (outcome.findings && outcome.findings.length > 0) {
        reviewed.set(call.callId, { findings: outcome.findings.map((f) => f.id), verdict: outcome.verdict });
        stream.markdown(outputWarningMarkdown(describeTool(services, call.name, skills), outcome.findings, outcome.verdict));
      }
      if (outcome.app && outcome.tool) apps.set(`${outcome.tool.server}\u0000${outcome.tool.tool.name}`, { serverId: outcome.tool.server, tool: outcome.tool.tool.name, arguments: outcome.app.arguments, result: outcome.app.result });
      showReferences(stream, outcome.tool?.server, outcome.output.parts);
      if (outcome.output.savedTo) stream.reference(vscode.Uri.file(outcome.output.savedTo));
      return { content: outcome.output.parts, isError: outcome.output.isError };
    };

    const outcome = await runToolLoop(start, {
      send: (messages, tools, sendSignal) => sendToModel(model, messages, tools, sendSignal, token),
      tools: specs,
      runTool,
    }, {
      maxRounds: DEFAULT_MAX_ROUNDS,
      signal,
      onText: (text) => stream.markdown(text),
      onToolCall: (call) => stream.progress(`Running ${describeTool(services, call.name, skills)}…`),
      onToolResult: (call, result, durationMs) => {
        const tool = services.tools(skills).find(call.name);
        const review = reviewed.get(call.callId);
        metadata.toolCalls!.push({
          name: call.name, ...(tool ? { server: tool.server, tool: tool.tool.name } : {}), isError: result.isError, durationMs,
          ...(review ? { outputFindings: review.findings, ...(review.verdict ? { outputVerdict: review.verdict } : {}) } : {}),
        });
        if (call.name === SEARCH_TOOL_NAME || call.name === CODE_API_TOOL_NAME || call.name === USE_SKILL_TOOL_NAME) return;
        stream.markdown(toolCallLine(call.name, describeTool(services, call.name, skills), durations.get(call.callId) ?? { durationMs }, result.isError ? firstText(result.content) : undefined));
      },
    });
    // After the answer, not beside the call: the chat folds what came before the answer into its steps.
    for (const app of apps.values()) stream.button({ command: OPEN_APP_COMMAND, arguments: [app], title: `Open ${app.tool} app` });
    if (outcome.ended === 'maxRounds') stream.markdown(`\n\n*Stopped after ${outcome.rounds} rounds of tool calls without a final answer. Ask again to go on.*`);
    return { metadata: { ...metadata, kind: outcome.ended === 'cancelled' ? 'cancelled' : 'answer', answer: outcome.text, rounds: outcome.rounds, ended: outcome.ended } satisfies McpTurnMetadata };
  } catch (error) {
    if (signal.aborted) return { metadata: { kind: 'cancelled' } satisfies McpTurnMetadata };
    const message = error instanceof vscode.LanguageModelError ? `The language model refused the request: ${error.message} (${error.code})` : `Something went wrong: ${error instanceof Error ? error.message : String(error)}`;
    return problem(message);
  } finally {
    used?.release();
    loader?.release();
    dispose();
  }
}

/** `switchboard.chat.toolLoading`; an unknown value counts as the default. */
function readToolLoading(): ToolLoadingSetting | 'code' {
  const value = vscode.workspace.getConfiguration('switchboard.chat').get<unknown>('toolLoading');
  return value === 'all' || value === 'search' || value === 'code' ? value : 'auto';
}

/** Code mode's two tools: the API's description, or a script's run (its calls shown as they end). */
async function runCodeTool(
  services: ChatServices, call: ToolCallRequestPart, signal: AbortSignal, stream: vscode.ChatResponseStream, metadata: McpTurnMetadata,
  flagged: Map<string, { findings: string[]; verdict?: string }>,
): Promise<ToolRunResult> {
  if (call.name === CODE_API_TOOL_NAME) return { content: [{ kind: 'text', text: await services.describeCodeApi(call.input.server) }], isError: false };
  if (call.name !== RUN_CODE_TOOL_NAME) return { content: [{ kind: 'text', text: `In code mode the tools are ${CODE_API_TOOL_NAME} and ${RUN_CODE_TOOL_NAME}; call MCP tools from a script.` }], isError: true };
  const code = typeof call.input.code === 'string' ? call.input.code : '';
  if (code.trim() === '') return { content: [{ kind: 'text', text: 'Give the script as "code".' }], isError: true };
  const run = await services.runCodeForModel(code, {
    signal,
    onCall: (record) => {
      (metadata.codeCalls ??= []).push(record);
      stream.progress(`${record.ok ? '✓' : '✗'} ${record.server} › ${record.tool}`);
    },
    // A script's call that waits for a card is said as a direct call's is: the script waits for the person.
    onAwaitingApproval: (approvalId, server, tool) => announceWaiting(stream, metadata, RUN_CODE_TOOL_NAME, `${server} › ${tool}, called by the script`, approvalId),
  });
  if (run.findings) {
    flagged.set(call.callId, { findings: run.findings.map((f) => f.id), ...(run.verdict ? { verdict: run.verdict } : {}) });
    stream.markdown(outputWarningMarkdown(`the script that called ${run.outside?.join(', ') ?? 'a tool'}`, run.findings, run.verdict));
  }
  return { content: run.parts, isError: run.result.error !== undefined };
}

/** A call's progress in words: "3 of 10 · step 3", or the count alone. */
function progressWords({ progress, total, message }: { progress: number; total?: number; message?: string }): string {
  return `${total === undefined ? progress : `${progress} of ${total}`}${message === undefined ? '' : ` · ${plainText(message)}`}`;
}

/** Says in the answer that a call waits for the person's approval, with a button that shows its card. */
function announceWaiting(stream: vscode.ChatResponseStream, metadata: McpTurnMetadata, name: string, description: string, approvalId: string): void {
  // Without this the chat would only say "Running…" while nothing runs: the call waits for the person.
  (metadata.awaitedApproval ??= []).push({ name, approvalId });
  stream.markdown(`\n\n> \`${name}\` (${description}) **waits for your approval**: approve or reject it on its card in the MCP Switchboard sidebar.\n\n`);
  stream.button({ command: SHOW_APPROVAL_COMMAND, arguments: [approvalId], title: 'Show the approval card' });
  stream.progress(`Waiting for your approval of ${description}…`);
}

/** One request to the model, its reply streamed as our parts. */
async function* sendToModel(model: vscode.LanguageModelChat, messages: readonly ModelMessage[], tools: readonly ModelToolSpec[], _signal: AbortSignal, token: vscode.CancellationToken) {
  const response = await model.sendRequest(toChatMessages(messages), {
    justification: 'MCP Switchboard\'s @mcp participant sends your message and your MCP servers\' tools to the model.',
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
  }, token);
  for await (const part of response.stream) {
    const ours = fromReplyPart(part);
    if (ours) yield ours;
  }
}

/** The resource mentions of the earlier requests to @mcp in this conversation. */
function earlierMentions(context: vscode.ChatContext): ResourceMention[] {
  return context.history.flatMap((turn) => (turn instanceof vscode.ChatRequestTurn ? parseMentions(turn.prompt) : []));
}

/** The earlier turns with @mcp, as text. */
function historyOf(context: vscode.ChatContext): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) {
      messages.push(userText(turn.prompt));
    } else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : '')).join('');
      if (text.trim() !== '') messages.push(assistantText(text));
    }
  }
  return messages;
}

/** Resource links of a tool result as references (MCP URIs open read-only through the registry). */
function showReferences(stream: vscode.ChatResponseStream, server: string | undefined, parts: readonly OutputPart[]): void {
  for (const part of parts) {
    if (part.kind !== 'reference') continue;
    const direct = /^(file|https?):/i.test(part.uri);
    if (direct) stream.reference(vscode.Uri.parse(part.uri));
    else if (server !== undefined) stream.reference(resourceDocumentUri(server, part.uri));
  }
}

function describeTool(services: ChatServices, name: string, skills: readonly string[] = []): string {
  if (name === SEARCH_TOOL_NAME) return 'the MCP tool search';
  if (name === RUN_CODE_TOOL_NAME) return 'a script against the MCP tools';
  if (name === CODE_API_TOOL_NAME) return 'the code API of the MCP tools';
  if (name === USE_SKILL_TOOL_NAME) return 'loading a skill';
  const tool = services.tools(skills).find(name);
  return tool ? `${tool.server} › ${tool.tool.name}` : name;
}

function firstText(parts: readonly OutputPart[]): string {
  const text = parts.find((p): p is Extract<OutputPart, { kind: 'text' }> => p.kind === 'text')?.text ?? '';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The /help text from the servers as they are now. */
export function helpText(services: ChatServices): string {
  return chatHelpMarkdown(services.servers().map((view) => ({
    id: view.id,
    state: ServerState.label(view.state),
    ready: view.state.kind === 'ready',
    tools: view.catalog.tools.length,
    resources: view.catalog.resources,
    templates: view.catalog.resourceTemplates,
    prompts: view.catalog.prompts,
  })));
}
