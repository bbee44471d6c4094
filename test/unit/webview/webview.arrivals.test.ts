// The card a person waits for is in view: a new approval card is scrolled into view when it arrives,
// unless the person is typing in another card (then "1 new request above" appears, and clicking it
// scrolls there); the chat's "Show the approval card" scrolls to that card and focuses its first
// button. The whole app in a real DOM (happy-dom), where boxes are placed by hand: it lays nothing out.
import * as assert from 'node:assert/strict';
import { EMPTY_APPROVALS_VIEW, type ApprovalCard } from '../../../src/protocol/approvals';
import type { SidebarSnapshot } from '../../../src/protocol/sidebar';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../../src/protocol/sidebarMessages';
import type { Host } from '../../../webview/host';
import { settle, useDom } from './dom';

type AppModule = typeof import('../../../webview/app');
type ArrivalsModule = typeof import('../../../webview/arrivals');

const card = (id: string): ApprovalCard => ({
  id, serverId: 'fs', serverName: 'fs', tool: 'write_file', qualifiedName: 'mcp__fs__write_file', serverTrusted: true,
  reason: 'it would change files in the workspace', args: { path: '/w/notes.txt', content: 'one\n' },
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } }, createdAt: 1, caller: 'chat',
});

const snapshotWith = (cards: ApprovalCard[], generatedAt: number): SidebarSnapshot => ({
  servers: [], shadowed: [], problems: [], elicitations: [], sampling: [], generatedAt, approvals: { ...EMPTY_APPROVALS_VIEW, pending: cards },
});

class FakeHost implements Host {
  readonly posted: WebviewToHostMessage[] = [];
  private listener: ((message: HostToWebviewMessage) => void) | undefined;
  private stored: unknown;
  post(message: WebviewToHostMessage): void { this.posted.push(message); }
  getState(): unknown { return this.stored; }
  setState(state: unknown): void { this.stored = JSON.parse(JSON.stringify(state)) as unknown; }
  onMessage(listener: (message: HostToWebviewMessage) => void): void { this.listener = listener; }
  send(message: HostToWebviewMessage): void { this.listener?.(message); }
}

describe('webview: a card that arrives, and the chat\'s Show the approval card', () => {
  useDom();
  let app: AppModule;
  let arrivals: ArrivalsModule;
  /** Which cards were scrolled into view, in order. */
  let scrolled: string[];
  /** Where each card's box is, by id (happy-dom lays nothing out): below the view unless set. */
  let boxes: Map<string, { top: number; bottom: number }>;

  before(async () => {
    app = await import('../../../webview/app');
    arrivals = await import('../../../webview/arrivals');
  });

  beforeEach(() => {
    scrolled = [];
    boxes = new Map();
    const proto = HTMLElement.prototype as HTMLElement & { scrollIntoView(options?: unknown): void };
    proto.scrollIntoView = function scrollIntoView(this: HTMLElement) { scrolled.push(this.dataset.approvalId ?? this.dataset.testid ?? this.tagName); };
    proto.getBoundingClientRect = function getBoundingClientRect(this: HTMLElement): DOMRect {
      const box = boxes.get(this.dataset.approvalId ?? '') ?? { top: 0, bottom: 0 };
      return { top: box.top, bottom: box.bottom, left: 0, right: 100, width: 100, height: box.bottom - box.top, x: 0, y: box.top, toJSON: () => box } as DOMRect;
    };
  });

  const page = (host: FakeHost): HTMLElement => {
    const root = document.createElement('main');
    document.body.replaceChildren(root);
    app.startApp(root, host);
    return root;
  };
  const marker = (root: HTMLElement): HTMLButtonElement | null => root.querySelector<HTMLButtonElement>('[data-testid="new-requests"]');

  it('arrivalAction: nothing for a card in view, a marker while typing in another card, else a scroll', () => {
    assert.equal(arrivals.arrivalAction({ inView: true, typingElsewhere: true }), 'none');
    assert.equal(arrivals.arrivalAction({ inView: false, typingElsewhere: true }), 'mark');
    assert.equal(arrivals.arrivalAction({ inView: false, typingElsewhere: false }), 'scroll');
  });

  it('scrolls a new card into view when it arrives out of view; not the cards the page opened with, nor one in view', async () => {
    const host = new FakeHost();
    page(host);
    boxes.set('c1', { top: 900, bottom: 1300 });
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1')], 1) });
    assert.deepEqual(scrolled, [], 'the first snapshot is not an arrival');
    boxes.set('c2', { top: 1400, bottom: 1800 });
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1'), card('c2')], 2) });
    await settle();
    assert.deepEqual(scrolled, ['c2']);
    // Its top in view, its bottom below it (a tall card): the page does not move.
    boxes.set('c3', { top: 10, bottom: 2000 });
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1'), card('c2'), card('c3')], 3) });
    assert.deepEqual(scrolled, ['c2'], 'a card whose top is in view stays where it is');
  });

  it('while the person types in another card: no scroll, "1 new request above", and clicking it scrolls there', async () => {
    const host = new FakeHost();
    const root = page(host);
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1')], 1) });
    const reason = root.querySelector<HTMLInputElement>('[data-approval-id="c1"] [data-testid="approval-reason-input"]')!;
    reason.focus();
    boxes.set('c2', { top: -500, bottom: -100 });
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c2'), card('c1')], 2) });
    await settle();
    assert.deepEqual(scrolled, [], 'the page did not move under the caret');
    assert.equal(document.activeElement, reason, 'the focus stays where the person types');
    assert.equal(marker(root)?.textContent?.trim(), '1 new request above');
    boxes.set('c3', { top: -900, bottom: -600 });
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c3'), card('c2'), card('c1')], 3) });
    assert.equal(marker(root)?.textContent?.trim(), '2 new requests above');
    marker(root)!.click();
    await settle();
    assert.deepEqual(scrolled, ['c2']);
    assert.equal(marker(root), null, 'the marker is gone once clicked');
  });

  it('a marked card that is answered elsewhere leaves the marker', async () => {
    const host = new FakeHost();
    const root = page(host);
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1')], 1) });
    root.querySelector<HTMLInputElement>('[data-approval-id="c1"] [data-testid="approval-reason-input"]')!.focus();
    boxes.set('c2', { top: 2000, bottom: 2400 });
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1'), card('c2')], 2) });
    assert.equal(marker(root)?.textContent?.trim(), '1 new request below');
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1')], 3) });
    assert.equal(marker(root), null);
  });

  it('Show the approval card: scrolls to that card and focuses its first button, also when its snapshot comes after', async () => {
    const host = new FakeHost();
    const root = page(host);
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1'), card('c2')], 1) });
    host.send({ type: 'reveal', approvalId: 'c2' });
    assert.deepEqual(scrolled, ['c2']);
    const first = root.querySelector('[data-approval-id="c2"] button:not([disabled])');
    assert.ok(first);
    assert.equal(document.activeElement, first);
    // The chat's button can come before the snapshot that has the card.
    host.send({ type: 'reveal', approvalId: 'c3' });
    assert.deepEqual(scrolled, ['c2']);
    host.send({ type: 'snapshot', snapshot: snapshotWith([card('c1'), card('c2'), card('c3')], 2) });
    await settle();
    assert.equal(scrolled.at(-1), 'c3');
    assert.equal(document.activeElement, root.querySelector('[data-approval-id="c3"] button:not([disabled])'));
  });
});
