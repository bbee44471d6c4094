// The card's "covers" menu for narrower "always allow" rules, and the conditions of a rule in the list,
// rendered into a real DOM (happy-dom).
import * as assert from 'node:assert/strict';
import type { ApprovalCard, RuleRow } from '../../../src/protocol/approvals';
import { mount, useDom } from './dom';

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
  let nothing: unknown;
  before(async () => {
    choices = await import('../../../webview/ruleChoices');
    nothing = (await import('lit-html')).nothing;
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
    assert.equal(choices.ruleChoicePicker({ ...card, ruleChoices: undefined, args: {} }, {}, undefined, () => undefined), nothing);
  });

  it('shows the chosen key, reports a new choice, and maps a key to its narrowing', () => {
    const picked: string[] = [];
    const select = mount(choices.ruleChoicePicker(card, card.args, undefined, (key) => picked.push(key))).querySelector('select');
    assert.ok(select);
    assert.equal(select.value, 'tool');
    select.value = 'folder';
    select.dispatchEvent(new Event('change'));
    assert.deepEqual(picked, ['folder']);
    // The option a render marks selected (happy-dom's select.value does not follow the markup; browsers do).
    const marked = (key: string): string | undefined => mount(choices.ruleChoicePicker(card, card.args, key, () => undefined)).querySelector<HTMLOptionElement>('option[selected]')?.value;
    assert.equal(marked('value:mode'), 'value:mode', 'a new render shows the choice made');
    assert.equal(marked('value:gone'), 'tool', 'a key the card no longer offers shows as the whole tool');
    assert.deepEqual(choices.narrowingOf(card, card.args, 'folder'), { kind: 'folder' });
    assert.deepEqual(choices.narrowingOf(card, card.args, 'value:mode'), { kind: 'value', argument: 'mode' });
    assert.equal(choices.narrowingOf(card, card.args, 'tool'), undefined);
    assert.equal(choices.narrowingOf(card, card.args, undefined), undefined);
    assert.equal(choices.narrowingOf(card, card.args, 'value:gone'), undefined);
    assert.equal(choices.narrowingOf({ ...card, signatures: ['npm test'] }, card.args, 'file'), undefined);
  });

  it('shows a rule\'s conditions with their pattern', () => {
    const rule: RuleRow = {
      id: 'r', effect: 'allow', server: 'fs', tool: 'write_file', scope: 'workspace', createdAt: 0, origin: 'o', description: 'd',
      conditions: ['path is under /ws/notes/ (/ws/notes/**)'],
    };
    assert.equal(mount(choices.ruleConditions(rule)).textContent, 'Only when path is under /ws/notes/ (/ws/notes/**)');
    assert.equal(choices.ruleConditions({ ...rule, conditions: undefined }), nothing);
  });
});
