// Bounds on the JSON a server sends, measured without recursion. JSON.parse builds a value nested
// tens of thousands deep without complaint, but every recursive walk over it afterwards (a validator
// compiling a schema, JSON.stringify, a deep copy, the poisoning scan) overflows the stack. A value is
// measured here once, with an explicit stack, before anything else walks it.

/** The deepest nesting of objects and arrays a tool's schema may have (`{}` is 1; `{"a": {}}` is 2). */
export const MAX_SCHEMA_DEPTH = 64;
/** The most object keys and string values one schema may hold: what the poisoning scan reads of it. */
export const MAX_SCHEMA_STRINGS = 10_000;
/** The longest text (a description, a title, a string in a schema) the poisoning scan reads. */
export const MAX_SCANNED_CHARS = 100_000;

/** What a walk over a JSON value found, stopping early once a bound was passed. */
export interface JsonMeasure {
  /** The deepest nesting seen (at most `maxDepth + 1`: the walk does not go further). */
  depth: number;
  /** Object keys plus string values seen. */
  strings: number;
  /** The longest key or string value seen. */
  longestString: number;
}

/** Measures `value` with an explicit stack; goes no deeper than `maxDepth + 1` and stops after `maxStrings + 1` strings. */
export function measureJson(value: unknown, maxDepth = MAX_SCHEMA_DEPTH, maxStrings = MAX_SCHEMA_STRINGS): JsonMeasure {
  const measure: JsonMeasure = { depth: 0, strings: 0, longestString: 0 };
  const seen = new Set<object>();
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  const noteString = (text: string): void => {
    measure.strings++;
    if (text.length > measure.longestString) measure.longestString = text.length;
  };
  while (stack.length > 0 && measure.strings <= maxStrings) {
    const { node, depth } = stack.pop()!;
    if (typeof node === 'string') { noteString(node); continue; }
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    const level = depth + 1;
    if (level > measure.depth) measure.depth = level;
    if (level > maxDepth) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, depth: level });
    } else {
      for (const [key, child] of Object.entries(node)) {
        noteString(key);
        stack.push({ node: child, depth: level });
      }
    }
  }
  return measure;
}

/** Whether `value` nests objects and arrays deeper than `maxDepth`. */
export function isNestedDeeperThan(value: unknown, maxDepth: number): boolean {
  return measureJson(value, maxDepth, Number.POSITIVE_INFINITY).depth > maxDepth;
}

/** JSON text of a value that may be hostile: nesting below `maxDepth` is written as `"…"`, and the text is cut at `maxChars`. Never throws. */
export function boundedJsonText(value: unknown, maxChars: number, maxDepth = MAX_SCHEMA_DEPTH): string {
  let text: string;
  try {
    text = JSON.stringify(isNestedDeeperThan(value, maxDepth) ? flattenBelow(value, maxDepth) : value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}

/** A copy of `value` with whatever lies below `maxDepth` replaced by `"…"`; built with an explicit stack. */
function flattenBelow(value: unknown, maxDepth: number): unknown {
  const root: { value: unknown } = { value: undefined };
  const stack: { node: unknown; depth: number; put: (copy: unknown) => void }[] = [{ node: value, depth: 0, put: (copy) => { root.value = copy; } }];
  while (stack.length > 0) {
    const { node, depth, put } = stack.pop()!;
    if (typeof node !== 'object' || node === null) { put(node); continue; }
    if (depth >= maxDepth) { put('…'); continue; }
    if (Array.isArray(node)) {
      const copy: unknown[] = new Array<unknown>(node.length);
      put(copy);
      node.forEach((item, index) => stack.push({ node: item, depth: depth + 1, put: (child) => { copy[index] = child; } }));
    } else {
      const copy: Record<string, unknown> = {};
      put(copy);
      // Keys are set in order now (the stack fills them in reverse), so the text keeps the server's order.
      for (const key of Object.keys(node)) copy[key] = undefined;
      for (const [key, child] of Object.entries(node)) stack.push({ node: child, depth: depth + 1, put: (item) => { copy[key] = item; } });
    }
  }
  return root.value;
}
