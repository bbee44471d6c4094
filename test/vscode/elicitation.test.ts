// Elicitation in a real VS Code against the real server-everything: its trigger-elicitation-request
// asks for a form (every field kind), which waits as a card in the sidebar; the person's inputs are
// checked at their fields, and Submit, Decline and Cancel return to the server what they mean. Its
// trigger-url-elicitation asks to open a page, shown with its site and never opened by itself.
import * as assert from 'assert/strict';
import type { SwitchboardApi } from '../../src/extension';
import type { ElicitationCard, FormElicitationCard } from '../../src/protocol/elicitation';
import { sidebarRequest } from './approvalsSupport';
import { fixtureIsLoaded, switchboardApi, waitFor } from './configTestSupport';
import { waitForStates } from './lifecycleTestSupport';
import { sidebarSnapshot } from './userServersSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const ID = 'everything';

describe('elicitation', function () {
  ensureNoLeakedDisposables();
  this.timeout(60_000);
  let api: SwitchboardApi;

  const textOf = (result: { content: { type: string; text?: unknown }[] }): string => result.content.map((c) => String(c.text ?? '')).join('\n');
  const nextCard = (mode: ElicitationCard['mode']): Promise<ElicitationCard> =>
    waitFor(`a ${mode} elicitation`, async () => (await sidebarSnapshot()).elicitations.find((c) => c.mode === mode && c.serverId === ID), 15_000, 25);

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    await waitForStates(api, [ID, 'ok'], 'ready');
    await waitFor('the elicitation tools (registered for clients that declare elicitation)', () => api.getCatalog(ID)?.tools.some((t) => t.name === 'trigger-elicitation-request'), 15_000);
  });

  afterEach(async () => {
    // A failed test leaves no request behind for the next one.
    for (const card of (await sidebarSnapshot()).elicitations) {
      await sidebarRequest('answerElicitation', { elicitationId: card.id, action: 'cancel' }).catch(() => undefined);
    }
  });

  it('shows the requested schema as a form, without holding up any server: every kind, defaults, required fields, bounds and choices', async () => {
    const call = api.callTool(ID, 'trigger-elicitation-request', {});
    const card = await nextCard('form') as FormElicitationCard;
    // While it waits for the person, other servers (and this one) keep answering.
    assert.deepEqual((await api.callTool('ok', 'echo', { text: 'still here' })).content, [{ type: 'text', text: 'still here' }]);
    assert.deepEqual((await api.callTool(ID, 'echo', { message: 'me too' })).content, [{ type: 'text', text: 'Echo: me too' }]);
    assert.equal(card.serverName, 'everything');
    assert.equal(card.message, 'Please provide inputs for the following fields:');
    const field = (name: string) => card.fields.find((f) => f.name === name);
    assert.deepEqual([field('name')?.kind, field('name')?.required], ['string', true]);
    assert.equal(field('check')?.kind, 'boolean');
    assert.deepEqual([field('email')?.format, field('homepage')?.format, field('birthdate')?.format], ['email', 'uri', 'date']);
    assert.deepEqual([field('integer')?.kind, field('integer')?.minimum, field('integer')?.maximum, field('integer')?.default], ['integer', 1, 100, 42]);
    assert.equal(field('firstLine')?.default, 'It was a dark and stormy night.');
    assert.deepEqual(field('titledSingleSelectEnum')?.choices?.map((c) => c.title), ['Superman', 'Green Lantern', 'Wonder Woman']);
    assert.deepEqual(field('legacyTitledEnum')?.choices?.[1], { value: 'pet-2', title: 'Dogs' });
    assert.deepEqual([field('titledMultipleSelectEnum')?.kind, field('titledMultipleSelectEnum')?.minItems, field('titledMultipleSelectEnum')?.maxItems], ['multiEnum', 1, 3]);

    // Checked at the field: a missing required name, an integer out of range, too many choices, a bad email.
    const { problems } = await sidebarRequest('checkElicitation', {
      elicitationId: card.id,
      values: { name: '', integer: '500', titledMultipleSelectEnum: ['fish-1', 'fish-2', 'fish-3', 'fish-4'], email: 'not-an-email' },
    });
    const at = Object.fromEntries(problems.map((p) => [p.path, p.message]));
    assert.match(at['/name'] ?? '', /required/);
    assert.match(at['/integer'] ?? '', /at most 100/);
    assert.match(at['/email'] ?? '', /email/);
    // A submit with problems sends nothing: the card stays.
    const refused = await sidebarRequest('answerElicitation', { elicitationId: card.id, action: 'accept', values: { name: '' } });
    assert.ok(refused.problems.some((p) => p.path === '/name'));
    assert.equal((await sidebarSnapshot()).elicitations.length, 1);

    const accepted = await sidebarRequest('answerElicitation', {
      elicitationId: card.id,
      action: 'accept',
      values: { name: 'Ada Lovelace', check: true, email: 'ada@example.com', integer: '7', number: '2.5', titledSingleSelectEnum: 'hero-3', titledMultipleSelectEnum: ['fish-2'], untitledMultipleSelectEnum: ['Piano', 'Drums'] },
    });
    assert.deepEqual(accepted.problems, []);
    const text = textOf(await call);
    assert.match(text, /User provided the requested information/);
    assert.match(text, /- Name: Ada Lovelace/);
    assert.match(text, /- Agreed to terms: true/);
    assert.match(text, /- Favorite Integer: 7/);
    const raw = JSON.parse(text.slice(text.indexOf('Raw result: ') + 'Raw result: '.length)) as { content: Record<string, unknown> };
    assert.equal(raw.content.titledSingleSelectEnum, 'hero-3');
    assert.deepEqual(raw.content.titledMultipleSelectEnum, ['fish-2']);
    assert.deepEqual(raw.content.untitledMultipleSelectEnum, ['Piano', 'Drums']);
    assert.equal(raw.content.number, 2.5);
    assert.deepEqual((await sidebarSnapshot()).elicitations, []);
  });

  it('returns decline and cancel as the server expects them', async () => {
    for (const [action, words] of [['decline', /User declined/], ['cancel', /User cancelled/]] as const) {
      const call = api.callTool(ID, 'trigger-elicitation-request', {});
      const card = await nextCard('form');
      await sidebarRequest('answerElicitation', { elicitationId: card.id, action });
      assert.match(textOf(await call), words);
    }
  });

  it('shows a page to open with its site, and declining it opens nothing', async () => {
    const call = api.callTool(ID, 'trigger-url-elicitation', { url: 'https://login.example.com/device?code=42', message: 'Finish signing in' });
    const card = await nextCard('url');
    assert.equal(card.mode, 'url');
    if (card.mode !== 'url') return;
    assert.equal(card.message, 'Finish signing in');
    assert.equal(card.host, 'login.example.com');
    assert.equal(card.openable, true);
    await sidebarRequest('answerElicitation', { elicitationId: card.id, action: 'decline' });
    assert.match(textOf(await call), /decline/i);
  });

  it('answers nothing twice: a late answer is refused', async () => {
    const call = api.callTool(ID, 'trigger-elicitation-request', {});
    const card = await nextCard('form');
    await sidebarRequest('answerElicitation', { elicitationId: card.id, action: 'cancel' });
    await call;
    await assert.rejects(sidebarRequest('answerElicitation', { elicitationId: card.id, action: 'accept', values: {} }), /no longer waits/);
  });
});
