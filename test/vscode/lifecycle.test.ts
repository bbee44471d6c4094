// Every configured server actually runs: user and plugin servers start on activation, project servers
// wait for trust (no process), failures say why, each server has its own log (secrets scrubbed), a ready
// server's catalog shows in the tree, Start/Stop/Restart work, roots follow the workspace folders,
// settings apply live, and stopping everything leaves no process behind.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import {
  FAILING_SERVERS, fixtureIsLoaded, fixtureWorkspace, PROJECT_SERVERS, READY_SERVERS, serverItems, serverRow, switchboardApi, waitFor,
} from './configTestSupport';
import {
  descendants, isAlive, nextState, processesRunning, serverProcesses, startedPids, stateOf, waitForStates,
} from './lifecycleTestSupport';
import { logFiles } from './userServersSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const SECRET = 'chatty-fixture-secret-5f1c9a';

/** Resolves on the next workspace folder change; rejects after `timeoutMs` (VS Code may refuse the edit). */
function folderChange(what: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { subscription.dispose(); reject(new Error(`${what}: no workspace folder change within ${timeoutMs} ms`)); }, timeoutMs);
    const subscription = vscode.workspace.onDidChangeWorkspaceFolders(() => { clearTimeout(timer); subscription.dispose(); resolve(); });
  });
}

describe('server lifecycle', function () {
  ensureNoLeakedDisposables();
  this.timeout(60_000);
  let api: SwitchboardApi;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    await waitForStates(api, READY_SERVERS, 'ready', 45_000);
    await waitForStates(api, FAILING_SERVERS, 'failed');
    await waitForStates(api, PROJECT_SERVERS, 'needsTrust');
  });

  it('starts the user servers on activation and shows them ready in the view', async () => {
    const items = await serverItems();
    for (const id of READY_SERVERS) {
      const row = serverRow(items, id)!;
      assert.equal(row.description, 'user · stdio · ready', id);
      assert.equal(row.icon, 'pass', id);
      assert.match(row.contextValue, /\bcanStop\b/, id);
      assert.match(row.contextValue, /\bcanRestart\b/, id);
      assert.doesNotMatch(row.contextValue, /\bcanStart\b/, id);
      assert.match(row.tooltip, /State: ready/);
    }
  });

  it('holds the project servers at needs trust, without starting a process', async () => {
    const items = await serverItems();
    for (const id of PROJECT_SERVERS) {
      const row = serverRow(items, id)!;
      assert.match(row.description, /^project · (stdio|http) · needs trust$/, id);
      assert.equal(row.icon, 'shield', id);
      assert.match(row.contextValue, /\bcanStart\b/, id);
    }
    // The project servers have unique arguments; the user "memory" is shadowed, so nothing runs them.
    assert.deepEqual(processesRunning('server-memory/dist'), []);
    assert.deepEqual(processesRunning('server-filesystem/dist'), []);
    // The scan sees this extension host's servers: the user "everything" runs.
    assert.equal(processesRunning('server-everything/dist').length, 1, JSON.stringify(descendants()));
  });

  it('shows a failed server with its reason', async () => {
    const missing = stateOf(api, 'missing-command');
    assert.equal(missing?.kind, 'failed');
    assert.match(missing.kind === 'failed' ? missing.error : '', /command not found: switchboard-fixture-missing-command/);
    const items = await serverItems();
    const row = serverRow(items, 'missing-command')!;
    assert.match(row.description, /^user · stdio · failed: command not found: switchboard-fixture-missing-command/);
    assert.equal(row.icon, 'error');
    assert.match(row.tooltip, /Reason: command not found: switchboard-fixture-missing-command/);
    assert.match(row.contextValue, /\bcanStart\b/);

    // The plugin's script does not exist: node says so on stderr, and the state carries it.
    const echo = stateOf(api, 'plugin-echo');
    assert.equal(echo?.kind, 'failed');
    assert.match(JSON.stringify(echo), /server\.js/);
    assert.ok(api.getServerLog('plugin-echo').some((line) => line.includes('failed to start')), api.getServerLog('plugin-echo').join('\n'));
  });

  it('lists a ready server\'s tools, resources and prompts under its row', async () => {
    const catalog = api.getCatalog('everything');
    assert.ok(catalog, 'everything has a catalog');
    assert.ok(catalog.tools.length > 0, 'everything offers tools');
    const row = await waitFor('the catalog rows of everything', async () => {
      const found = serverRow(await serverItems(), 'everything');
      return found?.children.some((c) => c.kind === 'catalog') && found;
    });
    const groups = row.children.filter((c) => c.kind === 'catalog');
    const tools = groups.find((g) => g.label.startsWith('Tools ('))!;
    assert.equal(tools.label, `Tools (${catalog.tools.length})`);
    assert.deepEqual(tools.children.map((c) => c.label), catalog.tools.map((t) => t.name));
    const described = catalog.tools.find((t) => t.description)!;
    assert.ok(tools.children.find((c) => c.label === described.name)!.tooltip.includes(described.description!.trim().split('\n')[0]));
    if (catalog.prompts.length > 0) assert.ok(groups.some((g) => g.label === `Prompts (${catalog.prompts.length})`));
    if (catalog.resources.length > 0) assert.ok(groups.some((g) => g.label === `Resources (${catalog.resources.length})`));
    assert.match(row.tooltip, new RegExp(`Offers ${catalog.tools.length} tools`));
    // A server that is not ready lists nothing.
    assert.deepEqual(serverRow(await serverItems(), 'memory')!.children.filter((c) => c.kind === 'catalog'), []);
  });

  it('writes each server\'s lifecycle and stderr to its own log', () => {
    const log = api.getServerLog('ok');
    assert.ok(log.some((line) => /^\[info\] starting \(stdio\): node \S+ok\.mjs$/.test(line)), log.join('\n'));
    assert.ok(log.some((line) => /^\[info\] stderr: ok-fixture: started \(pid \d+\)$/.test(line)), log.join('\n'));
    assert.ok(log.some((line) => /^\[info\] ready in \d+ ms \(ok-fixture 1\.0\.0\)$/.test(line)), log.join('\n'));
    assert.deepEqual(api.getServerLog('no-such-server'), []);
  });

  it('never writes an env value to a log', () => {
    const log = api.getServerLog('chatty');
    assert.ok(log.includes('[info] stderr: ***'), `the stderr line that printed the value is masked:\n${log.join('\n')}`);
    assert.ok(log.some((line) => line.includes('STARTUP_STDERR=*** node ')), 'the launch line names the variable, not its value');
    for (const id of api.getServerStates().map((s) => s.id)) {
      assert.ok(!api.getServerLog(id).some((line) => line.includes(SECRET)), `the log of ${id} holds the secret`);
    }
    assert.ok(!JSON.stringify(api.getServerStates()).includes(SECRET));
  });

  it('sums the states up in the status bar', async () => {
    const text = await vscode.commands.executeCommand<string>('_switchboard.statusBarText');
    assert.equal(text, '$(error) MCP: 4 ready · 2 failed · 3 need trust');
  });

  it('restarts a server: a new process replaces the old one', async () => {
    const [oldPid] = startedPids(api, 'ok').slice(-1);
    assert.ok(oldPid && isAlive(oldPid), `ok runs as pid ${oldPid}`);
    const ready = nextState(api, 'ok', 'ready');
    const result = await vscode.commands.executeCommand('switchboard.restartServer', 'ok');
    assert.equal(result, 'ready', 'the command resolves once the server is ready again');
    await ready;
    const [newPid] = await waitFor('a second "started" line', () => {
      const pids = startedPids(api, 'ok');
      return pids.length > 0 && pids[pids.length - 1] !== oldPid && pids.slice(-1);
    });
    assert.ok(isAlive(newPid), `the new process ${newPid} runs`);
    assert.equal(isAlive(oldPid), false, `the old process ${oldPid} is gone`);
    assert.equal(processesRunning('fixtures/servers/ok.mjs').length, 1);
  });

  it('tells the servers when a workspace folder is added, as a roots change', async function () {
    // Under test VS Code will not turn a single-folder window into a workspace: the runner opens the
    // fixture as a one-folder workspace (test/fixtures/vscode/fixture.code-workspace).
    if (!vscode.workspace.workspaceFile) this.skip();
    const workspaceUri = vscode.Uri.file(fixtureWorkspace()).toString();
    assert.ok(api.getServerLog('roots').some((line) => line.includes('roots #1 (initialized) = ') && line.includes(workspaceUri)),
      `the first roots/list answered the workspace folder:\n${api.getServerLog('roots').join('\n')}`);

    const extra = path.join(path.dirname(fixtureWorkspace()), 'second-root');
    fs.mkdirSync(extra, { recursive: true });
    const extraUri = vscode.Uri.file(extra).toString();
    const count = vscode.workspace.workspaceFolders?.length ?? 0;
    const added = folderChange('adding second-root');
    assert.ok(vscode.workspace.updateWorkspaceFolders(count, 0, { uri: vscode.Uri.file(extra) }), 'the folder can be added');
    try {
      await added;
      const line = await waitFor('roots/list_changed with the new folder', () =>
        api.getServerLog('roots').find((l) => l.includes('(list_changed)') && l.includes(workspaceUri) && l.includes(extraUri)), 10_000, 50);
      assert.match(line, /roots #\d+ \(list_changed\)/);
    } finally {
      const removed = folderChange('removing second-root');
      if (vscode.workspace.updateWorkspaceFolders(count, 1)) await removed;
    }
    await waitFor('roots without the removed folder', () => {
      const last = api.getServerLog('roots').filter((l) => l.includes('(list_changed)')).pop();
      return last !== undefined && last.includes(workspaceUri) && !last.includes(extraUri);
    }, 10_000, 50);
  });

  it('starts a project server on an explicit Start once trusted in the prompt, and stops it on Stop', async () => {
    // The trust prompt is a modal dialog: the test-only command answers it (see trust.test.ts).
    await vscode.commands.executeCommand('_switchboard.test.setTrustAnswer', 'trust');
    try {
      assert.equal(await vscode.commands.executeCommand('switchboard.startServer', 'filesystem'), 'ready');
    } finally {
      await vscode.commands.executeCommand('_switchboard.test.setTrustAnswer', null);
    }
    assert.equal(processesRunning('server-filesystem/dist').length, 1, 'filesystem runs');
    await waitFor('the filesystem tools', () => (api.getCatalog('filesystem')?.tools.length ?? 0) > 0);
    const row = serverRow(await serverItems(), 'filesystem')!;
    assert.equal(row.description, 'project · stdio · ready');
    assert.match(row.contextValue, /\bcanStop\b/);
    assert.equal(stateOf(api, 'memory')?.kind, 'needsTrust', 'starting one project server trusts no other');

    assert.equal(await vscode.commands.executeCommand('switchboard.stopServer', 'filesystem'), 'stopped');
    assert.deepEqual(processesRunning('server-filesystem/dist'), [], 'its process is gone when Stop resolves');
    assert.equal(serverRow(await serverItems(), 'filesystem')!.icon, 'circle-outline');
    // Forgetting the trust parks it again, as the fixture had it.
    await vscode.commands.executeCommand('_switchboard.test.resetTrust');
    await waitForStates(api, ['filesystem'], 'needsTrust');
  });

  it('applies the trace and log level settings without a reload', async () => {
    const configuration = vscode.workspace.getConfiguration('switchboard');
    try {
      await configuration.update('trace', true, vscode.ConfigurationTarget.Global);
      await api.restartServer('chatty');
      assert.equal(stateOf(api, 'chatty')?.kind, 'ready');
      const traced = (pattern: RegExp) => api.getServerLog('chatty').some((line) => line.startsWith('[info] trace → ') && pattern.test(line));
      assert.ok(traced(/"method":"initialize"/), 'the initialize request is traced');
      assert.ok(traced(/"method":"logging\/setLevel".*"level":"info"/), 'the default level was asked for');

      await configuration.update('logLevel', 'debug', vscode.ConfigurationTarget.Global);
      await waitFor('logging/setLevel debug in the trace', () => traced(/"method":"logging\/setLevel".*"level":"debug"/), 10_000, 50);
    } finally {
      await configuration.update('trace', undefined, vscode.ConfigurationTarget.Global);
      await configuration.update('logLevel', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('restarts every running server with Restart All Servers', async () => {
    const before = startedPids(api, 'ok').slice(-1)[0];
    const message = await vscode.commands.executeCommand<string>('switchboard.restartAllServers');
    // It says what it did, in the status bar, and each server's log tells a requested restart from a crash.
    assert.match(message ?? '', /^\$\(debug-restart\) MCP Switchboard: restarted \d+ servers: \d+ ready, \d+ failed$/);
    assert.equal((await vscode.commands.executeCommand<string[]>('_switchboard.feedback')).at(-1), message);
    const log = api.getServerLog('ok');
    const at = log.lastIndexOf('[info] restarting (requested: Restart All)');
    assert.ok(at >= 0, `the log says the restart was requested:\n${log.slice(-20).join('\n')}`);
    const since = log.slice(at);
    assert.deepEqual(since.filter((line) => /^\[(error|warn)\]|crash/i.test(line)), [], `nothing in the log reads like a crash:\n${since.join('\n')}`);
    await waitForStates(api, READY_SERVERS, 'ready');
    await waitForStates(api, FAILING_SERVERS, 'failed');
    const after = await waitFor('ok to start again', () => {
      const pid = startedPids(api, 'ok').slice(-1)[0];
      return pid !== before && pid;
    });
    assert.ok(isAlive(after) && !isAlive(before), `ok: ${before} → ${after}`);
    assert.equal(stateOf(api, 'memory')?.kind, 'needsTrust', 'a server waiting for trust is not started by Restart All');
  });

  it('shows a server\'s log from the command, and says so when there is no such server', async () => {
    // The channel cannot be read back through the API: the command resolves with the one it showed.
    assert.equal(await vscode.commands.executeCommand('switchboard.showServerLogs', 'ok'), 'MCP Switchboard: ok');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    // A failed command tells the person (an error notification) and, under test, rejects.
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('switchboard.showServerLogs', 'no-such-server')), /No MCP server with the id "no-such-server"/);
    const shown = await vscode.commands.executeCommand<string[]>('_switchboard.test.notifications');
    assert.equal(shown.at(-1), 'MCP Switchboard: No MCP server with the id "no-such-server".');
  });

  it('names a server\'s output channel "MCP Switchboard: <server>", never VS Code\'s own "MCP: <server>"', async () => {
    // Output channels are written to files named after the channel, less the characters a file name
    // cannot hold (":"): "MCP Switchboard: ok" → "MCP Switchboard ok.log", VS Code's "MCP: ok" → "MCP ok.log".
    const names = (await logFiles()).map(({ file }) => path.basename(file));
    assert.ok(names.includes('MCP Switchboard ok.log'), `a channel "MCP Switchboard: ok" among ${names.join(', ')}`);
    assert.ok(!names.includes('MCP ok.log'), `no channel named "MCP: ok" like VS Code's own MCP logs: ${names.join(', ')}`);
  });

  it('stops every server and leaves no process behind', async () => {
    assert.ok(serverProcesses().length >= READY_SERVERS.length, 'the user servers run before');
    try {
      await api.stopAllServers();
      assert.deepEqual(serverProcesses(), [], 'no server process (nor any of theirs) is left when stopAllServers resolves');
      for (const id of READY_SERVERS) assert.equal(stateOf(api, id)?.kind, 'stopped', id);
      // filesystem was trusted, started and stopped above, then its trust forgotten; the others were never started.
      for (const id of ['docs', 'filesystem', 'memory']) assert.equal(stateOf(api, id)?.kind, 'needsTrust', `${id} stays parked`);
    } finally {
      // Later test files expect the fixture as activation left it.
      await Promise.all([...READY_SERVERS, ...FAILING_SERVERS].map((id) => api.startServer(id)));
    }
    await waitForStates(api, READY_SERVERS, 'ready');
  });
});
