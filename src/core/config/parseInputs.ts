// VS Code style `inputs`: values asked of the user once (and kept in secret storage) for `${input:id}`.
import type { Node } from 'jsonc-parser';
import { describeNode, propertiesOf } from './jsonNodes';
import type { ParseContext } from './parseContext';
import type { InputDefinition } from './types';

const INPUT_TYPES = ['promptString', 'pickString'];

/** Reads the `inputs` array; invalid items are reported and left out, a repeated id keeps the first. */
export function parseInputs(ctx: ParseContext, node: Node): InputDefinition[] {
  if (node.type !== 'array') {
    ctx.report(node, 'error', 'wrong-type', `"inputs" must be an array like [{ "id": "api-key", "type": "promptString", "password": true }], but it is ${describeNode(node)}.`);
    return [];
  }
  const inputs: InputDefinition[] = [];
  for (const item of node.children ?? []) {
    const input = parseInput(ctx, item);
    if (!input) continue;
    if (inputs.some((other) => other.id === input.id)) {
      ctx.report(input.source, 'warning', 'duplicate-input', `Input "${input.id}" is declared more than once; the first declaration is used. Remove this one.`);
      continue;
    }
    inputs.push(input);
  }
  return inputs;
}

function parseInput(ctx: ParseContext, item: Node): InputDefinition | undefined {
  if (item.type !== 'object') {
    ctx.report(item, 'error', 'wrong-type', `Each item of "inputs" must be an object like { "id": "api-key", "type": "promptString" }, but this one is ${describeNode(item)}.`);
    return undefined;
  }
  const props = propertiesOf(item);
  let failed = false;
  const fail = (at: Node, code: string, message: string): undefined => {
    failed = true;
    ctx.report(at, 'error', code, message);
    return undefined;
  };
  const field = (name: string, type: 'string' | 'boolean'): Node | undefined => {
    const value = props.get(name)?.valueNode;
    if (!value) return undefined;
    if (value.type === type) return value;
    return fail(value, 'wrong-type', `"${name}" of an input must be ${type === 'string' ? 'a string' : 'true or false'}, but it is ${describeNode(value)}.`);
  };

  const idNode = field('id', 'string');
  const id = idNode?.value as string | undefined;
  if (!props.has('id')) fail(item, 'invalid-input', 'This input has no "id"; add one, e.g. "id": "api-key", and refer to it as ${input:api-key}.');
  else if (idNode && id!.trim() === '') fail(idNode, 'invalid-input', 'The "id" of an input must not be empty.');

  const typeNode = field('type', 'string');
  const type = typeNode?.value as string | undefined;
  if (!props.has('type')) fail(item, 'invalid-input', `Input "${id ?? ''}" has no "type"; use "promptString" (or "pickString" with "options").`);
  else if (typeNode && !INPUT_TYPES.includes(type!)) fail(typeNode, 'invalid-input', `Input type "${type}" is not supported; use "promptString" or "pickString".`);

  const description = field('description', 'string')?.value as string | undefined;
  const password = field('password', 'boolean')?.value as boolean | undefined;
  const defaultValue = field('default', 'string')?.value as string | undefined;
  const options = readOptions(props.get('options')?.valueNode, fail);
  if (type === 'pickString' && !options?.length && !failed) {
    fail(typeNode!, 'invalid-input', `Input "${id}" is a "pickString" but has no "options"; add "options": ["first", "second"].`);
  }
  if (failed || id === undefined || type === undefined) return undefined;

  const input: InputDefinition = { id, type, source: ctx.rangeOf(item) };
  if (description !== undefined) input.description = description;
  if (password !== undefined) input.password = password;
  if (defaultValue !== undefined) input.default = defaultValue;
  if (options !== undefined) input.options = options;
  return input;
}

/** Options are strings, or `{ "label", "value" }` objects as VS Code also accepts (only the value is kept). */
function readOptions(node: Node | undefined, fail: (at: Node, code: string, message: string) => undefined): string[] | undefined {
  if (!node) return undefined;
  if (node.type !== 'array') return fail(node, 'wrong-type', `"options" of an input must be an array of strings, but it is ${describeNode(node)}.`);
  const options: string[] = [];
  for (const option of node.children ?? []) {
    const value = option.type === 'object' ? propertiesOf(option).get('value')?.valueNode : option;
    if (value?.type === 'string') options.push(value.value as string);
    else fail(option, 'wrong-type', `Each of "options" must be a string (or { "label": "…", "value": "…" }), but this one is ${describeNode(option)}.`);
  }
  return options;
}
