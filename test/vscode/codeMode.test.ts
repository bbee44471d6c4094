// Code mode in a real VS Code, against server-everything, with the scripted language model: the two
// language-model tools (the API's description, a script's run), `@mcp /code` offering only them, and
// a script's calls going through the call gate as caller "code" — a card for a tool that asks, and the
// person's rejection (with their reason) thrown inside the script.
import * as assert from 'assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { McpTurnMetadata } from '../../src/vscode/chat/participant';
import { pendingCards, setApprovalMode, sidebarRequest, waitForCard } from './approvalsSupport';
import { fixtureIsLoaded, switchboardApi, waitFor } from './configTestSupport';
import { waitForStates } from './lifecycleTestSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const VENDOR = 'switchboard-scripted';

interface ModelRequest {
  messages: { role: string; parts: { type: string; text?: string; name?: string; content?: { type: string; text?: string }[] }[] }[];
  tools: { name: string }[];
}
interface GateCall { caller: string; serverId: string; tool: string; outcome: string }

const gateCalls = async (): Promise<GateCall[]> => (await vscode.commands.executeCommand<GateCall[]>('_switchboard.test.gateCalls')) ?? [];
const modelRequests = async (): Promise<ModelRequest[]> => (await vscode.commands.executeCommand<ModelRequest[]>('switchboardScriptedModel.requests')) ?? [];

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart).map((p) => p.value).join('\n');
}

function invoke(name: string, input: object): Thenable<vscode.LanguageModelToolResult> {
  return vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
}

async function ask(query: string): Promise<McpTurnMetadata> {
  const result = await vscode.commands.executeCommand<{ metadata?: McpTurnMetadata } | undefined>('workbench.action.chat.open', {
    query, blockOnResponse: true, modelSelector: { vendor: VENDOR },
  });
  assert.ok(result?.metadata, `no participant result for ${JSON.stringify(query)}: ${JSON.stringify(result)}`);
  return result.metadata;
}

describe('Code mode: scripts against the MCP tools', function () {
  ensureNoLeakedDisposables();
  this.timeout(90_000);
  let api: SwitchboardApi;
  const chat = vscode.workspace.getConfiguration('chat');
  const chatWasDisabled = chat.inspect<boolean>('disableAIFeatures')?.globalValue;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    await waitForStates(api, ['everything'], 'ready');
    await chat.update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    await waitFor('the scripted model', async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).length > 0, 20_000, 200);
  });

  after(async () => {
    for (const card of await pendingCards()) await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'reject' } }).catch(() => undefined);
    await setApprovalMode('acceptEverything');
    await chat.update('disableAIFeatures', chatWasDisabled, vscode.ConfigurationTarget.Global);
  });

  beforeEach(async () => {
    await vscode.commands.executeCommand('switchboardScriptedModel.clear');
  });

  it('describes the API: the servers, then one server\'s tools as TypeScript', async () => {
    const names = vscode.lm.tools.map((tool) => tool.name);
    for (const name of ['switchboard_code_api', 'switchboard_run_code']) assert.ok(names.includes(name), `${name} missing from ${names.join(', ')}`);
    assert.match(textOf(await invoke('switchboard_code_api', {})), /^- tools\.everything \(\d+ tools: .*\becho\b/m);
    const declarations = textOf(await invoke('switchboard_code_api', { server: 'everything' }));
    assert.match(declarations, /declare namespace echo \{\n {2}export interface Args \{[^}]*message: string/);
    assert.match(declarations, /'get-sum'\(args: get_sum\.Args\): Promise</);
  });

  it('runs a script whose calls go through the gate as caller "code", one result flowing into the next', async () => {
    const before = (await gateCalls()).length;
    const text = textOf(await invoke('switchboard_run_code', { code: [
      'const sum = await tools.everything["get-sum"]({ a: 2, b: 3 });',
      'const [echo] = await tools.everything.echo({ message: "sum " + JSON.stringify(sum) });',
      'console.log(echo.text);',
    ].join('\n') }));
    assert.match(text, /^Output:\nEcho: sum .*5/);
    assert.match(text, /Calls: everything › get-sum ok\n {2}everything › echo ok$/);
    const calls = (await gateCalls()).slice(before);
    assert.deepEqual(calls.map((c) => [c.caller, c.serverId, c.tool, c.outcome]), [['code', 'everything', 'get-sum', 'result'], ['code', 'everything', 'echo', 'result']]);
    assert.match(textOf(await invoke('switchboard_run_code', { code: 'process.exit(1)' })), /Error: ReferenceError: 'process' is not defined/);
  });

  it('@mcp /code offers the model only the code tools, and the script\'s output is what it reads', async () => {
    const code = 'const [e] = await tools.everything.echo({ message: "from code" }); console.log(e.text.toUpperCase());';
    const turn = await ask(`@mcp /code call switchboard_run_code ${JSON.stringify({ code })}`);
    assert.equal(turn.kind, 'answer', turn.message);
    assert.equal(turn.toolLoading?.mode, 'code');
    assert.deepEqual(turn.toolsOffered, ['switchboard_code_api', 'switchboard_run_code']);
    assert.deepEqual(turn.codeCalls, [{ server: 'everything', tool: 'echo', ok: true }]);
    const requests = await modelRequests();
    assert.deepEqual(requests[0]?.tools.map((t) => t.name), ['switchboard_code_api', 'switchboard_run_code']);
    const results = requests.flatMap((r) => r.messages.flatMap((m) => m.parts.filter((p) => p.type === 'toolResult').flatMap((p) => p.content ?? [])));
    assert.ok(results.some((c) => /ECHO: FROM CODE/.test(c.text ?? '')), JSON.stringify(results));
  });

  it('the scripted model answers "@mcp /code add 2 and 3" by asking the API for the server, then writing and running a script', async () => {
    const turn = await ask('@mcp /code add 2 and 3');
    assert.equal(turn.kind, 'answer', turn.message);
    assert.deepEqual(turn.codeCalls, [{ server: 'everything', tool: 'get-sum', ok: true }]);
    const requests = await modelRequests();
    const calls = requests.flatMap((r) => r.messages.flatMap((m) => m.parts.filter((p) => p.type === 'toolCall').map((p) => p.name)));
    assert.deepEqual([...new Set(calls)], ['switchboard_code_api', 'switchboard_run_code']);
    const results = requests.flatMap((r) => r.messages.flatMap((m) => m.parts.filter((p) => p.type === 'toolResult').flatMap((p) => p.content ?? [])));
    assert.ok(results.some((c) => /\b5\b/.test(c.text ?? '') && /sum/i.test(c.text ?? '')), JSON.stringify(results));
  });

  it('with switchboard.chat.maskPersonalData, the model reads placeholders and a placeholder in a call\'s arguments reaches the tool as the value', async () => {
    const settings = vscode.workspace.getConfiguration();
    await settings.update('switchboard.chat.maskPersonalData', true, vscode.ConfigurationTarget.Global);
    try {
      const first = textOf(await invoke('switchboard_run_code', { code: 'const [e] = await tools.everything.echo({ message: "write to ada@example.org" }); console.log(e.text);' }));
      assert.match(first, /^Output:\nEcho: write to \[EMAIL_1\]$/m);
      // Inside the script the tool's answer is whole: the placeholder was restored in the arguments.
      const second = textOf(await invoke('switchboard_run_code', { code: 'const [e] = await tools.everything.echo({ message: "[EMAIL_1]" }); console.log(e.text.length, e.text.endsWith("@example.org"));' }));
      assert.match(second, /^Output:\n21 true$/m);
    } finally {
      await settings.update('switchboard.chat.maskPersonalData', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('asks for a call that needs approval with a card from caller "code", and throws the rejection with its reason in the script', async () => {
    await setApprovalMode('askBeforeEdits');
    const run = invoke('switchboard_run_code', { code: [
      'try { await tools.everything["toggle-simulated-logging"]({}); } catch (e) { console.log("rejected: " + e.message); }',
    ].join('\n') });
    const card = await waitForCard('toggle-simulated-logging', 'everything');
    assert.equal(card.caller, 'code');
    await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'reject', reason: 'not from a script' } });
    const text = textOf(await run);
    assert.match(text, /^Output:\nrejected: .*rejected by the person: not from a script/);
    assert.match(text, /everything › toggle-simulated-logging failed: .*not from a script/);
  });
});
