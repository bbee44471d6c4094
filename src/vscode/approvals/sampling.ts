// Sampling in the extension: a server's request for a model completion waits as a card in the sidebar
// (its messages, system prompt, token budget and model preferences) until the person approves it, once
// or always for that server; then it goes to the VS Code language model chosen for that server (the
// `switchboard.sampling.models` setting, or asked once and remembered), and the answer goes back to
// the server. A rejection is an error to the server; a server asking too often is refused.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { systemClock } from '../../core/lifecycle/clock';
import type { ServerRegistry } from '../../core/lifecycle';
import { serverIdentityOf, type ServerIdentity } from '../../core/approvals/serverIdentity';
import { describeContent, SamplingBroker, SamplingRateLimit, samplingAlwaysAllows, toSamplingCards, withSamplingAlways, type SamplingAnswer, type SamplingRequest } from '../../core/sampling';
import type { SamplingRequest as WireRequest, SamplingResult } from '../../node/connector';
import type { SamplingCard } from '../../protocol/sampling';
import { attentionSource, type AttentionSource } from './approvalAttention';
import { notifyInfo } from '../ui/notify';

/** Names a person chose "always" for before it was kept by identity (still honoured for their own servers). */
const LEGACY_ALWAYS_KEY = 'switchboard.samplingAlways';
/** Identity keys of the servers a person chose "always" for. */
const ALWAYS_KEY = 'switchboard.samplingAlwaysByServer';
const MODELS_KEY = 'switchboard.samplingModels';
const GONE = 'The server no longer waits for this answer: it was answered elsewhere or the server withdrew it.';

export class Sampling implements vscode.Disposable {
  readonly broker = new SamplingBroker();
  private readonly rate = new SamplingRateLimit(systemClock);
  private registry: ServerRegistry | undefined;
  private available = false;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly extension: vscode.ExtensionContext, private readonly log: vscode.LogOutputChannel) {
    void this.refreshModels();
    this.subscriptions.push(vscode.lm.onDidChangeChatModels(() => { void this.refreshModels(); }));
  }

  attach(registry: ServerRegistry): void {
    this.registry = registry;
  }

  /** Whether a language model is there (the client declares sampling to servers that connect then). */
  readonly samplingAvailable = (): boolean => this.available;

  /** The connector's handler. */
  readonly sample = async (request: WireRequest, signal: AbortSignal): Promise<SamplingResult> => {
    const server = this.registry?.get(request.serverId)?.server;
    const serverName = server?.name ?? request.serverId;
    const identity = server === undefined ? undefined : serverIdentityOf(server);
    const allowed = this.rate.take(request.serverId);
    if (!allowed.ok) throw new Error(`too many sampling requests from "${serverName}": try again in ${Math.ceil(allowed.retryInMs / 1000)} s`);
    if (!this.alwaysAllowed(identity)) {
      const asked: SamplingRequest = {
        id: randomUUID(),
        serverId: request.serverId,
        serverName,
        messages: request.messages.map((m) => ({ role: m.role, text: describeContent(m.content) })),
        ...(request.systemPrompt !== undefined ? { systemPrompt: request.systemPrompt } : {}),
        maxTokens: request.maxTokens,
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.modelPreferences ? { modelPreferences: {
          ...request.modelPreferences,
          hints: (request.modelPreferences.hints ?? []).map((h) => h.name).filter((n): n is string => typeof n === 'string'),
        } } : {}),
        ...(this.knownModel(serverName) !== undefined ? { model: this.knownModel(serverName) } : {}),
        createdAt: Date.now(),
      };
      const answer: SamplingAnswer = await this.broker.ask(asked, signal);
      if (answer.kind === 'reject') throw new Error(`the person rejected the sampling request${answer.reason?.trim() ? `: ${answer.reason.trim()}` : ''}`);
      if (answer.always && identity !== undefined) await this.extension.workspaceState.update(ALWAYS_KEY, withSamplingAlways(this.kept(ALWAYS_KEY), identity));
    }
    const model = await this.modelFor(serverName);
    const messages = [
      ...(request.systemPrompt ? [vscode.LanguageModelChatMessage.User(`System instructions from the server:\n${request.systemPrompt}`)] : []),
      ...request.messages.map((m) => (m.role === 'assistant'
        ? vscode.LanguageModelChatMessage.Assistant(describeContent(m.content))
        : vscode.LanguageModelChatMessage.User(describeContent(m.content)))),
    ];
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = (): void => cancel.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await model.sendRequest(messages, {
        justification: `"${serverName}" asks for a completion (MCP sampling), which you approved.`,
        modelOptions: { max_tokens: request.maxTokens, ...(request.temperature !== undefined ? { temperature: request.temperature } : {}) },
      }, cancel.token);
      let text = '';
      for await (const part of response.text) text += part;
      this.log.info(`sampling: "${serverName}" got ${text.length} characters from ${model.vendor}/${model.id}`);
      return { model: model.id, text, stopReason: 'endTurn' };
    } finally {
      signal.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  };

  cards(): SamplingCard[] {
    return toSamplingCards(this.broker.pending());
  }

  answer(samplingId: string, answer: 'approve' | 'always' | 'reject', reason?: string): void {
    const settled = answer === 'reject'
      ? this.broker.answer(samplingId, { kind: 'reject', ...(reason !== undefined ? { reason } : {}) })
      : this.broker.answer(samplingId, { kind: 'approve', always: answer === 'always' });
    if (!settled) throw new Error(GONE);
  }

  attention(): AttentionSource {
    return attentionSource(this.broker, async (request: SamplingRequest, show) => {
      if (await notifyInfo(`"${request.serverName}" asks for a model completion.`, 'Show') === 'Show') await show();
    });
  }

  dispose(): void {
    this.broker.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  /** A server the registry does not know (it went away) is never "always". */
  private alwaysAllowed(identity: ServerIdentity | undefined): boolean {
    return identity !== undefined && samplingAlwaysAllows({ identities: this.kept(ALWAYS_KEY), legacyNames: this.kept(LEGACY_ALWAYS_KEY) }, identity);
  }

  private kept(key: string): string[] {
    const stored = this.extension.workspaceState.get<unknown>(key, []);
    return Array.isArray(stored) ? stored.filter((n): n is string => typeof n === 'string') : [];
  }

  private async refreshModels(): Promise<void> {
    try {
      this.available = (await vscode.lm.selectChatModels()).length > 0;
    } catch (error) {
      this.available = false;
      this.log.warn(`sampling: cannot list language models: ${String(error)}`);
    }
  }

  /** The model chosen for a server: the user setting, else the one picked earlier in this workspace. */
  private knownModel(serverName: string): string | undefined {
    const configured = vscode.workspace.getConfiguration('switchboard').inspect<Record<string, unknown>>('sampling.models')?.globalValue?.[serverName];
    if (typeof configured === 'string' && configured !== '') return configured;
    return this.extension.workspaceState.get<Record<string, string>>(MODELS_KEY, {})[serverName];
  }

  private async modelFor(serverName: string): Promise<vscode.LanguageModelChat> {
    const models = await vscode.lm.selectChatModels();
    if (models.length === 0) throw new Error('no language model is available in VS Code to answer the sampling request');
    const wanted = this.knownModel(serverName);
    if (wanted !== undefined) {
      const found = models.find((m) => `${m.vendor}/${m.id}` === wanted || m.id === wanted || m.family === wanted);
      if (found) return found;
      this.log.warn(`sampling: the model "${wanted}" chosen for "${serverName}" is not available; asking`);
    }
    if (models.length === 1 && models[0]) return this.remember(serverName, models[0]);
    const picked = await vscode.window.showQuickPick(
      models.map((m) => ({ label: m.name, description: `${m.vendor}/${m.id}`, model: m })),
      { title: `Which model answers "${serverName}"'s sampling requests?`, placeHolder: 'Asked once for this server in this workspace' },
    );
    if (!picked) throw new Error('no model was chosen for the sampling request');
    return this.remember(serverName, picked.model);
  }

  private async remember(serverName: string, model: vscode.LanguageModelChat): Promise<vscode.LanguageModelChat> {
    await this.extension.workspaceState.update(MODELS_KEY, { ...this.extension.workspaceState.get<Record<string, string>>(MODELS_KEY, {}), [serverName]: `${model.vendor}/${model.id}` });
    return model;
  }
}
