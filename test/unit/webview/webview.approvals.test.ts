// The approval card, the rules and the history rendered into a real DOM (happy-dom), and the drafts
// behind the card's editable arguments.
import * as assert from 'node:assert/strict';
import type { ApprovalCard, HistoryRow, RuleRow } from '../../../src/protocol/approvals';
import type { ApprovalActions } from '../../../webview/approvals';
import type { HistoryActions } from '../../../webview/history';
import { argumentsOf, draftOf, problemsByField, withField } from '../../../webview/drafts';
import { settle, useDom, mount } from './dom';

type ApprovalsModule = typeof import('../../../webview/approvals');
type HistoryModule = typeof import('../../../webview/history');

const card: ApprovalCard = {
  id: 'c1',
  serverId: 'fs',
  serverName: 'fs',
  tool: 'write_file',
  qualifiedName: 'mcp__fs__write_file',
  annotations: { destructiveHint: true, idempotentHint: true },
  serverTrusted: false,
  reason: 'it would change files in the workspace',
  args: { path: '/w/notes.txt', content: 'a\nb\n', mode: 420 },
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string', description: 'Where' }, content: { type: 'string' }, mode: { type: 'number' }, tags: { type: 'array' } },
    required: ['path', 'content'],
  },
  preview: { changes: [{ path: '/w/notes.txt', kind: 'modify' }], diff: 'Index: /w/notes.txt\n===\n--- /w/notes.txt\n+++ /w/notes.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n' },
  createdAt: 1,
  caller: 'chat',
};

describe('approval drafts', () => {
  it('makes one field per argument: schema order, strings as text, the rest as JSON, absent optional ones empty', () => {
    const draft = draftOf(card);
    assert.deepEqual(draft.fields.map((f) => [f.name, f.kind, f.value, f.required, f.present]), [
      ['path', 'text', '/w/notes.txt', true, true],
      ['content', 'text', 'a\nb\n', true, true],
      ['mode', 'json', '420', false, true],
      ['tags', 'json', '', false, false],
    ]);
    assert.equal(draft.fields[0]?.description, 'Where');
    assert.equal(draft.edited, false);
  });

  it('turns the fields back into arguments: absent stays absent, JSON parsed, a bad JSON field named', () => {
    const draft = draftOf(card);
    assert.deepEqual(argumentsOf(draft), { ok: true, args: card.args });
    const edited = withField(withField(draft, 'content', 'new'), 'tags', '["x"]');
    assert.equal(edited.edited, true);
    assert.deepEqual(argumentsOf(edited), { ok: true, args: { path: '/w/notes.txt', content: 'new', mode: 420, tags: ['x'] } });
    const broken = argumentsOf(withField(draft, 'mode', '{'));
    assert.equal(broken.ok, false);
    assert.match(!broken.ok ? broken.errors.get('mode') ?? '' : '', /^not valid JSON/);
  });

  it('keeps an empty string the caller sent, and an arguments-less call when a field of an extra argument is emptied', () => {
    const draft = draftOf({ ...card, args: { path: '', content: 'x', extra: 1 } });
    assert.deepEqual(argumentsOf(draft), { ok: true, args: { path: '', content: 'x', extra: 1 } });
    assert.deepEqual(argumentsOf(withField(draft, 'extra', ' ')), { ok: true, args: { path: '', content: 'x' } });
  });

  it('files the extension\'s problems under the argument they are about, the rest under ""', () => {
    const byField = problemsByField([
      { path: '/content', message: 'must be string' },
      { path: '/tags/0', message: 'must be string' },
      { path: '/a~1b', message: 'is not a parameter of this tool' },
      { path: '', message: 'must be object' },
    ]);
    assert.deepEqual(Object.fromEntries(byField), {
      content: ['must be string'],
      tags: ['/0: must be string'],
      'a/b': ['is not a parameter of this tool'],
      '': ['must be object'],
    });
  });
});

describe('approval card render', () => {
  useDom();
  let approvals: ApprovalsModule;
  let history: HistoryModule;

  before(async () => {
    approvals = await import('../../../webview/approvals');
    history = await import('../../../webview/history');
  });

  function recorder(): { actions: ApprovalActions & HistoryActions; calls: unknown[][] } {
    const calls: unknown[][] = [];
    return {
      calls,
      actions: {
        editArgument: (...a) => calls.push(['editArgument', ...a]),
        editReason: (...a) => calls.push(['editReason', ...a]),
        chooseRule: (...a) => calls.push(['chooseRule', ...a]),
        answer: (...a) => calls.push(['answer', ...a]),
        showWholeDiff: (...a) => calls.push(['showWholeDiff', ...a]),
        openDiff: (...a) => calls.push(['openDiff', ...a]),
        setMode: (...a) => calls.push(['setMode', ...a]),
        revokeRule: (...a) => calls.push(['revokeRule', ...a]),
        filterHistory: (...a) => calls.push(['filterHistory', ...a]),
        exportHistory: () => calls.push(['exportHistory']),
        clearHistory: () => calls.push(['clearHistory']),
      },
    };
  }
  const byTestId = (root: Element, id: string): HTMLElement[] => [...root.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];

  it('shows who calls what and why, the hints (noting an untrusted server), labelled fields and the diff without its Index header', () => {
    const { actions } = recorder();
    const element = mount(approvals.approvalCard(card, draftOf(card), actions));
    assert.equal(byTestId(element, 'approval-tool')[0]?.textContent, 'write_file');
    assert.equal(byTestId(element, 'approval-qualified')[0]?.textContent, 'mcp__fs__write_file');
    assert.match(byTestId(element, 'approval-reason')[0]?.textContent ?? '', /Why it asks: it would change files in the workspace/);
    const hints = byTestId(element, 'approval-hints')[0];
    assert.deepEqual([...hints?.querySelectorAll('.hint-badge') ?? []].map((b) => b.textContent), ['destructive', 'idempotent']);
    assert.match(hints?.textContent ?? '', /hints of a server you have not trusted/);
    const fields = byTestId(element, 'approval-arg') as HTMLTextAreaElement[];
    assert.deepEqual(fields.map((f) => f.dataset.arg), ['path', 'content', 'mode', 'tags']);
    for (const field of fields) assert.equal(element.querySelector(`label[for="${field.id}"]`) !== null, true, `${field.dataset.arg} has a label`);
    assert.equal(fields[1]?.value, 'a\nb\n');
    const lines = [...byTestId(element, 'approval-diff')[0]?.querySelectorAll('.diff-line') ?? []].map((l) => [l.className.split(' ')[1], l.textContent?.trimEnd()]);
    assert.deepEqual(lines, [
      ['diff-file', '--- /w/notes.txt'], ['diff-file', '+++ /w/notes.txt'], ['diff-hunk', '@@ -1,2 +1,2 @@'],
      ['diff-context', ' a'], ['diff-remove', '-b'], ['diff-add', '+B'],
    ]);
  });

  it('turns typing, Open Diff and every answer button into actions', async () => {
    const { actions, calls } = recorder();
    const element = mount(approvals.approvalCard(card, draftOf(card), actions));
    document.body.replaceChildren(element);
    const content = element.querySelector<HTMLTextAreaElement>('[data-arg="content"] textarea');
    assert.ok(content);
    content.value = 'changed';
    content.dispatchEvent(new Event('input'));
    const reason = byTestId(element, 'approval-reason-input')[0] as HTMLInputElement;
    reason.value = 'no';
    reason.dispatchEvent(new Event('input'));
    byTestId(element, 'approval-open-diff')[0]?.click();
    for (const id of ['approval-approve', 'approval-approveForSession', 'approval-alwaysWorkspace', 'approval-alwaysGlobal', 'approval-reject']) byTestId(element, id)[0]?.click();
    await settle();
    assert.deepEqual(calls, [
      ['editArgument', 'c1', 'content', 'changed'],
      ['editReason', 'c1', 'no'],
      ['openDiff', 'c1', 0],
      ['answer', 'c1', 'approve'], ['answer', 'c1', 'approveForSession'], ['answer', 'c1', 'alwaysWorkspace'], ['answer', 'c1', 'alwaysGlobal'], ['answer', 'c1', 'reject'],
    ]);
    assert.deepEqual(approvals.ANSWER_REMEMBER, { approve: undefined, approveForSession: 'session', alwaysWorkspace: 'workspace', alwaysGlobal: 'global' });
  });

  it('shows a problem at its field (aria-invalid, described by the message) and blocks approving but not rejecting', () => {
    const { actions } = recorder();
    const draft = { ...withField(draftOf(card), 'mode', 'nope'), problems: [{ path: '/path', message: 'is required' }, { path: '/extra', message: 'is not a parameter of this tool' }] };
    const element = mount(approvals.approvalCard(card, draft, actions));
    const field = (name: string) => element.querySelector<HTMLElement>(`[data-testid="approval-field"][data-arg="${name}"]`);
    const path = field('path')?.querySelector('textarea');
    assert.equal(path?.getAttribute('aria-invalid'), 'true');
    assert.equal(element.querySelector(`#${path?.getAttribute('aria-describedby') ?? 'none'}`)?.textContent, 'is required');
    assert.match(field('mode')?.querySelector('[data-testid="approval-field-error"]')?.textContent ?? '', /^not valid JSON/);
    assert.equal(field('content')?.querySelector('[data-testid="approval-field-error"]'), null);
    assert.deepEqual(byTestId(element, 'approval-problems').map((p) => p.textContent), ['extra: is not a parameter of this tool']);
    for (const id of ['approval-approve', 'approval-alwaysGlobal']) assert.equal(byTestId(element, id)[0]?.hasAttribute('disabled'), true);
    assert.equal(byTestId(element, 'approval-reject')[0]?.hasAttribute('disabled'), false);
  });

  it('flags a write the server would refuse and paths outside every root', () => {
    const { actions } = recorder();
    const refused = { ...card, preview: { changes: [], diff: '', error: 'Access denied - path outside allowed directories', outsideRoots: ['/etc/passwd'] } };
    const element = mount(approvals.approvalCard(refused, draftOf(refused), actions));
    assert.match(byTestId(element, 'approval-preview-error')[0]?.textContent ?? '', /The server would refuse this call: Access denied/);
    assert.match(byTestId(element, 'approval-outside-roots')[0]?.textContent ?? '', /\/etc\/passwd/);
    assert.equal(byTestId(element, 'approval-diff').length, 0);
  });

  it('lists rules with where they came from, each revocable', () => {
    const { actions, calls } = recorder();
    const rules: RuleRow[] = [{ id: 'k1', effect: 'allow', server: 'ci', tool: 'shell', signatures: ['npm run build'], scope: 'global', createdAt: 0, origin: '"Always allow (everywhere)" on `npm run build`', description: 'allow "npm run build" in tool "shell" of server "ci" (everywhere)' }];
    const element = mount(history.rulesList(rules, actions));
    const row = byTestId(element, 'rule-row')[0];
    assert.equal(row?.dataset.scope, 'global');
    assert.match(row?.textContent ?? '', /Allow shell of ci · everywhere/);
    assert.match(row?.textContent ?? '', /Commands: npm run build/);
    byTestId(element, 'rule-revoke')[0]?.click();
    assert.deepEqual(calls, [['revokeRule', 'k1']]);
  });

  it('filters the history by words and by decision', () => {
    const row = (partial: Partial<HistoryRow> & Pick<HistoryRow, 'id'>): HistoryRow => ({
      at: 0, server: 'fs', tool: 'write_file', argsText: '{}', decision: 'ask', ran: true, decidedBy: 'you (Approve)', reason: 'r', caller: 'chat', ...partial,
    });
    const rows = [
      row({ id: 'a', tool: 'read_file', decision: 'allow', decidedBy: "the tool's hints" }),
      row({ id: 'b', decidedBy: 'you (Reject)', ran: false, error: 'rejected by the person: no' }),
      row({ id: 'c', server: 'memory', tool: 'create_entities', decision: 'deny', ran: false, error: 'refused by your rule' }),
    ];
    const ids = (filter: Parameters<HistoryModule['filterHistory']>[1]) => history.filterHistory(rows, filter).map((r) => r.id);
    assert.deepEqual(ids({ text: '', decision: 'all' }), ['a', 'b', 'c']);
    assert.deepEqual(ids({ text: 'reject', decision: 'all' }), ['b']);
    assert.deepEqual(ids({ text: 'write file', decision: 'all' }), ['b'], 'each word matches anywhere');
    assert.deepEqual(ids({ text: 'write memory', decision: 'all' }), [], 'every word must match');
    assert.deepEqual(ids({ text: 'memory entities', decision: 'all' }), ['c']);
    assert.deepEqual(ids({ text: '', decision: 'errors' }), ['b', 'c']);
    assert.deepEqual(ids({ text: '', decision: 'allow' }), ['a']);
    const { actions, calls } = recorder();
    const element = mount(history.historyList(rows, { text: 'reject', decision: 'all' }, actions));
    assert.equal(byTestId(element, 'history-row').length, 1);
    assert.equal(byTestId(element, 'history-count')[0]?.textContent, '1 of 3 calls');
    assert.equal(byTestId(mount(history.historyList(rows.slice(0, 1), { text: '', decision: 'all' }, actions)), 'history-count')[0]?.textContent, '1 call');
    byTestId(element, 'history-export')[0]?.click();
    assert.deepEqual(calls, [['exportHistory']]);
  });

  it('names the task of a call that ran as one, and finds the call by its task id', () => {
    const row = (partial: Partial<HistoryRow> & Pick<HistoryRow, 'id'>): HistoryRow => ({
      at: 0, server: 'tasks', tool: 'build', argsText: '{}', decision: 'ask', ran: true, decidedBy: 'you (Approve)', reason: 'r', caller: 'chat', ...partial,
    });
    const rows = [row({ id: 'a', taskId: '7c1e-42' }), row({ id: 'b' })];
    const { actions } = recorder();
    const element = mount(history.historyList(rows, { text: '', decision: 'all' }, actions));
    assert.deepEqual(byTestId(element, 'history-task').map((span) => span.textContent), [' · task 7c1e-42']);
    assert.deepEqual(history.filterHistory(rows, { text: '7c1e', decision: 'all' }).map((r) => r.id), ['a']);
  });

  it('shows the wait for the person and the run apart, and an older record\'s one total', () => {
    const row = (partial: Partial<HistoryRow>): HistoryRow => ({
      id: 'd', at: 0, server: 'fs', tool: 'write_file', argsText: '{}', decision: 'ask', ran: true, decidedBy: 'you (Approve)', reason: 'r', caller: 'chat', ...partial,
    });
    const { actions } = recorder();
    const words = (r: HistoryRow): string | null | undefined => byTestId(mount(history.historyList([r], { text: '', decision: 'all' }, actions)), 'history-durations')[0]?.textContent;
    assert.equal(words(row({ durationMs: 12_480, waitedMs: 12_400, ranMs: 80 })), ' · waited 12.4 s · ran 80 ms');
    assert.equal(words(row({ decision: 'allow', durationMs: 95, ranMs: 90 })), ' · ran 90 ms');
    assert.equal(words(row({ ran: false, durationMs: 3000, waitedMs: 2990 })), ' · waited 3.0 s');
    assert.equal(words(row({ durationMs: 1500 })), ' · 1.5 s');
    assert.equal(words(row({})), undefined);
  });
});
