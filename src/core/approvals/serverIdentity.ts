// Who a server is, for the person's standing answers (approval rules, sampling's "always"): its scope,
// the file that defines it and its name. A name alone is not enough: a repository's .mcp.json can name
// a server like one of the person's own, and must not inherit what the person allowed for that one.
// The definition's fingerprint is deliberately not part of it: editing one's own server keeps its
// rules (a changed tool definition still suspends them, see the tool review), while a project server,
// whose edits come from the repository, is asked about again by trust.
import type { EffectiveServer, Scope } from '../config/types';

/** A server as the person's rules know it. */
export interface ServerIdentity {
  readonly name: string;
  readonly scope: Scope;
  /** The file that defines it (absolute path, or a plugin's virtual name). */
  readonly file: string;
}

/** The identity of a configured server. */
export function serverIdentityOf(server: Pick<EffectiveServer, 'name' | 'scope' | 'source'>): ServerIdentity {
  return { name: server.name, scope: server.scope, file: server.source.file };
}

/** One string for an identity, for keys of stored answers (JSON, so no name or path can forge another's). */
export function serverIdentityKey(identity: ServerIdentity): string {
  return JSON.stringify([identity.scope, identity.file, identity.name]);
}

/**
 * Whether an answer kept by name alone (before answers were kept by identity) still applies to this
 * server: only to a server of the person's own scopes (user, local) with that name, never to a
 * project or plugin server that took the name.
 */
export function legacyNameApplies(name: string, identity: ServerIdentity): boolean {
  return name === identity.name && (identity.scope === 'user' || identity.scope === 'local');
}

