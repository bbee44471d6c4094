// NodeServerConnector against real MCP servers: server-everything over stdio, SSE and Streamable HTTP,
// server-filesystem, server-memory, and small fixture servers (paging, list_changed, WebSocket,
// expiring HTTP sessions). Everything listens on 127.0.0.1; no process survives the suite.
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LaunchDefinition } from '../../src/core/config/types';
import type { CloseInfo, ConnectRequest, ServerConnection } from '../../src/core/lifecycle/ports';
import type { CatalogItemOf, CatalogKind, Root } from '../../src/core/lifecycle/types';
import type { SdkServerConnection } from '../../src/node/connection';
import { ConnectError } from '../../src/core/lifecycle/errors';
import { NodeServerConnector } from '../../src/node/connector';
import type { ProcessTransport } from '../../src/node/process/processTransport';
import { EVERYTHING, FILESYSTEM, FIXTURE_SERVERS, freePort, HelperServers, isAlive, MEMORY, type HelperServer } from './helperServers';
import { effectiveServer, endSuite, node, OPTS, RecordingLog, recordingLauncher, stdio, textOf, VERSION } from './connectorSupport';
import { REPO_ROOT, TempDirs, waitFor } from './support';

const GRACE_MS = 200;

/** Every page of one catalog kind, looping on nextCursor like the core does. */
async function listAll<K extends CatalogKind>(connection: ServerConnection, kind: K): Promise<{ items: CatalogItemOf[K][]; pages: number }> {
  const items: CatalogItemOf[K][] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await connection.listPage(kind, cursor, OPTS);
    items.push(...page.items);
    cursor = page.nextCursor;
    pages++;
    assert.ok(pages < 50, 'paging does not end');
  } while (cursor !== undefined);
  return { items, pages };
}

describe('NodeServerConnector against real MCP servers', function () {
  this.timeout(30_000);
  const temp = new TempDirs();
  const helpers = new HelperServers();
  /** Every stdio process the connector spawned, to check that none survives. */
  const spawned: ProcessTransport[] = [];
  const open: ServerConnection[] = [];
  const connector = new NodeServerConnector({ clientVersion: VERSION, launchStdio: recordingLauncher(spawned) });

  interface Connected {
    connection: SdkServerConnection;
    log: RecordingLog;
    closes: CloseInfo[];
    changes: CatalogKind[];
    rootsAsked: () => number;
  }

  /** Connects and records events; the connection is closed after the test. */
  async function connect(
    launch: Partial<LaunchDefinition> & Pick<LaunchDefinition, 'type'>,
    overrides: Partial<ConnectRequest> & { rootList?: () => Root[] } = {},
  ): Promise<Connected> {
    const log = (overrides.log as RecordingLog | undefined) ?? new RecordingLog();
    let asked = 0;
    const rootList = overrides.rootList ?? (() => [{ uri: pathToFileURL(REPO_ROOT).href, name: 'repo' }]);
    const connection = (await connector.connect({
      server: effectiveServer(launch),
      log,
      roots: () => { asked++; return rootList(); },
      startupTimeoutMs: 15_000,
      shutdownGraceMs: GRACE_MS,
      trace: false,
      signal: new AbortController().signal,
      ...overrides,
    })) as SdkServerConnection;
    open.push(connection);
    const closes: CloseInfo[] = [];
    const changes: CatalogKind[] = [];
    connection.onClose((info) => closes.push(info));
    connection.onListChanged((kind) => changes.push(kind));
    return { connection, log, closes, changes, rootsAsked: () => asked };
  }

  /** The pid of the stdio process spawned after `before` processes had been. */
  async function newProcess(before: number): Promise<number> {
    await waitFor('a new process', () => spawned.length > before && spawned[before].pid !== undefined);
    return spawned[before].pid!;
  }

  /** Connect must fail; returns the error. */
  async function connectFails(launch: Partial<LaunchDefinition> & Pick<LaunchDefinition, 'type'>, overrides: Partial<ConnectRequest> = {}): Promise<ConnectError> {
    try {
      const { connection } = await connect(launch, overrides);
      assert.fail(`connected to ${connection.serverInfo.name}, expected a failure`);
    } catch (error) {
      if (error instanceof assert.AssertionError) throw error;
      assert.ok(error instanceof ConnectError, `expected a ConnectError, got ${String(error)}`);
      return error;
    }
  }

  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
    temp.cleanup();
  });

  after(() => endSuite(connector, helpers, spawned));

  describe('stdio', () => {
    it('initializes server-everything, lists every kind, calls echo and shows our roots', async () => {
      const { connection, log, rootsAsked } = await connect(node(EVERYTHING, ['stdio']));
      assert.equal(connection.serverInfo.name, 'mcp-servers/everything');
      assert.equal(connection.serverInfo.title, 'Everything Reference Server');
      assert.match(connection.instructions ?? '', /\S/);
      assert.deepEqual(connection.supports, { tools: true, resources: true, resourceTemplates: true, prompts: true, logging: true });
      assert.equal(connection.transportKind, 'stdio');

      const echo = await connection.callTool('echo', { message: 'hello' }, OPTS);
      assert.equal(textOf(echo), 'Echo: hello');

      const resources = await listAll(connection, 'resources');
      assert.ok(resources.items.some((r) => r.name === 'instructions.md'), JSON.stringify(resources.items.map((r) => r.name)));
      assert.ok((await listAll(connection, 'resourceTemplates')).items.length >= 2);
      assert.ok((await listAll(connection, 'prompts')).items.some((p) => p.name === 'simple-prompt'));
      const read = await connection.readResource(resources.items[0].uri, OPTS);
      assert.equal(read.contents[0].uri, resources.items[0].uri);
      const prompt = await connection.getPrompt('args-prompt', { city: 'Paris' }, OPTS);
      assert.match(JSON.stringify(prompt.messages), /Paris/);
      // completion/complete: a prompt's argument, narrowed by an earlier one, and a template's variable.
      const departments = await connection.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'S' } }, OPTS);
      assert.deepEqual(departments.values, ['Sales', 'Support']);
      const people = await connection.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'name', value: '' }, context: { arguments: { department: 'Sales' } } }, OPTS);
      assert.deepEqual(people.values, ['David', 'Eve', 'Frank']);
      const ids = await connection.complete({ ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' }, argument: { name: 'resourceId', value: '7' } }, OPTS);
      assert.deepEqual(ids.values, ['7']);

      // get-roots-list appears only because we declared the roots capability.
      await waitFor('get-roots-list in tools', () => rootsAsked() > 0, 5000);
      const tools = await listAll(connection, 'tools');
      assert.ok(tools.items.some((t) => t.name === 'get-roots-list'), 'roots tool missing');
      assert.match(textOf(await connection.callTool('get-roots-list', {}, OPTS)), /URI: file:\/\/.*\n?/);
      // The server says so in a notifications/message after it fetched the roots.
      await waitFor('Roots updated message', () => log.messages.some((m) => /Roots updated/.test(String(m.data))), 5000);
      assert.equal(log.messages[0].level, 'info');
      assert.equal(log.messages[0].logger, 'everything-server');
    });

    it('asks for roots again after notifyRootsChanged', async () => {
      let roots: Root[] = [{ uri: 'file:///first', name: 'first' }];
      const { connection, rootsAsked } = await connect(node(EVERYTHING, ['stdio']), { rootList: () => roots });
      await waitFor('first roots/list', () => rootsAsked() === 1, 5000);
      roots = [{ uri: 'file:///second', name: 'second' }];
      await connection.notifyRootsChanged();
      await waitFor('second roots/list', () => rootsAsked() === 2, 5000);
      assert.match(textOf(await connection.callTool('get-roots-list', {}, OPTS)), /file:\/\/\/second/);
    });

    it('collects every page of a paged server', async () => {
      const { connection } = await connect(node(path.join(FIXTURE_SERVERS, 'paged.mjs')));
      // The SDK Client walks the server's three pages of tools for the first request (it keeps the whole
      // list to check structured results against the tools' output schemas).
      const tools = await listAll(connection, 'tools');
      assert.equal(tools.items.length, 25);
      assert.equal(tools.pages, 1);
      assert.equal(new Set(tools.items.map((t) => t.name)).size, 25);
      assert.deepEqual([(await listAll(connection, 'resources')).items.length, (await listAll(connection, 'resourceTemplates')).items.length, (await listAll(connection, 'prompts')).items.length], [23, 12, 7]);
      await assert.rejects(connection.listPage('tools', 'bogus', OPTS), /invalid cursor/);
      // No `logging` capability: setLogLevel must not send logging/setLevel (the server would answer "method not found").
      assert.equal(connection.supports.logging, false);
      await connection.setLogLevel('debug');
    });

    it('reports list_changed for tools, resources (+templates) and prompts, and server log messages', async () => {
      const { connection, changes, log } = await connect(node(path.join(FIXTURE_SERVERS, 'listchanged.mjs')));
      await connection.callTool('add-tool', { name: 'late-tool' }, OPTS);
      await waitFor('tools list_changed', () => changes.includes('tools'));
      assert.ok((await listAll(connection, 'tools')).items.some((t) => t.name === 'late-tool'));
      await connection.callTool('add-resource', { name: 'late' }, OPTS);
      await waitFor('resources list_changed', () => changes.includes('resources') && changes.includes('resourceTemplates'));
      await connection.callTool('add-prompt', { name: 'late-prompt' }, OPTS);
      await waitFor('prompts list_changed', () => changes.includes('prompts'));
      await connection.setLogLevel('debug');
      await connection.callTool('log', { level: 'warning', text: 'disk almost full' }, OPTS);
      await waitFor('log message', () => log.messages.some((m) => m.data === 'disk almost full'));
      assert.deepEqual(log.messages.find((m) => m.data === 'disk almost full'), { level: 'warning', logger: 'fixture', data: 'disk almost full' });
    });

    it('passes progress through and resets the timeout on progress', async () => {
      const { connection } = await connect(node(path.join(FIXTURE_SERVERS, 'listchanged.mjs')));
      const progress: { progress: number; total?: number; message?: string }[] = [];
      // 1.2 s in total, but never more than 300 ms without progress: a 700 ms timeout must not fire.
      const result = await connection.callTool('slow', { ms: 1200, steps: 4 }, { timeoutMs: 700, onProgress: (p) => progress.push(p) });
      assert.equal(textOf(result), 'done after 4 steps');
      assert.deepEqual(progress.map((p) => p.progress), [1, 2, 3, 4]);
      assert.deepEqual(progress[0], { progress: 1, total: 4, message: 'step 1' });
      await assert.rejects(connection.callTool('hang', {}, { timeoutMs: 200 }), /timed out/i);
    });

    it('cancels a request with the caller\'s signal; a signal shared by many requests keeps no listener', async () => {
      const { connection, closes } = await connect(node(path.join(FIXTURE_SERVERS, 'listchanged.mjs')));
      const shared = new AbortController();
      for (let i = 0; i < 20; i++) {
        assert.equal(textOf(await connection.callTool('slow', { ms: 0, steps: 0 }, { ...OPTS, signal: shared.signal })), 'done after 0 steps');
      }
      assert.equal(getEventListeners(shared.signal, 'abort').length, 0);
      const hanging = connection.callTool('hang', {}, { timeoutMs: 20_000, signal: shared.signal });
      const started = Date.now();
      shared.abort(new Error('cancelled by the user'));
      await assert.rejects(hanging, /cancelled by the user/);
      assert.ok(Date.now() - started < GRACE_MS, `the cancelled request took ${Date.now() - started} ms to fail`);
      await assert.rejects(connection.callTool('slow', { ms: 0, steps: 0 }, { ...OPTS, signal: shared.signal }), /cancelled by the user/);
      // Cancelling a request does not end the connection.
      assert.equal(textOf(await connection.callTool('slow', { ms: 0, steps: 0 }, OPTS)), 'done after 0 steps');
      assert.deepEqual(closes, []);
    });

    it('writes a protocol trace when asked', async () => {
      const log = new RecordingLog();
      const { connection } = await connect(node(path.join(FIXTURE_SERVERS, 'listchanged.mjs')), { trace: true, log });
      await connection.callTool('add-tool', { name: 'traced' }, OPTS);
      const sent = log.traces.filter((t) => t.direction === 'send').map((t) => (t.message as { method?: string }).method);
      const received = log.traces.filter((t) => t.direction === 'receive').map((t) => (t.message as { method?: string }).method);
      // This server is of the old generation: `initialize`, after the version probe the first time this
      // connector meets the definition, without it once the connector knows (earlier tests started it).
      const probed = sent[0] === 'server/discover' ? 1 : 0;
      assert.deepEqual(sent.slice(probed, probed + 3), ['initialize', 'notifications/initialized', 'tools/call']);
      assert.ok(received.includes('notifications/tools/list_changed'), JSON.stringify(received));
    });

    it('ends in-flight requests with the transport on close() (the core fails its callers before) and reports an expected close', async () => {
      const before = spawned.length;
      const { connection, closes } = await connect(node(path.join(FIXTURE_SERVERS, 'listchanged.mjs')));
      const pid = await newProcess(before);
      const hanging = connection.callTool('hang', {}, { timeoutMs: 20_000 });
      const started = Date.now();
      const closing = connection.close();
      await assert.rejects(hanging, /connection closed/i);
      // With the process (its stdin closed), not after the request's own 20 s timeout.
      assert.ok(Date.now() - started < 5000, `in-flight request took ${Date.now() - started} ms to fail`);
      await closing;
      await connection.close(); // idempotent
      connection.dispose();
      assert.equal(closes.length, 1);
      assert.equal(closes[0].expected, true);
      assert.equal(isAlive(pid), false);
      await assert.rejects(connection.callTool('echo', {}, OPTS), /connection closed/i);
    });

    it('kills at once when close() is called again while a staged stop waits', async () => {
      const before = spawned.length;
      // Ignores stdin's end and SIGTERM: a staged stop would take three grace periods of 5 s.
      const stubborn = node(path.join(FIXTURE_SERVERS, 'listchanged.mjs'), [], { IGNORE_STOP: '1' });
      const { connection, closes } = await connect(stubborn, { shutdownGraceMs: 5000 });
      const pid = await newProcess(before);
      const started = Date.now();
      const first = connection.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(isAlive(pid), true);
      const second = connection.close();
      await Promise.all([first, second]);
      assert.ok(Date.now() - started < 2000, `second close took ${Date.now() - started} ms`);
      assert.equal(isAlive(pid), false);
      assert.equal(closes.length, 1);
      assert.equal(closes[0].expected, true);
      assert.equal(closes[0].signal, 'SIGKILL');
    });

    it('reports a crash once, with exit code and stderr tail, and fails in-flight requests', async () => {
      const { connection, closes } = await connect(node(path.join(FIXTURE_SERVERS, 'listchanged.mjs')));
      const hanging = connection.callTool('hang', {}, { timeoutMs: 20_000 });
      // At this level the SDK ends waiting requests when the transport closes; the cause travels in
      // onClose, and the live connection above names it to callers (see lifecycle.liveConnection tests).
      await assert.rejects(connection.callTool('crash', { code: 3 }, OPTS), /connection closed/i);
      await assert.rejects(hanging, /connection closed/i);
      await waitFor('onClose', () => closes.length === 1);
      assert.equal(closes[0].expected, false);
      assert.equal(closes[0].exitCode, 3);
      assert.equal(closes[0].reason, 'process exited with code 3');
      assert.ok(closes[0].stderrTail.includes('about to crash with 3'), JSON.stringify(closes[0].stderrTail));
      await connection.close();
      assert.equal(closes.length, 1);
    });

    it('fails startup with the exit code and the stderr tail when the server exits before initialize', async () => {
      const error = await connectFails(node(path.join(FIXTURE_SERVERS, 'listchanged.mjs'), [], { EXIT_BEFORE_INIT: '4', STARTUP_STDERR: 'loading config' }));
      assert.equal(error.message, 'process exited with code 4 during startup');
      assert.deepEqual(error.stderrTail, ['loading config', 'fatal: refusing to start']);
    });

    it('fails with "command not found" and the PATH searched', async () => {
      const error = await connectFails(stdio('switchboard-no-such-command', []));
      assert.match(error.message, /^command not found: switchboard-no-such-command \(PATH searched: /);
    });

    it('kills the process when the start is aborted, and says why', async () => {
      const controller = new AbortController();
      const before = spawned.length;
      // A process that never answers initialize.
      const pending = connectFails(stdio(process.execPath, ['-e', 'setInterval(() => {}, 1000)']), { signal: controller.signal });
      const pid = await newProcess(before);
      const started = Date.now();
      controller.abort(new Error('startup timed out after 30 s'));
      const error = await pending;
      assert.equal(error.message, 'startup timed out after 30 s');
      // Answered at once (the core waits only one grace period for the stderr tail)…
      assert.ok(Date.now() - started < GRACE_MS, `abort took ${Date.now() - started} ms`);
      // …while the staged stop goes on: stdin closed, then SIGTERM after one grace period.
      await waitFor('process gone', () => !isAlive(pid), 3 * GRACE_MS + 1000);
    });

    it('dispose() kills at once what a cancelled start is still stopping', async () => {
      const controller = new AbortController();
      const before = spawned.length;
      // Ignores SIGTERM and stdin: only SIGKILL ends it.
      const stubborn = stdio(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"]);
      const pending = connectFails(stubborn, { signal: controller.signal, shutdownGraceMs: 5000 });
      const pid = await newProcess(before);
      await new Promise((resolve) => setTimeout(resolve, 200)); // let node install its SIGTERM handler
      controller.abort(new Error('cancelled'));
      await pending;
      assert.equal(isAlive(pid), true);
      const started = Date.now();
      await connector.dispose();
      assert.equal(isAlive(pid), false);
      assert.ok(Date.now() - started < 1000, `dispose took ${Date.now() - started} ms`);
    });

    it('names the startup timeout when the signal is a timeout', async () => {
      const error = await connectFails(stdio(process.execPath, ['-e', 'setInterval(() => {}, 1000)']), { signal: AbortSignal.timeout(300), startupTimeoutMs: 300 });
      assert.equal(error.message, 'did not answer initialize within 300 ms');
    });

    it('lists and reads files with server-filesystem', async () => {
      const dir = temp.make();
      fs.writeFileSync(path.join(dir, 'note.txt'), 'switchboard was here\n');
      fs.mkdirSync(path.join(dir, 'sub'));
      const { connection } = await connect(node(FILESYSTEM, [dir]), { rootList: () => [{ uri: pathToFileURL(dir).href, name: 'tmp' }] });
      assert.equal(connection.supports.tools, true);
      assert.equal(connection.supports.resources, false);
      const listing = textOf(await connection.callTool('list_directory', { path: dir }, OPTS));
      assert.match(listing, /\[FILE\] note\.txt/);
      assert.match(listing, /\[DIR\] sub/);
      const read = await connection.callTool('read_text_file', { path: path.join(dir, 'note.txt') }, OPTS);
      assert.equal(textOf(read), 'switchboard was here\n');
      const outside = await connection.callTool('read_text_file', { path: '/etc/hostname' }, OPTS);
      assert.equal(outside.isError, true);
    });

    it('stores and reads a knowledge graph with server-memory', async () => {
      const dir = temp.make();
      const { connection } = await connect(node(MEMORY, [], { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') }));
      await connection.callTool('create_entities', { entities: [{ name: 'Switchboard', entityType: 'project', observations: ['hosts MCP servers'] }] }, OPTS);
      const graph = await connection.callTool('read_graph', {}, OPTS);
      assert.match(textOf(graph), /"name": ?"Switchboard"/);
      assert.match(textOf(graph), /hosts MCP servers/);
    });
  });

  describe('Streamable HTTP, SSE and WebSocket', () => {
    let streamable: HelperServer;
    let sse: HelperServer;
    before(async () => {
      [streamable, sse] = await Promise.all([helpers.everything('streamableHttp'), helpers.everything('sse')]);
    });

    it('talks to server-everything over Streamable HTTP', async () => {
      const { connection, rootsAsked } = await connect({ type: 'http', url: `http://127.0.0.1:${streamable.port}/mcp` });
      assert.equal(connection.transportKind, 'http');
      assert.equal(connection.serverInfo.name, 'mcp-servers/everything');
      assert.equal(textOf(await connection.callTool('echo', { message: 'over http' }, OPTS)), 'Echo: over http');
      assert.ok((await listAll(connection, 'resources')).items.length >= 7);
      await waitFor('roots asked', () => rootsAsked() > 0, 5000);
      assert.match(textOf(await connection.callTool('get-roots-list', {}, OPTS)), /URI: file:\/\//);
    });

    it('passes every progress notification through over Streamable HTTP and SSE, the last one too', async () => {
      // The server sends the last progress notification right before the result, on the same stream.
      for (const [type, url] of [['http', `http://127.0.0.1:${streamable.port}/mcp`], ['sse', `http://127.0.0.1:${sse.port}/sse`]] as const) {
        const { connection } = await connect({ type, url });
        for (let round = 0; round < 5; round++) {
          const progress: number[] = [];
          const result = await connection.callTool('trigger-long-running-operation', { duration: 0.05, steps: 5 }, { timeoutMs: 10_000, onProgress: (p) => progress.push(p.progress) });
          assert.match(textOf(result), /Long running operation completed/);
          assert.deepEqual(progress, [1, 2, 3, 4, 5], `${type}, round ${round}`);
        }
      }
    });

    it('talks to server-everything over SSE', async () => {
      const { connection } = await connect({ type: 'sse', url: `http://127.0.0.1:${sse.port}/sse` });
      assert.equal(connection.transportKind, 'sse');
      assert.equal(textOf(await connection.callTool('echo', { message: 'over sse' }, OPTS)), 'Echo: over sse');
      assert.ok((await listAll(connection, 'prompts')).items.length >= 4);
    });

    it('falls back from Streamable HTTP to SSE when the endpoint answers 404 to POST', async () => {
      const { connection, log } = await connect({ type: 'http', url: `http://127.0.0.1:${sse.port}/sse` });
      assert.equal(connection.transportKind, 'sse');
      assert.ok(log.has('info', /answered 404 to a Streamable HTTP initialize: falling back to the HTTP\+SSE transport/), log.dump());
      assert.equal(textOf(await connection.callTool('echo', { message: 'fell back' }, OPTS)), 'Echo: fell back');
    });

    it('reports the end of an SSE stream as an unexpected close', async () => {
      const own = await helpers.everything('sse');
      const { connection, closes } = await connect({ type: 'sse', url: `http://127.0.0.1:${own.port}/sse` });
      const progress: number[] = [];
      const running = connection.callTool('trigger-long-running-operation', { duration: 20, steps: 80 }, { timeoutMs: 30_000, onProgress: (p) => progress.push(p.progress) });
      const failed = assert.rejects(running, /connection closed/i);
      await waitFor('first progress', () => progress.length > 0, 5000);
      const stoppedAt = Date.now();
      await helpers.stop(own.child);
      await failed;
      assert.ok(Date.now() - stoppedAt < 1000, `the in-flight call took ${Date.now() - stoppedAt} ms to fail`);
      await waitFor('onClose', () => closes.length === 1, 5000);
      assert.equal(closes[0].expected, false);
      // How the stream ends depends on timing: a clean end, or a socket cut mid-stream.
      assert.match(closes[0].reason, /^the SSE stream was lost( \(connection closed by the server\))?$/);
      await assert.rejects(connection.callTool('echo', { message: 'x' }, OPTS), /connection closed/);
    });

    it('talks to a WebSocket server (subprotocol mcp) and reports a server-side close', async () => {
      const ws = await helpers.fixture('ws-server.mjs');
      const { connection, closes } = await connect({ type: 'ws', url: `ws://127.0.0.1:${ws.port}/mcp` });
      assert.equal(connection.serverInfo.name, 'ws-fixture');
      assert.equal(textOf(await connection.callTool('echo', { message: 'over ws' }, OPTS)), 'Echo: over ws');
      await connection.callTool('drop', {}, OPTS);
      await waitFor('onClose', () => closes.length === 1, 5000);
      assert.deepEqual({ expected: closes[0].expected, reason: closes[0].reason }, { expected: false, reason: 'connection closed by the server' });
    });

    it('says "connection refused" for every remote kind when nothing listens', async () => {
      const port = await freePort();
      for (const [type, url] of [['http', `http://127.0.0.1:${port}/mcp?token=secret`], ['sse', `http://127.0.0.1:${port}/sse`], ['ws', `ws://127.0.0.1:${port}/mcp`]] as const) {
        const error = await connectFails({ type, url });
        assert.equal(error.message, `could not connect to ${url.replace('?token=secret', '')}: connection refused`, type);
      }
    });

    it('can be aborted while a remote server accepts but never answers', async () => {
      const silent = net.createServer((socket) => { held.push(socket); });
      const held: net.Socket[] = [];
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as net.AddressInfo;
      try {
        for (const [type, url] of [['http', `http://127.0.0.1:${port}/mcp`], ['sse', `http://127.0.0.1:${port}/sse`], ['ws', `ws://127.0.0.1:${port}/mcp`]] as const) {
          const controller = new AbortController();
          const pending = connectFails({ type, url }, { signal: controller.signal });
          setTimeout(() => controller.abort(new Error('startup timed out after 0.3 s')), 300);
          const started = Date.now();
          assert.equal((await pending).message, 'startup timed out after 0.3 s', type);
          assert.ok(Date.now() - started < 1000, `${type}: abort took ${Date.now() - started} ms`);
        }
      } finally {
        for (const socket of held) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    });

    it('rejects a url whose scheme does not fit the type', async () => {
      assert.equal((await connectFails({ type: 'ws', url: 'http://127.0.0.1:1/mcp' })).message, 'a "ws" server needs a ws:// or wss:// url, not http://127.0.0.1:1/mcp');
      assert.equal((await connectFails({ type: 'http', url: 'not a url' })).message, 'invalid url: not a url');
    });

    it('says when a host name does not resolve', async () => {
      const error = await connectFails({ type: 'http', url: 'http://switchboard-test.invalid/mcp' });
      assert.equal(error.message, 'could not connect to http://switchboard-test.invalid/mcp: host not found (DNS lookup failed)');
    });
  });

  describe('Streamable HTTP sessions and headers', () => {
    const stats = async (server: HelperServer) => (await (await fetch(`http://127.0.0.1:${server.port}/stats`)).json()) as { initializes: number; sessions: number; lastHeaders: Record<string, string> };
    const control = (server: HelperServer, what: string) => fetch(`http://127.0.0.1:${server.port}/control/${what}`, { method: 'POST' });

    it('sends the configured headers, and explains a 401', async () => {
      const server = await helpers.fixture('http-expiring-session.mjs', { REQUIRE_HEADER: 'x-api-key: s3cret' });
      const url = `http://127.0.0.1:${server.port}/mcp`;
      const { connection } = await connect({ type: 'http', url, headers: { 'x-api-key': 's3cret' } });
      assert.equal(textOf(await connection.callTool('echo', { message: 'authorized' }, OPTS)), 'Echo: authorized');
      assert.equal((await stats(server)).lastHeaders['x-api-key'], 's3cret');
      const error = await connectFails({ type: 'http', url });
      assert.equal(error.message, `${url} answered 401 Unauthorized (this server needs authentication)`);
    });

    it('re-initializes an expired session (404) and retries the request once', async () => {
      const server = await helpers.fixture('http-expiring-session.mjs');
      const { connection, log, changes, closes } = await connect({ type: 'http', url: `http://127.0.0.1:${server.port}/mcp` });
      await connection.setLogLevel('debug');
      assert.equal(textOf(await connection.callTool('echo', { message: 'one' }, OPTS)), 'Echo: one');
      await control(server, 'expire-all');
      assert.equal(textOf(await connection.callTool('echo', { message: 'two' }, OPTS)), 'Echo: two');
      assert.equal((await stats(server)).initializes, 2);
      assert.ok(log.has('warn', /session expired .*re-initializing \(1 of 3/), log.dump());
      assert.ok(log.has('info', /re-initialized in \d+ ms/), log.dump());
      assert.ok(changes.includes('tools'), 'a re-initialized session lists again');
      assert.equal(closes.length, 0);
      // Concurrent requests on an expired session share one re-initialize.
      await control(server, 'expire-all');
      const results = await Promise.all(['a', 'b', 'c'].map((m) => connection.callTool('echo', { message: m }, OPTS)));
      assert.deepEqual(results.map(textOf), ['Echo: a', 'Echo: b', 'Echo: c']);
      assert.equal((await stats(server)).initializes, 3);
    });

    it('gives up after 3 re-initializations in a minute and closes the connection', async () => {
      const server = await helpers.fixture('http-expiring-session.mjs');
      const { connection, closes, log } = await connect({ type: 'http', url: `http://127.0.0.1:${server.port}/mcp` });
      await control(server, 'expire-on-call');
      for (let i = 0; i < 3; i++) {
        await assert.rejects(connection.callTool('echo', { message: String(i) }, OPTS), /expired the new session at once/);
      }
      await assert.rejects(connection.callTool('echo', { message: 'last' }, OPTS), /keeps expiring the session \(re-initialized 3 times in the last 60 s\); giving up/);
      await waitFor('onClose', () => closes.length === 1, 5000);
      assert.equal(closes[0].expected, false);
      assert.match(closes[0].reason, /keeps expiring the session/);
      assert.equal((await stats(server)).initializes, 4);
      assert.ok(log.has('error', /giving up/));
    });

    it('closes the connection when the HTTP server stops accepting connections', async () => {
      const server = await helpers.fixture('http-expiring-session.mjs');
      const url = `http://127.0.0.1:${server.port}/mcp`;
      const { connection, closes } = await connect({ type: 'http', url });
      await helpers.stop(server.child);
      await assert.rejects(connection.callTool('echo', { message: 'anyone?' }, OPTS), { message: `could not connect to ${url}: connection refused` });
      await waitFor('onClose', () => closes.length === 1, 5000);
      assert.equal(closes[0].expected, false);
      assert.equal(closes[0].reason, `could not connect to ${url}: connection refused`);
    });
  });
});
