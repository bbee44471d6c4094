// How far an OAuth flow nobody asked for may reach. The hosts a server's answers name (`resource_metadata`
// in its WWW-Authenticate challenge, `authorization_servers` in its protected resource metadata) are the
// server's word, not the person's: a start sends them nothing, and the person's Sign In, which names the
// site before it opens it, is where discovery elsewhere begins (then over https only, or http on this
// computer: oauthFetchGuard.ts). What that sign-in reached is kept with its tokens, so a later start may
// refresh them there, and nowhere else.
import { SignInRequiredError } from '../../core/lifecycle/errors';
import { displayUrl } from '../displayUrl';
import type { OAuthCredentialStore } from './credentialStore';

/** What a server's 401 said about where its sign-in starts. */
export interface SignInChallenge {
  resourceMetadataUrl?: URL;
  scope?: string;
}

/** The limit of one flow without a person, consulted by its fetch guard. */
export interface OAuthReach {
  /** Whether `url`, on another origin than the server's, may be requested now. */
  mayRequest(url: URL): Promise<boolean>;
  /** The error that ends the flow instead of a request to `url`, after the server's last `challenge`. */
  deferred(url: URL, challenge: SignInChallenge): Error;
}

export interface UnattendedReachOptions {
  serverUrl: URL;
  store: OAuthCredentialStore;
  /** Told where the person's sign-in should start. */
  onDeferred?(challenge: SignInChallenge): void;
}

/** The reach of a start: the server's origin, and the origins the person's last sign-in to it reached. */
export function unattendedReach(options: UnattendedReachOptions): OAuthReach {
  return {
    mayRequest: async (url) => ((await options.store.load(options.serverUrl)).approvedOrigins ?? []).includes(url.origin),
    deferred: (url, challenge) => {
      options.onDeferred?.(challenge);
      return new SignInRequiredError(`${displayUrl(options.serverUrl)} needs you to sign in; its sign-in goes to ${url.origin}, which is contacted only once you choose Sign In`);
    },
  };
}

/**
 * The sign-in a flow's guard asked for, when `error` is it or carries it as a cause: the SDK wraps a
 * request that threw (its version probe says "probe failed"), and the person should read why instead.
 */
export function signInRequiredIn(error: unknown): SignInRequiredError | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++, current = current.cause) {
    if (current instanceof SignInRequiredError) return current;
  }
  return undefined;
}
