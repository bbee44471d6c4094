// A person's sign-in to one remote server, outside any connection: the SDK's `auth()` does discovery
// (reusing what the failed connect stored), registration, PKCE and the code exchange; the agent shows
// the authorization page and brings back the code on the loopback redirect. On success the tokens are
// in the store and the next connect uses them.
import type { EffectiveServer } from '../../core/config/types';
import { displayUrl } from '../remoteTransports';
import { sdkAuth } from '../sdk';
import type { OAuthCredentialStore } from './credentialStore';
import { LoopbackAgent } from './loopbackAgent';
import { describeIssuerMismatch, isExemptLegacyIssuer, SDK_ISSUER_CHECK_OFF } from './legacyIssuer';
import { describeOAuthError } from './oauthErrorText';
import { IssuerWatch, oauthFetchGuard } from './oauthFetchGuard';
import { ServerOAuthProvider } from './oauthProvider';
import { freeLoopbackPort, type AuthorizationResponse } from './redirectListener';
import { refreshOnce } from './refreshOnce';

export interface SignInOptions {
  /** The server with its `${input:…}` values in (a configured client secret is needed for the exchange). */
  server: EffectiveServer;
  store: OAuthCredentialStore;
  clientName: string;
  /** Shows the authorization page to the person; resolves false when they declined. */
  open(authorizationUrl: URL): Promise<boolean>;
  /** How long the browser may take. */
  timeoutMs: number;
  /** The scope the server's last 401 asked for, if any (the SDK otherwise uses the advertised scopes). */
  scope?: string;
  /** The protected resource metadata URL the server's last 401 named, if any (a start did not follow it). */
  resourceMetadataUrl?: URL;
  signal?: AbortSignal;
}

/** Signs in to `server`; resolves once tokens are stored, rejects with a sentence a person can act on. */
export async function signIn(options: SignInOptions): Promise<void> {
  const { server, store } = options;
  const { url, oauth = {} } = server.launch;
  if ((server.launch.type !== 'http' && server.launch.type !== 'sse') || url === undefined) {
    throw new Error(`"${server.id}" is not an http or sse server: there is nothing to sign in to`);
  }
  if (oauth.grantType === 'client_credentials') throw new Error(`"${server.id}" signs in with its client credentials, without a person`);
  const serverUrl = new URL(url);
  const port = oauth.callbackPort ?? await freeLoopbackPort();
  const agent = new LoopbackAgent({ port, open: (authorizationUrl) => options.open(authorizationUrl), timeoutMs: options.timeoutMs, signal: options.signal });
  const watch = new IssuerWatch();
  const provider = new ServerOAuthProvider({ serverUrl, settings: oauth, store, agent, clientName: options.clientName, watch });
  const { scope, resourceMetadataUrl } = options;
  const fetchFn = oauthFetchGuard(serverUrl, refreshOnce(), undefined, watch);
  let relaxed = false;
  // Discovery comes first in the SDK's flow, so a refused issuer stops it before anything is registered,
  // stored or opened: the run again (2025-03-26 case only) starts from nothing.
  const run = async (response?: AuthorizationResponse): Promise<string> => {
    for (;;) {
      try {
        return await sdkAuth(provider, { serverUrl, scope, resourceMetadataUrl, fetchFn, ...(response === undefined ? {} : { authorizationCode: response.code, iss: response.iss }), ...(relaxed ? SDK_ISSUER_CHECK_OFF : {}) });
      } catch (error) {
        if (relaxed || !isExemptLegacyIssuer(error, serverUrl, watch)) {
          const mismatch = describeIssuerMismatch(error);
          if (mismatch !== undefined) throw new Error(`the sign-in to ${displayUrl(serverUrl)}: ${mismatch}`, { cause: error });
          // The token endpoint's answer is the authorization server's text: shown as text (oauthErrorText.ts).
          const refused = describeOAuthError(error, displayUrl(serverUrl));
          throw refused === undefined ? error : new Error(refused, { cause: error });
        }
        relaxed = true;
      }
    }
  };
  let result = await run();
  if (result === 'REDIRECT') {
    const response = provider.takeAuthorizationResponse();
    if (response === undefined) throw new Error(`the sign-in to ${displayUrl(serverUrl)} brought back no authorization code`);
    options.signal?.throwIfAborted();
    result = await run(response);
  }
  if (result !== 'AUTHORIZED') throw new Error(`the sign-in to ${displayUrl(serverUrl)} did not complete`);
  // What the person's sign-in reached, a later start may reach to refresh its tokens (oauthReach.ts).
  await store.update(serverUrl, (record) => ({ ...record, approvedOrigins: [...watch.reached].sort() }));
}
