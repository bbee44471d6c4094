// The search tool's answers: `select:` loads tools by model name, a search answers with a one-line
// summary per server, and a weak match (or none) with the nearest names, so a second call is informed.
import * as assert from 'node:assert/strict';
import { runToolSearch, ToolOffer } from '../../src/core/chat/catalogSearch';
import { ModelToolCatalog, type ChatServer } from '../../src/core/chat/modelTools';
import { emptyCatalog } from '../../src/core/lifecycle/catalog';
import { SEARCH_TOOL_NAME } from '../../src/core/search';

function server(id: string, tools: [string, string][], instructions?: string): ChatServer {
  return {
    id,
    state: { kind: 'ready' },
    catalog: { ...emptyCatalog(), tools: tools.map(([name, description]) => ({ name, description, inputSchema: { type: 'object', properties: {} } })), ...(instructions ? { instructions } : {}) },
  };
}

const SERVERS = [
  server('github', [['create_issue', 'Create a new issue in a repository.'], ['list_issues', 'List the issues of a repository.'], ['merge_pull_request', 'Merge a pull request.']],
    'Tools for the GitHub API: repositories, issues and pull requests. Needs a token.'),
  server('maps', [['maps_elevation', 'Get elevation data for locations.'], ['maps_geocode', 'Convert an address to coordinates.']]),
];
const catalog = new ModelToolCatalog(SERVERS);
const instructions = (id: string) => SERVERS.find((s) => s.id === id)?.catalog.instructions;
const answer = (query: string, limit = 5) => {
  const outcome = runToolSearch(catalog, query, limit, { instructions });
  return { names: outcome.found.map((tool) => tool.qualifiedName), text: outcome.text };
};

describe('search tool answers', () => {
  it('select: loads exactly the named tools, in the order named, by model name or server/tool', () => {
    const { names, text } = answer('select:mcp__maps__maps_geocode, github/create_issue,mcp__maps__maps_geocode');
    assert.deepEqual(names, ['mcp__maps__maps_geocode', 'mcp__github__create_issue']);
    const parsed = JSON.parse(text) as { tools: { name: string }[]; unknown?: unknown };
    assert.deepEqual(parsed.tools.map((tool) => tool.name), names);
    assert.equal(parsed.unknown, undefined);
  });

  it('select: names what it did not find, with the closest known names', () => {
    const { names, text } = answer('select:mcp__github__create_isue,mcp__nowhere__x');
    assert.deepEqual(names, []);
    assert.deepEqual((JSON.parse(text) as { unknown: unknown }).unknown, [
      { name: 'mcp__github__create_isue', didYouMean: ['mcp__github__create_issue', 'mcp__github__list_issues'] },
      { name: 'mcp__nowhere__x', didYouMean: [] },
    ]);
    assert.match(answer('select:').text, /Give the tools' names after "select:"/);
  });

  it('answers a search with one line per server: its instructions\' first sentence, else its tools', () => {
    const { names, text } = answer('create an issue in the repository', 2);
    assert.equal(names[0], 'mcp__github__create_issue');
    const parsed = JSON.parse(text) as { servers: Record<string, string>; didYouMean?: string[] };
    assert.equal(parsed.servers.github, 'Tools for the GitHub API: repositories, issues and pull requests.');
    assert.equal(parsed.didYouMean, undefined, 'a strong match needs no suggestions');
    const maps = JSON.parse(answer('elevation').text) as { servers: Record<string, string> };
    assert.deepEqual(maps.servers, { maps: '2 tools: maps_elevation, maps_geocode' });
  });

  it('suggests the nearest names when the best match is weak or there is none', () => {
    // One of four words matched: weak.
    const weak = JSON.parse(answer('merge these geocodes quickly please', 1).text) as { tools: { name: string }[]; didYouMean: string[] };
    assert.equal(weak.tools.length, 1);
    assert.ok(weak.didYouMean.length > 0 && !weak.didYouMean.includes(weak.tools[0].name));
    assert.ok(weak.didYouMean.includes('mcp__maps__maps_geocode') || weak.didYouMean.includes('mcp__github__merge_pull_request'));
    const none = answer('elevatoin zzqx');
    assert.deepEqual(none.names, []);
    assert.match(none.text, /^No MCP tool matches "elevatoin zzqx"\. Did you mean: mcp__maps__maps_elevation\? Load one with "select:<name>"/);
    assert.equal(answer('zzqx').text, 'No MCP tool matches "zzqx".');
  });

  it('offers what select: loaded from the next request on', () => {
    const offer = new ToolOffer(catalog, SERVERS, { setting: 'search', instructions });
    assert.deepEqual(offer.specs().map((spec) => spec.name), [SEARCH_TOOL_NAME]);
    offer.search({ query: 'select:mcp__maps__maps_elevation' });
    assert.deepEqual(offer.specs().map((spec) => spec.name), [SEARCH_TOOL_NAME, 'mcp__maps__maps_elevation']);
  });
});
