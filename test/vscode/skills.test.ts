// Skills that bring their own servers, in a real VS Code with the scripted model: a personal skill's
// SKILL.md (~/.claude/skills/echo-skill) declares two servers in its frontmatter. They do not start
// with the others; `@mcp /echo-skill …` starts them, the turn gets the skill's text and its tools (and
// no other turn does), the one that cannot start is reported unavailable with its reason while the
// skill is still used, and once idle for switchboard.skills.idleStopSeconds the servers stop.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { qualifyToolNames } from '../../src/core/chat/toolNames';
import type { SwitchboardApi } from '../../src/extension';
import type { McpTurnMetadata } from '../../src/vscode/chat/participant';
import { fixtureHome, fixtureIsLoaded, serverItems, switchboardApi, waitFor } from './configTestSupport';
import { stateOf, waitForStates } from './lifecycleTestSupport';

const VENDOR = 'switchboard-scripted';
const SKILL = 'echo-skill';
const ECHO = `${SKILL}.echo`;
const BROKEN = `${SKILL}.broken`;

interface ModelRequest {
  messages: { role: string; parts: { type: string; text?: string }[] }[];
  tools: { name: string }[];
}

async function ask(query: string): Promise<McpTurnMetadata> {
  const result = await vscode.commands.executeCommand<{ metadata?: McpTurnMetadata } | undefined>('workbench.action.chat.open', {
    query, blockOnResponse: true, modelSelector: { vendor: VENDOR },
  });
  assert.ok(result?.metadata, `the chat returned no participant result for ${JSON.stringify(query)}: ${JSON.stringify(result)}`);
  return result.metadata;
}

async function modelRequests(): Promise<ModelRequest[]> {
  return (await vscode.commands.executeCommand<ModelRequest[]>('switchboardScriptedModel.requests')) ?? [];
}

describe('Skills: a skill\'s servers start on use and stop when idle', function () {
  this.timeout(120_000);
  let api: SwitchboardApi;
  const skillDir = (): string => path.join(fixtureHome(), '.claude', 'skills', SKILL);
  const chat = vscode.workspace.getConfiguration('chat');
  const chatWasDisabled = chat.inspect<boolean>('disableAIFeatures')?.globalValue;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    await waitForStates(api, ['everything'], 'ready');
    await chat.update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration().update('switchboard.skills.idleStopSeconds', 3, vscode.ConfigurationTarget.Global);
    fs.mkdirSync(skillDir(), { recursive: true });
    fs.writeFileSync(path.join(skillDir(), 'SKILL.md'), [
      '---',
      `name: ${SKILL}`,
      'description: Echoes what it is given, through its own server.',
      'mcpServers:',
      '  echo:',
      '    command: node',
      '    args: ["${env:SWITCHBOARD_REPO}/node_modules/@modelcontextprotocol/server-everything/dist/index.js", stdio]',
      '  broken:',
      '    command: switchboard-fixture-missing-command',
      '---',
      '# Echo skill',
      '',
      'When asked to echo, call the echo tool of this skill and repeat its answer. Skill marker 7d41.',
      '',
    ].join('\n'));
    await vscode.commands.executeCommand('switchboard.refresh');
    await waitFor('the skill\'s servers in the configuration', () => api.getConfig().servers.some((server) => server.id === ECHO), 20_000);
    await waitFor('the scripted model', async () => (await vscode.lm.selectChatModels({ vendor: VENDOR })).length > 0, 20_000, 200);
  });

  after(async () => {
    fs.rmSync(skillDir(), { recursive: true, force: true });
    await vscode.commands.executeCommand('switchboard.refresh');
    await vscode.workspace.getConfiguration().update('switchboard.skills.idleStopSeconds', undefined, vscode.ConfigurationTarget.Global);
    await chat.update('disableAIFeatures', chatWasDisabled, vscode.ConfigurationTarget.Global);
  });

  beforeEach(async () => {
    await vscode.commands.executeCommand('switchboardScriptedModel.clear');
  });

  it('does not start the skill\'s servers with the others, and shows them under their skill', async () => {
    const server = api.getConfig().servers.find((candidate) => candidate.id === ECHO);
    assert.equal(server?.scope, 'user');
    assert.deepEqual(server?.skill, { name: SKILL, server: 'echo', file: path.join(skillDir(), 'SKILL.md') });
    assert.equal(stateOf(api, ECHO)?.kind, 'stopped');
    assert.equal(stateOf(api, BROKEN)?.kind, 'stopped');
    const items = await serverItems();
    const skillRow = items.find((item) => item.kind === 'skill' && item.label === SKILL);
    assert.ok(skillRow, `no skill row in ${JSON.stringify(items.map((item) => item.label))}`);
    assert.deepEqual(skillRow.children.map((child) => child.serverId).sort(), [BROKEN, ECHO]);
    assert.match(skillRow.description, /skill · 2 servers · starts when used/);
    assert.ok(!items.some((item) => item.kind === 'server' && item.serverId === ECHO), 'the skill\'s server is not also a top-level row');
  });

  it('starts the servers on @mcp /echo-skill, sends the skill\'s text, offers its tools for that turn, and reports the one that failed', async () => {
    const echoName = qualifyToolNames([{ server: ECHO, tool: 'echo' }])[0].qualifiedName;
    const turn = await ask(`@mcp /${SKILL} call ${echoName} {"message":"hello from the skill"}`);
    assert.equal(turn.kind, 'answer', turn.message);
    assert.equal(turn.skill?.name, SKILL);
    const byId = new Map(turn.skill?.servers.map((server) => [server.id, server]));
    assert.equal(byId.get(ECHO)?.available, true);
    assert.equal(byId.get(BROKEN)?.available, false);
    assert.match(byId.get(BROKEN)?.reason ?? '', /failed to start: .*switchboard-fixture-missing-command/);
    assert.equal(stateOf(api, ECHO)?.kind, 'ready');
    assert.ok(turn.toolsOffered?.includes(echoName), `${echoName} not offered: ${turn.toolsOffered?.join(', ')}`);
    assert.deepEqual(turn.toolCalls?.map((call) => [call.server, call.tool, call.isError]), [[ECHO, 'echo', false]]);
    assert.match(turn.answer ?? '', /hello from the skill/);
    const [first] = await modelRequests();
    const sent = first.messages.flatMap((message) => message.parts.map((part) => part.text ?? '')).join('\n');
    assert.match(sent, /<skill name="echo-skill"[\s\S]*Skill marker 7d41[\s\S]*<\/skill>/);
    assert.match(sent, /server "broken" are unavailable/);
  });

  it('does not offer the skill\'s tools to a turn that does not use it, and stops its servers once idle', async () => {
    const echoName = qualifyToolNames([{ server: ECHO, tool: 'echo' }])[0].qualifiedName;
    const turn = await ask('@mcp echo without the skill');
    assert.ok(!(turn.toolsOffered ?? []).includes(echoName), `${echoName} offered without the skill`);
    assert.ok(!(turn.toolCalls ?? []).some((call) => call.server === ECHO));
    // The idle time (3 s) runs from the end of the last turn that used the skill.
    await waitFor('the skill\'s server to stop when idle', () => stateOf(api, ECHO)?.kind === 'stopped', 20_000, 200);
    assert.equal(stateOf(api, 'everything')?.kind, 'ready', 'other servers are not touched');
  });
});
