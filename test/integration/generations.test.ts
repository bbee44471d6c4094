// Both protocol generations through NodeServerConnector: a 2026-07-28 fixture built with the SDK's v2
// server package (modern-only, so a connection proves the new generation was spoken) over stdio and
// Streamable HTTP, and 2025-11-25 servers as before. Everything listens on 127.0.0.1; no process survives.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LaunchDefinition } from '../../src/core/config/types';
import type { ConnectRequest, ServerConnection } from '../../src/core/lifecycle/ports';
import type { CatalogKind } from '../../src/core/lifecycle/types';
import { CatalogLoader } from '../../src/core/lifecycle/catalog';
import { systemClock } from '../../src/core/lifecycle/clock';
import type { SdkServerConnection } from '../../src/node/connection';
import { NodeServerConnector, type ElicitationAnswer, type ElicitationRequest } from '../../src/node/connector';
import type { ProcessTransport } from '../../src/node/process/processTransport';
import { EVERYTHING, FIXTURE_SERVERS, HelperServers } from './helperServers';
import { effectiveServer, endSuite, node, OPTS, RecordingLog, recordingLauncher, textOf, VERSION } from './connectorSupport';
import { delay, waitFor } from './support';

const MODERN = path.join(FIXTURE_SERVERS, 'modern.mjs');
const STRICT_LEGACY = path.join(FIXTURE_SERVERS, 'strict-legacy.mjs');
const UPGRADABLE = path.join(FIXTURE_SERVERS, 'upgradable.mjs');

describe('both protocol generations', function () {
  this.timeout(30_000);
  const helpers = new HelperServers();
  const spawned: ProcessTransport[] = [];
  const open: ServerConnection[] = [];
  /** What the person was asked, and what they answer (the Sidebar's elicitation card, in the extension). */
  const asked: ElicitationRequest[] = [];
  let answer: ElicitationAnswer = { action: 'accept', content: { reason: 'the tests pass' } };
  const connector = new NodeServerConnector({
    clientVersion: VERSION, launchStdio: recordingLauncher(spawned),
    elicit: async (request) => { asked.push(request); return answer; },
  });

  async function connect(launch: Partial<LaunchDefinition> & Pick<LaunchDefinition, 'type'>, overrides: Partial<ConnectRequest> = {}) {
    const log = new RecordingLog();
    const connection = (await connector.connect({
      server: effectiveServer(launch, JSON.stringify(launch)), log, roots: () => [], startupTimeoutMs: 15_000, shutdownGraceMs: 200,
      trace: true, signal: new AbortController().signal, ...overrides,
    })) as SdkServerConnection;
    open.push(connection);
    const changes: CatalogKind[] = [];
    connection.onListChanged((kind) => changes.push(kind));
    return { connection, log, changes };
  }

  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
    asked.length = 0;
    answer = { action: 'accept', content: { reason: 'the tests pass' } };
  });

  after(() => endSuite(connector, helpers, spawned));

  it('speaks 2026-07-28 to a modern-only server over stdio: discovery instead of initialize', async () => {
    const { connection, log } = await connect(node(MODERN));
    assert.equal(connection.protocolVersion, '2026-07-28');
    assert.equal(connection.serverInfo.name, 'modern-fixture');
    assert.equal(log.sent('initialize'), 0, 'no initialize is sent to a 2026-07-28 server');
    assert.equal(log.sent('server/discover'), 1);
    assert.equal(connection.supports.tools, true);
    const { items } = await connection.listPage('tools', undefined, OPTS);
    assert.deepEqual(items.map((t) => t.name).sort(), ['add-tool', 'bump', 'confirm', 'echo']);
    assert.equal(textOf(await connection.callTool('echo', { text: 'hello' }, OPTS)), 'hello');
    const prompt = await connection.getPrompt('greet', { name: 'Ada' }, OPTS);
    assert.match(JSON.stringify(prompt.messages), /Hello, Ada/);
  });

  it('speaks 2026-07-28 to a modern-only server over Streamable HTTP', async () => {
    const http = await helpers.fixture('modern.mjs', {}, ['http']);
    const { connection, log } = await connect({ type: 'http', url: `http://127.0.0.1:${http.port}/mcp` });
    assert.equal(connection.protocolVersion, '2026-07-28');
    assert.equal(connection.transportKind, 'http');
    assert.equal(log.sent('initialize'), 0);
    assert.equal(textOf(await connection.callTool('echo', { text: 'over http' }, OPTS)), 'over http');
  });

  it('still speaks 2025-11-25 (initialize) to a server of the old generation', async () => {
    const { connection, log } = await connect(node(EVERYTHING, ['stdio']));
    assert.equal(connection.protocolVersion, '2025-11-25');
    assert.equal(log.sent('initialize'), 1);
    assert.equal(textOf(await connection.callTool('echo', { message: 'old' }, OPTS)), 'Echo: old');
  });

  it('probes a silent old stdio server once: the next start of the same definition goes straight to initialize', async () => {
    const launch = node(STRICT_LEGACY, [], { STRICT: 'silent' });
    const first = await connect(launch);
    assert.equal(first.connection.protocolVersion, '2025-11-25');
    assert.equal(first.log.sent('server/discover'), 1);
    await first.connection.close();
    const second = await connect(launch);
    assert.equal(second.connection.protocolVersion, '2025-11-25');
    assert.equal(second.log.sent('server/discover'), 0, 'not probed again: no wait for its silence');
    assert.equal(second.log.sent('initialize'), 1);
    assert.equal(textOf(await second.connection.callTool('echo', { text: 'again' }, OPTS)), 'again');
    // Another definition (here: other arguments) is asked afresh.
    const other = await connect(node(STRICT_LEGACY, ['--other'], { STRICT: 'silent' }));
    assert.equal(other.log.sent('server/discover'), 1);
  });

  it('starts an old stdio server that exits on the probe once more, with initialize, and remembers it', async () => {
    const launch = node(STRICT_LEGACY, [], { STRICT: 'exit' });
    const before = spawned.length;
    const { connection, log } = await connect(launch);
    assert.equal(connection.protocolVersion, '2025-11-25');
    assert.equal(spawned.length - before, 2, 'one start for the probe, one with initialize');
    assert.match(log.dump(), /exited during the server\/discover probe .*: starting it once more with initialize/);
    assert.equal(textOf(await connection.callTool('echo', { text: 'hi' }, OPTS)), 'hi');
    await connection.close();
    const again = await connect(launch);
    assert.equal(spawned.length - before, 3, 'the next start is a single one');
    assert.equal(again.log.sent('server/discover'), 0);
  });

  it('asks a remembered old stdio server again once a start with initialize failed: its package may speak 2026-07-28 now', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-upgradable-'));
    const generation = path.join(dir, 'generation');
    try {
      fs.writeFileSync(generation, 'legacy');
      const launch = node(UPGRADABLE, [generation], { STRICT: 'exit' });
      const old = await connect(launch);
      assert.equal(old.connection.protocolVersion, '2025-11-25');
      await old.connection.close();
      fs.writeFileSync(generation, 'modern');
      // Remembered as old, it is started with initialize, which the upgraded server refuses.
      await assert.rejects(connect(launch));
      const upgraded = await connect(launch);
      assert.equal(upgraded.connection.protocolVersion, '2026-07-28');
      assert.equal(upgraded.log.sent('server/discover'), 1);
      assert.equal(upgraded.log.sent('initialize'), 0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('honours a 2026-07-28 server\'s cache hint: no tools/list before it runs out, unless list_changed says so', async () => {
    const { connection, log } = await connect(node(MODERN, [], { TOOLS_TTL_MS: '1500' }));
    const loader = new CatalogLoader(connection, { log, requestTimeoutMs: () => 10_000, onDidChange: () => undefined, clock: systemClock });
    connection.onListChanged((kind) => loader.refresh(kind));
    try {
      await loader.load();
      assert.equal(log.sent('tools/list'), 1);
      await delay(700);
      assert.equal(log.sent('tools/list'), 1, 'still fresh: not listed again');
      // The server announces a new tool on its subscriptions/listen stream: listed at once, hint or not.
      assert.equal(log.sent('subscriptions/listen'), 1);
      await connection.callTool('add-tool', {}, OPTS);
      await waitFor('added-1 in the catalog', () => loader.current.tools.some((t) => t.name === 'added-1'), 5000);
      const relisted = Date.now();
      assert.equal(log.sent('tools/list'), 2);
      // That listing's own hint runs out: listed once more, not before.
      await waitFor('a listing when the hint ran out', () => log.sent('tools/list') === 3, 5000);
      assert.ok(Date.now() - relisted >= 1400, `listed again after ${Date.now() - relisted} ms, before the 1.5 s hint ran out`);
    } finally {
      loader.dispose();
    }
  });

  it('watches a resource of a 2026-07-28 server on a subscriptions/listen stream, and stops hearing it after unwatch', async () => {
    const { connection, log } = await connect(node(MODERN));
    const watch = connection.resourceWatch;
    assert.ok(watch, 'the server declares resources.subscribe');
    const heard: string[] = [];
    watch.onUpdated((uri) => heard.push(uri));
    const received = () => log.traces.filter((t) => t.direction === 'receive' && (t.message as { method?: string }).method === 'notifications/resources/updated')
      .map((t) => (t.message as { params: { uri: string } }).params.uri);
    const listensBefore = log.sent('subscriptions/listen');
    await watch.watch('note://counter', OPTS);
    assert.equal(log.sent('resources/subscribe'), 0, 'no resources/subscribe on the new generation');
    assert.equal(log.sent('subscriptions/listen'), listensBefore + 1);
    await connection.callTool('bump', {}, OPTS);
    await waitFor('the update of the watched note', () => heard.length === 1, 5000);
    assert.deepEqual(heard, ['note://counter']);
    assert.deepEqual(received(), ['note://counter'], 'the server sends only what the stream names');

    await watch.unwatch('note://counter', OPTS);
    await connection.callTool('bump', {}, OPTS);
    await connection.readResource('note://counter', OPTS);
    await delay(300);
    assert.deepEqual(received(), ['note://counter'], 'the stream is closed: nothing more arrives');
    assert.deepEqual(heard, ['note://counter']);
  });

  for (const transport of ['stdio', 'http'] as const) {
    it(`asks the person a multi-round-trip input request (${transport}) through the elicitation path, and answers it`, async () => {
      const launch = transport === 'stdio' ? node(MODERN) : { type: 'http' as const, url: `http://127.0.0.1:${(await helpers.fixture('modern.mjs', {}, ['http'])).port}/mcp` };
      const { connection } = await connect(launch);
      assert.equal(connection.protocolVersion, '2026-07-28');
      const result = await connection.callTool('confirm', { action: 'deploy' }, OPTS);
      assert.equal(textOf(result), 'deploy confirmed: the tests pass');
      // Exactly what a 2025-11-25 server's elicitation/create brings to the elicitation card.
      assert.deepEqual(asked, [{
        serverId: 'test', mode: 'form', message: 'Really deploy?',
        requestedSchema: { type: 'object', properties: { reason: { type: 'string', title: 'Reason' } }, required: ['reason'] },
      }]);
      answer = { action: 'decline' };
      const declined = await connection.callTool('confirm', { action: 'delete' }, OPTS);
      assert.equal(textOf(declined), 'delete decline');
      assert.equal(declined.isError, true);
    });
  }
});
