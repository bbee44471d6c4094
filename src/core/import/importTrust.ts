// Servers imported from a repository's file are shown to the person exactly as a project server of that
// file would be: each read as the project scope reads it (variables expanded, the folder it belongs to),
// with its danger flags, in the words of the trust prompt. Nothing is written before they trust them.
import * as path from 'node:path';
import { mergeLayers, parseLayer } from '../config';
import type { EffectiveServer } from '../config/types';
import type { DangerFlag } from '../trust/dangerFlags';
import type { TrustPromptEntry } from '../trust/promptText';
import type { ImportedEntry } from './types';

/** One server about to be written from a repository's file. */
export interface WorkspaceImport {
  name: string;
  entry: ImportedEntry;
  /** The repository file it was read from. */
  file: string;
}

/** What reading the servers as project servers needs. */
export interface ImportTrustContext {
  folders: readonly string[];
  env: Record<string, string | undefined>;
  userHome: string;
  /** The danger flags of a definition (the trust gate's own). */
  flags(server: EffectiveServer): readonly DangerFlag[];
}

/** The trust prompt's entries for `servers`, in order: each the project server its file would define. */
export function workspaceImportEntries(servers: readonly WorkspaceImport[], context: ImportTrustContext): TrustPromptEntry[] {
  return servers.flatMap((server): TrustPromptEntry[] => {
    const folder = folderOf(server.file, context.folders);
    const layer = parseLayer(
      { scope: 'project', file: server.file, folder, vars: { env: context.env, userHome: context.userHome, workspaceFolder: folder }, inline: JSON.stringify({ mcpServers: { [server.name]: server.entry } }) },
      { kind: 'missing' },
    );
    return mergeLayers([layer]).servers.map((effective) => ({
      server: effective,
      decision: { state: 'needsTrust', reason: `imported from ${server.file}, a repository's file` },
      flags: context.flags(effective),
      shadows: [],
    }));
  });
}

/** The workspace folder holding `file`, else the folder above its host folder (`/repo` of `/repo/.cursor/mcp.json`). */
function folderOf(file: string, folders: readonly string[]): string {
  const holding = folders.find((folder) => {
    const relative = path.relative(folder, file);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  });
  if (holding !== undefined) return holding;
  const parent = path.dirname(file);
  return path.basename(parent).startsWith('.') ? path.dirname(parent) : parent;
}
