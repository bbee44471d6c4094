// What VS Code's own (built-in) MCP support does with a workspace folder's root `.mcp.json`, from its
// settings as plain facts. VS Code 1.139 reads that file as an MCP source of its own (no trust prompt)
// and starts its servers when a chat message is sent or its CodeLens "Start" is clicked, unless its
// settings keep it from doing so: `chat.mcp.access` ("all" | "registry" | "none"; only "all" reads the
// file), `chat.mcp.deniedServers` and `chat.mcp.allowedServers` (by serverName, serverUrl or
// serverCommand). The matching follows VS Code's: a name is compared exactly, a command line as the
// whole array, a URL without its fragment and case-insensitively, `*` matching anything.
import type { EffectiveServer } from '../config/types';

/** `chat.mcp.access`: "all" servers, only those installed from the MCP "registry", or "none". */
export type VscodeMcpAccess = 'all' | 'registry' | 'none';

/** One entry of `chat.mcp.deniedServers` / `chat.mcp.allowedServers`: exactly one of the three keys. */
export type VscodeServerMatcher =
  | { readonly serverName: string }
  | { readonly serverUrl: string }
  | { readonly serverCommand: readonly string[] };

/** The value VS Code's MCP reads in this workspace, and what it would read without the workspace's own value. */
export interface VscodeMcpAccessFacts {
  /** The value in effect. */
  readonly effective: VscodeMcpAccess;
  /** The workspace's own value (its `.vscode/settings.json`, or the `.code-workspace` file), if any. */
  readonly workspace?: VscodeMcpAccess;
  /** What applies once the workspace's own value is removed. */
  readonly withoutWorkspace: VscodeMcpAccess;
  /** Something above the workspace (a policy) decides the value: a workspace value changes nothing. */
  readonly locked: boolean;
}

/** VS Code's MCP settings as they stand in this workspace. */
export interface VscodeMcpSettings {
  /** This VS Code reads a workspace folder's root `.mcp.json` as an MCP source of its own. */
  readonly readsRootMcpJson: boolean;
  readonly access: VscodeMcpAccessFacts;
  readonly denied: readonly VscodeServerMatcher[];
  /** `undefined`: no allow list (every server not denied is allowed). */
  readonly allowed?: readonly VscodeServerMatcher[];
}

/** A server as VS Code identifies it for its allow and deny lists. */
export interface VscodeServerIdentity {
  readonly name: string;
  readonly command?: readonly string[];
  readonly url?: string;
}

/** Whether VS Code's MCP would run a server of the root `.mcp.json`, and if not, why. */
export type VscodeRuns = { readonly runs: true } | { readonly runs: false; readonly why: string };

/** Reads a `chat.mcp.access` value leniently: anything but the three words counts as VS Code's default, "all". */
export function parseVscodeMcpAccess(value: unknown): VscodeMcpAccess | undefined {
  return value === 'all' || value === 'registry' || value === 'none' ? value : undefined;
}

/**
 * Reads a deny or allow list leniently, as VS Code does: entries that are not objects with exactly one
 * non-empty key are left out; `undefined` for anything but an array (no list).
 */
export function parseVscodeServerMatchers(value: unknown): VscodeServerMatcher[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const matchers: VscodeServerMatcher[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const { serverName, serverUrl, serverCommand } = item as Record<string, unknown>;
    const name = typeof serverName === 'string' && serverName.length > 0;
    const url = typeof serverUrl === 'string' && serverUrl.length > 0;
    const command = Array.isArray(serverCommand) && serverCommand.length > 0 && serverCommand.every((word) => typeof word === 'string');
    if (Number(name) + Number(url) + Number(command) !== 1) continue;
    if (name) matchers.push({ serverName: serverName as string });
    else if (url) matchers.push({ serverUrl: serverUrl as string });
    else matchers.push({ serverCommand: [...(serverCommand as string[])] });
  }
  return matchers;
}

/** How VS Code identifies a server of the root `.mcp.json`: its name, and its URL or its command line. */
export function vscodeIdentityOf(server: EffectiveServer): VscodeServerIdentity {
  const { launch } = server;
  // VS Code reads an entry with a `url` as a remote server, any other as a command.
  if (launch.url !== undefined) return { name: server.name, url: launch.url };
  return launch.command !== undefined ? { name: server.name, command: [launch.command, ...launch.args] } : { name: server.name };
}

/** Whether one deny/allow entry matches the server. */
export function matchesVscodeServer(matcher: VscodeServerMatcher, identity: VscodeServerIdentity): boolean {
  if ('serverName' in matcher) return matcher.serverName === identity.name;
  if ('serverUrl' in matcher) return identity.url !== undefined && urlMatches(matcher.serverUrl, identity.url);
  const command = identity.command;
  return command !== undefined && command.length === matcher.serverCommand.length && command.every((word, i) => word === matcher.serverCommand[i]);
}

/**
 * Whether VS Code's MCP, with `access` in effect, would run this server of a root `.mcp.json` (when a
 * chat message is sent, or from its CodeLens). It reads every entry, `"disabled"` or not.
 */
export function vscodeWouldRun(server: EffectiveServer, settings: VscodeMcpSettings, access: VscodeMcpAccess = settings.access.effective): VscodeRuns {
  if (!settings.readsRootMcpJson) return { runs: false, why: 'this VS Code does not read a workspace\'s .mcp.json' };
  if (access !== 'all') return { runs: false, why: `VS Code's chat.mcp.access is "${access}": it does not read .mcp.json` };
  const identity = vscodeIdentityOf(server);
  if (settings.denied.some((matcher) => matchesVscodeServer(matcher, identity))) return { runs: false, why: 'chat.mcp.deniedServers denies it in VS Code' };
  if (settings.allowed !== undefined && !settings.allowed.some((matcher) => matchesVscodeServer(matcher, identity))) {
    return { runs: false, why: 'chat.mcp.allowedServers does not allow it in VS Code' };
  }
  return { runs: true };
}

/** A URL as VS Code compares it: origin, path and query (no fragment, no credentials). */
function comparableUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? `${parsed.origin}${parsed.pathname}${parsed.search}` : url;
  } catch {
    return undefined;
  }
}

function urlMatches(pattern: string, url: string): boolean {
  const target = comparableUrl(url);
  if (target === undefined) return false;
  if (!pattern.includes('*')) return comparableUrl(pattern)?.toLowerCase() === target.toLowerCase();
  const source = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`, 'i').test(target);
}
