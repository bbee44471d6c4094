// Where a `${input:id}` answer is kept: per workspace, per id, and per configuration file that asks
// for it. A repository's .mcp.json asking for `${input:token}` must not receive the answer the person
// gave for their own ~/.mcp.json's `${input:token}`. (No vscode import: unit-tested as is.)
import type { EffectiveServer, Scope } from '../../core/config/types';

/** The file whose servers share an input's answer: its scope and path. */
export interface InputOwner {
  readonly scope: Scope;
  readonly file: string;
}

/** The owner of a server's inputs. */
export function inputOwnerOf(server: Pick<EffectiveServer, 'scope' | 'source'>): InputOwner {
  return { scope: server.scope, file: server.source.file };
}

const KEY_PREFIX = 'switchboard.input';

/**
 * The SecretStorage key of an answer. The user scope keeps the key answers had before they were kept
 * per file (so they still fill the person's own servers); every other file has keys of its own, JSON-
 * quoted so that no id or path can forge another's key.
 */
export function inputKeyOf(workspaceKey: string, owner: InputOwner, id: string): string {
  if (owner.scope === 'user') return `${KEY_PREFIX}:${workspaceKey}:${JSON.stringify(id)}`;
  return `${KEY_PREFIX}:${workspaceKey}:${JSON.stringify([owner.scope, owner.file, id])}`;
}

/** The key of the list of answers kept for a workspace (SecretStorage cannot list its keys). */
export function inputIndexKeyOf(workspaceKey: string): string {
  return `${KEY_PREFIX}s:${workspaceKey}`;
}

/** One entry of that list. */
export interface StoredInput {
  readonly id: string;
  readonly key: string;
}

/** Reads the list; an entry that is a bare id was kept before answers were per file (the user scope's key). */
export function parseInputIndex(text: string | undefined, workspaceKey: string): StoredInput[] {
  if (text === undefined) return [];
  let items: unknown;
  try {
    items = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(items)) return [];
  return items.flatMap((item): StoredInput[] => {
    if (typeof item === 'string') return [{ id: item, key: inputKeyOf(workspaceKey, { scope: 'user', file: '' }, item) }];
    const entry = item as Partial<StoredInput> | null;
    return typeof entry?.id === 'string' && typeof entry.key === 'string' ? [{ id: entry.id, key: entry.key }] : [];
  });
}
