// The length of a value's JSON text (what JSON.stringify would write), counted without writing it: the
// history notes the size of every result, and writing a result only to measure it costs more than the
// rest of its record. Anything this walk does not know as plain JSON data (a toJSON method, a class
// instance, a bigint, a cycle, deep nesting) is measured by JSON.stringify itself.

/** Characters that JSON.stringify escapes in a string: quote, backslash, control characters, surrogates (lone ones). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Nesting deeper than this is left to JSON.stringify (which also reports a cycle). */
const MAX_DEPTH = 64;

/** Characters of `JSON.stringify(value)`; 0 when it writes nothing or throws (a cycle, a bigint). */
export function jsonLength(value: unknown): number {
  const counted = lengthOf(value, 0);
  if (counted !== undefined) return counted;
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** The length, or undefined when the value is not plain JSON data this walk knows (or nests too deep). */
function lengthOf(value: unknown, depth: number): number | undefined {
  switch (typeof value) {
    case 'string': return stringLength(value);
    case 'number': return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean': return value ? 4 : 5;
    case 'object': break;
    default: return undefined;
  }
  if (value === null) return 4;
  if (depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    let length = 2 + Math.max(0, value.length - 1);
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      // undefined, a function or a symbol in an array is written as null.
      const itemLength = item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 4 : lengthOf(item, depth + 1);
      if (itemLength === undefined) return undefined;
      length += itemLength;
    }
    return length;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if ((prototype !== Object.prototype && prototype !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  let length = 2;
  let members = 0;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    // A member whose value is undefined, a function or a symbol is left out.
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    const itemLength = lengthOf(item, depth + 1);
    if (itemLength === undefined) return undefined;
    length += stringLength(key) + 1 + itemLength;
    members++;
  }
  return length + Math.max(0, members - 1);
}

function stringLength(text: string): number {
  if (!NEEDS_ESCAPE.test(text)) return text.length + 2;
  let length = 2;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x0c || code === 0x0a || code === 0x0d || code === 0x09) length += 2;
    else if (code < 0x20) length += 6;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && isLowSurrogate(text.charCodeAt(index + 1))) { length += 2; index++; }
    else if (code >= 0xd800 && code <= 0xdfff) length += 6;
    else length += 1;
  }
  return length;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
