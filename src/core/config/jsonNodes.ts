// Small helpers over jsonc-parser's syntax tree. jsonc-parser keeps every property of an object, including
// repeated keys, so the "last one wins" rule of JSON.parse is applied here, once, for every reader.
import type { Node } from 'jsonc-parser';

/** One `"key": value` pair of an object node. */
export interface JsonProperty {
  key: string;
  keyNode: Node;
  /** Absent only in trees recovered from syntax errors, which are never read for values. */
  valueNode: Node | undefined;
}

/** The properties of an object node, by key; a repeated key keeps its last value, as JSON.parse does. */
export function propertiesOf(objectNode: Node): Map<string, JsonProperty> {
  const result = new Map<string, JsonProperty>();
  for (const property of objectNode.children ?? []) {
    const keyNode = property.children?.[0];
    if (property.type !== 'property' || !keyNode || typeof keyNode.value !== 'string') continue;
    // Delete first so the map's order follows the winning (last) occurrence.
    result.delete(keyNode.value);
    result.set(keyNode.value, { key: keyNode.value, keyNode, valueNode: property.children?.[1] });
  }
  return result;
}

/** Every key that repeats an earlier key of the same object, anywhere below `node`, with the key it repeats. */
export function findDuplicateKeys(node: Node): { duplicate: Node; first: Node }[] {
  const found: { duplicate: Node; first: Node }[] = [];
  const walk = (current: Node): void => {
    if (current.type === 'object') {
      const seen = new Map<string, Node>();
      for (const property of current.children ?? []) {
        const keyNode = property.children?.[0];
        if (keyNode && typeof keyNode.value === 'string') {
          const first = seen.get(keyNode.value);
          if (first) found.push({ duplicate: keyNode, first });
          else seen.set(keyNode.value, keyNode);
        }
      }
    }
    for (const child of current.children ?? []) walk(child);
  };
  walk(node);
  // Reported in document order, not in walk order.
  return found.sort((a, b) => a.duplicate.offset - b.duplicate.offset);
}

/** Names a node's JSON type for messages: "a string", "an array", "null", … */
export function describeNode(node: Node): string {
  switch (node.type) {
    case 'object': return 'an object';
    case 'array': return 'an array';
    case 'string': return 'a string';
    case 'number': return 'a number';
    case 'boolean': return String(node.value);
    case 'null': return 'null';
    case 'property': return 'a property';
  }
}
