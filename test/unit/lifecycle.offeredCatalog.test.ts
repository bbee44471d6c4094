import * as assert from 'node:assert/strict';
import { ServerRegistry } from '../../src/core/lifecycle/registry';
import type { CatalogChange } from '../../src/core/lifecycle/serverController';
import { OfferedCatalogCache, offeredCatalog } from '../../src/core/lifecycle/offeredCatalog';
import type { Catalog, ToolInfo } from '../../src/core/lifecycle/types';
import { FakeClock, FakeConnector, makeServer, RecordingLog } from './helpers/lifecycle';

const tool = (name: string): ToolInfo => ({ name, inputSchema: { type: 'object' } });
const listed: Catalog = {
  tools: [tool('delete'), tool('read'), tool('write')],
  resources: [{ uri: 'file:///a', name: 'a' }],
  resourceTemplates: [],
  prompts: [{ name: 'p' }],
  instructions: 'use them well',
};
const names = (catalog: Catalog | undefined) => catalog?.tools.map((t) => t.name);

describe('the offered catalog', () => {
  it('leaves out the tools the entry hides, counts them, and keeps everything else', () => {
    const offered = offeredCatalog(listed, { allowedTools: ['read', 'write'], disabledTools: ['write'], alwaysLoad: false });
    assert.deepEqual(names(offered), ['read']);
    assert.equal(offered.hiddenTools, 2);
    assert.deepEqual(offered.resources, listed.resources);
    assert.deepEqual(offered.prompts, listed.prompts);
    assert.equal(offered.instructions, 'use them well');
    assert.equal(listed.tools.length, 3, 'the listed catalog is not changed');
  });

  it('carries the entry\'s alwaysLoad, and has no hiddenTools when nothing is hidden', () => {
    const offered = offeredCatalog(listed, { alwaysLoad: true });
    assert.equal(offered.alwaysLoad, true);
    assert.equal('hiddenTools' in offered, false);
    assert.deepEqual(names(offered), ['delete', 'read', 'write']);
    assert.equal(offeredCatalog(listed, { alwaysLoad: false }).alwaysLoad, false);
  });

  it('is the same object while neither the listing nor the entry changed', () => {
    const cache = new OfferedCatalogCache();
    const entry = { disabledTools: ['delete'], alwaysLoad: false };
    const first = cache.get(listed, entry);
    assert.equal(cache.get(listed, entry), first);
    assert.notEqual(cache.get(listed, { ...entry }), first, 'a new entry is looked at again');
    assert.notEqual(cache.get({ ...listed }, entry), first, 'so is a new listing');
  });

  describe('on a server', () => {
    function setup() {
      const connector = new FakeConnector();
      connector.setup = (connection) => connection.setPages('tools', [[tool('delete'), tool('read'), tool('write')]]);
      const registry = new ServerRegistry({ connector, clock: new FakeClock(), logFor: () => new RecordingLog() });
      const changes: CatalogChange[] = [];
      registry.onDidChangeCatalog((change) => changes.push(change));
      return { connector, registry, changes };
    }

    it('every view of a ready server shows only the offered tools', async () => {
      const { registry } = setup();
      try {
        registry.reconcile([makeServer('fs', { disabledTools: ['delete'], alwaysLoad: true })]);
        await registry.settled();
        await registry.catalogsLoaded();
        const catalog = registry.get('fs')?.catalog;
        assert.deepEqual(names(catalog), ['read', 'write']);
        assert.equal(catalog?.hiddenTools, 1);
        assert.equal(catalog?.alwaysLoad, true);
      } finally {
        registry.dispose();
      }
    });

    it('a changed filter applies at once, without a restart, and announces the new tool list', async () => {
      const { connector, registry, changes } = setup();
      try {
        const server = makeServer('fs');
        registry.reconcile([server]);
        await registry.settled();
        await registry.catalogsLoaded();
        changes.length = 0;
        registry.reconcile([{ ...server, allowedTools: ['read'] }]);
        assert.deepEqual(names(registry.get('fs')?.catalog), ['read']);
        assert.deepEqual(changes, [{ id: 'fs', kind: 'tools' }]);
        assert.equal(connector.count('fs'), 1, 'not restarted: the fingerprint did not change');
        assert.equal(registry.get('fs')?.state.kind, 'ready');

        changes.length = 0;
        registry.reconcile([{ ...server, allowedTools: ['read'] }]);
        assert.deepEqual(changes, [], 'the same filter again announces nothing');
        registry.reconcile([{ ...server, allowedTools: ['read'], alwaysLoad: true }]);
        assert.deepEqual(changes, [{ id: 'fs', kind: 'tools' }], 'alwaysLoad is part of the offer');
        assert.equal(registry.get('fs')?.catalog.alwaysLoad, true);

        changes.length = 0;
        registry.reconcile([{ ...server, allowedTools: ['read'], alwaysLoad: ['read'] }]);
        assert.deepEqual(changes, [{ id: 'fs', kind: 'tools' }], 'a list of tools instead of true changes the offer');
        assert.deepEqual(registry.get('fs')?.catalog.alwaysLoad, ['read']);
        changes.length = 0;
        registry.reconcile([{ ...server, allowedTools: ['read'], alwaysLoad: ['read'] }]);
        assert.deepEqual(changes, [], 'an equal list read again announces nothing');
        registry.reconcile([{ ...server, allowedTools: ['read'], alwaysLoad: ['read', 'write'] }]);
        assert.deepEqual(changes, [{ id: 'fs', kind: 'tools' }], 'another list changes the offer');
      } finally {
        registry.dispose();
      }
    });
  });
});
