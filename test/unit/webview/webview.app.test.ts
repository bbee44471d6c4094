// The whole sidebar app in a real DOM (happy-dom), talking to a host double that keeps the page state
// as VS Code does (JSON): what the person types into a card survives a new snapshot (the same field,
// focus and caret untouched) and the page being hidden and shown again (a new page reads the state);
// Approve is one request, and arguments that do not fit come back at their fields.
import * as assert from 'node:assert/strict';
import { EMPTY_APPROVALS_VIEW, type ApprovalCard } from '../../../src/protocol/approvals';
import type { SidebarSnapshot } from '../../../src/protocol/sidebar';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../../src/protocol/sidebarMessages';
import type { Host } from '../../../webview/host';
import { settle, useDom } from './dom';

type AppModule = typeof import('../../../webview/app');

const card = (id: string): ApprovalCard => ({
  id,
  serverId: 'fs',
  serverName: 'fs',
  tool: 'write_file',
  qualifiedName: 'mcp__fs__write_file',
  serverTrusted: true,
  reason: 'it would change files in the workspace',
  args: { path: '/w/notes.txt', content: 'one\ntwo\n' },
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
  createdAt: 1,
  caller: 'chat',
});

const snapshotWith = (cards: ApprovalCard[], generatedAt: number): SidebarSnapshot => ({
  servers: [], shadowed: [], problems: [], elicitations: [], sampling: [], generatedAt,
  approvals: { ...EMPTY_APPROVALS_VIEW, pending: cards },
});

/** A host double: what the page posts, and its state kept as VS Code keeps it (a JSON copy). */
class FakeHost implements Host {
  readonly posted: WebviewToHostMessage[] = [];
  private listener: ((message: HostToWebviewMessage) => void) | undefined;
  constructor(public stored: unknown = undefined) {}
  post(message: WebviewToHostMessage): void {
    this.posted.push(message);
  }
  getState(): unknown {
    return this.stored;
  }
  setState(state: unknown): void {
    this.stored = JSON.parse(JSON.stringify(state)) as unknown;
  }
  onMessage(listener: (message: HostToWebviewMessage) => void): void {
    this.listener = listener;
  }
  send(message: HostToWebviewMessage): void {
    this.listener?.(message);
  }
}

describe('webview app: drafts and answers', () => {
  useDom();
  let app: AppModule;

  before(async () => {
    app = await import('../../../webview/app');
  });

  const page = (host: FakeHost): HTMLElement => {
    const root = document.createElement('main');
    document.body.replaceChildren(root);
    app.startApp(root, host);
    return root;
  };
  const field = (root: HTMLElement, id: string, name: string) =>
    root.querySelector<HTMLTextAreaElement>(`[data-approval-id="${id}"] [data-testid="approval-arg"][data-arg="${name}"]`);
  const type = (element: HTMLInputElement | HTMLTextAreaElement, text: string): void => {
    element.value = text;
    element.dispatchEvent(new Event('input', { bubbles: true }));
  };

  it('keeps an edited argument, its focus and caret across a new snapshot, and after the page is hidden and shown', async () => {
    const host = new FakeHost();
    const root = page(host);
    assert.deepEqual(host.posted, [{ type: 'ready' }]);
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1')], 1) });

    const content = field(root, 'c1', 'content');
    assert.ok(content);
    content.focus();
    type(content, 'one\ntwo, edited\n');
    content.setSelectionRange(4, 7);
    type(root.querySelector<HTMLInputElement>('[data-testid="approval-reason-input"]')!, 'half a reason');

    // A newer card arrives: the first card's field is the same element, still focused, still edited.
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1'), card('c2')], 2) });
    await settle();
    assert.equal(field(root, 'c1', 'content'), content, 'the field was updated in place, not rebuilt');
    assert.equal(document.activeElement, content);
    assert.deepEqual([content.value, content.selectionStart, content.selectionEnd], ['one\ntwo, edited\n', 4, 7]);
    assert.equal(root.querySelector('[data-approval-id="c1"] legend')?.textContent, 'Arguments (edited)');
    assert.equal(field(root, 'c2', 'content')?.value, 'one\ntwo\n', 'the new card shows what its caller sent');

    // Hidden and shown again: VS Code loads a new page; it reads what the old one stored.
    const again = new FakeHost(host.stored);
    const shown = page(again);
    again.send({ type: 'snapshot', snapshot: snapshotWith([card('c1'), card('c2')], 3) });
    assert.equal(field(shown, 'c1', 'content')?.value, 'one\ntwo, edited\n');
    assert.equal(shown.querySelector<HTMLInputElement>('[data-approval-id="c1"] [data-testid="approval-reason-input"]')?.value, 'half a reason');
    assert.equal(shown.querySelector('[data-approval-id="c1"] legend')?.textContent, 'Arguments (edited)');

    // A card that no longer waits takes its draft with it.
    again.send({ type: 'snapshot', snapshot: snapshotWith([card('c2')], 4) });
    const stored = again.stored as { drafts?: Record<string, unknown> };
    assert.deepEqual(Object.keys(stored.drafts ?? {}), []);
  });

  it('ignores a stored state it does not understand', () => {
    const host = new FakeHost({ version: 1, collapsed: ['history'], drafts: { c1: { fields: 'not a list' } } });
    const root = page(host);
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1')], 1) });
    assert.equal(field(root, 'c1', 'content')?.value, 'one\ntwo\n');
    assert.equal(root.querySelector('[data-section="history"]')?.classList.contains('open'), false);
  });

  it('approves in one request; arguments that do not fit come back at their field and the card stays', async () => {
    const host = new FakeHost();
    const root = page(host);
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1')], 1) });
    type(field(root, 'c1', 'path')!, '');
    root.querySelector<HTMLButtonElement>('[data-testid="approval-approve"]')?.click();
    const requests = host.posted.filter((m) => m.type === 'request');
    assert.deepEqual(requests.map((m) => m.method), ['answerApproval']);
    const request = requests[0];
    assert.ok(request?.type === 'request' && request.method === 'answerApproval');
    assert.deepEqual(request.params, { approvalId: 'c1', answer: { kind: 'approve', args: { content: 'one\ntwo\n', path: '' } } });
    host.send({ type: 'response', id: request.id, method: 'answerApproval', result: { problems: [{ path: '/path', message: 'must not be empty' }] } });
    await settle();
    const error = root.querySelector('[data-testid="approval-field"][data-arg="path"] [data-testid="approval-field-error"]');
    assert.equal(error?.textContent, 'must not be empty');
    assert.ok(root.querySelector('[data-approval-id="c1"]'), 'the card still waits');
    assert.equal(root.querySelector<HTMLButtonElement>('[data-testid="approval-reject"]')?.disabled, false);
  });
  it('keeps the "covers" choice of a card in its draft, after a hide and show, and sends it with Always allow', () => {
    const narrowable: ApprovalCard = { ...card('c1'), args: { path: 'notes/a.md', content: 'x' }, ruleChoices: { paths: [{ argument: 'path', file: 'notes/a.md', folder: 'notes/' }] } };
    const host = new FakeHost();
    const root = page(host);
    host.send({ type: 'snapshot', snapshot: snapshotWith([narrowable], 1) });
    const choice = root.querySelector<HTMLSelectElement>('[data-testid="approval-rule-choice"]');
    assert.ok(choice);
    assert.equal(choice.value, 'tool');
    choice.value = 'folder';
    choice.dispatchEvent(new Event('change', { bubbles: true }));

    const again = new FakeHost(host.stored);
    const shown = page(again);
    again.send({ type: 'snapshot', snapshot: snapshotWith([narrowable], 2) });
    // The option the new page marks selected (happy-dom's select.value does not follow the markup; browsers do).
    assert.equal(shown.querySelector<HTMLOptionElement>('[data-testid="approval-rule-choice"] option[selected]')?.value, 'folder', 'the choice came back with the draft');
    shown.querySelector<HTMLButtonElement>('[data-testid="approval-alwaysWorkspace"]')?.click();
    const request = again.posted.find((m) => m.type === 'request');
    assert.ok(request?.type === 'request' && request.method === 'answerApproval');
    assert.deepEqual(request.params, { approvalId: 'c1', answer: { kind: 'approve', args: { path: 'notes/a.md', content: 'x' }, remember: 'workspace', narrow: { kind: 'folder' } } });
  });

  it('sends no narrowing with a plain Approve, whatever the menu says', () => {
    const narrowable: ApprovalCard = { ...card('c1'), args: { path: 'notes/a.md', content: 'x' }, ruleChoices: { paths: [{ argument: 'path', file: 'notes/a.md', folder: 'notes/' }] } };
    const host = new FakeHost();
    const root = page(host);
    host.send({ type: 'snapshot', snapshot: snapshotWith([narrowable], 1) });
    const choice = root.querySelector<HTMLSelectElement>('[data-testid="approval-rule-choice"]')!;
    choice.value = 'file';
    choice.dispatchEvent(new Event('change', { bubbles: true }));
    root.querySelector<HTMLButtonElement>('[data-testid="approval-approve"]')?.click();
    const request = host.posted.find((m) => m.type === 'request');
    assert.ok(request?.type === 'request' && request.method === 'answerApproval');
    assert.deepEqual(request.params, { approvalId: 'c1', answer: { kind: 'approve', args: { path: 'notes/a.md', content: 'x' } } });
  });
});
