// Elicitation cards rendered into a real DOM (happy-dom): a form with the right control for each field
// kind, defaults filled in, problems at their field, answers as actions; a page to open with its site.
import * as assert from 'node:assert/strict';
import type { FormElicitationCard, UrlElicitationCard } from '../../../src/protocol/elicitation';
import type { ElicitationActions } from '../../../webview/elicitations';
import { useDom, mount } from './dom';

type Module = typeof import('../../../webview/elicitations');

const form: FormElicitationCard = {
  id: 'e1', serverId: 'everything', serverName: 'everything', message: 'Tell us', createdAt: 0, mode: 'form',
  fields: [
    { name: 'name', title: 'Name', kind: 'string', required: true },
    { name: 'email', title: 'Email', kind: 'string', required: false, format: 'email' },
    { name: 'born', title: 'Born', kind: 'string', required: false, format: 'date' },
    { name: 'age', title: 'Age', kind: 'integer', required: false, minimum: 1, maximum: 100, default: 42 },
    { name: 'agree', title: 'Agree', kind: 'boolean', required: false, default: true },
    { name: 'hero', title: 'Hero', kind: 'enum', required: false, default: 'h2', choices: [{ value: 'h1', title: 'Superman' }, { value: 'h2', title: 'Batman' }] },
    { name: 'fish', title: 'Fish', kind: 'multiEnum', required: false, minItems: 1, maxItems: 2, default: ['f1'], choices: [{ value: 'f1', title: 'Tuna' }, { value: 'f2', title: 'Trout' }] },
  ],
};

describe('elicitation card render', () => {
  useDom();
  let mod: Module;
  before(async () => { mod = await import('../../../webview/elicitations'); });

  function recorder(): { actions: ElicitationActions; calls: unknown[][] } {
    const calls: unknown[][] = [];
    return { calls, actions: { editElicitation: (...a) => calls.push(['edit', ...a]), answerElicitation: (...a) => calls.push(['answer', ...a]) } };
  }
  const input = (root: Element, name: string) => root.querySelector<HTMLElement>(`[data-testid="elicitation-input"][data-field="${name}"]`);

  it('gives each kind its control, labelled, with the defaults filled in', () => {
    const draft = mod.elicitationDraftOf(form);
    assert.deepEqual(draft.values, { name: '', email: '', born: '', age: '42', agree: true, hero: 'h2', fish: ['f1'] });
    const card = mount(mod.elicitationCard(form, draft, recorder().actions));
    assert.equal((input(card, 'email') as HTMLInputElement).type, 'email');
    assert.equal((input(card, 'born') as HTMLInputElement).type, 'date');
    const age = input(card, 'age') as HTMLInputElement;
    assert.deepEqual([age.type, age.min, age.max, age.step, age.value], ['number', '1', '100', '1', '42']);
    assert.equal((input(card, 'agree') as HTMLInputElement).checked, true);
    // The default is the option marked selected (happy-dom picks the wrong option of a select built
    // from parts; browsers follow the mark, as the e2e tier shows).
    assert.deepEqual([...(input(card, 'hero') as HTMLSelectElement).options].filter((o) => o.hasAttribute('selected')).map((o) => o.value), ['h2']);
    assert.equal(input(card, 'name')?.getAttribute('aria-required'), 'true');
    const boxes = [...input(card, 'fish')!.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')];
    assert.deepEqual(boxes.map((b) => [b.value, b.checked]), [['f1', true], ['f2', false]]);
    for (const name of ['name', 'email', 'age', 'hero']) assert.ok(card.querySelector(`label[for="${input(card, name)?.id}"]`), `${name} has a label`);
    assert.match(card.textContent ?? '', /Age \(1–100\)/);
    assert.match(card.textContent ?? '', /Fish \(choose 1–2\)/);
  });

  it('turns edits and the three answers into actions', () => {
    const { actions, calls } = recorder();
    const card = mount(mod.elicitationCard(form, mod.elicitationDraftOf(form), actions));
    const name = input(card, 'name') as HTMLInputElement;
    name.value = 'Ada';
    name.dispatchEvent(new Event('input'));
    const agree = input(card, 'agree') as HTMLInputElement;
    agree.checked = false;
    agree.dispatchEvent(new Event('change'));
    const trout = input(card, 'fish')!.querySelectorAll<HTMLInputElement>('input')[1]!;
    trout.checked = true;
    trout.dispatchEvent(new Event('change'));
    for (const action of ['accept', 'decline', 'cancel']) card.querySelector<HTMLElement>(`[data-testid="elicitation-${action}"]`)?.click();
    assert.deepEqual(calls, [
      ['edit', 'e1', 'name', 'Ada'], ['edit', 'e1', 'agree', false], ['edit', 'e1', 'fish', ['f1', 'f2']],
      ['answer', 'e1', 'accept'], ['answer', 'e1', 'decline'], ['answer', 'e1', 'cancel'],
    ]);
  });

  it('shows a problem at its field and marks the control invalid', () => {
    const draft = { ...mod.elicitationDraftOf(form), problems: [{ path: '/age', message: 'Age must be at most 100' }] };
    const card = mount(mod.elicitationCard(form, draft, recorder().actions));
    const age = input(card, 'age');
    assert.equal(age?.getAttribute('aria-invalid'), 'true');
    assert.equal(card.querySelector(`#${age?.getAttribute('aria-describedby') ?? 'x'}`)?.textContent, 'Age must be at most 100');
    assert.equal(input(card, 'name')?.getAttribute('aria-invalid'), null);
  });

  it('shows a page to open with its site set apart, and no Open for a link that may not be opened', () => {
    const page: UrlElicitationCard = { id: 'u1', serverId: 'pay', serverName: 'pay', message: 'Pay', createdAt: 0, mode: 'url', url: 'https://pay.example.com/checkout', host: 'pay.example.com', scheme: 'https:', openable: true };
    const card = mount(mod.elicitationCard(page, mod.elicitationDraftOf(page), recorder().actions));
    assert.equal(card.querySelector('[data-testid="elicitation-host"]')?.textContent, 'pay.example.com');
    assert.equal(card.querySelector('[data-testid="elicitation-url"] strong')?.textContent, 'pay.example.com');
    assert.equal(card.querySelector('[data-testid="elicitation-accept"]')?.textContent, 'Open in Browser');
    const unsafe = mount(mod.elicitationCard({ ...page, url: 'file:///etc/passwd', host: '', scheme: 'file:', openable: false, problem: 'a file: link is not a web page' }, mod.elicitationDraftOf(page), recorder().actions));
    assert.equal(unsafe.querySelector('[data-testid="elicitation-accept"]'), null);
    assert.match(unsafe.querySelector('[data-testid="elicitation-problem"]')?.textContent ?? '', /a file: link is not a web page/);
  });
});
