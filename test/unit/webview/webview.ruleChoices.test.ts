// The card's "covers" menu for narrower "always allow" rules, and the conditions of a rule in the list,
// rendered into a real DOM (happy-dom).
import * as assert from 'node:assert/strict';
import type { ApprovalCard, RuleRow } from '../../../src/protocol/approvals';
import { useDom } from './dom';

type ChoicesModule = typeof import('../../../webview/ruleChoices');

const card: ApprovalCard = {
  id: 'c9',
  serverId: 'fs',
  serverName: 'fs',
  tool: 'write_file',
  qualifiedName: 'mcp__fs__write_file',
  serverTrusted: true,
  reason: 'it would change files in the workspace',
  args: { path: 'notes/a.md', content: 'line one\nline two\n', mode: 'append', retries: 2 },
  inputSchema: { type: 'object' },
  ruleChoices: { paths: [{ argument: 'path', file: 'notes/a.md', folder: 'notes/' }] },
  createdAt: 1,
  caller: 'chat',
};

describe('rule choices on a card', () => {
  useDom();
  let choices: ChoicesModule;
  before(async () => {
    choices = await import('../../../webview/ruleChoices');
  });

  it('offers the tool, this file, its folder and each short scalar value (not the multi-line content)', () => {
    assert.deepEqual(choices.ruleOptions(card, card.args).map((o) => [o.key, o.label]), [
      ['tool', 'every call of write_file'],
      ['file', 'only this file: notes/a.md'],
      ['folder', 'only files under notes/'],
      ['value:mode', 'only when mode = "append"'],
      ['value:retries', 'only when retries = 2'],
    ]);
  });

  it('labels the paths as edited when the draft changed them', () => {
    const labels = choices.ruleOptions(card, { ...card.args, path: 'drafts/b.md' }).map((o) => o.label);
    assert.ok(labels.includes('only this file: drafts/b.md'));
    assert.ok(labels.includes('only files under the folder of drafts/b.md'));
  });

  it('offers nothing for a shell-like tool (its rules are about command signatures) or a card without choices', () => {
    assert.deepEqual(choices.ruleOptions({ ...card, signatures: ['npm test'] }, card.args), []);
    assert.equal(choices.ruleChoicePicker({ ...card, ruleChoices: undefined, args: {} }, {}), false);
  });

  it('keeps the choice of the menu until the card is gone', () => {
    const picker = choices.ruleChoicePicker(card, card.args);
    assert.ok(picker);
    const select = picker.querySelector('select');
    assert.ok(select);
    assert.equal(select.value, 'tool');
    assert.equal(choices.narrowingFor(card.id), undefined);
    select.value = 'folder';
    select.dispatchEvent(new Event('change'));
    assert.deepEqual(choices.narrowingFor(card.id), { kind: 'folder' });
    const again = choices.ruleChoicePicker(card, card.args);
    assert.equal(again && again.querySelector('select')?.value, 'folder', 'a new render shows the choice made');
    select.value = 'value:mode';
    select.dispatchEvent(new Event('change'));
    assert.deepEqual(choices.narrowingFor(card.id), { kind: 'value', argument: 'mode' });
    choices.forgetRuleChoices(new Set(['other']));
    assert.equal(choices.narrowingFor(card.id), undefined);
  });

  it('shows a rule\'s conditions with their pattern', () => {
    const rule: RuleRow = {
      id: 'r', effect: 'allow', server: 'fs', tool: 'write_file', scope: 'workspace', createdAt: 0, origin: 'o', description: 'd',
      conditions: ['path is under /ws/notes/ (/ws/notes/**)'],
    };
    assert.equal((choices.ruleConditions(rule) as HTMLElement).textContent, 'Only when path is under /ws/notes/ (/ws/notes/**)');
    assert.equal(choices.ruleConditions({ ...rule, conditions: undefined }), false);
  });
});
