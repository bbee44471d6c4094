// The rows of a prompt argument's picker: the server's best suggestion is the default, the typed text
// is offered below the suggestions, with a label that VS Code's sort cannot move above them.
import * as assert from 'node:assert/strict';
import { argumentChoices } from '../../src/core/chat/argumentChoices';

describe('argument picker rows', () => {
  it('puts the server\'s suggestions first, in its order, and the typed text last', () => {
    const rows = argumentChoices('Sal', ['Sales', 'Salt']);
    assert.deepEqual(rows.map((r) => r.value), ['Sales', 'Salt', 'Sal']);
    assert.equal(rows[0].description, 'suggested by the server');
    assert.equal(rows[2].description, 'Sal — as typed');
  });

  it('gives the typed row a label with no text, so a label match cannot sort it above the suggestions', () => {
    const typed = argumentChoices('Sal', ['Sales']).at(-1)!;
    assert.equal(typed.label.replace(/\$\([a-z-]+\)/g, '').trim(), '');
  });

  it('offers the typed text alone when the server suggests nothing, and not twice when it suggests it', () => {
    assert.deepEqual(argumentChoices('Oslo', []).map((r) => r.value), ['Oslo']);
    assert.deepEqual(argumentChoices('Sales', ['Sales']).map((r) => r.value), ['Sales']);
    assert.deepEqual(argumentChoices('', ['a', 'a', 'b']).map((r) => r.value), ['a', 'b']);
  });
});
