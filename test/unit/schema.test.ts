// JSON Schema as a form: fields from an object schema, what typed text becomes, and argument problems
// reported at the field that is wrong.
import * as assert from 'node:assert/strict';
import { fieldText, formFields, holdsText, parseFieldInput, type FormField } from '../../src/core/schema/formFields';
import { formatProblems, validateArguments } from '../../src/core/schema/validateArguments';

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Where to write', minLength: 1 },
    count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ratio: { type: 'number' },
    force: { type: 'boolean', title: 'Force it' },
    mode: { type: 'string', enum: ['fast', 'safe'], enumNames: ['Fast', 'Safe'] },
    level: { oneOf: [{ const: 1, title: 'Low' }, { const: 2, title: 'High' }] },
    tags: { type: 'array', items: { type: 'string' } },
    note: { type: ['string', 'null'], pattern: '^[a-z]+$' },
    email: { type: 'string', format: 'email' },
  },
  required: ['path', 'force'],
  additionalProperties: false,
};

function field(name: string): FormField {
  const found = formFields(schema).find((f) => f.name === name);
  assert.ok(found, name);
  return found;
}

describe('formFields', () => {
  it('maps every supported type, in the schema order, with required, defaults, titles and bounds', () => {
    assert.deepEqual(formFields(schema).map((f) => [f.name, f.kind, f.required]), [
      ['path', 'string', true], ['count', 'integer', false], ['ratio', 'number', false], ['force', 'boolean', true],
      ['mode', 'enum', false], ['level', 'enum', false], ['tags', 'json', false], ['note', 'string', false], ['email', 'string', false],
    ]);
    assert.equal(field('force').title, 'Force it');
    assert.equal(field('count').default, 3);
    assert.deepEqual([field('count').minimum, field('count').maximum], [1, 10]);
    assert.deepEqual(field('mode').choices, [{ value: 'fast', title: 'Fast' }, { value: 'safe', title: 'Safe' }]);
    assert.deepEqual(field('level').choices, [{ value: 1, title: 'Low' }, { value: 2, title: 'High' }]);
    assert.equal(field('email').format, 'email');
    assert.equal(field('path').description, 'Where to write');
  });

  it('gives no fields for a schema without properties', () => {
    assert.deepEqual(formFields({ type: 'object' }), []);
    assert.deepEqual(formFields({}), []);
  });
});

describe('holdsText: which strings get a multi-line field', () => {
  const fields = formFields({
    type: 'object',
    properties: {
      content: { type: 'string' },
      body: { type: 'string', maxLength: 10000 },
      name: { type: 'string', maxLength: 40 },
      email: { type: 'string', format: 'email' },
      id: { type: 'string', pattern: '^[a-z]+$' },
      mode: { type: 'string', enum: ['a', 'b'] },
      count: { type: 'integer' },
      tags: { type: 'array' },
    },
  });
  const byName = (name: string): FormField => fields.find((f) => f.name === name)!;

  it('a plain string, or one with a long maxLength, may hold text', () => {
    assert.equal(holdsText(byName('content')), true);
    assert.equal(holdsText(byName('body')), true);
  });

  it('a short maxLength, a format, a pattern, a choice and every other kind stay one line', () => {
    for (const name of ['name', 'email', 'id', 'mode', 'count', 'tags']) assert.equal(holdsText(byName(name)), false, name);
  });
});

describe('parseFieldInput', () => {
  const cases: [string, string, unknown][] = [
    ['path', 'a.txt', { value: 'a.txt' }],
    ['path', '', { error: 'path is required' }],
    ['count', ' 4 ', { value: 4 }],
    ['count', '4.5', { error: 'count must be a whole number' }],
    ['count', '0', { error: 'count must be at least 1' }],
    ['count', '11', { error: 'count must be at most 10' }],
    ['count', '', { empty: true }],
    ['ratio', '0.25', { value: 0.25 }],
    ['ratio', 'lots', { error: 'ratio must be a number' }],
    ['force', 'yes', { value: true }],
    ['force', 'off', { value: false }],
    ['force', 'maybe', { error: 'Force it must be true or false' }],
    ['force', '', { error: 'Force it is required' }],
    ['mode', 'Safe', { value: 'safe' }],
    ['mode', 'fast', { value: 'fast' }],
    ['mode', 'slow', { error: 'mode must be one of Fast, Safe' }],
    ['level', 'High', { value: 2 }],
    ['level', '1', { value: 1 }],
    ['tags', '["a","b"]', { value: ['a', 'b'] }],
    ['tags', '[a', { error: 'tags must be JSON (e.g. ["a", "b"] or {"key": 1})' }],
    ['note', 'abc', { value: 'abc' }],
    ['note', 'ABC', { error: 'note must match ^[a-z]+$' }],
  ];
  for (const [name, text, expected] of cases) {
    it(`${name} ← ${JSON.stringify(text)}`, () => {
      assert.deepEqual(parseFieldInput(field(name), text), expected);
    });
  }

  it('shows values as a field would', () => {
    assert.equal(fieldText(field('mode'), 'safe'), 'Safe');
    assert.equal(fieldText(field('tags'), ['x']), '["x"]');
    assert.equal(fieldText(field('count'), 3), '3');
    assert.equal(fieldText(field('path'), undefined), '');
  });
});

describe('validateArguments', () => {
  it('accepts valid arguments', () => {
    assert.deepEqual(validateArguments(schema, { path: 'a', force: false, count: 2, email: 'a@example.com' }), []);
  });

  it('reports each problem at its field: missing, wrong type, out of range, unknown, format', () => {
    const problems = validateArguments(schema, { count: 0, ratio: 'x', extra: 1, email: 'nope', path: 'p' });
    assert.deepEqual(formatProblems(problems).sort(), [
      '/count: must be >= 1',
      '/email: must match format "email"',
      '/extra: is not a parameter of this tool',
      '/force: is required',
      '/ratio: must be number',
    ]);
  });

  it('reports a non-object at the root', () => {
    assert.deepEqual(formatProblems(validateArguments({ type: 'object' }, [1])), ['(arguments): must be object']);
  });

  it('lets the server decide when the schema itself does not compile', () => {
    assert.deepEqual(validateArguments({ type: 'object', properties: { a: { type: 'no-such-type' } } }, { a: 1 }), []);
  });

  it('ignores a $schema it does not know', () => {
    assert.deepEqual(formatProblems(validateArguments({ $schema: 'https://json-schema.org/draft/2099/schema', type: 'object', required: ['a'] }, {})), ['/a: is required']);
  });
});
