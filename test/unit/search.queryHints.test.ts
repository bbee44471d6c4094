// Hints from the shape of a query's words, and the terms search keeps: exact expectations.
import * as assert from 'node:assert/strict';
import { queryHints } from '../../src/core/search/queryHints';
import { aliasesOf, expansionsOf } from '../../src/core/search/synonyms';
import { searchTerms, stem } from '../../src/core/search/tokens';

describe('query hints', () => {
  const cases: [string, string[]][] = [
    ['cat package.json', ['file']],
    ['save this to notes.md', ['file']],
    ['post in #general that we shipped', ['channel']],
    ['go to localhost:3000', ['url']],
    ['open https://example.com/a', ['url']],
    ['a sitemap of example.com', ['url']],
    ['hit api.internal:8080/health', ['url']],
    ['find *.test.ts under src/', ['file', 'pattern', 'path']],
    ['mkdir -p build/out', ['path']],
    ['close #17', ['number']],
    ['what is at 48.8584, 2.2945', ['number']],
    ['grep for useSyncExternalStore', ['code']],
    ['"README.md"', ['file']],
    ['run document.title in the page', []],
    ['list my tools', []],
  ];
  for (const [query, hints] of cases) {
    it(`"${query}" → ${hints.join(', ') || 'none'}`, () => assert.deepEqual(queryHints(query), hints.map((hint) => stem(hint))));
  }
});

describe('search terms', () => {
  it('leaves out English function words and plain numbers, keeping words that name actions or scope', () => {
    assert.deepEqual(searchTerms('what PRs are open on our repo'), ['pr', 'open', 'repo']);
    assert.deepEqual(searchTerms('close issue 17 on github'), ['clos', 'issu', 'github']);
    assert.deepEqual(searchTerms('show all the new files'), ['show', 'all', 'new', 'fil']);
    assert.deepEqual(searchTerms('upload to s3 and ec2'), ['upload', 's3', 'ec2']);
    assert.deepEqual(searchTerms('删除这个实体'), ['删', '除', '这', '个', '实', '体', '删除', '除这', '这个', '个实', '实体']);
  });

  it('does not stem words that only look like plurals', () => {
    assert.deepEqual(['news', 'series', 'kubernetes', 'postgres', 'alias'].map(stem), ['news', 'series', 'kubernetes', 'postgres', 'alias']);
    assert.notEqual(stem('news'), stem('new'));
  });

  it('expands abbreviations into the words tools use', () => {
    assert.deepEqual(expansionsOf(stem('pr')), ['pull', 'request']);
    assert.deepEqual(expansionsOf(stem('db')), ['databas']);
    assert.deepEqual(expansionsOf(stem('file')), []);
  });

  it('knows other names of products', () => {
    assert.deepEqual(aliasesOf(stem('kubectl')), [stem('k8s'), stem('kube'), stem('kubernetes')].sort());
    assert.ok(aliasesOf(stem('psql')).includes(stem('postgres')));
    assert.deepEqual(aliasesOf(stem('delete')), []);
  });
});
