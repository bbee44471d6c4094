// The scope files a person can add servers to from the UI (Import Servers…, Browse Servers, install
// links), and writing entries into one: text edits that keep comments, refused when an editor holds
// unsaved changes of the file or when the result would not read as a configuration.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { addServer, declareInputs, scopeTextErrors, type InputDeclaration } from '../../core/config/scopeWriter';
import { withOriginNote, type ImportedEntry } from '../../core/import';
import { writeFileAtomic } from '../../node/atomicWrite';
import { NodeConfigFileSystem } from '../../node/configFileSystem';
import type { ConfigSources } from './configSources';

/** A scope file servers can go into. */
export interface ScopeTarget {
  scope: 'user' | 'local' | 'project';
  label: string;
  file: string;
}

const MAX_SCOPE_FILE_BYTES = 16 * 1024 * 1024;

/** User first (the default), then each folder's local and project file. */
export function scopeTargets(sources: ConfigSources): ScopeTarget[] {
  const list: ScopeTarget[] = [{ scope: 'user', label: 'User servers', file: sources.userFile() }];
  for (const folder of sources.folders()) {
    list.push({ scope: 'local', label: `Local servers of ${folder.name} (private)`, file: sources.localFile(folder) });
    list.push({ scope: 'project', label: `Project servers of ${folder.name} (.mcp.json, shared, needs trust)`, file: sources.projectFile(folder) });
  }
  return list;
}

/** The text of a scope file, undefined when it does not exist. */
export async function readScopeFile(file: string): Promise<string | undefined> {
  const read = await new NodeConfigFileSystem().read(file, MAX_SCOPE_FILE_BYTES);
  if (read.kind === 'missing') return undefined;
  if (read.kind !== 'text') throw new Error(`${file} cannot be read (${read.kind})`);
  return read.text;
}

/** Adds the entries (replacing where asked, each with its note), declares the inputs, then writes the file atomically. */
export async function writeEntries(
  target: ScopeTarget, text: string | undefined,
  servers: readonly { name: string; entry: ImportedEntry; replace: boolean; note?: string }[], inputs: readonly InputDeclaration[],
): Promise<string[]> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'file' && path.resolve(document.uri.fsPath) === path.resolve(target.file));
  if (open?.isDirty) throw new Error(`${target.file} has unsaved changes: save or revert it, then try again`);
  let current = text;
  for (const server of servers) {
    const change = addServer(current, server.name, server.entry, { force: server.replace, file: target.file });
    if (!change.ok) throw new Error(`${target.file}: ${change.refusal.message}`);
    // A note (where an imported entry came from) is a comment at the start of the entry.
    current = server.note === undefined ? change.text : withOriginNote(change.text, server.name, server.note) ?? change.text;
  }
  const declared = declareInputs(current!, inputs, { file: target.file });
  if (!declared.ok) throw new Error(`${target.file}: ${declared.refusal.message}`);
  const errors = scopeTextErrors(target.file, declared.text, target.scope, path.dirname(target.file));
  if (errors.length > 0) throw new Error(`${target.file} would not read as a configuration (${errors.join('; ')}); nothing was written`);
  await writeFileAtomic(target.file, declared.text);
  return servers.map((server) => server.name);
}
