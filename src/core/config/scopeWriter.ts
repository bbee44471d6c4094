// Writing server entries into a scope file without losing what a person wrote there: every change is a
// jsonc-parser edit of the text (comments, order and formatting kept), in the file's own indentation and
// line endings. A file that is not valid JSON is never written: its problem is returned instead.
import { applyEdits, findNodeAtLocation, modify, parseTree, printParseErrorCode, type FormattingOptions, type Node, type ParseError } from 'jsonc-parser';
import { indentUnit, insertProperty, removeProperty } from './jsonInsert';
import { parseLayer } from './parse';
import { LineIndex } from './positions';
import type { Scope } from './types';

/** The text of a new scope file. */
const NEW_FILE = '{\n  "mcpServers": {}\n}\n';
const SERVER_KEYS = ['mcpServers', 'servers'] as const;

/** Why a file was not changed. */
export interface WriteRefusal {
  kind: 'broken' | 'exists' | 'missing';
  message: string;
}

/** A changed text, or why there is none. */
export type WriteResult = { ok: true; text: string } | { ok: false; refusal: WriteRefusal };

/** An `inputs` entry to declare (kept when an entry with its id exists). */
export interface InputDeclaration {
  id: string;
  type: string;
  description?: string;
  password?: boolean;
  default?: string;
  options?: string[];
}

/** Adds (or with `force` replaces) the server `name`; `text` undefined means the file does not exist yet. */
export function addServer(text: string | undefined, name: string, entry: object, options: { force?: boolean; file?: string } = {}): WriteResult {
  const base = text === undefined || text.trim() === '' ? NEW_FILE : text;
  const tree = parse(base, options.file);
  if (!('root' in tree)) return { ok: false, refusal: tree };
  const existing = sectionHolding(tree.root, name);
  if (existing !== undefined && options.force !== true) {
    return { ok: false, refusal: { kind: 'exists', message: `a server named "${name}" already exists in "${existing}"${atLine(base, tree.root, [existing, name])}` } };
  }
  const key = existing ?? SERVER_KEYS.find((candidate) => findNodeAtLocation(tree.root, [candidate])?.type === 'object') ?? 'mcpServers';
  const section = findNodeAtLocation(tree.root, [key]);
  if (section !== undefined && section.type !== 'object') {
    return { ok: false, refusal: { kind: 'broken', message: `"${key}" is not an object${atLine(base, tree.root, [key])}; fix it before adding servers` } };
  }
  if (existing !== undefined) return { ok: true, text: edit(base, [key, name], entry) };
  if (section === undefined) return { ok: true, text: insertProperty(base, tree.root, key, { [name]: entry }) };
  return { ok: true, text: insertProperty(base, section, name, entry) };
}

/** Removes the server `name` from whichever server section holds it. */
export function removeServer(text: string | undefined, name: string, options: { file?: string } = {}): WriteResult {
  if (text === undefined) return { ok: false, refusal: { kind: 'missing', message: 'the file does not exist' } };
  const tree = parse(text, options.file);
  if (!('root' in tree)) return { ok: false, refusal: tree };
  const key = sectionHolding(tree.root, name);
  if (key === undefined) return { ok: false, refusal: { kind: 'missing', message: `no server named "${name}"` } };
  const section = findNodeAtLocation(tree.root, [key])!;
  const index = (section.children ?? []).findIndex((property) => property.children?.[0]?.value === name);
  return { ok: true, text: removeProperty(text, section, index) };
}

/** Appends the input declarations whose id the file does not declare yet. */
export function declareInputs(text: string, inputs: readonly InputDeclaration[], options: { file?: string } = {}): WriteResult {
  let current = text;
  for (const input of inputs) {
    const tree = parse(current, options.file);
    if (!('root' in tree)) return { ok: false, refusal: tree };
    const list = findNodeAtLocation(tree.root, ['inputs']);
    if (list !== undefined && list.type !== 'array') {
      return { ok: false, refusal: { kind: 'broken', message: `"inputs" is not a list${atLine(current, tree.root, ['inputs'])}` } };
    }
    const declared = (list?.children ?? []).some((child) => findNodeAtLocation(child, ['id'])?.value === input.id);
    if (declared) continue;
    current = list === undefined ? insertProperty(current, tree.root, 'inputs', [input]) : edit(current, ['inputs', -1], input, true);
  }
  return { ok: true, text: current };
}

/** The names of the servers a scope file defines, in either section. */
export function serverNames(text: string | undefined): string[] {
  if (text === undefined) return [];
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (root === undefined) return [];
  return SERVER_KEYS.flatMap((key) => {
    const section = findNodeAtLocation(root, [key]);
    return section?.type === 'object' ? (section.children ?? []).map((property) => String(property.children?.[0]?.value)) : [];
  });
}

function parse(text: string, file: string | undefined): { root: Node } | WriteRefusal {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const where = (offset: number): string => {
    const { line, column } = new LineIndex(file ?? '', text).position(offset);
    return `${file === undefined ? '' : `${file}:`}${line}:${column}`;
  };
  if (errors.length > 0) {
    return { kind: 'broken', message: `the file is not valid JSON (${printParseErrorCode(errors[0].error)} at ${where(errors[0].offset)}); fix it first, nothing was written` };
  }
  if (root === undefined || root.type !== 'object') return { kind: 'broken', message: `the file does not hold a JSON object (${where(root?.offset ?? 0)}); nothing was written` };
  return { root };
}

function sectionHolding(root: Node, name: string): (typeof SERVER_KEYS)[number] | undefined {
  return SERVER_KEYS.find((key) => {
    const section = findNodeAtLocation(root, [key]);
    return section?.type === 'object' && findNodeAtLocation(section, [name]) !== undefined;
  });
}

function atLine(text: string, root: Node, path: (string | number)[]): string {
  const node = findNodeAtLocation(root, path);
  const offset = node?.parent?.type === 'property' ? node.parent.offset : node?.offset;
  return offset === undefined ? '' : ` (line ${new LineIndex('', text).position(offset).line})`;
}

function edit(text: string, path: (string | number)[], value: unknown, isArrayInsertion = false): string {
  return applyEdits(text, modify(text, path, value, { formattingOptions: formatting(text), isArrayInsertion }));
}

/** The file's own indentation and line endings, so an edit looks as if written by hand. */
function formatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = indentUnit(text);
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

// Problems that say a value is missing now, not that the entry is wrong: an entry may name a variable
// set later, or an input asked at the first start.
const LATER = ['unresolved-variable', 'undeclared-input'];

/** The errors a new scope file text would have (empty: it reads as a configuration); checked before writing. */
export function scopeTextErrors(file: string, text: string, scope: Exclude<Scope, 'plugin'>, folder: string): string[] {
  const layer = parseLayer({ scope, file, folder, vars: { env: {}, userHome: folder, workspaceFolder: folder } }, { kind: 'text', text });
  const errors = layer.problems.filter((problem) => problem.severity === 'error' && !LATER.includes(problem.code));
  if (errors.length === 0 && !layer.usable) return ['the file would not read as a configuration'];
  return errors.map((problem) => `${problem.line}:${problem.column} ${problem.message}`);
}
