// The names models know MCP tools by: `mcp__<server>__<tool>`, only `[A-Za-z0-9_-]`, at most 64
// characters (what model APIs accept), the same for the same configuration every time, and never the
// same for two different tools. Lists come sorted one way, always, so a prompt cache keeps hitting.
import { createHash } from 'node:crypto';
import { closestNames } from './suggestions';

/** The longest name model APIs accept for a tool. */
export const MAX_TOOL_NAME_LENGTH = 64;
const PREFIX = 'mcp__';
const SEPARATOR = '__';
/** Characters of the hash that stands in for what a cut or a clash took away. */
const HASH_LENGTH = 6;

/** A tool of a server, as the configuration and the server name them. */
export interface ToolRef {
  readonly server: string;
  readonly tool: string;
}

export interface QualifiedTool extends ToolRef {
  readonly qualifiedName: string;
}

/** `[A-Za-z0-9_-]` only: every other character (dots, spaces, letters of other scripts, emoji) becomes `_`. */
export function sanitizeNamePart(part: string): string {
  const cleaned = Array.from(part.normalize('NFC'), (ch) => (/^[A-Za-z0-9_-]$/.test(ch) ? ch : '_')).join('');
  return cleaned === '' ? '_' : cleaned;
}

/** The short, stable hash of a tool's exact server and tool names. */
function hashOf(ref: ToolRef): string {
  return createHash('sha256').update(`${ref.server}\u0000${ref.tool}`).digest('hex').slice(0, HASH_LENGTH);
}

/** `base`, cut so that `_<hash>` fits within the limit, with that hash appended. */
function withHash(base: string, ref: ToolRef): string {
  return `${base.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hashOf(ref)}`;
}

/** The name of one tool on its own: `mcp__server__tool`, cut with a hash when longer than 64 characters. */
export function qualifiedToolName(ref: ToolRef): string {
  const base = `${PREFIX}${sanitizeNamePart(ref.server)}${SEPARATOR}${sanitizeNamePart(ref.tool)}`;
  return base.length <= MAX_TOOL_NAME_LENGTH ? base : withHash(base, ref);
}

/** Sorts by server, then tool, in JavaScript's own string order (UTF-16 code units): one order whatever order they came in. */
export function compareToolRefs(a: ToolRef, b: ToolRef): number {
  return compareCodePoints(a.server, b.server) || compareCodePoints(a.tool, b.tool);
}

/**
 * Names for a whole catalog, sorted: each tool gets `qualifiedToolName`, and tools whose names would
 * clash (`my.server` and `my_server` both give `mcp__my_server__…`) all get a hash of their exact
 * names instead, so no clash depends on the order the servers were listed in.
 */
export function qualifyToolNames(refs: readonly ToolRef[]): QualifiedTool[] {
  const unique = new Map<string, ToolRef>();
  for (const ref of refs) unique.set(`${ref.server}\u0000${ref.tool}`, ref);
  const sorted = [...unique.values()].sort(compareToolRefs);
  const first = sorted.map((ref) => ({ ref, name: qualifiedToolName(ref) }));
  const count = new Map<string, number>();
  for (const { name } of first) count.set(name, (count.get(name) ?? 0) + 1);
  return first.map(({ ref, name }) => ({
    server: ref.server,
    tool: ref.tool,
    qualifiedName: (count.get(name) ?? 0) > 1 ? withHash(`${PREFIX}${sanitizeNamePart(ref.server)}${SEPARATOR}${sanitizeNamePart(ref.tool)}`, ref) : name,
  }));
}

function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The qualified names (`mcp__<server>__<name>`) closest to a mistyped one: when its server part names
 * a server, only that server's names, compared by their last part (a long shared prefix would make
 * every name of the server look close); otherwise the whole names.
 */
export function closestQualifiedNames(name: string, known: readonly string[]): string[] {
  const cut = name.lastIndexOf(SEPARATOR);
  if (cut > PREFIX.length) {
    const prefix = name.slice(0, cut + SEPARATOR.length);
    const sameServer = known.filter((candidate) => candidate.startsWith(prefix));
    if (sameServer.length > 0) {
      return closestNames(name.slice(prefix.length), sameServer.map((candidate) => candidate.slice(prefix.length))).map((rest) => prefix + rest);
    }
  }
  return closestNames(name, known);
}
