// The settings UI names the approval modes as the sidebar's mode picker does: package.json gives each
// mode of `switchboard.approvals.mode` a label and a description, and the labels are the picker's.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { APPROVAL_MODES } from '../../../src/core/approvals/policy';
import type { ApprovalActions } from '../../../webview/approvals';
import { mount, useDom } from './dom';

interface EnumSetting { enum: string[]; enumItemLabels?: string[]; enumDescriptions?: string[] }

function setting(name: string): EnumSetting {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, EnumSetting> } };
  };
  const found = manifest.contributes.configuration.properties[name];
  assert.ok(found, `package.json has no setting ${name}`);
  return found;
}

describe('approval modes in the settings UI', () => {
  useDom();

  it('every mode has a label and a description, in the order of the modes', () => {
    const mode = setting('switchboard.approvals.mode');
    assert.deepEqual(mode.enum, [...APPROVAL_MODES]);
    assert.equal(mode.enumItemLabels?.length, mode.enum.length);
    assert.equal(mode.enumDescriptions?.length, mode.enum.length);
    for (const text of [...mode.enumItemLabels!, ...mode.enumDescriptions!]) assert.ok(text.trim() !== '' && !/^[a-z]+[A-Z]/.test(text), `not words: ${text}`);
  });

  it('the labels are the ones the sidebar\'s mode picker shows', async () => {
    const { modePicker } = await import('../../../webview/approvals');
    const actions = {} as ApprovalActions;
    const picker = mount(modePicker('askBeforeEdits', actions));
    const options = [...picker.querySelectorAll('option')].map((o) => [o.value, o.textContent]);
    const mode = setting('switchboard.approvals.mode');
    assert.deepEqual(options, mode.enum.map((id, i) => [id, mode.enumItemLabels![i]]));
  });

  it('the chat\'s tool loading setting names its choices too', () => {
    const loading = setting('switchboard.chat.toolLoading');
    assert.equal(loading.enumItemLabels?.length, loading.enum.length);
    assert.equal(loading.enumDescriptions?.length, loading.enum.length);
  });
});
