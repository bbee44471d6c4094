// Sampling in a real VS Code against the real server-everything and the scripted test model: the
// client declares sampling once a language model is there; trigger-sampling-request's completion
// waits as a card (messages, system prompt, budget) until the person approves it, then reaches the
// model and the server gets its answer; a rejection is an error to the server; "Always for this
// server" lets the next one through without a card.
import * as assert from 'assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { SamplingCard } from '../../src/protocol/sampling';
import { sidebarRequest } from './approvalsSupport';
import { fixtureIsLoaded, switchboardApi, waitFor } from './configTestSupport';
import { waitForStates } from './lifecycleTestSupport';
import { sidebarSnapshot } from './userServersSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const ID = 'everything';
const VENDOR = 'switchboard-scripted';

interface ScriptedRequest { messages: { role: string; parts: { type: string; value?: string; text?: string }[] }[] }

describe('sampling', function () {
  ensureNoLeakedDisposables();
  this.timeout(90_000);
  let api: SwitchboardApi;
  const chat = vscode.workspace.getConfiguration('chat');
  const chatWasDisabled = chat.inspect<boolean>('disableAIFeatures')?.globalValue;
  const textOf = (result: { content: { type: string; text?: unknown }[] }): string => result.content.map((c) => String(c.text ?? '')).join('\n');
  /** The card of `call`'s sampling request (a call that ends first says how it ended). */
  const nextCard = (call: Promise<{ content: { type: string; text?: unknown }[] }>): Promise<SamplingCard> => Promise.race([
    waitFor('a sampling card', async () => (await sidebarSnapshot()).sampling[0], 15_000, 25).catch(async (error: unknown) => {
      const snapshot = await sidebarSnapshot();
      throw new Error(`${String(error)}; approvals waiting: ${JSON.stringify(snapshot.approvals.pending.map((c) => [c.tool, c.reason]))}; last calls: ${JSON.stringify(snapshot.approvals.history.slice(0, 3).map((h) => [h.tool, h.decision, h.error]))}`);
    }),
    call.then((r) => { throw new Error(`the call ended without a card: ${textOf(r)}`); }, (e: unknown) => { throw new Error(`the call failed without a card: ${String(e)}`); }),
  ]);

  before(async () => {
    // Dialogs answered by script (accepting a tool asks first): yes to every confirmation.
    await vscode.commands.executeCommand('_switchboard.test.scriptDialogs', { confirm: true });
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    await chat.update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    await waitFor('the scripted model', async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).length > 0, 20_000, 200);
    await vscode.workspace.getConfiguration('switchboard').update('sampling.models', { [ID]: `${VENDOR}/scripted` }, vscode.ConfigurationTarget.Global);
    // Sampling is declared to servers that connect while a model is there.
    const hadTool = api.getCatalog(ID)?.tools.some((t) => t.name === 'trigger-sampling-request') ?? false;
    await api.restartServer(ID);
    await waitForStates(api, [ID], 'ready');
    await waitFor('trigger-sampling-request (offered to clients that declare sampling)', () => api.getCatalog(ID)?.tools.some((t) => t.name === 'trigger-sampling-request'), 20_000);
    // Tools that appear later are new until a person reviews them (a call of one would ask first).
    if (!hadTool) await waitFor('the new tools to be marked', () => api.getToolStatus(ID, 'trigger-sampling-request')?.new, 10_000);
    for (const tool of api.getCatalog(ID)?.tools ?? []) {
      if (api.getToolStatus(ID, tool.name)?.new) await vscode.commands.executeCommand('switchboard.acceptToolChange', ID, tool.name);
    }
  });

  after(async () => {
    await vscode.commands.executeCommand('_switchboard.test.scriptDialogs', null);
    for (const card of (await sidebarSnapshot()).sampling) await sidebarRequest('answerSampling', { samplingId: card.id, answer: 'reject' }).catch(() => undefined);
    await vscode.workspace.getConfiguration('switchboard').update('sampling.models', undefined, vscode.ConfigurationTarget.Global);
    await chat.update('disableAIFeatures', chatWasDisabled, vscode.ConfigurationTarget.Global);
  });

  beforeEach(async () => {
    await vscode.commands.executeCommand('switchboardScriptedModel.clear');
  });

  it('shows the request as a card, and after approval the model answers the server', async () => {
    const call = api.callTool(ID, 'trigger-sampling-request', { prompt: 'name a colour', maxTokens: 50 });
    const card = await nextCard(call);
    assert.equal(card.serverName, ID);
    assert.equal(card.systemPrompt, 'You are a helpful test server.');
    assert.equal(card.maxTokens, 50);
    assert.equal(card.temperature, 0.7);
    assert.equal(card.model, `${VENDOR}/scripted`);
    assert.deepEqual(card.messages.map((m) => m.role), ['user']);
    assert.match(card.messages[0]?.text ?? '', /name a colour/);
    const before = await vscode.commands.executeCommand<ScriptedRequest[]>('switchboardScriptedModel.requests');
    assert.deepEqual(before, [], 'nothing reached the model before approval');

    await sidebarRequest('answerSampling', { samplingId: card.id, answer: 'approve' });
    const text = textOf(await call);
    assert.match(text, /LLM sampling result/);
    const result = JSON.parse(text.slice(text.indexOf('{'))) as { role: string; model: string; content: { type: string; text: string } };
    assert.equal(result.role, 'assistant');
    assert.equal(result.model, 'scripted');
    assert.match(result.content.text, /I am a scripted model/);
    assert.match(result.content.text, /name a colour/);
    const requests = await vscode.commands.executeCommand<ScriptedRequest[]>('switchboardScriptedModel.requests');
    assert.equal(requests?.length, 1);
    assert.match(JSON.stringify(requests?.[0]?.messages), /You are a helpful test server/, 'the system prompt reached the model');
  });

  it('returns a rejection to the server as an error, with the reason', async () => {
    const call = api.callTool(ID, 'trigger-sampling-request', { prompt: 'never', maxTokens: 10 });
    const card = await nextCard(call);
    await sidebarRequest('answerSampling', { samplingId: card.id, answer: 'reject', reason: 'not today' });
    const outcome = await call.then((r) => textOf(r), (error: unknown) => String(error));
    assert.match(outcome, /rejected the sampling request: not today/);
    assert.deepEqual(await vscode.commands.executeCommand<ScriptedRequest[]>('switchboardScriptedModel.requests'), []);
  });

  it('"Always for this server" lets its next requests through without a card', async () => {
    const first = api.callTool(ID, 'trigger-sampling-request', { prompt: 'one', maxTokens: 10 });
    await sidebarRequest('answerSampling', { samplingId: (await nextCard(first)).id, answer: 'always' });
    await first;
    const second = textOf(await api.callTool(ID, 'trigger-sampling-request', { prompt: 'two', maxTokens: 10 }));
    assert.match(second, /You asked: .*two/);
    assert.deepEqual((await sidebarSnapshot()).sampling, []);
  });
});
