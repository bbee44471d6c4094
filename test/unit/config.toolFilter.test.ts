import * as assert from 'node:assert/strict';
import { hasToolFilter, isToolOffered, sameToolFilter, toolFilterVerdict, toolPatternMatches } from '../../src/core/config/toolFilter';

const TOOLS = ['read_file', 'write_file', 'list_directory', 'delete', 'Read_File'];
const offered = (filter: { allowedTools?: string[]; disabledTools?: string[] }) => TOOLS.filter((name) => isToolOffered(filter, name));

describe('allowedTools / disabledTools', () => {
  it('offers every tool when neither list is given (or disabledTools is empty)', () => {
    assert.deepEqual(offered({}), TOOLS);
    assert.deepEqual(offered({ disabledTools: [] }), TOOLS);
    assert.equal(hasToolFilter({}), false);
    assert.equal(hasToolFilter({ disabledTools: [] }), false);
  });

  it('allowedTools is an allowlist: only the tools it names, by exact and case-sensitive name', () => {
    assert.deepEqual(offered({ allowedTools: ['read_file', 'delete'] }), ['read_file', 'delete']);
    assert.deepEqual(toolFilterVerdict({ allowedTools: ['read_file'] }, 'write_file'), { offered: false, field: 'allowedTools' });
  });

  it('an empty allowedTools offers no tool at all', () => {
    assert.deepEqual(offered({ allowedTools: [] }), []);
    assert.equal(hasToolFilter({ allowedTools: [] }), true);
  });

  it('disabledTools is a denylist, and it wins over allowedTools', () => {
    assert.deepEqual(offered({ disabledTools: ['delete', 'write_file'] }), ['read_file', 'list_directory', 'Read_File']);
    assert.deepEqual(offered({ allowedTools: ['read_file', 'delete'], disabledTools: ['delete'] }), ['read_file']);
    assert.deepEqual(toolFilterVerdict({ allowedTools: ['delete'], disabledTools: ['delete'] }, 'delete'),
      { offered: false, field: 'disabledTools', pattern: 'delete' });
  });

  it('* matches any run of characters; the verdict names the pattern that matched', () => {
    assert.deepEqual(offered({ allowedTools: ['*_file'] }), ['read_file', 'write_file'], 'Read_File: patterns are case-sensitive');
    assert.deepEqual(offered({ disabledTools: ['write_*', 'del*'] }), ['read_file', 'list_directory', 'Read_File']);
    assert.deepEqual(offered({ allowedTools: ['*'], disabledTools: ['*'] }), []);
    assert.deepEqual(toolFilterVerdict({ disabledTools: ['x', 'write_*'] }, 'write_file'), { offered: false, field: 'disabledTools', pattern: 'write_*' });
  });

  it('every other character is literal (no regular expression, no ? or [] globs)', () => {
    assert.equal(toolPatternMatches('read.file', 'read_file'), false);
    assert.equal(toolPatternMatches('read?file', 'read_file'), false);
    assert.equal(toolPatternMatches('[rw]*', 'read_file'), false);
    assert.equal(toolPatternMatches('a+b*', 'a+b-c'), true);
    assert.equal(toolPatternMatches('a(b)*', 'a(b)c'), true);
    assert.equal(toolPatternMatches('*\\', 'x\\'), true);
    assert.equal(toolPatternMatches('read_*', 'read_\nfile'), true, '* spans any character');
    assert.equal(toolPatternMatches('read_', 'read_file'), false, 'a name without * matches the whole name only');
  });

  it('compares two entries\' filters (order counts, absent differs from empty)', () => {
    assert.equal(sameToolFilter({ allowedTools: ['a', 'b'] }, { allowedTools: ['a', 'b'] }), true);
    assert.equal(sameToolFilter({ allowedTools: ['a', 'b'] }, { allowedTools: ['b', 'a'] }), false);
    assert.equal(sameToolFilter({}, { allowedTools: [] }), false);
    assert.equal(sameToolFilter({ disabledTools: ['x'] }, { disabledTools: ['x'] }), true);
  });
});
