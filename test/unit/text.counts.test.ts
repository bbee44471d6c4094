// Counts read as people write them, on every surface that shows one.
import * as assert from 'node:assert/strict';
import { counted, countedList, nounFor } from '../../src/protocol/counts';

describe('counts as people write them', () => {
  it('one is singular, every other count plural', () => {
    assert.equal(counted(1, 'resource'), '1 resource');
    assert.equal(counted(14, 'tool'), '14 tools');
    assert.equal(counted(0, 'prompt'), '0 prompts');
    assert.equal(counted(2, 'resource template'), '2 resource templates');
  });

  it('groups the digits of large counts as English text does', () => {
    assert.equal(counted(1007, 'tool'), '1,007 tools');
  });

  it('takes an irregular plural when given one', () => {
    assert.equal(counted(1, 'entry', 'entries'), '1 entry');
    assert.equal(counted(3, 'entry', 'entries'), '3 entries');
    assert.equal(nounFor(2, 'is', 'are'), 'are');
    assert.equal(nounFor(1, 'is', 'are'), 'is');
  });

  it('joins a list of counts with a final "and"', () => {
    assert.equal(countedList([[14, 'tool'], [1, 'resource'], [2, 'prompt']]), '14 tools, 1 resource and 2 prompts');
    assert.equal(countedList([[1, 'tool'], [0, 'prompt']]), '1 tool and 0 prompts');
    assert.equal(countedList([[1, 'tool']]), '1 tool');
    assert.equal(countedList([]), '');
  });
});
