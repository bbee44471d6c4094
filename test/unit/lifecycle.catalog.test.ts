import * as assert from 'node:assert/strict';
import { CatalogLoader, listAll, sortCatalogItems } from '../../src/core/lifecycle/catalog';
import { listingWarnings, serverWarnings } from '../../src/core/lifecycle/listingWarnings';
import type { CatalogKind, ToolInfo } from '../../src/core/lifecycle/types';
import { deferred, FakeClock, FakeConnection, flush, RecordingLog } from './helpers/lifecycle';

const tool = (name: string, description = ''): ToolInfo => ({ name, description, inputSchema: { type: 'object' } });
const names = (items: { name: string }[]): string[] => items.map((item) => item.name);

function setup(connection = new FakeConnection()) {
  const log = new RecordingLog();
  const changes: CatalogKind[] = [];
  const loader = new CatalogLoader(connection, { log, requestTimeoutMs: () => 120_000, onDidChange: (kind) => changes.push(kind) });
  connection.onListChanged((kind) => loader.refresh(kind));
  return { connection, log, changes, loader };
}

describe('catalog', () => {
  describe('listAll', () => {
    it('follows nextCursor through 3 pages and returns one sorted list', async () => {
      const connection = new FakeConnection();
      connection.setPages('tools', [[tool('delta'), tool('alpha')], [tool('charlie')], [tool('bravo'), tool('Echo')]]);
      const { items, warnings } = await listAll(connection, 'tools', { timeoutMs: 1000 });
      assert.deepEqual(names(items), ['Echo', 'alpha', 'bravo', 'charlie', 'delta']);
      assert.deepEqual(connection.listCalls.map((call) => call.cursor), [undefined, 'p1', 'p2']);
      assert.deepEqual(warnings, []);
    });

    it('stops when the server repeats a cursor, keeping what it got, with a warning', async () => {
      const connection = new FakeConnection();
      connection.setLister('tools', (cursor) => ({ items: [tool(`t${cursor ?? 0}`)], nextCursor: cursor === undefined ? 'a' : cursor === 'a' ? 'b' : 'a' }));
      const { items, warnings } = await listAll(connection, 'tools', { timeoutMs: 1000 });
      assert.deepEqual(connection.listCalls.map((call) => call.cursor), [undefined, 'a', 'b']);
      assert.deepEqual(names(items), ['t0', 'ta', 'tb']);
      assert.deepEqual(warnings, ['listing tools stopped: the server repeated the cursor "a"']);
    });

    it('stops after 100 pages of ever-new cursors, with a warning', async () => {
      const connection = new FakeConnection();
      let n = 0;
      connection.setLister('prompts', () => ({ items: [{ name: `p${String(n).padStart(3, '0')}` }], nextCursor: `c${++n}` }));
      const { items, warnings } = await listAll(connection, 'prompts', { timeoutMs: 1000 });
      assert.equal(connection.listCalls.length, 100);
      assert.equal(items.length, 100);
      assert.deepEqual(warnings, ['listing prompts stopped after 100 pages: the server keeps returning a next cursor']);
    });

    it('passes the timeout and signal to every page', async () => {
      const connection = new FakeConnection();
      const seen: unknown[] = [];
      connection.listPage = async (_kind, _cursor, options) => { seen.push(options); return { items: [] }; };
      const abort = new AbortController();
      await listAll(connection, 'resources', { timeoutMs: 42, signal: abort.signal });
      assert.deepEqual(seen, [{ timeoutMs: 42, signal: abort.signal }]);
    });

    it('sorts resources by uri and templates by uriTemplate, keeping the first of duplicates', () => {
      const resources = sortCatalogItems('resources', [
        { uri: 'file:///b', name: 'a' }, { uri: 'file:///a', name: 'z' }, { uri: 'file:///b', name: 'dup' },
      ]);
      assert.deepEqual(resources.items.map((r) => `${r.uri} ${r.name}`), ['file:///a z', 'file:///b a']);
      assert.deepEqual(resources.duplicates, ['file:///b']);
      const templates = sortCatalogItems('resourceTemplates', [{ uriTemplate: 'x://{b}', name: 'a' }, { uriTemplate: 'x://{a}', name: 'b' }]);
      assert.deepEqual(templates.items.map((t) => t.uriTemplate), ['x://{a}', 'x://{b}']);
    });

    it('warns about duplicate names across pages', async () => {
      const connection = new FakeConnection();
      connection.setPages('tools', [[tool('same', 'first')], [tool('same', 'second')]]);
      const { items, warnings } = await listAll(connection, 'tools', { timeoutMs: 1000 });
      assert.deepEqual(items.map((t) => t.description), ['first']);
      assert.deepEqual(warnings, ['the server listed tools more than once, kept the first of each: same']);
    });
  });

  describe('CatalogLoader', () => {
    it('loads every supported kind and keeps instructions and serverInfo', async () => {
      const connection = new FakeConnection();
      connection.supports = { tools: true, resources: false, resourceTemplates: false, prompts: true, logging: false };
      connection.setPages('tools', [[tool('b')], [tool('a')]]);
      connection.setPages('prompts', [[{ name: 'greet' }]]);
      const { loader, changes } = setup(connection);
      await loader.load();
      assert.deepEqual(names(loader.current.tools), ['a', 'b']);
      assert.deepEqual(names(loader.current.prompts), ['greet']);
      assert.equal(loader.current.instructions, 'use the fake tools');
      assert.deepEqual(loader.current.serverInfo, { name: 'fake', version: '1.0.0' });
      assert.deepEqual(connection.listCalls.map((call) => call.kind).sort(), ['prompts', 'tools', 'tools']);
      assert.deepEqual(changes.sort(), ['prompts', 'tools']);
    });

    it('announces an initially empty kind once, so listeners know it loaded', async () => {
      const { loader, changes } = setup();
      await loader.load();
      assert.deepEqual(changes.sort(), ['prompts', 'resourceTemplates', 'resources', 'tools']);
    });

    it('refreshes only the kind a list_changed names', async () => {
      const { connection, loader, changes } = setup();
      connection.setPages('tools', [[tool('a')]]);
      await loader.load();
      changes.length = 0;
      connection.listCalls.length = 0;
      connection.setPages('tools', [[tool('a'), tool('b')]]);
      connection.fireListChanged('tools');
      await loader.idle();
      assert.deepEqual(connection.listCalls.map((call) => call.kind), ['tools']);
      assert.deepEqual(changes, ['tools']);
      assert.deepEqual(names(loader.current.tools), ['a', 'b']);
    });

    it('coalesces a burst of list_changed into one listing', async () => {
      const { connection, loader } = setup();
      await loader.load();
      connection.listCalls.length = 0;
      for (let i = 0; i < 5; i++) connection.fireListChanged('prompts');
      await loader.idle();
      assert.equal(connection.listCalls.length, 1);
    });

    it('lists once more when list_changed arrives while a listing runs', async () => {
      const { connection, loader } = setup();
      await loader.load();
      connection.listCalls.length = 0;
      const gate = deferred<void>();
      connection.setLister('tools', async () => { await gate.promise; return { items: [tool('x')] }; });
      connection.fireListChanged('tools');
      await flush();
      for (let i = 0; i < 3; i++) connection.fireListChanged('tools');
      gate.resolve();
      await loader.idle();
      assert.equal(connection.listCalls.length, 2);
    });

    it('in a storm of list_changed, waits between listings instead of listing back to back', async () => {
      const clock = new FakeClock();
      const connection = new FakeConnection();
      const loader = new CatalogLoader(connection, { log: new RecordingLog(), requestTimeoutMs: () => 1000, onDidChange: () => undefined, clock, minRefreshIntervalMs: 250 });
      connection.onListChanged((kind) => loader.refresh(kind));
      await loader.load();
      connection.listCalls.length = 0;
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 100; i++) connection.fireListChanged('tools');
        await flush();
      }
      assert.equal(connection.listCalls.length, 1, 'one listing at once');
      await clock.tick(100);
      assert.equal(connection.listCalls.length, 1, 'not again before the interval');
      await clock.tick(150);
      assert.equal(connection.listCalls.length, 2, 'once more after it, for everything that came meanwhile');
      await clock.tick(1000);
      await loader.idle();
      assert.equal(connection.listCalls.length, 2, 'nothing more without a new notification');
      loader.dispose();
    });

    it('does not announce a refresh that changed nothing', async () => {
      const { connection, loader, changes } = setup();
      connection.setPages('tools', [[tool('a')]]);
      await loader.load();
      changes.length = 0;
      connection.fireListChanged('tools');
      await loader.idle();
      assert.deepEqual(changes, []);
    });

    it('keeps the previous list, logs and records the failed listing when a refresh fails; a good refresh clears it', async () => {
      const { connection, loader, changes, log } = setup();
      connection.setPages('tools', [[tool('a')]]);
      await loader.load();
      changes.length = 0;
      connection.setLister('tools', () => { throw new Error('internal error'); });
      connection.fireListChanged('tools');
      await loader.idle();
      assert.deepEqual(names(loader.current.tools), ['a']);
      assert.deepEqual(loader.current.failedListings, [{ kind: 'tools', error: 'internal error' }]);
      assert.deepEqual(changes, ['tools'], 'the views hear of the failure');
      assert.ok(log.lines.includes('warn: listing tools failed; keeping the previous list: internal error'));

      connection.fireListChanged('tools');
      await loader.idle();
      assert.deepEqual(changes, ['tools'], 'the same failure again is no news');

      connection.setPages('tools', [[tool('a')]]);
      connection.fireListChanged('tools');
      await loader.idle();
      assert.equal(loader.current.failedListings, undefined);
      assert.deepEqual(changes, ['tools', 'tools'], 'nor is the recovery silent, though the list is the same');
    });

    it('does not count a server without resources/templates/list (Method not found) as a failed listing', async () => {
      const { connection, loader, changes, log } = setup();
      connection.setLister('resourceTemplates', () => { throw Object.assign(new Error('MCP error -32601: Method not found'), { code: -32601 }); });
      await loader.load();
      assert.equal(loader.current.failedListings, undefined);
      assert.ok(changes.includes('resourceTemplates'), 'the first listing is still announced');
      assert.ok(log.lines.includes('warn: listing resourceTemplates failed; keeping the previous list: MCP error -32601: Method not found'));
      connection.setLister('tools', () => { throw Object.assign(new Error('MCP error -32601: Method not found'), { code: -32601 }); });
      connection.fireListChanged('tools');
      await loader.idle();
      assert.deepEqual(loader.current.failedListings, [{ kind: 'tools', error: 'MCP error -32601: Method not found' }], 'a declared tools capability without tools/list is');
    });

    it('records every kind whose first listing fails, in display order, and still announces each kind', async () => {
      const { connection, loader, changes } = setup();
      connection.setLister('prompts', () => { throw new Error('MCP error -32601: Method not found'); });
      connection.setLister('tools', () => { throw new Error('MCP error -32603: the tool index is not built'); });
      await loader.load();
      assert.deepEqual(loader.current.failedListings, [
        { kind: 'tools', error: 'MCP error -32603: the tool index is not built' },
        { kind: 'prompts', error: 'MCP error -32601: Method not found' },
      ]);
      assert.deepEqual([...changes].sort(), ['prompts', 'resourceTemplates', 'resources', 'tools']);
      assert.deepEqual(listingWarnings(loader.current), [
        'tools/list failed: MCP error -32603: the tool index is not built',
        'prompts/list failed: MCP error -32601: Method not found',
      ]);
      assert.deepEqual(serverWarnings({ state: { kind: 'ready', since: 0, startMs: 1 }, catalog: loader.current }), listingWarnings(loader.current));
      assert.deepEqual(serverWarnings({ state: { kind: 'stopped' }, catalog: loader.current }), [], 'only a ready server has warnings');
    });

    it('ignores list_changed for a kind the server did not declare', async () => {
      const connection = new FakeConnection();
      connection.supports = { ...connection.supports, resources: false };
      const { loader, log } = setup(connection);
      await loader.load();
      connection.listCalls.length = 0;
      connection.fireListChanged('resources');
      await loader.idle();
      assert.equal(connection.listCalls.length, 0);
      assert.ok(log.lines.some((line) => line.startsWith('warn: ignoring a list_changed notification for resources')));
    });

    it('drops results that arrive after it was disposed and aborts their requests', async () => {
      const connection = new FakeConnection();
      const gate = deferred<void>();
      let signal: AbortSignal | undefined;
      connection.listPage = async (_kind, _cursor, options) => { signal = options.signal; await gate.promise; return { items: [tool('late')] as never[] }; };
      connection.supports = { tools: true, resources: false, resourceTemplates: false, prompts: false, logging: false };
      const { loader, changes } = setup(connection);
      const loading = loader.load();
      await flush();
      loader.dispose();
      assert.equal(signal?.aborted, true);
      gate.resolve();
      await loading;
      assert.deepEqual(loader.current.tools, []);
      assert.deepEqual(changes, []);
    });
  });

  describe('cache hints (2026-07-28 ttlMs)', () => {
    function hinted(ttlMs: number | undefined) {
      const clock = new FakeClock();
      const connection = new FakeConnection();
      let version = 0;
      connection.setLister('tools', () => ({ items: [tool(`t${++version}`)], ...(ttlMs !== undefined ? { ttlMs } : {}) }));
      const loader = new CatalogLoader(connection, { log: new RecordingLog(), requestTimeoutMs: () => 1000, onDidChange: () => undefined, clock, minRefreshIntervalMs: 250 });
      connection.onListChanged((kind) => loader.refresh(kind));
      return { clock, connection, loader, calls: () => connection.listCalls.filter((c) => c.kind === 'tools').length };
    }

    it('lists a kind again when its hint runs out, and not a moment before', async () => {
      const { clock, loader, calls } = hinted(60_000);
      await loader.load();
      assert.equal(calls(), 1);
      await clock.tick(59_999);
      assert.equal(calls(), 1, 'still fresh: not listed again');
      await clock.tick(1);
      await loader.idle();
      assert.equal(calls(), 2, 'listed again when the hint ran out');
      assert.deepEqual(names(loader.current.tools), ['t2']);
      await clock.tick(60_000);
      await loader.idle();
      assert.equal(calls(), 3, 'each listing brings its own hint');
      loader.dispose();
      assert.deepEqual(clock.pending(), [], 'no timer survives dispose');
    });

    it('a list_changed before the hint runs out lists at once, and the new hint counts from that listing', async () => {
      const { clock, connection, loader, calls } = hinted(60_000);
      await loader.load();
      await clock.tick(30_000);
      connection.fireListChanged('tools');
      await loader.idle();
      assert.equal(calls(), 2, 'list_changed outranks the hint');
      await clock.tick(30_000);
      assert.equal(calls(), 2, 'the first hint no longer counts');
      await clock.tick(30_000);
      await loader.idle();
      assert.equal(calls(), 3);
      loader.dispose();
    });

    it('without a hint (or with 0) a kind is listed again only on list_changed', async () => {
      for (const ttlMs of [undefined, 0]) {
        const { clock, loader, calls } = hinted(ttlMs);
        await loader.load();
        assert.deepEqual(clock.pending(), []);
        await clock.tick(10 * 86_400_000);
        assert.equal(calls(), 1);
        loader.dispose();
      }
    });

    it('carries the protocol version the connection speaks into the catalog', () => {
      const modern = new CatalogLoader(Object.assign(new FakeConnection(), { protocolVersion: '2026-07-28' }), { log: new RecordingLog(), requestTimeoutMs: () => 1000, onDidChange: () => undefined });
      assert.equal(modern.current.protocolVersion, '2026-07-28');
      const unknown = new CatalogLoader(new FakeConnection(), { log: new RecordingLog(), requestTimeoutMs: () => 1000, onDidChange: () => undefined });
      assert.equal('protocolVersion' in unknown.current, false);
    });

    it('listAll keeps the shortest hint of the pages, none when a page gave none, at most a day', async () => {
      const connection = new FakeConnection();
      const pages = (...hints: (number | undefined)[]) => connection.setLister('tools', (cursor) => {
        const index = cursor === undefined ? 0 : Number(cursor);
        return { items: [tool(`p${index}`)], ...(index + 1 < hints.length ? { nextCursor: String(index + 1) } : {}), ...(hints[index] !== undefined ? { ttlMs: hints[index] } : {}) };
      });
      pages(5000, 2000);
      assert.equal((await listAll(connection, 'tools', { timeoutMs: 1000 })).ttlMs, 2000);
      pages(5000, undefined);
      assert.equal((await listAll(connection, 'tools', { timeoutMs: 1000 })).ttlMs, undefined);
      pages(7 * 86_400_000);
      assert.equal((await listAll(connection, 'tools', { timeoutMs: 1000 })).ttlMs, 86_400_000);
    });
  });
});
