// What the chat surfaces (the @mcp participant, the language-model tools, the commands) share: the
// ready servers' tools under their model names, calls through the one call path with the output limit,
// resource reads for mentions, prompts and argument completions. Everything goes through the registry
// and the tool call gate; nothing here talks to a server by itself.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { CallDurations } from '../../protocol/durations';
import { callAppUri } from '../../core/apps';
import type { ToolCallRequest, ToolCallResponse } from '../../core/calls';
import {
  attachResource, describeUnresolved, expandTemplate, ModelToolCatalog, outputReviewSetting, PersonalDataVault, promptCommandNames,
  mentionedResourceText, resolveMention, reviewedParts, scanOutputParts, serversOfUri, type AttachedResource, type ChatServer,
  type OutputPart, type HoldOutput, type LimitedOutput, type MentionTarget, type ModelTool, type ReviewVerdict, type SearchContext,
} from '../../core/chat';
import { closestQualifiedNames } from '../../core/naming';
import type { AttachmentChanges } from '../../core/subscriptions';
import { CODE_OUTPUT_SOURCE, CodeApi, codeRunText, describeCodeApi, runCode, scanCodeOutput, type CodeRunOptions, type CodeRunResult } from '../../core/code';
import { outsideContentReason, outsideResourceReason, type OutputFinding } from '../../core/toolReview';
import { quickJsEngine } from '../../node/quickjsEngine';
import {
  errorMessage, ServerState, type CallOptions, type CompletionRequest, type CompletionResult, type GetPromptResult,
  type CallToolResult, type PromptInfo, type ReadResourceResult, type ServerView,
} from '../../core/lifecycle';
import { resourceDocumentUri } from './resourceDocuments';
import type { SearchVectors } from './searchVectors';
import { readMaxToolOutputChars, type ToolOutputStore } from './toolOutput';

/** What the chat needs of the registry (a ServerRegistry fits). */
export interface ChatRegistry {
  list(): ServerView[];
  get(id: string): ServerView | undefined;
  readResource(id: string, uri: string, options?: CallOptions): Promise<ReadResourceResult>;
  getPrompt(id: string, name: string, args: Record<string, string>, options?: CallOptions): Promise<GetPromptResult>;
  complete(id: string, request: CompletionRequest, options?: CallOptions): Promise<CompletionResult>;
  readonly onDidChangeCatalog: (listener: () => void) => { dispose(): void };
  readonly onDidChangeState: (listener: () => void) => { dispose(): void };
}

export interface ChatServicesDeps {
  registry: ChatRegistry;
  /** The one call path (the ToolCallGate). */
  call(request: ToolCallRequest): Promise<ToolCallResponse>;
  outputs: ToolOutputStore;
  /** The tool search's optional word vectors. */
  searchVectors?: SearchVectors;
  /** Where a flagged result waits for the person when `switchboard.toolOutputs.review` is `hold`. */
  holdOutput?: HoldOutput;
  /** The attached resources, watched, so that a later request can say which changed (none: nothing is watched). */
  attachments?: AttachmentChanges;
}

export const OUTPUT_REVIEW_SETTING = 'switchboard.toolOutputs.review';

/** A tool call's outcome as the chat and the model see it. */
/** What a code run reports as it goes, and what cancels it. */
export type CodeRunHooks = Pick<CodeRunOptions, 'signal' | 'onCall' | 'onAwaitingApproval'>;

/** How a call by model name is made: the skills in use this turn, and who hears that it waits for approval. */
export interface ModelCallOptions {
  /** The SKILL.md files of the skills this turn uses: their servers' tools are callable only then. */
  readonly skills?: readonly string[];
  /** Told when the call waits for the person's approval, with its card's id. */
  readonly onAwaitingApproval?: (approvalId: string) => void;
  /** Told of the server's progress once the call runs (a task's steps, say). */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export interface ModelToolCallOutcome {
  readonly tool?: ModelTool;
  readonly output: LimitedOutput;
  /** Set when nothing was called or the call failed (the output then says why, for the model). */
  readonly error?: string;
  /** What the output scan found in a result that brings outside content, and how it went on to the model. */
  readonly findings?: readonly OutputFinding[];
  readonly verdict?: ReviewVerdict;
  /** The MCP App the tool or its result names (a `ui://` resource), with the call, for the "Open app" button. */
  readonly app?: { readonly uri: string; readonly arguments: Record<string, unknown>; readonly result: CallToolResult };
  /** How long its card waited for the person and the server ran it, when measured (the chat line says both). */
  readonly durations?: CallDurations;
}

/** A code-mode run as the model reads it: the run, its text (reviewed when flagged), and what the scan found. */
export interface CodeRunOutcome {
  readonly result: CodeRunResult;
  readonly parts: OutputPart[];
  readonly findings?: readonly OutputFinding[];
  /** The calls (`server › tool`) to tools that bring outside content, which made the output scanned. */
  readonly outside?: readonly string[];
  readonly verdict?: ReviewVerdict;
}

/** A resource read for a mention, ready to attach. */
export interface ReadMention {
  readonly attached: AttachedResource;
  /** A document URI that shows the resource in an editor (the chat reference). */
  readonly reference: vscode.Uri;
  /** What the output scan found in a resource from outside (it is attached fenced, after a warning when flagged). */
  readonly findings?: readonly OutputFinding[];
  /** The URI read (a template's, filled in). */
  readonly uri: string;
  /** A resource from outside: its text without the fence (what the model's own reads review). */
  readonly unfenced?: string;
}

/** `switchboard.chat.maskPersonalData`: e-mail addresses and phone numbers reach the model as placeholders. */
export const MASK_PERSONAL_DATA_SETTING = 'switchboard.chat.maskPersonalData';

export class ChatServices implements vscode.Disposable {
  private catalog: ModelToolCatalog | undefined;
  /** The placeholders of this window's conversations, kept while the setting is on. */
  private vault: PersonalDataVault | undefined;
  private readonly subscriptions: { dispose(): void }[];

  constructor(private readonly deps: ChatServicesDeps) {
    // The tool names are computed once per change of any catalog or state, not per request.
    const invalidate = (): void => { this.catalog = undefined; };
    this.subscriptions = [deps.registry.onDidChangeCatalog(invalidate), deps.registry.onDidChangeState(invalidate)];
  }

  servers(): ServerView[] {
    return this.deps.registry.list();
  }

  /** What the tool search reads beyond the catalog: servers' instructions, and word vectors when installed. */
  searchContext(): SearchContext {
    const vectors = this.deps.searchVectors?.vectors();
    return {
      instructions: (server) => this.servers().find((view) => view.id === server)?.catalog.instructions,
      ...(vectors && this.deps.searchVectors ? { vectors, vectorCache: this.deps.searchVectors.cache } : {}),
    };
  }

  /**
   * The ready servers' tools under the names a model knows them by. A skill's servers count only for
   * the skills in `skills` (those the turn uses): their tools join that turn's offer and no other.
   */
  tools(skills: readonly string[] = []): ModelToolCatalog {
    if (skills.length > 0) return new ModelToolCatalog(this.chatServers(skills));
    this.catalog ??= new ModelToolCatalog(this.chatServers([]));
    return this.catalog;
  }

  /** The servers a turn offers tools from: every server that no skill brings, and those of `skills`, sent in full. */
  chatServers(skills: readonly string[]): ChatServer[] {
    return this.deps.registry.list().flatMap((view): ChatServer[] => {
      // By SKILL.md, not by name: a repository's skill named like the person's own brings none of theirs.
      const skill = view.server.skill?.file;
      if (skill === undefined) return [view];
      if (!skills.includes(skill)) return [];
      // The person asked for the skill: its tools are sent, not left behind the catalog search.
      return [{ id: view.id, state: view.state, catalog: { ...view.catalog, alwaysLoad: true } }];
    });
  }

  /** The prompts of the ready servers by slash-command name (`mcp__<server>__<prompt>`). */
  prompts(): Map<string, { server: string; prompt: PromptInfo }> {
    const ready = this.servers().filter((view) => view.state.kind === 'ready');
    const byName = promptCommandNames(ready.map((view) => ({ id: view.id, prompts: view.catalog.prompts })));
    const result = new Map<string, { server: string; prompt: PromptInfo }>();
    for (const [name, ref] of byName) {
      const prompt = ready.find((view) => view.id === ref.server)?.catalog.prompts.find((p) => p.name === ref.prompt);
      if (prompt) result.set(name, { server: ref.server, prompt });
    }
    return result;
  }

  /**
   * Calls a tool by its model name through the one call path and limits its output. A refusal or a
   * failure becomes an error output (what the model reads), never a rejection.
   */
  async callByModelName(qualifiedName: string, args: Record<string, unknown>, caller: string, signal?: AbortSignal, options: ModelCallOptions = {}): Promise<ModelToolCallOutcome> {
    const { skills = [], onAwaitingApproval, onProgress } = options;
    await this.whenCatalogsLoaded();
    const catalog = this.tools(skills);
    const tool = catalog.find(qualifiedName);
    if (tool === undefined) {
      const near = closestQualifiedNames(qualifiedName, catalog.names());
      const error = `There is no MCP tool named ${qualifiedName}${near.length > 0 ? `; did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : '.'}`;
      return { output: errorOutput(error), error };
    }
    const vault = this.personalData();
    try {
      const { result, record } = await this.deps.call({ serverId: tool.server, tool: tool.tool.name, arguments: vault ? vault.restore(args) : args, caller, signal, ...(onAwaitingApproval ? { onAwaitingApproval } : {}), ...(onProgress ? { onProgress } : {}) });
      const appUri = callAppUri(tool.tool, result);
      const app = appUri === undefined ? undefined : { uri: appUri, arguments: record.arguments, result };
      const durations: CallDurations = {
        durationMs: record.durationMs,
        ...(record.decision?.waitedMs !== undefined ? { waitedMs: record.decision.waitedMs } : {}),
        ...(record.ranMs !== undefined ? { ranMs: record.ranMs } : {}),
      };
      const limited = await this.deps.outputs.limit(tool.server, tool.tool, result);
      if (outsideContentReason(tool.tool) === undefined) return { tool, output: vault ? maskOutput(limited, vault) : limited, durations, ...(app ? { app } : {}) };
      // A result that brings outside content is scanned as the model would read it (the head of a
      // saved one), and reaches the model fenced as data whether or not the scan found anything.
      const findings = scanOutputParts(limited.parts);
      const setting = outputReviewSetting(vscode.workspace.getConfiguration().get<unknown>(OUTPUT_REVIEW_SETTING));
      const source = { server: tool.server, tool: tool.tool.name, id: randomUUID(), at: Date.now() };
      const reviewed = await reviewedParts(limited.parts, findings, source, setting, this.deps.holdOutput, signal);
      const output = { ...limited, parts: reviewed.parts };
      const flagged = findings.length > 0 ? { findings, verdict: reviewed.verdict } : {};
      return { tool, output: vault ? maskOutput(output, vault) : output, ...flagged, durations, ...(app ? { app } : {}) };
    } catch (error) {
      const message = signal?.aborted ? 'The call was cancelled.' : errorMessage(error);
      return { tool, output: errorOutput(message), error: message };
    }
  }

  /** The code mode API over the ready servers' tools. */
  async codeApi(): Promise<CodeApi> {
    await this.whenCatalogsLoaded();
    return new CodeApi(this.tools());
  }

  /** What code mode's API tool answers: the servers, or one server's declarations. */
  async describeCodeApi(server: unknown): Promise<string> {
    return describeCodeApi(await this.codeApi(), server, this.searchContext().instructions);
  }

  /** Runs a script in code mode's sandbox; each of its calls goes through the one call path as caller `code`. */
  async runCode(code: string, hooks: CodeRunHooks = {}): Promise<CodeRunResult> {
    await this.whenCatalogsLoaded();
    const vault = this.personalData();
    return runCode(code, {
      engine: quickJsEngine,
      catalog: this.tools(),
      call: async (request) => (await this.deps.call(request)).result,
      ...hooks,
      ...(vault ? { vault } : {}),
    });
  }

  /**
   * Runs a script and makes what the model reads of it: when the script called a tool that brings outside
   * content, its printed text is scanned and fenced, and a finding is handled as for a direct call's
   * result (a warning before the fence, or held for the person's review).
   */
  async runCodeForModel(code: string, hooks: CodeRunHooks = {}): Promise<CodeRunOutcome> {
    const { signal } = hooks;
    const result = await this.runCode(code, hooks);
    const text = codeRunText(result);
    const parts: OutputPart[] = [{ kind: 'text', text }];
    const { findings, outside } = scanCodeOutput(result, text, this.tools());
    // A run that read outside content hands it on: its printed text is fenced as data, flagged or not.
    if (outside.length === 0) return { result, parts };
    const setting = outputReviewSetting(vscode.workspace.getConfiguration().get<unknown>(OUTPUT_REVIEW_SETTING));
    const source = { ...CODE_OUTPUT_SOURCE, id: randomUUID(), at: Date.now() };
    const reviewed = await reviewedParts(parts, findings, source, setting, this.deps.holdOutput, signal);
    return { result, parts: reviewed.parts, outside, ...(findings.length > 0 ? { findings } : {}), ...(reviewed.verdict ? { verdict: reviewed.verdict } : {}) };
  }

  /** The placeholders vault while `switchboard.chat.maskPersonalData` is on (turning it off forgets the values). */
  private personalData(): PersonalDataVault | undefined {
    if (vscode.workspace.getConfiguration().get<boolean>(MASK_PERSONAL_DATA_SETTING) !== true) {
      this.vault = undefined;
      return undefined;
    }
    this.vault ??= new PersonalDataVault();
    return this.vault;
  }

  /** What `server` + `uri` names in the catalogs now. */
  resolve(server: string, uri: string): MentionTarget {
    return resolveMention(server, uri, this.servers(), ServerState.label);
  }

  /** The server of a bare URI (the one that lists it or has a template for it), or why there is none. */
  serverOfUri(uri: string): { server: string } | { error: string } {
    const found = serversOfUri(uri, this.servers());
    if (found.length === 1) return { server: found[0] };
    if (found.length > 1) return { error: `More than one MCP server offers ${uri} (${found.join(', ')}): write it as @server:uri.` };
    return { error: `No ready MCP server lists ${uri}. Write it as @server:uri, or see @mcp /help for the resources there are.` };
  }

  /**
   * Reads what a mention names. `fill` is asked for the values of a template's variables (undefined
   * when the person cancelled). Rejects with a message for a mention that names nothing readable.
   */
  async readMention(server: string, uri: string, fill: (target: Extract<MentionTarget, { kind: 'template' }>) => Promise<Record<string, string> | undefined>, signal?: AbortSignal): Promise<ReadMention> {
    await this.whenCatalogsLoaded();
    const target = this.resolve(server, uri);
    let concrete: string;
    switch (target.kind) {
      case 'resource': case 'templateInstance': concrete = target.uri; break;
      case 'template': {
        const values = await fill(target);
        if (values === undefined) throw new Error(`No values were given for ${target.template.uriTemplate}.`);
        concrete = expandTemplate(target.template.uriTemplate, values);
        break;
      }
      default: throw new Error(describeUnresolved(target));
    }
    const read = await this.deps.registry.readResource(server, concrete, { signal });
    const attached = attachResource(server, concrete, read.contents, readMaxToolOutputChars());
    const reference = resourceDocumentUri(server, concrete);
    const transport = this.deps.registry.get(server)?.server.launch.type ?? 'stdio';
    // The person typed this mention themselves: a resource from outside is fenced as data (after the
    // warning when flagged, as a tool result is) and never held; the model's own reads go through
    // readForModel's review.
    const outside = outsideResourceReason(transport, concrete) !== undefined;
    const { text, findings, unfenced } = mentionedResourceText(attached.text, outside, `${server} › ${concrete}`, randomUUID());
    return { attached: { ...attached, text }, reference, ...(findings ? { findings } : {}), uri: concrete, ...(unfenced !== undefined ? { unfenced } : {}) };
  }

  /**
   * Reads a resource the model asked for (switchboard_read_resource): one from outside is handled as a
   * direct tool call's result is — fenced, after a warning when flagged, or held for the person's
   * review under `switchboard.toolOutputs.review: hold` — since no person chose it.
   */
  async readForModel(server: string, uri: string, signal?: AbortSignal): Promise<{ text: string; findings?: readonly OutputFinding[]; verdict?: ReviewVerdict }> {
    const read = await this.readMention(server, uri, async () => undefined, signal);
    if (read.unfenced === undefined) return { text: read.attached.text };
    const findings = read.findings ?? [];
    const setting = outputReviewSetting(vscode.workspace.getConfiguration().get<unknown>(OUTPUT_REVIEW_SETTING));
    const source = { server, tool: read.uri, id: randomUUID(), at: Date.now() };
    const reviewed = await reviewedParts([{ kind: 'text', text: read.unfenced }], findings, source, setting, this.deps.holdOutput, signal);
    const text = reviewed.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('\n');
    return { text, ...(findings.length > 0 ? { findings } : {}), ...(reviewed.verdict ? { verdict: reviewed.verdict } : {}) };
  }

  /** Records that a request attaches the resource (and watches it); true when it was attached before and changed since. */
  noteAttached(server: string, uri: string): boolean {
    return this.deps.attachments?.attach(server, uri) ?? false;
  }

  /** Whether a resource attached earlier changed since, by its server's word. */
  changedSinceAttached(server: string, uri: string): boolean {
    return this.deps.attachments?.changed(server, uri) ?? false;
  }

  /** prompts/get through the registry. */
  getPrompt(server: string, name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
    return this.deps.registry.getPrompt(server, name, args, { signal });
  }

  /** completion/complete; no suggestions (rather than an error) when the server has none to give. */
  async complete(server: string, request: CompletionRequest): Promise<string[]> {
    try {
      return (await this.deps.registry.complete(server, request)).values;
    } catch {
      return [];
    }
  }

  /** Waits (briefly) for catalog listings in progress, so a tool is never missing only because it was still being listed. */
  private async whenCatalogsLoaded(): Promise<void> {
    await Promise.all(this.servers().filter((view) => view.state.kind === 'ready').map((view) => view.whenCatalogLoaded()));
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** A tool's output with the personal data in its text masked (data and references pass as they are). */
function maskOutput(output: LimitedOutput, vault: PersonalDataVault): LimitedOutput {
  return { ...output, parts: output.parts.map((part) => (part.kind === 'text' ? { kind: 'text', text: vault.mask(part.text) } : part)) };
}

function errorOutput(message: string): LimitedOutput {
  return { parts: [{ kind: 'text', text: message }], totalChars: message.length, isError: true };
}
