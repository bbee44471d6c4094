// Resource subscriptions in a real VS Code: an attached resource updates. A user-scope server runs the
// SDK fixture subscribable.mjs (resources.subscribe; reading fixture://bump changes the other resources
// and notifies their subscribers). An opened resource document is subscribed, refreshed when the server
// says it changed, and unsubscribed when its tab closes; a resource attached in chat is marked as
// changed to the model in the next @mcp request, whether that request mentions it again or not.
import * as assert from 'assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { WatchInfo } from '../../src/core/subscriptions';
import type { McpTurnMetadata } from '../../src/vscode/chat/participant';
import { resourceDocumentUri } from '../../src/vscode/chat/resourceDocuments';
import { FileRestorer, fixtureIsLoaded, switchboardApi, waitFor } from './configTestSupport';
import { ensureNoLeakedDisposables } from './leakCheck';
import { waitForStates } from './lifecycleTestSupport';
import { addUserServers, fixtureServer } from './userServersSupport';

const ID = 'subs';
const VENDOR = 'switchboard-scripted';
const COUNTER = 'fixture://counter';
const NOTES = 'fixture://notes';

interface ModelRequest {
  messages: { role: string; parts: { type: string; text?: string }[] }[];
}

async function watched(): Promise<WatchInfo[]> {
  return (await vscode.commands.executeCommand<WatchInfo[]>('_switchboard.test.resourceWatches')) ?? [];
}

async function watchOf(uri: string): Promise<WatchInfo | undefined> {
  return (await watched()).find((w) => w.server === ID && w.uri === uri);
}

/** Reads fixture://bump the way a model would: the server adds 1 to its count and notifies. */
async function bump(): Promise<void> {
  await vscode.lm.invokeTool('switchboard_read_resource', { input: { resource: `@${ID}:fixture://bump` }, toolInvocationToken: undefined });
}

async function ask(query: string): Promise<McpTurnMetadata> {
  const result = await vscode.commands.executeCommand<{ metadata?: McpTurnMetadata } | undefined>('workbench.action.chat.open', {
    query, blockOnResponse: true, modelSelector: { vendor: VENDOR },
  });
  assert.ok(result?.metadata, `the chat returned no participant result for ${JSON.stringify(query)}: ${JSON.stringify(result)}`);
  return result.metadata;
}

/** The text of the last message of the last request the scripted model was sent. */
async function lastSent(): Promise<string> {
  const requests = (await vscode.commands.executeCommand<ModelRequest[]>('switchboardScriptedModel.requests')) ?? [];
  const request = requests[requests.length - 1];
  assert.ok(request, 'the model was sent nothing');
  return request.messages[request.messages.length - 1].parts.map((p) => p.text ?? '').join('\n');
}

describe('Resource subscriptions: an attached resource updates', function () {
  ensureNoLeakedDisposables();
  this.timeout(120_000);
  let api: SwitchboardApi;
  const restorer = new FileRestorer();
  const chat = vscode.workspace.getConfiguration('chat');
  const chatWasDisabled = chat.inspect<boolean>('disableAIFeatures')?.globalValue;
  const log = (pattern: RegExp) => api.getServerLog(ID).filter((line) => pattern.test(line)).length;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    addUserServers(restorer, { [ID]: fixtureServer('subscribable.mjs') });
    await waitFor('the subscribable server', () => api.getServerStates().some((s) => s.id === ID), 10_000);
    await waitForStates(api, [ID], 'ready');
    await waitFor('its resources', () => (api.getCatalog(ID)?.resources.length ?? 0) > 0, 10_000);
    await chat.update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    await waitFor('the scripted model', async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).length > 0, 20_000, 200);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await chat.update('disableAIFeatures', chatWasDisabled, vscode.ConfigurationTarget.Global);
    restorer.restore();
    await fixtureIsLoaded(api, 10_000);
  });

  it('an opened resource document is subscribed, refreshed when the server says it changed, and unsubscribed when its tab closes', async () => {
    const uri = resourceDocumentUri(ID, COUNTER);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const before = /^counter: count (\d+)$/.exec(document.getText());
    assert.ok(before, `the document shows the resource: ${document.getText()}`);
    await waitFor('the subscription', async () => (await watchOf(COUNTER))?.status === 'subscribed', 20_000, 100);
    assert.deepEqual((await watchOf(COUNTER))?.watchers, [uri.toString()]);
    assert.equal(log(/stderr: subscribed fixture:\/\/counter$/), 1, api.getServerLog(ID).join('\n'));

    await bump();
    const expected = `counter: count ${Number(before[1]) + 1}`;
    await waitFor('the document to show the update', () => document.getText() === expected, 20_000, 100);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor('the document to close and its resource to be unsubscribed', async () => (await watchOf(COUNTER)) === undefined && log(/stderr: unsubscribed fixture:\/\/counter$/) === 1, 60_000, 200);
  });

  it('a resource attached in chat is watched and marked as changed in the next @mcp request', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('switchboardScriptedModel.clear');
    const first = await ask(`@mcp what does @${ID}:${NOTES} say?`);
    assert.equal(first.kind, 'answer', JSON.stringify(first));
    assert.deepEqual(first.references, [NOTES]);
    assert.equal(first.changedResources, undefined, 'attached for the first time');
    await waitFor('the attachment to be subscribed', async () => (await watchOf(NOTES))?.status === 'subscribed', 20_000, 100);
    assert.deepEqual((await watchOf(NOTES))?.watchers, ['chat']);

    // The next request does not mention it: the conversation's earlier attachment is attached again, marked.
    await bump();
    await waitFor('the update to be heard', async () => ((await watchOf(NOTES))?.updates ?? 0) >= 1, 20_000, 100);
    const next = await ask('@mcp has anything changed?');
    assert.equal(next.kind, 'answer', JSON.stringify(next));
    assert.deepEqual(next.changedResources, [NOTES]);
    const sent = await lastSent();
    assert.match(sent, new RegExp(`\\[The resource ${NOTES} of ${ID}, attached earlier in this conversation, has changed since; its current content follows\\.\\]\\n<resource server="${ID}" uri="${NOTES}"`));
    assert.match(sent, /notes: count \d+/);

    // Unchanged since it was attached again: nothing is marked.
    const quiet = await ask('@mcp and now?');
    assert.equal(quiet.changedResources, undefined, JSON.stringify(quiet));

    // Mentioned again after another update: its label says it changed.
    const updates = (await watchOf(NOTES))?.updates ?? 0;
    await bump();
    await waitFor('the second update', async () => ((await watchOf(NOTES))?.updates ?? 0) > updates, 20_000, 100);
    const again = await ask(`@mcp what does @${ID}:${NOTES} say now?`);
    assert.deepEqual(again.changedResources, [NOTES]);
    const sentAgain = await lastSent();
    assert.match(sentAgain, new RegExp(`\\[The resource ${NOTES} of ${ID} has changed since it was last attached; its current content follows\\.\\]`));
    assert.match(sentAgain, new RegExp(`what does \\[resource ${NOTES} of ${ID}, attached; it changed since it was last attached\\] say now\\?`));
  });
});
