// Elicitation in the core: the schema-to-form mapping for every supported type, the person's inputs
// turned into the content a server gets (problems at their field), the page a URL elicitation opens,
// and the broker's waiting and cancelling.
import * as assert from 'node:assert/strict';
import { DEFAULT_ELICITATION_LIMIT, ElicitationBroker, ElicitationCancelledError, ElicitationRateLimit, formAnswer, toElicitationCards, tooManyElicitations, urlTarget, type Elicitation } from '../../src/core/elicitation';
import { FakeClock } from './helpers/lifecycle';
import { fieldText, formFields, parseFieldInput } from '../../src/core/schema/formFields';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    agree: { type: 'boolean', default: false },
    color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
    hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }, { const: 'h2', title: 'Batman' }] },
    tags: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['a', 'b', 'c'] } },
    fish: { type: 'array', items: { anyOf: [{ const: 'f1', title: 'Tuna' }, { const: 'f2', title: 'Trout' }] } },
    extra: { type: 'object' },
  },
  required: ['name', 'tags'],
} as const;

describe('elicitation forms', () => {
  const fields = formFields(schema);
  const field = (name: string) => fields.find((f) => f.name === name)!;

  it('maps every supported type to a field kind, with bounds, defaults and choices', () => {
    assert.deepEqual(fields.map((f) => [f.name, f.kind, f.required]), [
      ['name', 'string', true], ['email', 'string', false], ['age', 'integer', false], ['ratio', 'number', false],
      ['agree', 'boolean', false], ['color', 'enum', false], ['hero', 'enum', false], ['tags', 'multiEnum', true],
      ['fish', 'multiEnum', false], ['extra', 'json', false],
    ]);
    assert.equal(field('name').title, 'Name');
    assert.equal(field('email').format, 'email');
    assert.deepEqual([field('age').minimum, field('age').maximum, field('age').default], [0, 150, 30]);
    assert.deepEqual(field('color').choices, [{ value: 'r', title: 'Red' }, { value: 'g', title: 'Green' }]);
    assert.deepEqual(field('hero').choices?.map((c) => c.title), ['Superman', 'Batman']);
    assert.deepEqual([field('tags').minItems, field('tags').maxItems, field('tags').choices?.map((c) => c.value)], [1, 2, ['a', 'b', 'c']]);
    assert.deepEqual(field('fish').choices, [{ value: 'f1', title: 'Tuna' }, { value: 'f2', title: 'Trout' }]);
  });

  it('reads several choices typed as text (for the palette form) and shows them back', () => {
    assert.deepEqual(parseFieldInput(field('fish'), 'Tuna, f2'), { value: ['f1', 'f2'] });
    assert.deepEqual(parseFieldInput(field('tags'), 'a, b, c'), { error: 'tags: choose at most 2' });
    assert.deepEqual(parseFieldInput(field('fish'), 'Carp'), { error: 'fish: "Carp" is not one of Tuna, Trout' });
    assert.equal(fieldText(field('fish'), ['f1', 'f2']), 'Tuna, Trout');
  });

  it('turns the inputs into content: numbers parsed, a checkbox as it is, several choices as values', () => {
    const answer = formAnswer(fields, schema, { name: 'Ada', email: 'ada@example.com', age: '36', ratio: '0.5', agree: true, color: 'g', hero: 'h2', tags: ['a', 'c'], fish: [], extra: '{"k":1}' });
    assert.deepEqual(answer, { ok: true, content: { name: 'Ada', email: 'ada@example.com', age: 36, ratio: 0.5, agree: true, color: 'g', hero: 'h2', tags: ['a', 'c'], extra: { k: 1 } } });
  });

  it('leaves out optional fields left empty', () => {
    assert.deepEqual(formAnswer(fields, schema, { name: 'Ada', tags: ['b'] }), { ok: true, content: { name: 'Ada', tags: ['b'] } });
  });

  it('puts each problem at its field: required, bounds, whole numbers, choices, formats, length, JSON', () => {
    const answer = formAnswer(fields, schema, { name: 'A', email: 'nope', age: '3.5', ratio: '2', tags: [], extra: '{' });
    assert.equal(answer.ok, false);
    const at = Object.fromEntries(!answer.ok ? answer.problems.map((p) => [p.path, p.message]) : []);
    assert.deepEqual(Object.keys(at).sort(), ['/age', '/email', '/extra', '/name', '/ratio', '/tags']);
    assert.match(at['/name'] ?? '', /at least 2 characters/);
    assert.match(at['/email'] ?? '', /email/);
    assert.match(at['/age'] ?? '', /whole number/);
    assert.match(at['/ratio'] ?? '', /at most 1/);
    assert.match(at['/tags'] ?? '', /choose at least 1/);
    assert.match(at['/extra'] ?? '', /must be JSON/);
  });

  it('never sends a choice that is not offered', () => {
    const answer = formAnswer(fields, schema, { name: 'Ada', tags: ['zzz'] });
    assert.equal(answer.ok, false);
  });
});

describe('elicitation pages and cards', () => {
  it('opens only web pages without credentials, and names the site', () => {
    assert.deepEqual(urlTarget('https://login.example.com/device?code=1'), { href: 'https://login.example.com/device?code=1', scheme: 'https:', host: 'login.example.com', openable: true });
    assert.equal(urlTarget('https://xn--pypal-4ve.com/').host, 'xn--pypal-4ve.com', 'an international look-alike shows as punycode');
    assert.equal(urlTarget('https://раураl.com/').host, 'xn--l-7sba6dbr.com');
    assert.deepEqual([urlTarget('file:///etc/passwd').openable, urlTarget('file:///etc/passwd').problem], [false, 'a file: link is not a web page']);
    assert.equal(urlTarget('javascript:alert(1)').openable, false);
    assert.equal(urlTarget('https://user:pw@example.com/').openable, false);
    assert.equal(urlTarget('not a url').problem, 'not a valid URL');
  });

  it('projects pending requests onto cards with the server name and hidden characters made visible', () => {
    const requests: Elicitation[] = [
      { id: 'e1', serverId: 'ws/docs', message: 'Pick\u200b one', createdAt: 1, mode: 'form', requestedSchema: schema, fields: formFields(schema) },
      { id: 'e2', serverId: 'pay', message: 'Pay', createdAt: 2, mode: 'url', url: 'http://user@pay.example/', elicitationId: 'x' },
    ];
    const cards = toElicitationCards(requests, (id) => (id === 'ws/docs' ? 'docs' : id));
    assert.equal(cards[0]?.serverName, 'docs');
    assert.equal(cards[0]?.message, 'Pick\\u{200B} one');
    assert.equal(cards[0]?.mode === 'form' && cards[0].fields.length, 10);
    assert.deepEqual(cards[1]?.mode === 'url' && [cards[1].host, cards[1].openable, cards[1].problem], ['pay.example', false, 'the link carries a user name or password']);
    assert.deepEqual(JSON.parse(JSON.stringify(cards)), cards);
  });

  it('waits for an answer, and a request the server withdraws rejects and is gone', async () => {
    const broker = new ElicitationBroker();
    const request: Elicitation = { id: 'e1', serverId: 's', message: 'm', createdAt: 0, mode: 'url', url: 'https://a.example', elicitationId: 'x' };
    const answered = broker.ask(request);
    assert.equal(broker.answer('e1', { action: 'decline' }), true);
    assert.deepEqual(await answered, { action: 'decline' });
    const controller = new AbortController();
    const withdrawn = broker.ask({ ...request, id: 'e2' }, controller.signal);
    controller.abort();
    await assert.rejects(withdrawn, (error: unknown) => error instanceof ElicitationCancelledError && /withdrew/.test(error.message));
    assert.deepEqual(broker.pending(), []);
    assert.equal(broker.answer('e2', { action: 'cancel' }), false);
    broker.dispose();
  });
});

describe('elicitation rate limit', () => {
  it('lets a server ask 10 times a minute by default, then says how long to wait, per server', () => {
    const clock = new FakeClock();
    const limit = new ElicitationRateLimit(clock);
    assert.deepEqual(DEFAULT_ELICITATION_LIMIT, { limit: 10, windowMs: 60_000 });
    for (let i = 0; i < 10; i++) assert.deepEqual(limit.take('ws/flood'), { ok: true }, `request ${i + 1}`);
    clock.advance(15_000);
    assert.deepEqual(limit.take('ws/flood'), { ok: false, retryInMs: 45_000 });
    assert.deepEqual(limit.take('ws/other'), { ok: true }, 'another server has its own count');
    clock.advance(45_000);
    assert.deepEqual(limit.take('ws/flood'), { ok: true }, 'the oldest left the window');
  });

  it('refuses with a sentence naming the server and the wait', () => {
    assert.equal(tooManyElicitations('flood', 44_001).message, 'too many elicitation requests from "flood": try again in 45 s');
  });
});
