// The size the history notes for a result: exactly what JSON.stringify would write, counted without writing it.
import * as assert from 'node:assert/strict';
import { jsonLength } from '../../src/core/approvals/jsonLength';

const expected = (value: unknown): number => {
  try { return JSON.stringify(value)?.length ?? 0; } catch { return 0; }
};

/** A small deterministic generator (mulberry32), so that a failure names a seed that repeats it. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ['a', 'Z', ' ', '"', '\\', '\n', '\t', '\b', '\f', '\r', '\u0000', '\u001f', '\u007f', 'é', '€', '\u2028', '\ud83d\ude00', '\ud83d', '\ude00', '<', '/'];

function generate(next: () => number, depth: number): unknown {
  const kind = Math.floor(next() * (depth > 3 ? 6 : 9));
  switch (kind) {
    case 0: return null;
    case 1: return next() < 0.5;
    case 2: return [0, -0, 1.5, -3e21, 1e-7, NaN, Infinity, 123456789][Math.floor(next() * 8)];
    case 3: case 4: case 5: return Array.from({ length: Math.floor(next() * 8) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('');
    case 6: return Array.from({ length: Math.floor(next() * 5) }, () => (next() < 0.1 ? undefined : generate(next, depth + 1)));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 5); i > 0; i--) object[generate(next, 4) as string] = next() < 0.1 ? undefined : generate(next, depth + 1);
      return object;
    }
  }
}

describe('jsonLength', () => {
  it('counts what JSON.stringify writes, for a tool result', () => {
    const result = { content: [{ type: 'text', text: 'Echo: hello "world"\n' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }], isError: false, structuredContent: { n: 1.25, list: [null, true] } };
    assert.equal(jsonLength(result), JSON.stringify(result).length);
  });

  it('agrees with JSON.stringify on 2000 generated values (escapes, surrogates, numbers, holes, undefined members)', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const value = generate(random(seed), 0);
      assert.equal(jsonLength(value), expected(value), `seed ${seed}: ${JSON.stringify(value)}`);
    }
  });

  it('leaves what is not plain JSON data to JSON.stringify: toJSON, class instances, a sparse array, a null prototype', () => {
    const sparse: unknown[] = [1];
    sparse[3] = 'x';
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    for (const value of [new Date(0), { when: new Date(0) }, new Map([[1, 2]]), new String('s'), sparse, bare, { toJSON: () => 'short' }, new Uint8Array([1, 2])]) {
      assert.equal(jsonLength(value), expected(value));
    }
  });

  it('answers 0 for what JSON.stringify cannot write: a cycle, a bigint, undefined, a function', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    assert.equal(jsonLength(cycle), 0);
    assert.equal(jsonLength({ big: 10n }), 0);
    assert.equal(jsonLength(undefined), 0);
    assert.equal(jsonLength(() => 1), 0);
  });

  it('measures deep nesting through JSON.stringify', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200; i++) deep = { d: [deep] };
    assert.equal(jsonLength(deep), JSON.stringify(deep).length);
  });
});
