// Deferred loading: which tool definitions a request carries, at the edges of the thresholds, with
// alwaysLoad per server and per tool, and with the setting forcing either mode.
import * as assert from 'node:assert/strict';
import {
  deferredNamesList, definitionsForRequest, estimateTokens, isAlwaysLoaded, planToolLoading, SEARCH_TOOL_NAME, searchToolDefinition,
  type LoadableServer,
} from '../../src/core/search/deferredLoading';
import { offeredCatalog } from '../../src/core/lifecycle/offeredCatalog';
import type { Catalog } from '../../src/core/lifecycle/types';
import { parseText } from './helpers/config';

/** `count` small tools named t1…tN on one server. */
function server(name: string, count: number, alwaysLoad?: boolean | string[]): LoadableServer {
  const tools = Array.from({ length: count }, (_, i) => ({ name: `t${i + 1}`, description: 'A tool.', inputSchema: { type: 'object', properties: {} } }));
  return alwaysLoad === undefined ? { server: name, tools } : { server: name, alwaysLoad, tools };
}

/** One tool whose definition is exactly `tokens` estimated tokens (characters / 4, rounded up). */
function toolOfTokens(tokens: number): LoadableServer {
  // {"name":"mcp__big__t","description":"…","inputSchema":{}} is 56 characters around the description.
  return { server: 'big', tools: [{ name: 't', description: 'x'.repeat(tokens * 4 - 56), inputSchema: {} }] };
}

const names = (tools: readonly { server: string; tool: string }[]) => tools.map((tool) => `${tool.server}/${tool.tool}`);

describe('deferred loading', () => {
  it('estimates tokens as characters / 4 of the JSON definition, rounded up', () => {
    assert.equal(estimateTokens({ name: 'mcp__s__t', description: '', inputSchema: {} }), 14); // 54 characters
    assert.equal(estimateTokens({ name: 'mcp__fs__read', description: 'Read a file.', inputSchema: { type: 'object', properties: {} } }), 26); // 101
    assert.equal(planToolLoading([toolOfTokens(10_000)], 'all').totalTokens, 10_000);
    assert.equal(planToolLoading([toolOfTokens(10_001)], 'all').totalTokens, 10_001);
  });

  describe('auto, default thresholds (more than 40 tools or more than 10 000 tokens)', () => {
    it('sends every tool at exactly 40 tools', () => {
      const plan = planToolLoading([server('a', 25), server('b', 15)], 'auto');
      assert.equal(plan.mode, 'all');
      assert.equal(plan.reason, 'within-thresholds');
      assert.equal(plan.sent.length, 40);
      assert.equal(plan.deferred.length, 0);
      assert.equal(plan.searchTool, undefined);
      assert.equal(plan.sentTokens, plan.totalTokens);
    });

    it('defers at 41 tools, sending only the search tool', () => {
      const plan = planToolLoading([server('a', 25), server('b', 16)], 'auto');
      assert.equal(plan.mode, 'search');
      assert.equal(plan.reason, 'too-many-tools');
      assert.deepEqual(plan.sent, []);
      assert.equal(plan.deferred.length, 41);
      assert.equal(plan.searchTool?.name, SEARCH_TOOL_NAME);
      assert.equal(plan.sentTokens, estimateTokens(plan.searchTool!));
    });

    it('sends every tool at exactly 10 000 tokens, defers at 10 001', () => {
      const at = planToolLoading([toolOfTokens(10_000)], 'auto');
      assert.deepEqual([at.mode, at.reason, at.sent.length], ['all', 'within-thresholds', 1]);
      const over = planToolLoading([toolOfTokens(10_001)], 'auto');
      assert.deepEqual([over.mode, over.reason, over.sent.length, over.deferred.length], ['search', 'too-many-tokens', 0, 1]);
    });

    it('counts the whole catalog, always-loaded tools included', () => {
      const plan = planToolLoading([server('a', 40, true), server('b', 1)], 'auto');
      assert.equal(plan.reason, 'too-many-tools');
      assert.equal(plan.sent.length, 40);
      assert.deepEqual(names(plan.deferred), ['b/t1']);
    });
  });

  it('takes other thresholds', () => {
    const catalog = [server('a', 3)];
    assert.equal(planToolLoading(catalog, 'auto', { maxTools: 3, maxTokens: 1_000_000 }).mode, 'all');
    assert.equal(planToolLoading(catalog, 'auto', { maxTools: 2, maxTokens: 1_000_000 }).reason, 'too-many-tools');
    const total = planToolLoading(catalog, 'all').totalTokens;
    assert.equal(planToolLoading(catalog, 'auto', { maxTools: 100, maxTokens: total }).mode, 'all');
    assert.equal(planToolLoading(catalog, 'auto', { maxTools: 100, maxTokens: total - 1 }).reason, 'too-many-tokens');
  });

  describe('forced by the setting', () => {
    it('"all" sends every tool of a large catalog, and no search tool', () => {
      const plan = planToolLoading([server('a', 100)], 'all');
      assert.deepEqual([plan.mode, plan.reason, plan.sent.length, plan.deferred.length], ['all', 'forced', 100, 0]);
      assert.equal(plan.searchTool, undefined);
    });

    it('"search" defers even a small catalog', () => {
      const plan = planToolLoading([server('a', 2)], 'search');
      assert.deepEqual([plan.mode, plan.reason, plan.sent.length, plan.deferred.length], ['search', 'forced', 0, 2]);
      assert.equal(plan.searchTool?.name, SEARCH_TOOL_NAME);
    });

    it('"search" with every tool always loaded sends them all and no search tool (nothing is left to find)', () => {
      const plan = planToolLoading([server('a', 2, true)], 'search');
      assert.deepEqual([plan.mode, plan.sent.length, plan.deferred.length], ['search', 2, 0]);
      assert.equal(plan.searchTool, undefined);
      assert.equal(plan.sentTokens, plan.totalTokens);
    });

    it('an empty catalog sends nothing', () => {
      const plan = planToolLoading([], 'search');
      assert.deepEqual([plan.sent.length, plan.deferred.length, plan.totalTokens, plan.sentTokens], [0, 0, 0, 0]);
      assert.equal(plan.searchTool, undefined);
    });
  });

  describe('alwaysLoad', () => {
    it('per server: all of its tools are sent when deferring', () => {
      const plan = planToolLoading([server('fs', 2, true), server('gh', 3), server('mem', 1, false)], 'search');
      assert.deepEqual(names(plan.sent), ['fs/t1', 'fs/t2']);
      assert.deepEqual(names(plan.deferred), ['gh/t1', 'gh/t2', 'gh/t3', 'mem/t1']);
      assert.equal(plan.sentTokens, plan.sent[0].tokens + plan.sent[1].tokens + estimateTokens(plan.searchTool!));
    });

    it('per tool: names and * patterns, as in allowedTools', () => {
      const catalog: LoadableServer[] = [{
        server: 'gh',
        alwaysLoad: ['get_issue', 'list_*'],
        tools: ['create_issue', 'get_issue', 'list_issues', 'list_prs', 'get_issue_comments'].map((name) => ({ name })),
      }];
      const plan = planToolLoading(catalog, 'search');
      assert.deepEqual(names(plan.sent), ['gh/get_issue', 'gh/list_issues', 'gh/list_prs']);
      assert.deepEqual(names(plan.deferred), ['gh/create_issue', 'gh/get_issue_comments']);
    });

    it('matches whole names, case-sensitively', () => {
      assert.equal(isAlwaysLoaded(['read'], 'read_file'), false);
      assert.equal(isAlwaysLoaded(['read*'], 'read_file'), true);
      assert.equal(isAlwaysLoaded(['Read*'], 'read_file'), false);
      assert.equal(isAlwaysLoaded([], 'read_file'), false);
      assert.equal(isAlwaysLoaded(true, 'anything'), true);
      assert.equal(isAlwaysLoaded(false, 'anything'), false);
      assert.equal(isAlwaysLoaded(undefined, 'anything'), false);
    });

    it('is ignored when every tool is sent anyway', () => {
      const plan = planToolLoading([server('fs', 1, true), server('gh', 1)], 'auto');
      assert.deepEqual([plan.mode, names(plan.sent)], ['all', ['fs/t1', 'gh/t1']]);
    });
  });

  it('gives definitions under the names models know, sorted by server then tool, with a default schema', () => {
    const plan = planToolLoading([
      { server: 'zeta', tools: [{ name: 'b' }, { name: 'a', description: 'A.' }] },
      { server: 'alpha', tools: [{ name: 'x.y' }] },
    ], 'all');
    assert.deepEqual(plan.sent.map((tool) => tool.definition), [
      { name: 'mcp__alpha__x_y', description: '', inputSchema: { type: 'object', properties: {} } },
      { name: 'mcp__zeta__a', description: 'A.', inputSchema: { type: 'object', properties: {} } },
      { name: 'mcp__zeta__b', description: '', inputSchema: { type: 'object', properties: {} } },
    ]);
  });

  it('adds the tools the model found to the following requests, once each, in the order found', () => {
    const plan = planToolLoading([server('fs', 1, true), server('gh', 3)], 'search');
    const first = definitionsForRequest(plan, []);
    assert.deepEqual(first.map((definition) => definition.name), ['mcp__fs__t1', SEARCH_TOOL_NAME]);
    const later = definitionsForRequest(plan, [
      { server: 'gh', tool: 't3' }, { server: 'gh', tool: 't1' }, { server: 'gh', tool: 't3' },
      { server: 'fs', tool: 't1' }, // already sent
      { server: 'gh', tool: 'nope' }, // not in the catalog
    ]);
    assert.deepEqual(later.map((definition) => definition.name), ['mcp__fs__t1', SEARCH_TOOL_NAME, 'mcp__gh__t3', 'mcp__gh__t1']);
  });

  it('describes the search tool with what it can find, per server', () => {
    const definition = searchToolDefinition([{ server: 'gh', tool: 'a' }, { server: 'db', tool: 'q' }, { server: 'gh', tool: 'b' }]);
    assert.equal(definition.name, 'switchboard_search_tools');
    assert.match(definition.description, /3 tools can be found, on these servers: db \(1\), gh \(2\)\./);
    assert.deepEqual((definition.inputSchema as { required: string[] }).required, ['query']);
    assert.match(searchToolDefinition([{ server: 'gh', tool: 'a' }]).description, /1 tool can be found/);
  });

  it('lists the deferred names grouped by server, a tool by its own name when its model name is the plain one', () => {
    const list = deferredNamesList([{ server: 'gh', tool: 'b' }, { server: 'db', tool: 'q' }, { server: 'gh', tool: 'a' }, { server: 'my.srv', tool: 'x' }]);
    assert.equal(list, 'db: q\ngh: a, b\nmy.srv: mcp__my_srv__x');
  });

  it('puts the names in the search tool\'s description only when they fit the budget', () => {
    const deferred = [{ server: 'gh', tool: 'create_issue' }, { server: 'db', tool: 'query' }];
    const listTokens = Math.ceil(deferredNamesList(deferred).length / 4);
    const within = searchToolDefinition(deferred, { namesBudgetTokens: listTokens });
    assert.match(within.description, /The tools, by server:\ndb: query\ngh: create_issue$/);
    const over = searchToolDefinition(deferred, { namesBudgetTokens: listTokens - 1 });
    assert.doesNotMatch(over.description, /The tools, by server/);
    assert.match(over.description, /select:mcp__<server>__<tool>/, 'select: is explained either way');
    assert.doesNotMatch(searchToolDefinition(deferred).description, /The tools, by server/, 'no budget, no list');
  });

  it('gives the names list 3 % of the whole catalog\'s tokens by default, or the share asked for', () => {
    // 60 tools of about 20 tokens each: 1 200 tokens in all, so 3 % is 36 tokens: not enough for 60 names.
    const catalog = [server('a', 30), server('b', 30)];
    const total = planToolLoading(catalog, 'all').totalTokens;
    const listTokens = Math.ceil(deferredNamesList(planToolLoading(catalog, 'search').deferred).length / 4);
    assert.ok(listTokens > total * 0.03, 'the fixture is over the default budget');
    assert.doesNotMatch(planToolLoading(catalog, 'search').searchTool!.description, /The tools, by server/);
    const share = Math.ceil((listTokens / total) * 1000) / 1000;
    const listed = planToolLoading(catalog, 'search', undefined, share);
    assert.match(listed.searchTool!.description, /The tools, by server:\na: t1, t10, t11/);
    assert.equal(listed.sentTokens, estimateTokens(listed.searchTool!));
  });

  it('takes alwaysLoad as the configuration writes it and the offered catalog carries it', () => {
    const layer = parseText('{"mcpServers": {"gh": {"command": "x", "alwaysLoad": ["get_*"], "disabledTools": ["delete_repo"]}, "fs": {"command": "y", "alwaysLoad": true}}}');
    const listed = (...names: string[]): Catalog => ({ tools: names.map((name) => ({ name, inputSchema: { type: 'object' } })), resources: [], resourceTemplates: [], prompts: [] });
    const catalogs = { gh: listed('get_issue', 'create_issue', 'delete_repo'), fs: listed('read') };
    const servers = layer.servers.map((entry) => ({ server: entry.name, ...offeredCatalog(catalogs[entry.name as 'gh' | 'fs'], entry) }));
    const plan = planToolLoading(servers, 'search');
    assert.deepEqual(names(plan.sent), ['fs/read', 'gh/get_issue']);
    assert.deepEqual(names(plan.deferred), ['gh/create_issue'], 'a tool the entry hides is neither sent nor searchable');
  });
});

