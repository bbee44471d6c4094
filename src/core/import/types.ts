// The shapes of servers read from other MCP hosts' files, translated into ours. Pure data.

/** The hosts whose files can be imported, as named on the command line. */
export const HOST_IDS = ['claude-desktop', 'claude-code', 'vscode', 'cursor', 'windsurf', 'codex', 'zed', 'goose'] as const;
export type HostId = (typeof HOST_IDS)[number];

/** One entry exactly as it is written into a `.mcp.json` (keys in this order, absent ones left out). */
export interface ImportedEntry {
  type: 'stdio' | 'http' | 'sse' | 'ws';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  envFile?: string;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  timeout?: number;
  disabled?: boolean;
  allowedTools?: string[];
  disabledTools?: string[];
}

/** A literal value in `env` or `headers` that looks like a credential (offered to move into secret storage). */
export interface LiteralSecret {
  field: 'env' | 'headers';
  key: string;
}

/** One server read from another host, translated. */
export interface ImportedServer {
  name: string;
  entry: ImportedEntry;
  /** The file it was read from. */
  file: string;
  /** Where in that file, for people: e.g. `project /home/me/app` of Claude Code's `~/.claude.json`. */
  section?: string;
  secrets: LiteralSecret[];
  /** Set once the file is judged (withWorkspaceOrigins): true when it is a repository's file, not the person's own. */
  fromWorkspace?: boolean;
}

/** A VS Code style `inputs` entry, kept as the source declares it. */
export interface ImportedInput {
  id: string;
  type: string;
  description?: string;
  password?: boolean;
  default?: string;
  options?: string[];
}

/** A server (or one of its fields) that was not imported, and why. */
export interface SkippedItem {
  name: string;
  reason: string;
}

/** A source file that could not be read (or not all of it), at a position. */
export interface ImportProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** What reading one host file gave. `usable` is false when nothing of it could be read. */
export interface HostRead {
  servers: ImportedServer[];
  inputs: ImportedInput[];
  skipped: SkippedItem[];
  problems: ImportProblem[];
  usable: boolean;
}

/** A reader of one host's file format: never throws, every problem is reported at its position. */
export type HostReader = (file: string, text: string) => HostRead;
