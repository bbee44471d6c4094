// The sidebar's view state: which sections are collapsed, read back from whatever getState returns.
import * as assert from 'node:assert/strict';
import { INITIAL_UI_STATE, readUiState, toggleSection } from '../../../webview/state';

describe('webview state', () => {
  it('reads nothing usable as the initial state', () => {
    for (const raw of [undefined, null, 42, 'servers', [], {}, { version: 2, collapsed: ['servers'] }]) {
      assert.deepEqual(readUiState(raw), INITIAL_UI_STATE, JSON.stringify(raw));
    }
  });

  it('keeps the known collapsed sections of a state an earlier page stored, and drops the rest', () => {
    assert.deepEqual(readUiState({ version: 1, collapsed: ['problems', 'nope', 7, 'shadowed'] }), { version: 1, collapsed: ['problems', 'shadowed'] });
    assert.deepEqual(readUiState({ version: 1, collapsed: 'servers' }), { version: 1, collapsed: [] });
    assert.deepEqual(readUiState({ version: 1 }), { version: 1, collapsed: [] });
  });

  it('toggles a section without changing the state it was given', () => {
    const start = readUiState({ version: 1, collapsed: ['problems'] });
    const collapsed = toggleSection(start, 'servers');
    assert.deepEqual(collapsed, { version: 1, collapsed: ['problems', 'servers'] });
    assert.deepEqual(start, { version: 1, collapsed: ['problems'] }, 'the earlier state is unchanged');
    assert.deepEqual(toggleSection(collapsed, 'problems'), { version: 1, collapsed: ['servers'] });
    assert.deepEqual(toggleSection(toggleSection(INITIAL_UI_STATE, 'shadowed'), 'shadowed'), INITIAL_UI_STATE);
  });

  it('round-trips through JSON, as VS Code stores it', () => {
    const state = toggleSection(toggleSection(INITIAL_UI_STATE, 'servers'), 'problems');
    assert.deepEqual(readUiState(JSON.parse(JSON.stringify(state))), state);
  });
});
