// Whether a server may start, as a pure function of the server, the remembered decisions and what the
// host knows (Restricted Mode, a verified repository, danger flags). The UI only collects the answer;
// the start gate only reads `state`.
import type { EffectiveServer } from '../config/types';
import type { DangerFlag } from './dangerFlags';
import type { LaunchChange, StoredLaunch } from './launchDiff';
import { needsTrustDecision, trustKey } from './trustKey';
import type { TrustLookup } from './trustStore';

export { needsTrustDecision, trustKey } from './trustKey';

export type TrustDecisionState = 'allowed' | 'needsTrust' | 'refused' | 'restricted';

export interface TrustDecision {
  state: TrustDecisionState;
  /** One sentence for people: why this state. */
  reason: string;
  /** The definition trusted before under this name, when the current one differs from it (as the trust store keeps it). */
  changedFrom?: StoredLaunch;
  /** What changed since then, field by field (secret values never shown); set with `changedFrom`. */
  changes?: LaunchChange[];
}

export interface TrustDecisionOptions {
  /** VS Code Restricted Mode (an untrusted workspace): no project server starts, whatever was trusted. */
  restricted: boolean;
  /** The folder's git remote matches a user-level trusted-repositories glob. */
  verified: boolean;
  /**
   * The dangerous patterns found in this server's definition; any one makes a verified repository ask
   * anyway. Undefined while they are not known yet: a verified repository's server waits, undecided.
   */
  dangerFlags: readonly DangerFlag[] | undefined;
}

/**
 * Decides a server's start: servers the user wrote (local, user, plugin scopes) are allowed unless they
 * read files of a workspace folder (then they are judged like project servers); a project server is
 * restricted in Restricted Mode, allowed when this exact definition was trusted,
 * refused when it was refused, allowed in a verified repository unless flagged dangerous, and otherwise
 * needs trust (with the previously trusted definition when the repository changed it).
 */
export function decideTrust(server: EffectiveServer, store: TrustLookup, options: TrustDecisionOptions): TrustDecision {
  if (!needsTrustDecision(server)) return { state: 'allowed', reason: `a ${server.scope} server: you configured it yourself` };
  const reads = server.scope === 'project' ? '' : `: it reads files of the workspace folder ${server.repositoryFolder ?? ''}`;
  if (options.restricted) return { state: 'restricted', reason: `Restricted Mode: no project server starts until the workspace is trusted${reads}` };
  const key = trustKey(server);
  if (key === undefined) return { state: 'needsTrust', reason: 'a project server outside any workspace folder' };

  const decided = store.get(key.folder, key.name, server.fingerprint);
  if (decided === 'trusted') return { state: 'allowed', reason: 'you trusted this exact definition' };
  if (decided === 'refused') return { state: 'refused', reason: 'you chose not to trust this definition; it is not asked again until it changes' };

  const flags = options.dangerFlags;
  if (options.verified && flags?.length === 0) return { state: 'allowed', reason: 'the repository is verified (its git remote matches a trusted repository)' };

  const previous = store.lastTrusted(key.folder, key.name);
  const never = server.scope === 'project' ? 'a project server that was never trusted' : `a ${server.scope} server that was never trusted with what it reads${reads}`;
  const why = options.verified
    ? flags === undefined ? 'the repository is verified; its definition is being checked' : `the repository is verified, but the definition is flagged (${flags.map((flag) => flag.id).join(', ')})`
    : previous !== undefined ? 'the definition changed since you trusted it' : never;
  const decision: TrustDecision = { state: 'needsTrust', reason: why };
  if (previous !== undefined) {
    decision.changedFrom = previous;
    decision.changes = store.changesSince(key.folder, key.name, server.launch) ?? [];
  }
  return decision;
}
