// Which of a server's tools are offered, from its entry's `allowedTools` and `disabledTools`.
// Semantics (the same everywhere: catalog, tree, CLI, the call gate):
//   - `allowedTools`, when present, is an allowlist: only tools matching one of its patterns are
//     offered (an empty list offers none). Absent: every tool is.
//   - `disabledTools` is a denylist, and it wins: a tool matching both lists is not offered.
//   - A pattern is a tool name as the server lists it, compared case-sensitively; `*` stands for any
//     run of characters (`read_*`, `*_file`, `*`). No other character is special.
import type { ServerEntry } from './types';

/** The part of an entry the filter reads. */
export type ToolFilterSource = Pick<ServerEntry, 'allowedTools' | 'disabledTools'>;

/** Why a tool is not offered: the field that hides it and, for `disabledTools`, the pattern it matched. */
export type ToolFilterVerdict =
  | { offered: true }
  | { offered: false; field: 'disabledTools'; pattern: string }
  | { offered: false; field: 'allowedTools' };

const OFFERED: ToolFilterVerdict = { offered: true };

/** Whether the entry restricts its tools at all. */
export function hasToolFilter(server: ToolFilterSource): boolean {
  return server.allowedTools !== undefined || (server.disabledTools !== undefined && server.disabledTools.length > 0);
}

/** Whether `toolName` is offered, and if not, which field hides it. */
export function toolFilterVerdict(server: ToolFilterSource, toolName: string): ToolFilterVerdict {
  const denied = server.disabledTools?.find((pattern) => toolPatternMatches(pattern, toolName));
  if (denied !== undefined) return { offered: false, field: 'disabledTools', pattern: denied };
  if (server.allowedTools !== undefined && !server.allowedTools.some((pattern) => toolPatternMatches(pattern, toolName))) {
    return { offered: false, field: 'allowedTools' };
  }
  return OFFERED;
}

/** Whether `toolName` is offered by the entry's filter. */
export function isToolOffered(server: ToolFilterSource, toolName: string): boolean {
  return toolFilterVerdict(server, toolName).offered;
}

/** Whether a pattern (a name, `*` matching any run of characters) matches the whole tool name. */
export function toolPatternMatches(pattern: string, toolName: string): boolean {
  if (!pattern.includes('*')) return pattern === toolName;
  return patternRegExp(pattern).test(toolName);
}

/** Whether two entries filter their tools the same way (a change needs no restart, only a new catalog). */
export function sameToolFilter(a: ToolFilterSource, b: ToolFilterSource): boolean {
  return sameList(a.allowedTools, b.allowedTools) && sameList(a.disabledTools, b.disabledTools);
}

/** Whether two entries' `alwaysLoad` say the same (a list compared item by item, in order). */
export function sameAlwaysLoad(a: Pick<ServerEntry, 'alwaysLoad'>, b: Pick<ServerEntry, 'alwaysLoad'>): boolean {
  if (typeof a.alwaysLoad === 'boolean' || typeof b.alwaysLoad === 'boolean') return a.alwaysLoad === b.alwaysLoad;
  return sameList(a.alwaysLoad, b.alwaysLoad);
}

const compiled = new Map<string, RegExp>();

function patternRegExp(pattern: string): RegExp {
  let regExp = compiled.get(pattern);
  if (regExp === undefined) {
    const body = pattern.split('*').map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&')).join('[\\s\\S]*');
    regExp = new RegExp(`^${body}$`, 'u');
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, regExp);
  }
  return regExp;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
