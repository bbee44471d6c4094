// Invisible and bidi characters in an approval card's arguments and diff are shown as escapes, as the
// trust prompt shows them, while the value sent stays the real one.
import * as assert from 'node:assert/strict';
import type { ApprovalCard } from '../../../src/protocol/approvals';
import type { ApprovalActions } from '../../../webview/approvals';
import { argumentsOf, draftOf, withField } from '../../../webview/drafts';
import { useDom, mount } from './dom';

type ApprovalsModule = typeof import('../../../webview/approvals');

// "rm -rf ~ #" shown reversed by a right-to-left override, a zero-width space and a Unicode tag "A".
const SNEAKY = 'ls \u202E# ~ fr- mr\u202C\u200B\u{E0041}';
const card: ApprovalCard = {
  id: 'c1', serverId: 'sh', serverName: 'sh', tool: 'write_file', qualifiedName: 'mcp__sh__write_file',
  annotations: {}, serverTrusted: true, reason: 'it would change files in the workspace',
  args: { path: '/w/run.sh', content: SNEAKY, plain: 'tab\there\nnext line' },
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' }, plain: { type: 'string' } } },
  preview: { changes: [{ path: '/w/run.sh', kind: 'modify' }], diff: `--- /w/run.sh\n+++ /w/run.sh\n@@ -1 +1 @@\n-ls\n+${SNEAKY}\n \tindented\n` },
  createdAt: 1, caller: 'chat',
} as ApprovalCard;

const actions = (calls: unknown[][]): ApprovalActions => ({
  editArgument: (...a: unknown[]) => calls.push(['editArgument', ...a]),
  editReason: () => undefined, answer: () => undefined, showWholeDiff: () => undefined, openDiff: () => undefined, setMode: () => undefined,
} as unknown as ApprovalActions);

describe('approval card: hidden characters', () => {
  useDom();
  let approvals: ApprovalsModule;
  before(async () => { approvals = await import('../../../webview/approvals'); });

  it('shows an argument holding hidden characters escaped beside its field, which keeps the real value', () => {
    const element = mount(approvals.approvalCard(card, draftOf(card), actions([])));
    const notes = [...element.querySelectorAll<HTMLElement>('[data-testid="approval-hidden-characters"]')];
    assert.deepEqual(notes.map((note) => note.closest<HTMLElement>('[data-testid="approval-field"]')?.dataset.arg), ['content'], 'only the argument with hidden characters');
    assert.equal(notes[0].querySelector('code')?.textContent, 'ls \\u{202E}# ~ fr- mr\\u{202C}\\u{200B}\\u{E0041}');
    const field = element.querySelector<HTMLTextAreaElement>('[data-arg="content"] textarea');
    assert.equal(field?.value, SNEAKY, 'the field holds the real value');
    assert.equal(field?.getAttribute('aria-describedby'), notes[0].id, 'the field points at the escaped form');
  });

  it('shows diff lines with hidden characters escaped, keeping tabs', () => {
    const element = mount(approvals.approvalCard(card, draftOf(card), actions([])));
    const lines = [...element.querySelectorAll('[data-testid="approval-diff"] .diff-line')].map((line) => line.textContent?.replace(/\n$/, ''));
    assert.ok(lines.includes('+ls \\u{202E}# ~ fr- mr\\u{202C}\\u{200B}\\u{E0041}'), lines.join('\n'));
    assert.ok(lines.includes(' \tindented'), 'a tab is ordinary text in a diff');
    assert.ok(!lines.some((line) => /[\u202E\u200B]/u.test(line ?? '')), 'no hidden character is left in the diff');
  });

  it('editing an argument sends the real value, hidden characters and all', () => {
    const calls: unknown[][] = [];
    const element = mount(approvals.approvalCard(card, draftOf(card), actions(calls)));
    document.body.replaceChildren(element);
    const field = element.querySelector<HTMLTextAreaElement>('[data-arg="content"] textarea')!;
    field.value = `${SNEAKY}!`;
    field.dispatchEvent(new Event('input'));
    assert.deepEqual(calls, [['editArgument', 'c1', 'content', `${SNEAKY}!`]]);
    const args = argumentsOf(withField(draftOf(card), 'content', `${SNEAKY}!`));
    assert.deepEqual(args, { ok: true, args: { ...card.args, content: `${SNEAKY}!` } });
  });
});
