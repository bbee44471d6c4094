// allowedTools / disabledTools in a real VS Code: the hidden tools are gone from the catalog the API
// gives, from the Servers tree and from the sidebar's counts, `alwaysLoad` rides on the catalog, and a
// call of a hidden tool through the extension's API is refused by the call gate with the file to edit.
// Changing the filter applies at once, without restarting the server.
import * as assert from 'assert/strict';
import type { SwitchboardApi } from '../../src/extension';
import { approveNextCard } from './approvalsSupport';
import { FileRestorer, fixtureIsLoaded, serverItems, serverRow, switchboardApi, userFile, waitFor } from './configTestSupport';
import { startedPids, waitForStates } from './lifecycleTestSupport';
import { addUserServers, fixtureServer, sidebarSnapshot, toolRow } from './userServersSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const ID = 'filtered';

describe('allowedTools and disabledTools', function () {
  ensureNoLeakedDisposables();
  this.timeout(60_000);
  let api: SwitchboardApi;
  const restorer = new FileRestorer();
  const toolNames = () => api.getCatalog(ID)?.tools.map((tool) => tool.name);
  const sidebarTools = async () => (await sidebarSnapshot()).servers.find((row) => row.id === ID)?.counts?.tools;
  const toolsGroupLabel = async () => serverRow(await serverItems(), ID)?.children.find((child) => child.kind === 'catalog' && child.label.startsWith('Tools ('))?.label;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    // mutating-tool.mjs lists weather, calc and mutate.
    addUserServers(restorer, {
      [ID]: { ...fixtureServer('mutating-tool.mjs'), allowedTools: ['weather', 'calc'], disabledTools: ['calc'], alwaysLoad: true },
    });
    await waitFor('the filtered server', () => api.getServerStates().some((s) => s.id === ID), 10_000);
    await waitForStates(api, [ID], 'ready');
    await waitFor('its tools to be listed', () => (api.getCatalog(ID)?.tools.length ?? 0) > 0, 10_000);
  });

  after(async () => {
    restorer.restore();
    await fixtureIsLoaded(api, 10_000);
  });

  it('the API\'s catalog has only the offered tools, counts the hidden ones and carries alwaysLoad', () => {
    const catalog = api.getCatalog(ID);
    assert.deepEqual(toolNames(), ['weather']);
    assert.equal(catalog?.hiddenTools, 2);
    assert.equal(catalog?.alwaysLoad, true);
    assert.equal(api.getToolStatus(ID, 'calc'), undefined, 'a hidden tool has no status: it is not offered');
  });

  it('the Servers tree and the sidebar show only the offered tools', async () => {
    assert.equal(await waitFor('the tools group', toolsGroupLabel, 10_000), 'Tools (1)');
    assert.ok(await toolRow(ID, 'weather'), 'weather has a row');
    assert.equal(await toolRow(ID, 'calc'), undefined, 'calc (disabledTools) has none');
    assert.equal(await toolRow(ID, 'mutate'), undefined, 'mutate (not in allowedTools) has none');
    assert.equal(await sidebarTools(), 1);
    const server = serverRow(await serverItems(), ID);
    assert.match(server?.tooltip ?? '', /2 more tools are hidden by allowedTools\/disabledTools/);
  });

  it('refuses a call of a hidden tool through the API, naming the field and the file; offered tools answer', async () => {
    const file = userFile();
    await assert.rejects(api.callTool(ID, 'calc', { a: 1, b: 2 }), { message: `tool 'calc' of server '${ID}' is disabled by disabledTools in ${file}` });
    await assert.rejects(api.callTool(ID, 'mutate', { step: 'add' }), { message: `tool 'mutate' of server '${ID}' is not in allowedTools in ${file}` });
    await assert.rejects(api.callTool(ID, 'wether', { city: 'Oslo' }), { message: `tool 'wether' of server '${ID}' is not in allowedTools in ${file}; did you mean 'weather'?` });
    await assert.rejects(api.callTool('no-such-server', 'weather', {}), /unknown server 'no-such-server' \(configured: .*filtered/);
    assert.deepEqual((await api.callTool(ID, 'weather', { city: 'Oslo' })).content, [{ type: 'text', text: 'sunny in Oslo' }]);
    assert.equal(startedPids(api, ID).length, 1, 'mutate never ran: the server still has its first tools');
  });

  it('a changed filter applies at once, without restarting the server', async () => {
    const pids = startedPids(api, ID);
    addUserServers(restorer, { [ID]: { ...fixtureServer('mutating-tool.mjs'), disabledTools: ['mutate'] } });
    await waitFor('calc to be offered', () => toolNames()?.includes('calc'), 10_000);
    assert.deepEqual(toolNames(), ['calc', 'weather']);
    assert.equal(api.getCatalog(ID)?.alwaysLoad, false);
    await waitFor('the tree to follow', async () => (await toolsGroupLabel()) === 'Tools (2)', 10_000);
    await waitFor('the sidebar to follow', async () => (await sidebarTools()) === 2, 10_000);
    // calc is flagged by the poisoning scan: it asks whatever the mode.
    const calc = api.callTool(ID, 'calc', { a: 1, b: 2 });
    await approveNextCard('calc', ID);
    assert.deepEqual((await calc).content, [{ type: 'text', text: '3' }]);
    await assert.rejects(api.callTool(ID, 'mutate', { step: 'add' }), /is disabled by disabledTools/);
    assert.deepEqual(api.getServerStates().find((s) => s.id === ID)?.state.kind, 'ready');
    assert.deepEqual(startedPids(api, ID), pids, 'the same process');
  });
});
