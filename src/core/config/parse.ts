// Reads one config file into a layer. Lenient: every problem is reported at its position and a bad entry
// never hides the good ones. Never throws: a parser bug must not take the whole configuration down.
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { describeNode, findDuplicateKeys, propertiesOf, type JsonProperty } from './jsonNodes';
import { ParseContext } from './parseContext';
import { parseInputs } from './parseInputs';
import { parseServer } from './parseServer';
import { closestKnown, didYouMean, renameFix } from './suggestions';
import { MAX_CONFIG_BYTES } from './ports';
import { fileStartRange, findMixedLineEnding, LineIndex, problemAt } from './positions';
import type { ConfigProblem, ConfigRead, InputDefinition, Layer, LayerSpec, ServerEntry } from './types';

const SERVER_KEYS = ['mcpServers', 'servers'];
const EXAMPLE = '{ "mcpServers": { "name": { "command": "npx", "args": ["-y", "some-server"] } } }';

/** Parses one layer from its spec and what was read from its file (or `spec.inline`); never throws. */
export function parseLayer(spec: LayerSpec, read: ConfigRead): Layer {
  try {
    return parseRead(spec, spec.inline !== undefined ? { kind: 'text', text: spec.inline } : read);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return fileProblem(spec, 'internal', `Could not read this configuration because of an internal error (${detail}). Please report it.`);
  }
}

function parseRead(spec: LayerSpec, read: ConfigRead): Layer {
  switch (read.kind) {
    case 'missing':
      // Most scopes have no file most of the time; that is normal, not a problem.
      return { spec, servers: [], inputs: [], problems: [], usable: true };
    case 'directory':
      return fileProblem(spec, 'is-directory', 'This path is a directory, not a file. Servers are read from a JSON file at this path: remove or rename the directory.');
    case 'unreadable':
      return fileProblem(spec, 'unreadable', `The file could not be read: ${read.message}. Check that it exists and that you have permission to read it.`);
    case 'tooLarge':
      return fileProblem(spec, 'too-large', `The file is ${read.size} bytes, over the limit of ${MAX_CONFIG_BYTES} bytes for a server configuration (a .mcp.json is usually a few KiB). Remove what does not belong in it.`);
    case 'text':
      return parseText(spec, read.text);
  }
}

function parseText(spec: LayerSpec, rawText: string): Layer {
  const problems: ConfigProblem[] = [];
  // Positions are computed on the text without the BOM, as VS Code's documents have it.
  const hasBom = rawText.charCodeAt(0) === 0xfeff;
  const text = hasBom ? rawText.slice(1) : rawText;
  const index = new LineIndex(spec.file, text);
  if (hasBom) {
    problems.push(problemAt(fileStartRange(spec.file), 'warning', 'bom', 'The file starts with a byte order mark (BOM), which was ignored. Save it as UTF-8 without BOM: other MCP clients may refuse it.'));
  }
  // CRLF alone is legal JSON and positions handle it, so only a mix of styles (a sign of a bad merge or
  // copy-paste) is worth a warning.
  const mixed = findMixedLineEnding(text);
  if (mixed) {
    problems.push(problemAt(index.range(mixed.offset, mixed.length), 'warning', 'crlf', `Line ${mixed.line} ends with ${mixed.found} but earlier lines end with ${mixed.expected}. Mixed line endings are harmless to this extension but make diffs noisy; convert the file to one style (VS Code: "Change End of Line Sequence").`));
  }

  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, allowEmptyContent: true, disallowComments: false });
  if (errors.length > 0) {
    for (const error of errors) {
      const { name, hint } = describeSyntaxError(error);
      problems.push(problemAt(index.range(error.offset, error.length), 'error', 'syntax', `${name}. ${hint}`));
    }
    // A tree recovered from broken JSON can be silently wrong; the caller keeps the last good servers instead.
    return { spec, servers: [], inputs: [], problems, usable: false };
  }
  const ctx = new ParseContext(spec, index);
  ctx.problems.push(...problems);
  if (!tree) {
    ctx.report(fileStartRange(spec.file), 'warning', 'empty', `The file is empty, so it defines no servers. Add servers like ${EXAMPLE}, or delete the file.`);
    return { spec, servers: [], inputs: [], problems: ctx.problems, usable: true };
  }
  if (tree.type !== 'object') {
    ctx.report(tree, 'error', 'not-an-object', `The file must contain a JSON object like ${EXAMPLE}, but it contains ${describeNode(tree)}.`);
    return { spec, servers: [], inputs: [], problems: ctx.problems, usable: false };
  }
  return readDocument(ctx, tree);
}

function readDocument(ctx: ParseContext, tree: Node): Layer {
  const { spec } = ctx;
  const container = findRoot(ctx, tree);
  if (!container) {
    return { spec, servers: [], inputs: [], problems: ctx.problems, usable: !ctx.problems.some((p) => p.severity === 'error') };
  }
  for (const { duplicate, first } of findDuplicateKeys(container)) {
    const firstLine = ctx.rangeOf(first).line;
    ctx.report(duplicate, 'warning', 'duplicate-key', `Duplicate key "${duplicate.value as string}" (first on line ${firstLine}); this later one is used and the earlier one ignored. Remove one of them.`);
  }
  const props = propertiesOf(container);
  if (spec.root === undefined) reportMistypedTopKeys(ctx, props);
  const inputsNode = props.get('inputs')?.valueNode;
  const inputs: InputDefinition[] = inputsNode ? parseInputs(ctx, inputsNode) : [];

  // `mcpServers` (Claude Code, Cursor) and `servers` (VS Code) are merged, in document order.
  const sections: { key: string; keyNode: Node; valueNode: Node }[] = [];
  for (const key of SERVER_KEYS) {
    const property = props.get(key);
    if (property?.valueNode) sections.push({ key, keyNode: property.keyNode, valueNode: property.valueNode });
  }
  sections.sort((a, b) => a.keyNode.offset - b.keyNode.offset);
  if (sections.length === 2) {
    const [first, second] = sections;
    ctx.report(second.keyNode, 'warning', 'both-server-keys', `Both "${first.key}" and "${second.key}" are present; their servers are merged (a name in both uses this later one). Keep one key to avoid confusion.`);
  }
  let usable = true;
  const winners = new Map<string, { keyNode: Node; valueNode: Node; section: string }>();
  for (const section of sections) {
    if (section.valueNode.type !== 'object') {
      // Treating a mistyped section as "no servers" would stop every running server because of a typo.
      ctx.report(section.valueNode, 'error', 'wrong-type', `"${section.key}" must be an object that maps server names to definitions, like ${EXAMPLE}, but it is ${describeNode(section.valueNode)}.`);
      usable = false;
      continue;
    }
    for (const entry of propertiesOf(section.valueNode).values()) {
      if (!entry.valueNode) continue;
      const earlier = winners.get(entry.key);
      if (earlier && earlier.section !== section.key) {
        ctx.report(entry.keyNode, 'warning', 'duplicate-server', `Server "${entry.key}" is defined in both "${earlier.section}" (line ${ctx.rangeOf(earlier.keyNode).line}) and "${section.key}"; this later definition is used.`);
      }
      winners.delete(entry.key);
      winners.set(entry.key, { keyNode: entry.keyNode, valueNode: entry.valueNode, section: section.key });
    }
  }
  const declared = new Set(inputs.map((input) => input.id));
  const servers: ServerEntry[] = [];
  for (const [name, { keyNode, valueNode }] of winners) {
    const server = parseServer(ctx, name, keyNode, valueNode, declared);
    if (server) servers.push(server);
  }
  return usable
    ? { spec, servers, inputs, problems: ctx.problems, usable }
    : { spec, servers: [], inputs: [], problems: ctx.problems, usable };
}

/** The keys of a file's top level this reader knows. */
const TOP_KEYS = [...SERVER_KEYS, 'inputs'];

/**
 * A top-level key a typo away from a known one ("mcpServer"): its servers would silently not load.
 * Other unknown keys are left alone: other hosts' files carry keys of their own.
 */
function reportMistypedTopKeys(ctx: ParseContext, props: ReadonlyMap<string, JsonProperty>): void {
  const missing = TOP_KEYS.filter((key) => !props.has(key));
  for (const property of props.values()) {
    if (TOP_KEYS.includes(property.key)) continue;
    const near = closestKnown(property.key, missing);
    if (near === undefined) continue;
    ctx.report(property.keyNode, 'warning', 'unknown-key', `Unknown key "${property.key}", ignored (so are the servers in it); ${didYouMean(near)}`, renameFix(near, 'key'));
  }
}

/** Follows `spec.root` (e.g. `contributes` of a package.json) to the object that holds the servers. */
function findRoot(ctx: ParseContext, tree: Node): Node | undefined {
  let node = tree;
  for (const segment of ctx.spec.root ?? []) {
    const next = propertiesOf(node).get(segment)?.valueNode;
    // A package.json without `contributes` simply contributes no servers.
    if (!next) return undefined;
    if (next.type !== 'object') {
      ctx.report(next, 'error', 'wrong-type', `"${segment}" must be an object, but it is ${describeNode(next)}.`);
      return undefined;
    }
    node = next;
  }
  return node;
}

function fileProblem(spec: LayerSpec, code: string, message: string): Layer {
  return { spec, servers: [], inputs: [], problems: [problemAt(fileStartRange(spec.file), 'error', code, message)], usable: false };
}

const SYNTAX_MESSAGES: Record<string, [string, string]> = {
  InvalidSymbol: ['Invalid symbol', 'Strings and keys need double quotes, and only JSON values (strings, numbers, true, false, null, objects, arrays) are allowed.'],
  InvalidNumberFormat: ['Invalid number format', 'Write numbers like 30000 or 1.5, or put the value in quotes.'],
  PropertyNameExpected: ['Expected a property name', 'Keys must be strings in double quotes, e.g. "command".'],
  ValueExpected: ['Expected a value', 'Add a value after the colon, or remove the stray comma.'],
  ColonExpected: ['Expected colon', 'Separate each key from its value with ":".'],
  CommaExpected: ['Expected comma', 'Separate entries with ",".'],
  CloseBraceExpected: ['Expected closing brace', 'Close the object with "}".'],
  CloseBracketExpected: ['Expected closing bracket', 'Close the array with "]".'],
  EndOfFileExpected: ['Expected end of file', 'The file must contain a single JSON object; remove what follows it.'],
  InvalidCommentToken: ['Invalid comment', 'Use // line comments or /* block comments */.'],
  UnexpectedEndOfComment: ['Unterminated comment', 'Close the block comment with "*/".'],
  UnexpectedEndOfString: ['Unterminated string', 'Close the string with a double quote.'],
  UnexpectedEndOfNumber: ['Unexpected end of number', 'Complete the number, e.g. 1.5 rather than 1.'],
  InvalidUnicode: ['Invalid unicode escape', 'Write \\u followed by four hex digits.'],
  InvalidEscapeCharacter: ['Invalid escape character', 'Inside strings a backslash must be doubled (\\\\), e.g. "C:\\\\tools".'],
  InvalidCharacter: ['Invalid character in string', 'Control characters such as tabs or line breaks must be escaped (\\t, \\n).'],
};

function describeSyntaxError(error: ParseError): { name: string; hint: string } {
  const code = printParseErrorCode(error.error);
  const [name, hint] = SYNTAX_MESSAGES[code] ?? [`Syntax error (${code})`, 'Fix the JSON here.'];
  return { name, hint };
}
