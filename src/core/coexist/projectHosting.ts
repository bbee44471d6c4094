// Who hosts the servers of a workspace's `.mcp.json` when VS Code's own MCP would run them too: the
// overlap, and what the person's choice (remembered per workspace) makes of it, as one pure function.
// Never twice: once the person chose, either VS Code's copy is turned off for the workspace (its
// `chat.mcp.access` set to "registry" in the workspace's settings, which takes the whole `.mcp.json`
// out of VS Code's MCP), or Switchboard leaves the overlapping servers to VS Code.
//
// Why `chat.mcp.access` and not a per-server switch (measured in VS Code 1.139): `chat.mcp.deniedServers`
// is per server but application-scoped (a workspace value is ignored: VS Code started the server anyway)
// and not writable by an extension ("not a registered configuration"); VS Code's per-server "Disable
// (Workspace)" lives in its workspace storage, set only from its MCP servers view. "registry" keeps
// the servers installed from VS Code's MCP registry running, unlike "none".
import type { EffectiveServer } from '../config/types';
import { vscodeWouldRun, type VscodeMcpAccess, type VscodeMcpSettings } from './vscodeMcp';

/** Who hosts the overlapping project servers in this workspace. */
export type ProjectHost = 'switchboard' | 'vscode';

/** The value of `chat.mcp.access` that turns VS Code's copy off (set at workspace scope). */
export const VSCODE_COPY_OFF: VscodeMcpAccess = 'registry';

/** What is remembered per workspace. */
export interface HostingRecord {
  /** The person's choice; undefined until they made one. */
  readonly host?: ProjectHost;
  /** The person was told about the overlap (and answered, or put it off with "Later"). */
  readonly asked: boolean;
  /** The workspace's `chat.mcp.access` value is Switchboard's doing (so Switchboard may remove it). */
  readonly wroteAccess: boolean;
}

export const NO_HOSTING_RECORD: HostingRecord = { asked: false, wroteAccess: false };

/** What to do with the workspace's own `chat.mcp.access` value. */
export type AccessChange = 'turnOff' | 'restore' | 'keep';

/** The choice's effect for the servers as configured and VS Code's settings as they are. */
export interface HostingPlan {
  /** Project servers both would run as things stand (VS Code after the access change below). */
  readonly overlap: readonly EffectiveServer[];
  /** Servers Switchboard does not start, by id, with the reason it shows. */
  readonly leftToVscode: ReadonlyMap<string, string>;
  /** `turnOff`: set `chat.mcp.access` to VSCODE_COPY_OFF in the workspace; `restore`: remove Switchboard's value. */
  readonly access: AccessChange;
  /** Tell the person about the overlap now (once per workspace). */
  readonly ask: boolean;
  /** Why the choice cannot take effect as chosen, if so. */
  readonly problem?: string;
}

/** The reason a server left to VS Code shows, by the person's choice. */
export const LEFT_TO_VSCODE = 'VS Code hosts it in this workspace, as you chose; Switchboard does not start it';
/** The reason when Switchboard was chosen but VS Code's copy cannot be turned off. */
export const VSCODE_LOCKED = 'VS Code runs it: a policy sets chat.mcp.access, so its copy cannot be turned off for this workspace; Switchboard does not start it';

/**
 * The servers of a `.mcp.json` (project scope) that Switchboard would run (trusted now or once
 * trusted; not `"disabled"`) and VS Code's MCP would run as well, with `access` in effect.
 */
export function projectServerOverlap(servers: readonly EffectiveServer[], settings: VscodeMcpSettings, access: VscodeMcpAccess = settings.access.effective): EffectiveServer[] {
  // A skill's servers are in its SKILL.md, which VS Code's MCP does not start: never an overlap.
  return servers.filter((server) => server.scope === 'project' && server.skill === undefined && !server.disabled && vscodeWouldRun(server, settings, access).runs);
}

/** The effect of the person's choice (or of its absence) on the overlap, as one plan. */
export function planProjectHosting(servers: readonly EffectiveServer[], settings: VscodeMcpSettings, record: HostingRecord): HostingPlan {
  const { access } = settings;
  // The workspace's value is Switchboard's own only while it is still the one Switchboard wrote.
  const ours = record.wroteAccess && access.workspace === VSCODE_COPY_OFF && !access.locked;
  const none = new Map<string, string>();
  switch (record.host) {
    case undefined: {
      // Nothing chosen: both run what they run today; Switchboard's old value (of a choice since reset) goes.
      const overlap = projectServerOverlap(servers, settings, ours ? access.withoutWorkspace : access.effective);
      return { overlap, leftToVscode: none, access: ours ? 'restore' : 'keep', ask: overlap.length > 0 && !record.asked };
    }
    case 'switchboard': {
      const overlap = projectServerOverlap(servers, settings);
      if (overlap.length === 0) return { overlap, leftToVscode: none, access: 'keep', ask: false };
      // VS Code's copy is on again (its setting was removed, or the choice is new): turn it off again.
      if (!access.locked) return { overlap, leftToVscode: none, access: 'turnOff', ask: false };
      return {
        overlap, leftToVscode: new Map(overlap.map((server) => [server.id, VSCODE_LOCKED])), access: 'keep', ask: false,
        problem: `a policy sets chat.mcp.access to "${access.effective}", so VS Code's copy of ${names(overlap)} cannot be turned off for this workspace: VS Code hosts them, Switchboard does not start them`,
      };
    }
    case 'vscode': {
      const overlap = projectServerOverlap(servers, settings, ours ? access.withoutWorkspace : access.effective);
      return { overlap, leftToVscode: new Map(overlap.map((server) => [server.id, LEFT_TO_VSCODE])), access: ours ? 'restore' : 'keep', ask: false };
    }
  }
}

/** The servers' names as a person reads them: "memory", "memory and files", "a, b and c". */
export function names(servers: readonly EffectiveServer[]): string {
  const quoted = servers.map((server) => `"${server.name}"`);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}
