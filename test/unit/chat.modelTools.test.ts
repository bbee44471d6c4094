// The tools a model gets: qualified, sorted, resolvable back to server and tool; the whole list only
// when small, else the alwaysLoad servers' tools; the declaration's shape and size.
import * as assert from 'node:assert/strict';
import { SEARCH_TOOL_NAME, ToolOffer } from '../../src/core/chat/catalogSearch';
import { ModelToolCatalog, toolListChars, toolSpecOf, type ChatServer } from '../../src/core/chat/modelTools';
import { emptyCatalog } from '../../src/core/lifecycle/catalog';
import type { ToolInfo } from '../../src/core/lifecycle/types';

function server(id: string, tools: string[], extra: { state?: string; alwaysLoad?: boolean } = {}): ChatServer {
  const toolInfos: ToolInfo[] = tools.map((name) => ({ name, description: `does ${name}`, inputSchema: { type: 'object', properties: { x: { type: 'string' } } } }));
  return { id, state: { kind: extra.state ?? 'ready' }, catalog: { ...emptyCatalog(), tools: toolInfos, ...(extra.alwaysLoad ? { alwaysLoad: true } : {}) } };
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

  it('sends everything when small, else only alwaysLoad servers\' tools and defers the rest', () => {
    const small = new ModelToolCatalog([server('a', ['x', 'y']), server('b', ['z'])]).partition(3);
    assert.equal(small.full.length, 3);
    assert.equal(small.deferred.length, 0);
    const large = new ModelToolCatalog([server('a', ['x', 'y']), server('b', ['z'], { alwaysLoad: true })]).partition(2);
    assert.deepEqual(large.full.map((t) => t.qualifiedName), ['mcp__b__z']);
    assert.deepEqual(large.deferred.map((t) => t.qualifiedName), ['mcp__a__x', 'mcp__a__y']);
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
  ];

  it('offers every tool, and no search, when the catalog is small', () => {
    const offer = new ToolOffer(new ModelToolCatalog(servers), 10);
    assert.deepEqual(offer.specs().map((s) => s.name), ['mcp__always__ping', 'mcp__files__list_directory', 'mcp__files__read_file', 'mcp__files__write_file', 'mcp__github__create_issue', 'mcp__github__list_issues']);
    assert.equal(offer.isSearch(SEARCH_TOOL_NAME), false);
  });

  it('offers the alwaysLoad tools and the search when it is large, then what the search found', () => {
    const offer = new ToolOffer(new ModelToolCatalog(servers), 3);
    assert.deepEqual(offer.specs().map((s) => s.name), ['mcp__always__ping', SEARCH_TOOL_NAME]);
    assert.equal(offer.isSearch(SEARCH_TOOL_NAME), true);
    const result = JSON.parse(offer.search({ query: 'create an issue', limit: 1 })) as { name: string; server: string; inputSchema: unknown }[];
    assert.deepEqual(result.map((r) => [r.name, r.server]), [['mcp__github__create_issue', 'github']]);
    assert.deepEqual(result[0].inputSchema, { type: 'object', properties: { x: { type: 'string' } } });
    assert.deepEqual(offer.specs().map((s) => s.name), ['mcp__always__ping', SEARCH_TOOL_NAME, 'mcp__github__create_issue']);
    assert.equal(offer.search({ query: '' }), 'Give a query: what the tool should do, in words.');
    assert.equal(offer.search({ query: 'zzqx' }), 'No MCP tool matches "zzqx".');
  });
});
