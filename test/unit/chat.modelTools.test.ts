// The tools a model gets: qualified, sorted, resolvable back to server and tool; the declaration's
// shape and size; what one turn offers (the deferred-loading plan) and the search that adds to it.
import * as assert from 'node:assert/strict';
import { ToolOffer } from '../../src/core/chat/catalogSearch';
import { SEARCH_TOOL_NAME } from '../../src/core/search';
import { ModelToolCatalog, toolListChars, toolSpecOf, type ChatServer } from '../../src/core/chat/modelTools';
import { emptyCatalog } from '../../src/core/lifecycle/catalog';
import type { ToolInfo } from '../../src/core/lifecycle/types';

function server(id: string, tools: string[], extra: { state?: string; alwaysLoad?: boolean | string[] } = {}): ChatServer {
  const toolInfos: ToolInfo[] = tools.map((name) => ({ name, description: `does ${name}`, inputSchema: { type: 'object', properties: { x: { type: 'string' } } } }));
  return { id, state: { kind: extra.state ?? 'ready' }, catalog: { ...emptyCatalog(), tools: toolInfos, ...(extra.alwaysLoad !== undefined ? { alwaysLoad: extra.alwaysLoad } : {}) } };
}

describe('ModelToolCatalog', () => {
  it('qualifies the ready servers\' tools, sorted by server then tool, and resolves names back', () => {
    const catalog = new ModelToolCatalog([server('zeta', ['b', 'a']), server('alpha', ['run']), server('down', ['x'], { state: 'failed' })]);
    assert.deepEqual(catalog.names(), ['mcp__alpha__run', 'mcp__zeta__a', 'mcp__zeta__b']);
    const found = catalog.find('mcp__zeta__b');
    assert.equal(found?.server, 'zeta');
    assert.equal(found?.tool.name, 'b');
    assert.equal(catalog.find('mcp__down__x'), undefined);
    assert.equal(catalog.findByRef('alpha', 'run')?.qualifiedName, 'mcp__alpha__run');
  });

  it('gives the same names whatever order the servers come in', () => {
    const a = new ModelToolCatalog([server('my.server', ['t']), server('my_server', ['t'])]).names();
    const b = new ModelToolCatalog([server('my_server', ['t']), server('my.server', ['t'])]).names();
    assert.deepEqual(a, b);
    assert.equal(new Set(a).size, 2);
  });

  it('declares a tool with its server in the description and an object input schema', () => {
    const catalog = new ModelToolCatalog([{ id: 's', state: { kind: 'ready' }, catalog: { ...emptyCatalog(), tools: [{ name: 't', inputSchema: { properties: {} } }] } }]);
    const spec = toolSpecOf(catalog.tools[0]);
    assert.deepEqual(spec, { name: 'mcp__s__t', description: 't (MCP server "s")', inputSchema: { type: 'object', properties: {} } });
    assert.equal(toolListChars([spec]), JSON.stringify([spec]).length);
  });
});

describe('ToolOffer', () => {
  const servers = [
    server('files', ['read_file', 'write_file', 'list_directory']),
    server('github', ['create_issue', 'list_issues']),
    server('always', ['ping'], { alwaysLoad: true }),
    server('some', ['keep_me', 'not_me'], { alwaysLoad: ['keep_*'] }),
  ];
  const thresholds = (maxTools: number) => ({ maxTools, maxTokens: 1_000_000 });

  it('offers every tool, and no search, when the catalog is small', () => {
    const offer = new ToolOffer(new ModelToolCatalog(servers), servers, { thresholds: thresholds(10) });
    assert.equal(offer.plan.mode, 'all');
    assert.deepEqual(offer.specs().map((s) => s.name), [
      'mcp__always__ping', 'mcp__files__list_directory', 'mcp__files__read_file', 'mcp__files__write_file', 'mcp__github__create_issue', 'mcp__github__list_issues',
      'mcp__some__keep_me', 'mcp__some__not_me',
    ]);
    assert.equal(offer.specs()[0].description, 'does ping (MCP server "always")');
    assert.equal(offer.isSearch(SEARCH_TOOL_NAME), false);
  });

  it('offers the alwaysLoad tools and the search when it is large, then what the search found', () => {
    const offer = new ToolOffer(new ModelToolCatalog(servers), servers, { thresholds: thresholds(3) });
    assert.equal(offer.plan.reason, 'too-many-tools');
    assert.deepEqual(offer.specs().map((s) => s.name), ['mcp__always__ping', 'mcp__some__keep_me', SEARCH_TOOL_NAME]);
    assert.equal(offer.isSearch(SEARCH_TOOL_NAME), true);
    const result = (JSON.parse(offer.search({ query: 'create an issue', limit: 1 })) as { tools: { name: string; server: string; inputSchema: unknown }[] }).tools;
    assert.deepEqual(result.map((r) => [r.name, r.server]), [['mcp__github__create_issue', 'github']]);
    assert.deepEqual(result[0].inputSchema, { type: 'object', properties: { x: { type: 'string' } } });
    assert.deepEqual(offer.specs().map((s) => s.name), ['mcp__always__ping', 'mcp__some__keep_me', SEARCH_TOOL_NAME, 'mcp__github__create_issue']);
    assert.equal(offer.search({ query: '' }), 'Give a query: what the tool should do, in words.');
    assert.equal(offer.search({ query: 'zzqx' }), 'No MCP tool matches "zzqx".');
  });
});
