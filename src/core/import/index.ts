// The public API of the import core: read another host's files and get entries in our format, with what
// was skipped and why, and every problem at its position.
import type { ConfigRead } from '../config/types';
import { readClaudeCode } from './claudeCode';
import { readClaudeDesktop } from './claudeDesktop';
import { readCodex } from './codex';
import { readCursor } from './cursor';
import { readGoose } from './goose';
import type { HostId, HostRead, HostReader, ImportedInput, ImportedServer, ImportProblem, SkippedItem } from './types';
import { readVscode } from './vscode';
import { readWindsurf } from './windsurf';
import { readZed } from './zed';

export * from './types';
export { defaultLocations, type LocationContext, type Platform } from './locations';
export { literalSecrets } from './entry';
export { freeName, planImport, secretInputId, workspaceServersOf, type Conflict, type ImportPlan, type PlannedServer } from './plan';
export { isWorkspaceFile, originNote, originNoteOf, withOriginNote, withWorkspaceOrigins, type WorkspaceContext } from './workspaceOrigin';
export { workspaceImportEntries, type ImportTrustContext, type WorkspaceImport } from './importTrust';

/** Host files can be large (Claude Code keeps its history in `~/.claude.json`): this much is read. */
export const MAX_HOST_FILE_BYTES = 64 * 1024 * 1024;

const READERS: Record<HostId, HostReader> = {
  'claude-desktop': readClaudeDesktop,
  'claude-code': readClaudeCode,
  vscode: readVscode,
  cursor: readCursor,
  windsurf: readWindsurf,
  codex: readCodex,
  zed: readZed,
  goose: readGoose,
};

/** People's names of the hosts, for messages and pickers. */
export const HOST_NAMES: Record<HostId, string> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  vscode: 'VS Code',
  cursor: 'Cursor',
  windsurf: 'Windsurf',
  codex: 'Codex',
  zed: 'Zed',
  goose: 'Goose',
};

/** Everything read from one host's files. `readFiles` counts the files that could be read. */
export interface HostImport {
  host: HostId;
  servers: ImportedServer[];
  inputs: ImportedInput[];
  skipped: SkippedItem[];
  problems: ImportProblem[];
  /** The files that existed and could be read (even if they define no server). */
  readFiles: string[];
  /** The files that do not exist. */
  missingFiles: string[];
}

/** Reads one host file's text as that host does; never throws. */
export function readHostFile(host: HostId, file: string, text: string): HostRead {
  try {
    return READERS[host](file, text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { servers: [], inputs: [], skipped: [], problems: [{ file, line: 1, column: 1, message: `internal error while reading (${detail}); please report it` }], usable: false };
  }
}

/**
 * Reads a host's files (in order) and gathers their servers. A name defined by two files (or two
 * sections of one file) is imported once, from the first; the others are skipped, naming where.
 */
export function importHost(host: HostId, files: readonly { file: string; read: ConfigRead }[]): HostImport {
  const result: HostImport = { host, servers: [], inputs: [], skipped: [], problems: [], readFiles: [], missingFiles: [] };
  for (const { file, read } of files) {
    if (read.kind === 'missing') {
      result.missingFiles.push(file);
      continue;
    }
    if (read.kind !== 'text') {
      result.problems.push({ file, line: 1, column: 1, message: unreadable(read) });
      continue;
    }
    const hostRead = readHostFile(host, file, read.text);
    result.problems.push(...hostRead.problems);
    result.skipped.push(...hostRead.skipped);
    // A file whose only content was a wrong section gave nothing: it counts as not read.
    if (hostRead.usable && !(hostRead.servers.length === 0 && hostRead.problems.length > 0)) result.readFiles.push(file);
    for (const server of hostRead.servers) {
      const first = result.servers.find((existing) => existing.name === server.name);
      if (first === undefined) result.servers.push(server);
      else result.skipped.push({ name: server.name, reason: `not imported from ${where(server)}: the name is already imported from ${where(first)}` });
    }
    for (const input of hostRead.inputs) if (!result.inputs.some((existing) => existing.id === input.id)) result.inputs.push(input);
  }
  return result;
}

function where(server: ImportedServer): string {
  return server.section === undefined ? server.file : `${server.file} (${server.section})`;
}

function unreadable(read: Exclude<ConfigRead, { kind: 'text' } | { kind: 'missing' }>): string {
  switch (read.kind) {
    case 'directory': return 'This path is a directory, not a file';
    case 'tooLarge': return `The file is ${read.size} bytes, more than the ${MAX_HOST_FILE_BYTES} bytes read`;
    case 'unreadable': return `The file could not be read: ${read.message}`;
  }
}
