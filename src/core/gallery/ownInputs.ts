// A server from an install link or the gallery never reads a value another entry stored. Every
// `${input:…}` it declares or uses, and every variable it would read from the person's environment,
// becomes an input of its own: named after the server it is installed as, and free in the target file
// (no entry there declares or uses it, and no answer is stored under it). Otherwise a link declaring
// `${input:github-token}` would receive the token the person gave their own server. A value already
// kept is used only when the person picks it in the review, which names the servers that use it.
import { parseTree, findNodeAtLocation, type Node } from 'jsonc-parser';
import { secretInputId } from '../import/plan';
import type { ImportedEntry, ImportedInput } from '../import/types';

/** What the link or registry entry asked for, before it got a name of its own. */
export type AskedValue = { kind: 'input'; id: string } | { kind: 'environment'; name: string };

/** An input of the new server, under its own id. */
export interface OwnInput {
  /** The declaration written into the target file's `inputs`. */
  input: ImportedInput;
  asked: AskedValue;
}

/** A value already kept that the person may pick instead of a new one. */
export type Reuse = { kind: 'input'; id: string; servers: readonly string[] } | { kind: 'environment'; name: string };

/** The entry with its references renamed, and its inputs. */
export interface OwnedEntry {
  entry: ImportedEntry;
  inputs: OwnInput[];
}

// The reference grammar of the configuration's expansion (core/config/variables.ts).
const REFERENCE = /\$\{([^{}]*)\}/g;
const ENV_REFERENCE = /^(?:env:([A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?)$/;
/** The variables expansion fills from the workspace, not from anything a person stored. */
const PLACES = new Set(['workspaceFolder', 'userHome', 'extensionPath']);
const SERVER_SECTIONS = ['mcpServers', 'servers'];

/**
 * Gives every value `entry` asks for an input of its own, named `<name>-<key>`; `declared` are the
 * inputs the source declared, `sourcePrefix` the server name its ids already carry (the gallery's), and
 * `taken` says whether an id is declared, used or has a stored answer in the target file.
 */
export function ownInputs(name: string, entry: ImportedEntry, declared: readonly ImportedInput[], sourcePrefix: string, taken: (id: string) => boolean): OwnedEntry {
  const inputs: OwnInput[] = [];
  const idOf = (asked: AskedValue, fallback: string | undefined): string => {
    const same = inputs.find((own) => askedKey(own.asked) === askedKey(asked));
    if (same !== undefined) return same.input.id;
    const key = asked.kind === 'input' && asked.id.startsWith(`${sourcePrefix}-`) && asked.id.length > sourcePrefix.length + 1 ? asked.id.slice(sourcePrefix.length + 1) : asked.kind === 'input' ? asked.id : asked.name;
    const base = secretInputId(name, key);
    const free = (id: string): boolean => !taken(id) && !inputs.some((own) => own.input.id === id);
    let id = base;
    for (let n = 2; !free(id); n++) id = `${base}-${n}`;
    inputs.push({ input: declarationOf(id, name, asked, declared, fallback), asked });
    return id;
  };
  const rename = (text: string): string => text.replace(REFERENCE, (token: string, inner: string) => {
    if (inner.startsWith('input:') && inner.slice('input:'.length).trim() !== '') return `\${input:${idOf({ kind: 'input', id: inner.slice('input:'.length) }, undefined)}}`;
    if (PLACES.has(inner)) return token;
    const variable = ENV_REFERENCE.exec(inner);
    if (variable === null) return token;
    return `\${input:${idOf({ kind: 'environment', name: variable[1] ?? variable[2] }, variable[3])}}`;
  });
  return { entry: mapStrings(entry, rename), inputs };
}

const askedKey = (asked: AskedValue): string => (asked.kind === 'input' ? `input:${asked.id}` : `env:${asked.name}`);

function declarationOf(id: string, server: string, asked: AskedValue, declared: readonly ImportedInput[], fallback: string | undefined): ImportedInput {
  if (asked.kind === 'input') {
    const source = declared.find((input) => input.id === asked.id);
    // An id the source used without declaring it: nothing says what it holds, so it is asked as a secret.
    return source !== undefined ? { ...source, id } : { id, type: 'promptString', description: `${asked.id} of ${server}`, password: true };
  }
  return {
    id, type: 'promptString', description: `${asked.name} of ${server} (it would have read your environment's ${asked.name})`, password: true,
    ...(fallback !== undefined ? { default: fallback } : {}),
  };
}

/** Every string of the entry that expansion reads, passed through `map`. */
function mapStrings(entry: ImportedEntry, map: (text: string) => string): ImportedEntry {
  const mapRecord = (record: Record<string, string> | undefined) => (record === undefined ? undefined : Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)])));
  const copy: ImportedEntry = { ...entry };
  if (entry.command !== undefined) copy.command = map(entry.command);
  if (entry.args !== undefined) copy.args = entry.args.map(map);
  if (entry.env !== undefined) copy.env = mapRecord(entry.env);
  if (entry.envFile !== undefined) copy.envFile = map(entry.envFile);
  if (entry.cwd !== undefined) copy.cwd = map(entry.cwd);
  if (entry.url !== undefined) copy.url = map(entry.url);
  if (entry.headers !== undefined) copy.headers = mapRecord(entry.headers);
  return copy;
}

/** The input ids a scope file declares or its servers use, each with the servers that use it (sorted). */
export function inputsOfScopeText(text: string | undefined): Map<string, string[]> {
  const users = new Map<string, string[]>();
  const root = text === undefined ? undefined : parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (root === undefined) return users;
  for (const section of SERVER_SECTIONS) {
    const servers = findNodeAtLocation(root, [section]);
    if (servers?.type !== 'object') continue;
    for (const property of servers.children ?? []) {
      const name = String(property.children?.[0]?.value);
      for (const id of inputReferences(property.children?.[1])) {
        const list = users.get(id) ?? [];
        if (!list.includes(name)) list.push(name);
        users.set(id, list);
      }
    }
  }
  const declared = findNodeAtLocation(root, ['inputs']);
  for (const item of declared?.type === 'array' ? declared.children ?? [] : []) {
    const id = findNodeAtLocation(item, ['id'])?.value;
    if (typeof id === 'string' && !users.has(id)) users.set(id, []);
  }
  for (const list of users.values()) list.sort();
  return users;
}

function inputReferences(node: Node | undefined): string[] {
  if (node === undefined) return [];
  if (node.type === 'string' && typeof node.value === 'string') {
    return [...node.value.matchAll(REFERENCE)].map((match) => match[1]).filter((inner) => inner.startsWith('input:')).map((inner) => inner.slice('input:'.length));
  }
  return (node.children ?? []).flatMap(inputReferences);
}

/**
 * The values already kept that the person may pick for `own`: inputs of the target file named as it
 * asked (`token`, or another server's `<server>-token`), and for a variable, the environment itself.
 */
export function reuseChoices(own: OwnInput, targetInputs: ReadonlyMap<string, readonly string[]>): Reuse[] {
  const key = own.asked.kind === 'input' ? own.asked.id : own.asked.name;
  const choices: Reuse[] = [...targetInputs.entries()]
    .filter(([id]) => id === key || id.endsWith(`-${key}`))
    .sort(([a], [b]) => (a === key ? -1 : b === key ? 1 : a.localeCompare(b)))
    .map(([id, servers]) => ({ kind: 'input', id, servers }));
  if (own.asked.kind === 'environment') choices.push({ kind: 'environment', name: own.asked.name });
  return choices;
}

/** The entry and inputs once the person's picks are applied: a picked value replaces the input of its own. */
export function withReuse(owned: OwnedEntry, picks: ReadonlyMap<string, Reuse>): { entry: ImportedEntry; inputs: OwnInput[] } {
  const entry = mapStrings(owned.entry, (text) => text.replace(REFERENCE, (token: string, inner: string) => {
    const pick = inner.startsWith('input:') ? picks.get(inner.slice('input:'.length)) : undefined;
    if (pick === undefined) return token;
    return pick.kind === 'input' ? `\${input:${pick.id}}` : `\${env:${pick.name}}`;
  }));
  return { entry, inputs: owned.inputs.filter((own) => !picks.has(own.input.id)) };
}
