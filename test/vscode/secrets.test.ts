// `${input:…}` values: asked once per workspace and id (one prompt shared by the servers that need
// it), kept in SecretStorage, filled in at launch, and found nowhere else — not in a server's log, an
// output channel file, a state, an error, the tree or the sidebar. Clear Stored Inputs forgets them.
// The same holds for what an env file supplies and for secrets given as arguments (`--api-key V`,
// `--token=V`): one redaction covers them all.
//
// The extension host cannot type into a quick input (neither `type` nor a paste reaches it under the
// test workbench), so the tests that need a typed value answer through the internal
// `_switchboard.scriptInputPrompt` command, which replaces the prompt; cancelling and accepting a
// default go through the real input box and quick pick.
import * as assert from 'assert/strict';
import { createHash, randomUUID } from 'crypto';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CallToolResult } from '../../src/core/lifecycle';
import type { SwitchboardApi } from '../../src/extension';
import { FileRestorer, fixtureHome, fixtureIsLoaded, serverItems, serversSettled, switchboardApi } from './configTestSupport';
import { nextState, stateOf, waitForStates } from './lifecycleTestSupport';
import { addUserServers, fixtureServer, logFiles, logFilesCaughtUp, repeatUntil, sidebarSnapshot } from './userServersSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const SCRIPT = '_switchboard.scriptInputPrompt';
const CANARY = `canary-${randomUUID()}`;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

type Asked = { id: string; serverId: string }[];

/** Replaces the prompt (answers), wraps the real one (observe) or restores it (nothing); returns the prompts asked since the last call. */
async function script(arg?: { answers?: Record<string, string | null>; observe?: boolean }): Promise<Asked> {
  return (await vscode.commands.executeCommand<Asked>(SCRIPT, arg)) ?? [];
}

function digestOf(result: CallToolResult): { env: { length: number; sha256: string }; arg: { length: number; sha256: string } } {
  const block = result.content[0] as { type: string; text?: string };
  return JSON.parse(block.text ?? '{}');
}

const tokenServer = fixtureServer('print-env.mjs', { args: ['--token=${input:token}'], env: { TOKEN: '${input:token}' } });
const TOKEN_INPUT = { id: 'token', type: 'promptString', description: 'Fixture API token', password: true };

describe('secrets from ${input:…}', function () {
  ensureNoLeakedDisposables();
  this.timeout(60_000);
  let api: SwitchboardApi;
  const restorer = new FileRestorer();
  let fingerprint: string | undefined;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    await vscode.commands.executeCommand('switchboard.clearInputs');
  });

  after(async () => {
    await script();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    restorer.restore();
    await vscode.commands.executeCommand('switchboard.clearInputs');
    await fixtureIsLoaded(api, 10_000);
  });

  it('asks once for an id two servers share; cancelling fails both with "input token was not provided"', async () => {
    await script({ observe: true });
    addUserServers(restorer, { 'secret-a': tokenServer, 'secret-b': tokenServer }, [TOKEN_INPUT]);
    // The real input box: closing it is cancelling it.
    await repeatUntil('workbench.action.closeQuickOpen', () => stateOf(api, 'secret-a')?.kind === 'failed' && stateOf(api, 'secret-b')?.kind === 'failed');
    for (const id of ['secret-a', 'secret-b']) {
      assert.deepEqual(stateOf(api, id), { kind: 'failed', error: 'input token was not provided', stderrTail: [] }, id);
    }
    const asked = await script();
    assert.equal(asked.length, 1, `one prompt for both: ${JSON.stringify(asked)}`);
    assert.equal(asked[0].id, 'token');
    assert.equal(await api.hasStoredInput('token'), false);
    // No retry loop: nothing asks again by itself (a retry would be a start, which the settled registry has none of).
    await serversSettled();
    assert.deepEqual(await script({ answers: {} }), []);
    const server = api.getConfig().servers.find((s) => s.id === 'secret-a')!;
    assert.equal(server.launch.env.TOKEN, '${input:token}', 'the configuration keeps the placeholder');
    fingerprint = server.fingerprint;
  });

  it('stores the answer in SecretStorage and launches the servers with it, asking once', async () => {
    await script({ answers: { token: CANARY } });
    await api.startServer('secret-a');
    assert.equal(stateOf(api, 'secret-a')?.kind, 'ready');
    assert.deepEqual((await script({ answers: { token: CANARY } })).map((a) => a.id), ['token']);
    assert.equal(await api.hasStoredInput('token'), true);
    await api.startServer('secret-b');
    assert.equal(stateOf(api, 'secret-b')?.kind, 'ready');
    assert.deepEqual(await script({ answers: { token: CANARY } }), [], 'the stored value is used without asking');

    for (const id of ['secret-a', 'secret-b']) {
      const digest = digestOf(await api.callTool(id, 'token-digest', {}));
      assert.deepEqual(digest.env, { length: CANARY.length, sha256: sha256(CANARY) }, `${id} got the value in its env`);
      assert.deepEqual(digest.arg, { length: CANARY.length, sha256: sha256(CANARY) }, `${id} got the value in its args`);
    }
    assert.equal(api.getConfig().servers.find((s) => s.id === 'secret-a')?.fingerprint, fingerprint, 'the fingerprint does not depend on the value');
  });

  it('never shows the value: logs, output channel files, states, errors, tree and sidebar', async () => {
    // The fixture prints the value on stderr again as it crashes: the crash reason and stderr tail carry it.
    const crashed = nextState(api, 'secret-b', 'crashed');
    await assert.rejects(api.callTool('secret-b', 'crash', { code: 3 }));
    const state = await crashed;
    assert.ok(JSON.stringify(state).includes('TOKEN=***'), `the stderr tail shows the masked line: ${JSON.stringify(state)}`);
    // It restarts by itself with the stored value, without asking.
    await waitForStates(api, ['secret-b'], 'ready');
    assert.deepEqual(await script({ answers: { token: CANARY } }), []);

    const logA = api.getServerLog('secret-a');
    assert.ok(logA.some((line) => line.includes('TOKEN=*** args=--token=***')), `stderr is scrubbed, not dropped:\n${logA.join('\n')}`);
    assert.ok(logA.some((line) => line.includes('[env-***]')), `the server's log message is scrubbed:\n${logA.join('\n')}`);
    // Output channels are written to disk asynchronously: wait until the files hold what the logs received.
    await logFilesCaughtUp(api, ['secret-a', 'secret-b']);
    const places: [string, string][] = [
      ...api.getServerStates().map(({ id }): [string, string] => [`log of ${id}`, api.getServerLog(id).join('\n')]),
      ['server states', JSON.stringify(api.getServerStates())],
      ['configuration', JSON.stringify(api.getConfig())],
      ['tree rows', JSON.stringify(await serverItems())],
      ['sidebar snapshot', JSON.stringify(await sidebarSnapshot())],
      ...(await logFiles()).map(({ file, text }): [string, string] => [file, text]),
    ];
    assert.ok(places.some(([where]) => where.endsWith('MCP Switchboard.log')), `the main output channel file is among the places: ${places.map(([w]) => w).join(', ')}`);
    assert.ok(places.some(([where]) => where.includes('secret-b') && where.endsWith('.log')), 'the server\'s output channel file is among them');
    for (const [where, text] of places) assert.ok(!text.includes(CANARY), `the value appears in ${where}`);
  });

  it('asks for a pickString with a quick pick, its default first', async () => {
    await script({ observe: true });
    addUserServers(restorer, {
      picker: fixtureServer('print-env.mjs', { env: { TOKEN: '${input:region}' } }),
    }, [{ id: 'region', type: 'pickString', description: 'Region', options: ['eu', 'us'], default: 'us' }]);
    // The real quick pick: accepting takes the active item, the default.
    await repeatUntil('workbench.action.acceptSelectedQuickOpenItem', () => api.hasStoredInput('region'));
    await waitForStates(api, ['picker'], 'ready');
    assert.deepEqual((await script()).map((a) => `${a.id} for ${a.serverId}`), ['region for picker']);
    assert.equal(digestOf(await api.callTool('picker', 'token-digest', {})).env.sha256, sha256('us'));
  });

  it('Clear Stored Inputs forgets this workspace\'s values; running servers keep running, the next start asks again', async () => {
    const cleared = await vscode.commands.executeCommand<string[]>('switchboard.clearInputs');
    assert.deepEqual([...(cleared ?? [])].sort(), ['region', 'token']);
    assert.equal(await api.hasStoredInput('token'), false);
    assert.equal(await api.hasStoredInput('region'), false);
    assert.equal(stateOf(api, 'secret-a')?.kind, 'ready', 'a running server is not restarted');
    assert.deepEqual(await vscode.commands.executeCommand('switchboard.clearInputs'), [], 'nothing left to clear');

    await script({ answers: { token: `${CANARY}-2` } });
    await api.restartServer('secret-a');
    assert.equal(stateOf(api, 'secret-a')?.kind, 'ready');
    assert.deepEqual((await script()).map((a) => a.id), ['token']);
    assert.equal(digestOf(await api.callTool('secret-a', 'token-digest', {})).env.sha256, sha256(`${CANARY}-2`));
  });
});

describe('secrets from an env file and in arguments', function () {
  ensureNoLeakedDisposables();
  this.timeout(60_000);
  const FROM_FILE = `envfile-${randomUUID()}`;
  const API_KEY = `apikey-${randomUUID()}`;
  const ARG_TOKEN = `argtoken-${randomUUID()}`;
  let api: SwitchboardApi;
  const restorer = new FileRestorer();

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
  });

  after(async () => {
    restorer.restore();
    await fixtureIsLoaded(api, 10_000);
  });

  it('launches with them and never shows them: logs, output channel files, states, errors, tree and sidebar', async () => {
    const envFile = path.join(fixtureHome(), 'canary.env');
    restorer.write(envFile, `# the server's token\nTOKEN=${FROM_FILE}\n`);
    addUserServers(restorer, { 'file-secret': fixtureServer('print-env.mjs', { args: ['--api-key', API_KEY, `--token=${ARG_TOKEN}`], envFile }) });
    await waitForStates(api, ['file-secret'], 'ready');
    const digest = digestOf(await api.callTool('file-secret', 'token-digest', {}));
    assert.deepEqual(digest.env, { length: FROM_FILE.length, sha256: sha256(FROM_FILE) }, 'the server got the env file value');
    assert.deepEqual(digest.arg, { length: ARG_TOKEN.length, sha256: sha256(ARG_TOKEN) }, 'the server got the argument');

    // The fixture prints the env file value again as it crashes: the crash reason and stderr tail carry it.
    const crashed = nextState(api, 'file-secret', 'crashed');
    await assert.rejects(api.callTool('file-secret', 'crash', { code: 3 }));
    const state = await crashed;
    assert.ok(JSON.stringify(state).includes('TOKEN=***'), `the stderr tail shows the masked line: ${JSON.stringify(state)}`);
    await waitForStates(api, ['file-secret'], 'ready');

    const log = api.getServerLog('file-secret');
    assert.ok(log.some((line) => line.includes('TOKEN=*** args=--api-key *** --token=***')), `stderr is scrubbed, not dropped:\n${log.join('\n')}`);
    assert.ok(log.some((line) => line.includes('starting (stdio): node ') && line.includes('--api-key *** --token=***')), `the launch line is masked:\n${log.join('\n')}`);
    assert.ok(log.some((line) => line.includes('[env-***]')), `the server's log message is scrubbed:\n${log.join('\n')}`);
    const row = (await serverItems()).find((item) => item.kind === 'server' && item.label === 'file-secret');
    assert.match(row?.tooltip ?? '', /--api-key \*\*\* --token=\*\*\*/, 'the tooltip shows the masked command line');
    assert.match(row?.tooltip ?? '', /Env file: .*canary\.env/, 'the tooltip names the env file');
    // Output channels are written to disk asynchronously: wait until the file holds what the log received.
    await logFilesCaughtUp(api, ['file-secret']);
    const places: [string, string][] = [
      ...api.getServerStates().map(({ id }): [string, string] => [`log of ${id}`, api.getServerLog(id).join('\n')]),
      ['server states', JSON.stringify(api.getServerStates())],
      ['tree rows', JSON.stringify(await serverItems())],
      ['sidebar snapshot', JSON.stringify(await sidebarSnapshot())],
      ...(await logFiles()).map(({ file, text }): [string, string] => [file, text]),
    ];
    assert.ok(places.some(([where]) => where.includes('file-secret') && where.endsWith('.log')), 'the server\'s output channel file is among the places');
    for (const [where, text] of places) {
      for (const secret of [FROM_FILE, API_KEY, ARG_TOKEN]) assert.ok(!text.includes(secret), `${secret.split('-')[0]} appears in ${where}`);
    }
    // The configuration an extension reads through the API has the arguments as written, never the env file's values.
    assert.ok(!JSON.stringify(api.getConfig()).includes(FROM_FILE), 'the env file value is in the configuration');
  });
});
