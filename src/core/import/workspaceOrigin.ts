// Which imported servers are repository content, and how a written entry remembers where it came from.
// A file inside a workspace folder (a repository's `.cursor/mcp.json`, `.vscode/mcp.json`,
// `.codex/config.toml`…), or shaped like one of those project files wherever it lies, was written by
// whoever can push to that repository: importing it into the person's own scopes goes through the trust
// prompt first. Only the host's own user files (`~/.cursor/mcp.json`) are the person's without asking.
import * as path from 'node:path';
import { applyEdits, findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { ImportedServer } from './types';

/** What decides whether a file is repository content. */
export interface WorkspaceContext {
  /** The workspace folders (absolute paths). */
  folders: readonly string[];
  /** The host's user files (its default locations without folders): the person's own. */
  userFiles: readonly string[];
}

/** The project files of every host, by their last segments (`.cursor/mcp.json`). */
const PROJECT_FILE_SHAPES: readonly (readonly string[])[] = [['.vscode', 'mcp.json'], ['.cursor', 'mcp.json'], ['.codex', 'config.toml'], ['.zed', 'settings.json'], ['.mcp.json']];

/** Whether `file` is repository content: inside a workspace folder, or a host's project file, and not one of the host's user files. */
export function isWorkspaceFile(file: string, context: WorkspaceContext): boolean {
  const paths = /^[A-Za-z]:[\\/]/.test(file) || file.includes('\\') ? path.win32 : path.posix;
  const resolved = paths.resolve(file);
  const same = (a: string, b: string): boolean => (paths === path.win32 ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (context.userFiles.some((user) => same(paths.resolve(user), resolved))) return false;
  const inside = context.folders.some((folder) => {
    const relative = paths.relative(paths.resolve(folder), resolved);
    return relative !== '' && !relative.startsWith('..') && !paths.isAbsolute(relative);
  });
  if (inside) return true;
  const segments = resolved.split(/[\\/]+/);
  return PROJECT_FILE_SHAPES.some((shape) => shape.every((part, index) => same(segments[segments.length - shape.length + index] ?? '', part)));
}

/** The servers with `fromWorkspace` set as `context` decides. */
export function withWorkspaceOrigins(servers: readonly ImportedServer[], context: WorkspaceContext): ImportedServer[] {
  return servers.map((server) => ({ ...server, fromWorkspace: isWorkspaceFile(server.file, context) }));
}

/** The note a written entry keeps of its origin: a comment, since jsonc keeps comments through every later edit of other entries. */
export function originNote(file: string, date: Date): string {
  return `Imported on ${date.toISOString().slice(0, 10)} from ${file}, a repository's file, after its trust review`;
}

const NOTE = /\/\* (Imported on \d{4}-\d{2}-\d{2} from [\s\S]*?, a repository's file, after its trust review) \*\//;

/**
 * `text` with `note` as a block comment at the start of server `name`'s entry (a block comment, so no
 * layout of the entry can turn it into a comment of what follows); undefined when the entry is not found.
 */
export function withOriginNote(text: string, name: string, note: string): string | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (root === undefined) return undefined;
  for (const section of ['mcpServers', 'servers']) {
    const entry = findNodeAtLocation(root, [section, name]);
    if (entry?.type !== 'object') continue;
    // A `*/` in a path would end the comment early.
    const comment = `/* ${note.replace(/\*\//g, '*\\/')} */`;
    const firstProperty = entry.children?.[0];
    const edit = firstProperty === undefined
      ? { offset: entry.offset + 1, length: 0, content: ` ${comment} ` }
      : { offset: firstProperty.offset, length: 0, content: `${comment}\n${indentBefore(text, firstProperty.offset)}` };
    return applyEdits(text, [edit]);
  }
  return undefined;
}

/** The origin a written entry's note names, or undefined: what the CLI and views show of it. */
export function originNoteOf(text: string, name: string): string | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (root === undefined) return undefined;
  for (const section of ['mcpServers', 'servers']) {
    const entry = findNodeAtLocation(root, [section, name]);
    if (entry?.type !== 'object') continue;
    return NOTE.exec(text.slice(entry.offset, entry.offset + entry.length))?.[1].replace(/\*\\\//g, '*/');
  }
  return undefined;
}

/** The spaces before `offset` on its line, when only spaces precede it there. */
function indentBefore(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : '';
}
