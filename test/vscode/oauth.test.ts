// Signing in to an OAuth-protected remote server inside a real VS Code: a server answering 401 shows
// "needs sign-in" in the Servers view and the sidebar, with Sign In; signing in goes through the
// fixture's authorization page and the loopback redirect, after which the server is ready and its tool
// listed; no token reaches any log; Sign Out forgets the credentials and the server needs a sign-in
// again. The fixture is the SDK-built server of test/fixtures/servers/oauth-protected.mjs.
//
// The extension host cannot drive a browser, so the browser step goes through the test-only command
// `_switchboard.test.scriptSignInBrowser`: the extension then records the authorization URL instead of
// asking and calling openExternal, and this test plays the person at that page (the browser tier does
// the same with a real browser and the real confirmation).
import * as assert from 'assert/strict';
import { spawn, type ChildProcess } from 'child_process';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { FileRestorer, fixtureIsLoaded, serverItems, serverRow, switchboardApi, waitFor } from './configTestSupport';
import { stateOf, waitForStates } from './lifecycleTestSupport';
import { addUserServers, logFiles, sidebarSnapshot, toolRow } from './userServersSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const SCRIPT_BROWSER = '_switchboard.test.scriptSignInBrowser';
const PAGES = '_switchboard.test.signInPages';

/** Starts the OAuth fixture in its own process group; resolves with it and its port. */
function startFixture(): Promise<{ child: ChildProcess; port: number }> {
  const repo = process.env.SWITCHBOARD_REPO ?? path.resolve(__dirname, '..', '..', '..');
  const child = spawn(process.execPath, [path.join(repo, 'test', 'fixtures', 'servers', 'oauth-protected.mjs')], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((l) => l.startsWith('{"port"'));
      if (line) resolve({ child, port: (JSON.parse(line) as { port: number }).port });
    });
    child.once('exit', (code) => reject(new Error(`the OAuth fixture exited with ${code}: ${out}`)));
  });
}

/** The person at the authorization page: reads it, presses Approve, and the browser follows the redirect home. */
async function approve(authorizationUrl: string): Promise<void> {
  const page = await fetch(authorizationUrl);
  const html = await page.text();
  const id = /name="id" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(id, `an authorization page with a consent form: ${html.slice(0, 300)}`);
  const back = await fetch(new URL('/consent', authorizationUrl), { method: 'POST', body: new URLSearchParams({ id, decision: 'approve' }) });
  assert.equal(back.status, 200, 'the redirect reached the loopback listener');
  assert.match(await back.text(), /You are signed in/);
}

describe('OAuth sign-in', function () {
  ensureNoLeakedDisposables();
  this.timeout(60_000);
  let api: SwitchboardApi;
  const restorer = new FileRestorer();
  let fixture: { child: ChildProcess; port: number };

  before(async () => {
    // Dialogs answered by script (signing out asks first): yes to every confirmation.
    await vscode.commands.executeCommand('_switchboard.test.scriptDialogs', { confirm: true });
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    fixture = await startFixture();
    await vscode.commands.executeCommand(SCRIPT_BROWSER, true);
  });

  after(async () => {
    await vscode.commands.executeCommand('_switchboard.test.scriptDialogs', null);
    await vscode.commands.executeCommand(SCRIPT_BROWSER, false);
    restorer.restore();
    await fixtureIsLoaded(api, 10_000);
    try { process.kill(-fixture.child.pid!, 'SIGKILL'); } catch { /* gone */ }
  });

  it('shows a server answering 401 as needing sign-in, with Sign In in the tree and the sidebar', async () => {
    addUserServers(restorer, { secured: { type: 'http', url: `http://127.0.0.1:${fixture.port}/mcp` } });
    await waitForStates(api, ['secured'], 'needsSignIn');
    const state = stateOf(api, 'secured');
    assert.equal(state?.kind === 'needsSignIn' && state.reason, `http://127.0.0.1:${fixture.port}/mcp needs you to sign in`);
    const row = await waitFor('the tree row to offer Sign In', async () => {
      const found = serverRow(await serverItems(), 'secured');
      return found?.contextValue.includes('canSignIn') && found;
    });
    assert.match(row.description, /^user · http · needs sign-in: /);
    assert.doesNotMatch(row.contextValue, /canSignOut/);
    const sidebarRow = (await sidebarSnapshot()).servers.find((server) => server.id === 'secured');
    assert.equal(sidebarRow?.state, 'needsSignIn');
  });

  it('signs in through the authorization page: the server is ready and its tool listed, no token in any log', async () => {
    const signing = vscode.commands.executeCommand<string | undefined>('switchboard.signIn', 'secured');
    const [page] = await waitFor('the authorization page to be opened', async () => {
      const pages = await vscode.commands.executeCommand<string[]>(PAGES);
      return pages.length > 0 && pages;
    }, 15_000, 50);
    const authorizationUrl = new URL(page);
    assert.equal(authorizationUrl.origin, `http://127.0.0.1:${fixture.port}`);
    assert.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.match(authorizationUrl.searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    await approve(page);
    assert.equal(await signing, 'ready');
    await waitFor('the whoami tool row', () => toolRow('secured', 'whoami'), 10_000, 50);
    const row = serverRow(await serverItems(), 'secured');
    assert.match(row?.contextValue ?? '', /canSignOut/);
    assert.doesNotMatch(row?.contextValue ?? '', /canSignIn/);

    const issued = await (await fetch(`http://127.0.0.1:${fixture.port}/control/issued`)).json() as string[];
    assert.ok(issued.length >= 2, 'an access and a refresh token were issued');
    for (const { file, text } of await logFiles()) {
      for (const value of issued) assert.ok(!text.includes(value), `a token reached ${file}`);
    }
  });

  it('signs out: credentials forgotten, the server needs a sign-in again', async () => {
    assert.equal(await vscode.commands.executeCommand<string | undefined>('switchboard.signOut', 'secured'), 'needsSignIn');
    const row = serverRow(await serverItems(), 'secured');
    assert.match(row?.contextValue ?? '', /canSignIn/);
    assert.doesNotMatch(row?.contextValue ?? '', /canSignOut/);
    // A restart cannot bring it back without a new sign-in.
    await vscode.commands.executeCommand('switchboard.restartServer', 'secured');
    await waitForStates(api, ['secured'], 'needsSignIn', 10_000);
  });
});
