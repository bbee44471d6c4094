// Tool names for models: `mcp__<server>__<tool>`, `[A-Za-z0-9_-]` only, at most 64 characters, stable,
// never the same for two tools, and listed in one order.
import * as assert from 'node:assert/strict';
import { MAX_TOOL_NAME_LENGTH, closestQualifiedNames, compareToolRefs, qualifiedToolName, qualifyToolNames, sanitizeNamePart, type ToolRef } from '../../src/core/naming/toolNames';

const VALID = /^[A-Za-z0-9_-]{1,64}$/;

describe('qualifiedToolName', () => {
  const cases: [string, string, string][] = [
    ['everything', 'echo', 'mcp__everything__echo'],
    ['fs', 'read_file', 'mcp__fs__read_file'],
    ['my-server', 'get-item', 'mcp__my-server__get-item'],
    ['my.server', 'tool', 'mcp__my_server__tool'],
    ['my server', 'do it', 'mcp__my_server__do_it'],
    ['docs', 'search.v2', 'mcp__docs__search_v2'],
    ['Git', 'Commit', 'mcp__Git__Commit'],
    ['a__b', 'c__d', 'mcp__a__b__c__d'],
    ['café', 'résumé', 'mcp__caf___r_sum_'],
    ['数据', '搜索', 'mcp________'],
    ['emoji', '🚀launch', 'mcp__emoji___launch'],
    ['tabs', 'a\tb\nc', 'mcp__tabs__a_b_c'],
    ['', 'x', 'mcp_____x'],
    ['srv', '', 'mcp__srv___'],
    ['folder/name', 'tool', 'mcp__folder_name__tool'],
    ['a:b', 'c@d', 'mcp__a_b__c_d'],
  ];
  for (const [server, tool, expected] of cases) {
    it(`${JSON.stringify(server)} / ${JSON.stringify(tool)} → ${expected}`, () => {
      const name = qualifiedToolName({ server, tool });
      assert.equal(name, expected);
      assert.match(name, VALID);
    });
  }

  it('normalizes composed and decomposed accents alike', () => {
    assert.equal(qualifiedToolName({ server: 'cafe\u0301', tool: 'x' }), qualifiedToolName({ server: 'caf\u00e9', tool: 'x' }));
  });

  it('keeps a name of exactly 64 characters whole', () => {
    const tool = 'x'.repeat(MAX_TOOL_NAME_LENGTH - 'mcp__s__'.length);
    assert.equal(qualifiedToolName({ server: 's', tool }), `mcp__s__${tool}`);
    assert.equal(qualifiedToolName({ server: 's', tool }).length, 64);
  });

  it('cuts a longer name to 64 characters with a stable hash of the full name', () => {
    const ref = { server: 'atlassian-confluence-enterprise', tool: 'search_pages_by_label_and_space_with_pagination' };
    const name = qualifiedToolName(ref);
    assert.equal(name.length, 64);
    assert.match(name, /^mcp__atlassian-confluence-enterprise__search_pages_by_lab_[0-9a-f]{6}$/);
    assert.equal(qualifiedToolName({ ...ref }), name, 'the same every time');
  });

  it('gives two long names that share their first 57 characters different hashes', () => {
    const a = qualifiedToolName({ server: 'server', tool: `${'t'.repeat(70)}_one` });
    const b = qualifiedToolName({ server: 'server', tool: `${'t'.repeat(70)}_two` });
    assert.notEqual(a, b);
    assert.equal(a.slice(0, 57), b.slice(0, 57));
  });

  it('sanitizes a part to at least one character', () => {
    assert.equal(sanitizeNamePart(''), '_');
    assert.equal(sanitizeNamePart('ok-1_A'), 'ok-1_A');
  });
});

describe('qualifyToolNames', () => {
  it('sorts by server, then tool, whatever the input order, and drops duplicates', () => {
    const refs: ToolRef[] = [{ server: 'b', tool: 'z' }, { server: 'a', tool: 'y' }, { server: 'b', tool: 'a' }, { server: 'a', tool: 'y' }];
    assert.deepEqual(qualifyToolNames(refs).map((t) => t.qualifiedName), ['mcp__a__y', 'mcp__b__a', 'mcp__b__z']);
    assert.deepEqual(qualifyToolNames([...refs].reverse()), qualifyToolNames(refs));
  });

  it('resolves a clash between servers (my.server and my_server) with hashes of the exact names', () => {
    const named = qualifyToolNames([{ server: 'my_server', tool: 'run' }, { server: 'my.server', tool: 'run' }, { server: 'other', tool: 'run' }]);
    const [dotted, underscored, other] = named;
    assert.equal(dotted.server, 'my.server');
    assert.match(dotted.qualifiedName, /^mcp__my_server__run_[0-9a-f]{6}$/);
    assert.match(underscored.qualifiedName, /^mcp__my_server__run_[0-9a-f]{6}$/);
    assert.notEqual(dotted.qualifiedName, underscored.qualifiedName);
    assert.equal(other.qualifiedName, 'mcp__other__run', 'a tool that clashes with nothing keeps its plain name');
  });

  it('resolves a clash made by `__` inside names (a__b / c and a / b__c)', () => {
    const [x, y] = qualifyToolNames([{ server: 'a__b', tool: 'c' }, { server: 'a', tool: 'b__c' }]);
    assert.notEqual(x.qualifiedName, y.qualifiedName);
    for (const t of [x, y]) assert.match(t.qualifiedName, VALID);
  });

  it('resolves a clash between two long names cut to the same 57 characters', () => {
    const names = qualifyToolNames([{ server: 's', tool: `${'q'.repeat(80)}1` }, { server: 's', tool: `${'q'.repeat(80)}2` }]).map((t) => t.qualifiedName);
    assert.equal(new Set(names).size, 2);
    for (const name of names) assert.equal(name.length, 64);
  });

  it('is stable across runs: the same catalog gives the same names', () => {
    const catalog: ToolRef[] = Array.from({ length: 50 }, (_, i) => ({ server: `srv.${i % 7}`, tool: `tool ${i}` }));
    const once = JSON.stringify(qualifyToolNames(catalog));
    const shuffled = [...catalog].sort(() => 0.5 - Math.random());
    assert.equal(JSON.stringify(qualifyToolNames(shuffled)), once);
  });

  it('gives every tool of a large catalog a valid, unique name', () => {
    const catalog: ToolRef[] = [];
    for (const server of ['a.b', 'a_b', 'a b', 'ä', '数据', 'long'.repeat(10)]) {
      for (const tool of ['x', 'x.y', 'x_y', '搜索', 'v'.repeat(60)]) catalog.push({ server, tool });
    }
    const names = qualifyToolNames(catalog).map((t) => t.qualifiedName);
    assert.equal(new Set(names).size, catalog.length);
    for (const name of names) assert.match(name, VALID);
  });

  it('compares refs by server first', () => {
    assert.ok(compareToolRefs({ server: 'a', tool: 'z' }, { server: 'b', tool: 'a' }) < 0);
    assert.equal(compareToolRefs({ server: 'a', tool: 'b' }, { server: 'a', tool: 'b' }), 0);
  });
});

describe('closestQualifiedNames', () => {
  const known = ['mcp__everything__echo', 'mcp__everything__get-env', 'mcp__everything__get-sum', 'mcp__memory__create_entities'];

  it('compares within the named server, by the last part', () => {
    assert.deepEqual(closestQualifiedNames('mcp__everything__ecko', known), ['mcp__everything__echo']);
    assert.deepEqual(closestQualifiedNames('mcp__everything__get_sum', known), ['mcp__everything__get-sum']);
    assert.deepEqual(closestQualifiedNames('mcp__everything__zzzz', known), []);
  });

  it('compares whole names when the server part names no server', () => {
    assert.deepEqual(closestQualifiedNames('mcp__memori__create_entities', known), ['mcp__memory__create_entities']);
  });
});
