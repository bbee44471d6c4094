// Where each host keeps its servers, per platform, as data: the user's files (from the home folder, the
// platform's configuration folder, or a variable the host reads) and, inside a workspace folder, the
// project's file. Kept in one table so that a new host or a moved file is one line.
import * as path from 'node:path';
import type { HostId } from './types';

export type Platform = 'linux' | 'darwin' | 'win32';

/** A folder a location starts from. */
type Base =
  | 'home'
  /** `%APPDATA%` (Windows), else `<home>\AppData\Roaming`. */
  | 'appData'
  /** `$XDG_CONFIG_HOME`, else `<home>/.config`. */
  | 'xdgConfig'
  /** `<home>/Library/Application Support` (macOS). */
  | 'appSupport';

interface Location {
  platforms: readonly Platform[];
  base: Base;
  segments: readonly string[];
  /** An environment variable naming the folder instead (Codex's `CODEX_HOME`): `segments` is then below it. */
  override?: { variable: string; segments: readonly string[] };
}

const ALL: readonly Platform[] = ['linux', 'darwin', 'win32'];

/** Each host's user files, in the order they are read. */
const USER_LOCATIONS: Record<HostId, readonly Location[]> = {
  'claude-desktop': [
    { platforms: ['darwin'], base: 'appSupport', segments: ['Claude', 'claude_desktop_config.json'] },
    { platforms: ['win32'], base: 'appData', segments: ['Claude', 'claude_desktop_config.json'] },
    { platforms: ['linux'], base: 'xdgConfig', segments: ['Claude', 'claude_desktop_config.json'] },
  ],
  'claude-code': [{ platforms: ALL, base: 'home', segments: ['.claude.json'] }],
  vscode: [
    { platforms: ['linux'], base: 'xdgConfig', segments: ['Code', 'User', 'mcp.json'] },
    { platforms: ['darwin'], base: 'appSupport', segments: ['Code', 'User', 'mcp.json'] },
    { platforms: ['win32'], base: 'appData', segments: ['Code', 'User', 'mcp.json'] },
    { platforms: ['linux'], base: 'xdgConfig', segments: ['Code - Insiders', 'User', 'mcp.json'] },
    { platforms: ['darwin'], base: 'appSupport', segments: ['Code - Insiders', 'User', 'mcp.json'] },
    { platforms: ['win32'], base: 'appData', segments: ['Code - Insiders', 'User', 'mcp.json'] },
  ],
  cursor: [{ platforms: ALL, base: 'home', segments: ['.cursor', 'mcp.json'] }],
  windsurf: [{ platforms: ALL, base: 'home', segments: ['.codeium', 'windsurf', 'mcp_config.json'] }],
  codex: [{ platforms: ALL, base: 'home', segments: ['.codex', 'config.toml'], override: { variable: 'CODEX_HOME', segments: ['config.toml'] } }],
  zed: [
    { platforms: ['linux'], base: 'xdgConfig', segments: ['zed', 'settings.json'] },
    { platforms: ['darwin'], base: 'home', segments: ['.config', 'zed', 'settings.json'] },
    { platforms: ['win32'], base: 'appData', segments: ['Zed', 'settings.json'] },
  ],
  goose: [
    { platforms: ['linux'], base: 'xdgConfig', segments: ['goose', 'config.yaml'] },
    { platforms: ['darwin'], base: 'home', segments: ['.config', 'goose', 'config.yaml'] },
    { platforms: ['win32'], base: 'appData', segments: ['Block', 'goose', 'config', 'config.yaml'] },
  ],
};

/** Each host's file inside a workspace folder (Claude Code's own is `.mcp.json`, which Switchboard reads already). */
const PROJECT_FILES: Partial<Record<HostId, readonly string[]>> = {
  vscode: ['.vscode', 'mcp.json'],
  cursor: ['.cursor', 'mcp.json'],
  codex: ['.codex', 'config.toml'],
  zed: ['.zed', 'settings.json'],
};

/** What the default locations depend on. */
export interface LocationContext {
  platform: Platform;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Workspace folders whose project files are read too. */
  folders?: readonly string[];
}

/** The files a host reads by default, user files first, then each folder's project file. */
export function defaultLocations(host: HostId, context: LocationContext): string[] {
  const join = context.platform === 'win32' ? path.win32.join : path.posix.join;
  const files: string[] = [];
  for (const location of USER_LOCATIONS[host]) {
    if (!location.platforms.includes(context.platform)) continue;
    const overridden = location.override !== undefined ? nonEmpty(context.env[location.override.variable]) : undefined;
    const file = overridden !== undefined
      ? join(overridden, ...location.override!.segments)
      : join(baseFolder(location.base, context, join), ...location.segments);
    if (!files.includes(file)) files.push(file);
  }
  const project = PROJECT_FILES[host];
  if (project !== undefined) for (const folder of context.folders ?? []) files.push(join(folder, ...project));
  return files;
}

function baseFolder(base: Base, context: LocationContext, join: (...parts: string[]) => string): string {
  switch (base) {
    case 'home': return context.home;
    case 'appData': return nonEmpty(context.env.APPDATA) ?? join(context.home, 'AppData', 'Roaming');
    case 'xdgConfig': return nonEmpty(context.env.XDG_CONFIG_HOME) ?? join(context.home, '.config');
    case 'appSupport': return join(context.home, 'Library', 'Application Support');
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
