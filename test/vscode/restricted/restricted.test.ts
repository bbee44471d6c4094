// VS Code Restricted Mode (this pass runs in a VS Code with workspace trust on, and nobody trusted the
// fixture folder): no project server starts — not even one whose exact definition the trust store
// holds (the runner pre-seeds it) — and nobody is asked; the user and plugin servers run as always.
import * as assert from 'assert/strict';
import * as vscode from 'vscode';
import type { SidebarSnapshot } from '../../../src/protocol/sidebar';
import type { SwitchboardApi } from '../../../src/extension';
import {
  FAILING_SERVERS, fixtureIsLoaded, fixtureWorkspace, PROJECT_SERVERS, READY_SERVERS, serverItems, serverRow, switchboardApi, waitFor,
} from '../configTestSupport';
import { processesRunning, stateOf, waitForStates } from '../lifecycleTestSupport';
import { ensureNoLeakedDisposables } from '../leakCheck';

interface TrustItem { folder: string; name: string; state: string; description: string }

describe('Restricted Mode', function () {
  ensureNoLeakedDisposables();
  this.timeout(60_000);
  let api: SwitchboardApi;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    await waitForStates(api, READY_SERVERS, 'ready', 45_000);
    await waitForStates(api, FAILING_SERVERS, 'failed');
  });

  it('the fixture folder is open in Restricted Mode', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it('the trust store holds the exact current definition of every project server (pre-seeded by the runner)', async () => {
    // Manage Trust lists what the store holds and compares it with the definitions in effect.
    const shown = vscode.commands.executeCommand('switchboard.manageTrust');
    const items = await waitFor('the Manage Trust pick', async () => vscode.commands.executeCommand<TrustItem[] | undefined>('_switchboard.test.manageTrustItems'), 10_000, 50);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await shown;
    assert.deepEqual(items.map((item) => [item.folder, item.name, item.state]), PROJECT_SERVERS.map((name) => [fixtureWorkspace(), name, 'trusted']));
    for (const item of items) assert.match(item.description, /· the current definition$/, item.name);
  });

  it('keeps every project server parked, with no process, and says it is Restricted Mode', async () => {
    await waitForStates(api, PROJECT_SERVERS, 'needsTrust');
    assert.deepEqual(processesRunning('server-memory/dist'), []);
    assert.deepEqual(processesRunning('server-filesystem/dist'), []);
    const items = await serverItems();
    for (const id of PROJECT_SERVERS) {
      assert.match(serverRow(items, id)!.description, /^project · (stdio|http) · needs trust: Restricted Mode/, id);
    }
    const snapshot = await vscode.commands.executeCommand<SidebarSnapshot>('_switchboard.sidebarSnapshot');
    for (const id of PROJECT_SERVERS) {
      const row = snapshot!.servers.find((server) => server.id === id)!;
      assert.equal(row.stateLabel, 'needs trust', id);
      assert.match(row.stateReason ?? '', /^Restricted Mode/, id);
    }
    assert.equal(await vscode.commands.executeCommand<string>('_switchboard.statusBarText'), '$(error) MCP: 4 ready · 2 failed · 3 need trust');
  });

  it('runs the user and plugin servers as always', () => {
    for (const id of READY_SERVERS) assert.equal(stateOf(api, id)?.kind, 'ready', id);
    assert.equal(processesRunning('server-everything/dist').length, 1, 'the user "everything" runs');
    // The plugin server was started (it fails: its script is absent), so the plugin scope is not held back.
    assert.equal(stateOf(api, 'plugin-echo')?.kind, 'failed');
  });

  it('Start on a project server refuses, without a prompt and without a process', async () => {
    // Were a prompt shown, this answer would trust the server: nothing may be asked at all.
    await vscode.commands.executeCommand('_switchboard.test.setTrustAnswer', 'trust');
    try {
      await assert.rejects(api.startServer('memory'), /Restricted Mode/);
      await assert.rejects(api.restartServer('filesystem'), /Restricted Mode/);
      assert.deepEqual(await vscode.commands.executeCommand('_switchboard.test.trustPrompts'), []);
    } finally {
      await vscode.commands.executeCommand('_switchboard.test.setTrustAnswer', null);
    }
    assert.equal(stateOf(api, 'memory')?.kind, 'needsTrust');
    assert.deepEqual(processesRunning('server-memory/dist'), []);
    assert.deepEqual(processesRunning('server-filesystem/dist'), []);
  });
});
