// Stop on a server that does not stop by itself (test/fixtures/servers/ignore-sigterm.mjs survives stdin
// closing and ignores SIGTERM): while its staged shutdown runs it shows "stopping" everywhere a state
// shows (the Servers view's icon and description, the status bar, the sidebar, the API), Stop stays
// offered, and a second Stop kills the process at once instead of waiting for the grace periods.
import * as assert from 'assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { FileRestorer, fixtureIsLoaded, serverItems, serverRow, switchboardApi, waitFor } from './configTestSupport';
import { isAlive, nextState, processesRunning, stateOf, waitForStates } from './lifecycleTestSupport';
import { addUserServers, fixtureServer, sidebarSnapshot } from './userServersSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const ID = 'stubborn';
const SCRIPT = 'ignore-sigterm.mjs';
/** The default switchboard.shutdownGracePeriod: a first Stop alone takes two of them (stdin, then SIGTERM). */
const GRACE_MS = 2000;

describe('stopping a server that does not stop by itself', function () {
  ensureNoLeakedDisposables();
  this.timeout(60_000);
  let api: SwitchboardApi;
  const restorer = new FileRestorer();

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    addUserServers(restorer, { [ID]: fixtureServer(SCRIPT) });
    await waitFor('the stubborn server', () => api.getServerStates().some((s) => s.id === ID), 10_000);
    await waitForStates(api, [ID], 'ready');
  });

  after(async () => {
    restorer.restore();
    await fixtureIsLoaded(api, 10_000);
    // Removed from the configuration: its staged stop (two grace periods at most) leaves nothing.
    await waitFor('nothing of the stubborn server to be left', () => processesRunning(SCRIPT).length === 0, 3 * GRACE_MS + 2000, 50);
  });

  it('shows stopping while the process goes; a second Stop kills it at once', async () => {
    const [proc] = processesRunning(SCRIPT);
    assert.ok(proc, 'the stubborn server runs');

    const stopping = nextState(api, ID, 'stopping', 10_000);
    const firstStop = Promise.resolve(vscode.commands.executeCommand<string>('switchboard.stopServer', ID));
    await stopping;
    const firstAt = Date.now();

    // The Servers view: a spinning icon, the word, and Stop still offered.
    const row = await waitFor('the stopping row', async () => { const r = serverRow(await serverItems(), ID); return r?.description.endsWith('stopping…') && r; });
    assert.equal(row.description, 'user · stdio · stopping…');
    assert.equal(row.icon, 'loading~spin');
    assert.match(row.contextValue, /\bstate-stopping\b/);
    assert.match(row.contextValue, /\bcanStop\b/);
    assert.doesNotMatch(row.contextValue, /\bcanStart\b/);
    assert.match(row.tooltip, /State: stopping…/);
    // The status bar, the sidebar and the API.
    assert.match(await vscode.commands.executeCommand<string>('_switchboard.statusBarText'), /^\$\([\w~-]+\) MCP: .*\b1 stopping\b/);
    const sidebarRow = (await sidebarSnapshot()).servers.find((r) => r.id === ID);
    assert.deepEqual(sidebarRow && { state: sidebarRow.state, label: sidebarRow.stateLabel }, { state: 'stopping', label: 'stopping…' });
    assert.equal(stateOf(api, ID)?.kind, 'stopping');
    assert.equal(isAlive(proc.pid), true, 'the process is still going');

    const t0 = Date.now();
    assert.equal(await vscode.commands.executeCommand<string>('switchboard.stopServer', ID), 'stopped');
    const secondMs = Date.now() - t0;
    assert.equal(isAlive(proc.pid), false, 'gone when the second Stop resolves');
    assert.ok(Date.now() - firstAt < 2 * GRACE_MS, `stopped ${Date.now() - firstAt} ms after the first Stop: the grace periods were waited out`);
    assert.ok(secondMs < 1000, `the second Stop took ${secondMs} ms`);
    assert.equal(await firstStop, 'stopped', 'the first Stop resolves with the second');
    assert.equal(serverRow(await serverItems(), ID)?.icon, 'circle-outline');
    assert.ok(api.getServerLog(ID).some((line) => /stop requested again while stopping: ending the process now/.test(line)), api.getServerLog(ID).join('\n'));
    console.log(`      second Stop ${t0 - firstAt} ms after the first: process gone ${secondMs} ms later (grace period ${GRACE_MS} ms)`);
  });
});
