// The administrator's policy in a real extension host: a server denied by the user-only setting
// switchboard.policy.deniedServers shows as blocked by policy with its rule and is never spawned; when
// the rule goes, the same definition starts.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import { FileRestorer, fixtureIsLoaded, serverItems, serverRow, serversSettled, switchboardApi, waitFor, waitForConfig } from './configTestSupport';
import { sidebarRequest } from './approvalsSupport';
import { addUserServers, sidebarSnapshot } from './userServersSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

describe('administrator policy', () => {
  ensureNoLeakedDisposables();
  const files = new FileRestorer();
  let api: SwitchboardApi;
  let marker: string;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-policy-')), 'spawned');
  });

  after(async () => {
    await vscode.workspace.getConfiguration('switchboard.policy').update('deniedServers', undefined, vscode.ConfigurationTarget.Global);
    files.restore();
    await fixtureIsLoaded(api);
    fs.rmSync(path.dirname(marker), { recursive: true, force: true });
  });

  it('a denied server is shown blocked by policy with the rule and never spawned', async () => {
    await vscode.workspace.getConfiguration('switchboard.policy').update('deniedServers', [{ name: 'forbidden' }], vscode.ConfigurationTarget.Global);
    addUserServers(files, { forbidden: { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`] } });
    await waitForConfig(api, 'the forbidden server', (c) => c.servers.some((s) => s.id === 'forbidden'));
    const row = await waitFor('the blocked row', async () => {
      const found = serverRow(await serverItems(), 'forbidden');
      return found?.description?.includes('blocked by policy') ? found : undefined;
    });
    assert.match(row.description ?? '', /blocked by policy: switchboard\.policy\.deniedServers\[0\]/);
    await serversSettled();
    assert.equal(fs.existsSync(marker), false, 'never spawned');

    // The rule is what held it: without it, the same definition starts.
    await vscode.workspace.getConfiguration('switchboard.policy').update('deniedServers', undefined, vscode.ConfigurationTarget.Global);
    await waitFor('the server to be spawned once allowed', () => fs.existsSync(marker), 10000, 50);
  });

  it('a deny rule on a package or image holds through the launchers\' own reading (npx --cache VALUE, an npm: alias, env docker)', async () => {
    const policy = vscode.workspace.getConfiguration('switchboard.policy');
    await policy.update('deniedServers', [{ npm: 'evil-pkg' }, { docker: 'evil/*' }], vscode.ConfigurationTarget.Global);
    const servers: Record<string, [number, string]> = {
      viaCache: [0, 'npm "evil-pkg"'], viaAlias: [0, 'npm "evil-pkg"'], viaEnvDocker: [1, 'docker "evil/*"'],
    };
    try {
      addUserServers(files, {
        viaCache: { command: 'npx', args: ['-y', '--cache', '@modelcontextprotocol/server-memory', 'evil-pkg'] },
        viaAlias: { command: 'npm', args: ['x', '-y', 'good@npm:evil-pkg@1'] },
        viaEnvDocker: { command: 'env', args: ['-i', 'docker', 'run', '-i', '--rm', '--name', 'mcp', 'evil/img:1'] },
      });
      await waitForConfig(api, 'the three servers', (c) => Object.keys(servers).every((id) => c.servers.some((s) => s.id === id)));
      for (const [id, [index, fields]] of Object.entries(servers)) {
        const row = await waitFor(`${id} blocked`, async () => {
          const found = serverRow(await serverItems(), id);
          return found?.description?.includes('blocked by policy') ? found : undefined;
        });
        assert.ok(row.description?.includes(`blocked by policy: switchboard.policy.deniedServers[${index}] (${fields})`), `${id}: ${row.description}`);
      }
    } finally {
      // The servers go before the rule, so that none of them ever starts.
      files.restore();
      await waitForConfig(api, 'the servers gone', (c) => !c.servers.some((s) => Object.keys(servers).includes(s.id)));
      await policy.update('deniedServers', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a mode the policy fixes holds: the sidebar shows the lock and its picker is refused, saying why', async () => {
    const mode = () => vscode.workspace.getConfiguration('switchboard.approvals').inspect<string>('mode')?.globalValue;
    const personal = mode();
    try {
      await vscode.workspace.getConfiguration('switchboard.policy').update('approvalMode', 'askBeforeEdits', vscode.ConfigurationTarget.Global);
      const locked = await waitFor('the locked mode in the sidebar', async () => {
        const { approvals } = await sidebarSnapshot();
        return approvals.modeLockedBy !== undefined ? approvals : undefined;
      });
      assert.equal(locked.mode, 'askBeforeEdits');
      assert.equal(locked.modeLockedBy, 'switchboard.policy.approvalMode');
      await assert.rejects(sidebarRequest('setApprovalMode', { mode: 'acceptEverything' }), /the approval mode is fixed to askBeforeEdits by your administrator's policy \(switchboard\.policy\.approvalMode\); it cannot be changed here/);
      assert.equal(mode(), personal, 'the person\'s setting was not written');
      assert.equal((await sidebarSnapshot()).approvals.mode, 'askBeforeEdits');
    } finally {
      await vscode.workspace.getConfiguration('switchboard.policy').update('approvalMode', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('the person\'s mode back', async () => {
      const { approvals } = await sidebarSnapshot();
      return approvals.modeLockedBy === undefined && approvals.mode === (personal ?? 'askBeforeEdits');
    });
  });
});
