import * as assert from 'node:assert/strict';
import { CatalogLoader } from '../../src/core/lifecycle/catalog';
import { redactValue } from '../../src/core/lifecycle/redactConnection';
import { boundListing, refusalOf } from '../../src/core/lifecycle/toolBounds';
import type { ToolInfo } from '../../src/core/lifecycle/types';
import { boundedJsonText, MAX_SCANNED_CHARS, MAX_SCHEMA_DEPTH, measureJson } from '../../src/core/schema/jsonBounds';
import { FakeConnection, RecordingLog } from './helpers/lifecycle';

/** `{type: object, properties: {a: …}}` with `levels` property levels (2 levels of nesting each), built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

const tool = (name: string, extra: Partial<ToolInfo> = {}): ToolInfo => ({ name, inputSchema: { type: 'object' }, ...extra });

describe('tool bounds', () => {
  it('measures a value nested 10 000 levels deep without overflowing the stack', () => {
    const deep = nested(10_000);
    assert.throws(() => JSON.stringify(deep), RangeError, 'the fixture is deep enough to break a recursive walk');
    const measure = measureJson(deep);
    assert.equal(measure.depth, MAX_SCHEMA_DEPTH + 1, 'the walk stops one level past the bound');
    assert.equal(measureJson(nested(3)).depth, 7);
  });

  it('refuses a tool whose input schema, output schema or any other field is nested past the bound, and says which', () => {
    assert.equal(refusalOf(tool('deep', { inputSchema: nested(10_000) })), `its input schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
    assert.equal(refusalOf(tool('deep', { outputSchema: nested(10_000) })), `its output schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
    assert.equal(refusalOf(tool('deep', { _meta: nested(10_000) })), `its "_meta" field is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
    assert.equal(refusalOf(tool('ok', { inputSchema: nested(MAX_SCHEMA_DEPTH / 2 - 1) })), undefined, 'a schema at the bound is kept');
    assert.match(refusalOf(tool('edge', { inputSchema: nested(MAX_SCHEMA_DEPTH / 2) })) ?? '', /nested more than/);
  });

  it('refuses a schema holding more text than the poisoning scan reads', () => {
    const many = { type: 'object', properties: Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    assert.match(refusalOf(tool('many', { inputSchema: many })) ?? '', /holds more than 10000 names and texts/);
    const long = { type: 'object', properties: { a: { type: 'string', description: 'x'.repeat(MAX_SCANNED_CHARS + 1) } } };
    assert.match(refusalOf(tool('long', { inputSchema: long })) ?? '', /a text longer than 100000 characters/);
  });

  it('cuts a description or title longer than the scan reads to exactly that length, never splitting a character', () => {
    const description = `${'a'.repeat(MAX_SCANNED_CHARS - 1)}😀 and the rest the scan never reads`;
    const { items, refused, warnings } = boundListing('tools', [tool('long', { description, title: 't'.repeat(MAX_SCANNED_CHARS + 5) })]);
    assert.deepEqual(refused, []);
    assert.equal(items[0].description, 'a'.repeat(MAX_SCANNED_CHARS - 1));
    assert.equal(items[0].title?.length, MAX_SCANNED_CHARS);
    assert.equal(warnings.length, 2);
  });

  it('redactValue copies a value nested 10 000 deep, scrubbed, without overflowing the stack', () => {
    const deep = nested(10_000);
    (deep as { description?: string }).description = 'token SECRET-1234';
    const copy = redactValue(deep, ['SECRET-1234']) as { description: string; properties: unknown };
    assert.equal(copy.description, 'token ***');
    assert.equal(measureJson(copy, 100).depth, 101);
    assert.deepEqual(Object.keys(copy), ['type', 'properties', 'description'], 'keys keep their order');
  });

  it('writes JSON text of a value nested too deep for JSON.stringify', () => {
    const text = boundedJsonText(nested(10_000), 200);
    assert.ok(text.startsWith('{"type":"object","properties":{"a":'), text);
    assert.ok(text.length <= 201);
    assert.equal(boundedJsonText({ a: [1, 'b'] }, 100), '{"a":[1,"b"]}');
  });

  it('the catalog keeps the other tools and lists the refused one with its reason', async () => {
    const connection = new FakeConnection();
    connection.setPages('tools', [[tool('echo'), tool('deep', { inputSchema: nested(10_000) }), tool('deep-output', { outputSchema: nested(10_000) })]]);
    const log = new RecordingLog();
    const loader = new CatalogLoader(connection, { log, requestTimeoutMs: () => 1000, onDidChange: () => undefined });
    await loader.load();
    assert.deepEqual(loader.current.tools.map((t) => t.name), ['echo']);
    assert.deepEqual(loader.current.refusedTools, [
      { name: 'deep', reason: `its input schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep` },
      { name: 'deep-output', reason: `its output schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep` },
    ]);
    assert.ok(log.lines.some((line) => /refused the tool "deep": its input schema is nested/.test(line)), log.lines.join('\n'));
  });
});
