// "Always" for a server's sampling requests: kept by the server's identity (scope, file, name), so a
// project server named like one of the person's own servers does not inherit its "always". Answers
// kept by name alone (before identities) still hold for the person's own servers of that name.
import { legacyNameApplies, serverIdentityKey, type ServerIdentity } from '../approvals/serverIdentity';

/** What is kept: identity keys (serverIdentityKey), and names from before identities. */
export interface SamplingAlways {
  readonly identities: readonly string[];
  readonly legacyNames: readonly string[];
}

/** Whether the person chose "always" for this server's sampling requests. */
export function samplingAlwaysAllows(kept: SamplingAlways, server: ServerIdentity): boolean {
  return kept.identities.includes(serverIdentityKey(server)) || kept.legacyNames.some((name) => legacyNameApplies(name, server));
}

/** The identity keys after "always" for this server. */
export function withSamplingAlways(identities: readonly string[], server: ServerIdentity): string[] {
  const key = serverIdentityKey(server);
  return identities.includes(key) ? [...identities] : [...identities, key];
}
