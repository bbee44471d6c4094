// Which OAuth provider a remote server's connection gets. Servers that carry their own Authorization
// header are left alone (the person manages that credential); `grantType: client_credentials` uses the
// SDK's machine-to-machine provider; everything else gets a ServerOAuthProvider over the shared store.
import type { EffectiveServer } from '../../core/config/types';
import { ClientCredentialsProvider, type OAuthClientProvider } from '../sdk';
import { OAuthCredentialStore } from './credentialStore';
import type { IssuerWatch } from './oauthFetchGuard';
import { ServerOAuthProvider, type AuthorizationAgent } from './oauthProvider';
import type { OAuthReach, SignInChallenge } from './oauthReach';
import type { AuthorizationResponse } from './redirectListener';

/**
 * What a connection needs of a provider: the SDK's interface, the response an agent brought back, if
 * any, and, for ours, what its flow's fetch guard records and how far a flow without a person reaches.
 */
export type ConnectAuthProvider = OAuthClientProvider & {
  takeAuthorizationResponse?(): AuthorizationResponse | undefined;
  readonly watch?: IssuerWatch;
  readonly reach?: OAuthReach;
};

/** The connector's source of OAuth providers, one per connection attempt. */
export interface OAuthSupport {
  /** The provider for `server` at `url`, or undefined when the connection should not do OAuth. */
  providerFor(server: EffectiveServer, url: URL): ConnectAuthProvider | undefined;
}

export interface OAuthProvidersOptions {
  store: OAuthCredentialStore;
  clientName: string;
  /** The agent for a server whose connect may send a person (or a headless stand-in) to sign in; default none. */
  agentFor?(server: EffectiveServer): AuthorizationAgent | undefined;
}

export class OAuthProviders implements OAuthSupport {
  /** Where each server's last refused connect said its sign-in starts, by credential key (for the person's sign-in). */
  private readonly challenges = new Map<string, SignInChallenge>();

  constructor(private readonly options: OAuthProvidersOptions) {}

  /** The scope and resource metadata URL the server at `url` named when it last needed a sign-in (WWW-Authenticate or metadata). */
  signInChallenge(url: string | URL): SignInChallenge {
    return { ...this.challenges.get(OAuthCredentialStore.keyOf(url)) };
  }

  providerFor(server: EffectiveServer, url: URL): ConnectAuthProvider | undefined {
    const { headers, oauth } = server.launch;
    if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return undefined;
    const settings = oauth ?? {};
    if (settings.grantType === 'client_credentials' && settings.clientId !== undefined && settings.clientSecret !== undefined) {
      const options: ConstructorParameters<typeof ClientCredentialsProvider>[0] = { clientId: settings.clientId, clientSecret: settings.clientSecret, clientName: this.options.clientName };
      if (settings.scopes) options.scope = settings.scopes.join(' ');
      return new ClientCredentialsProvider(options);
    }
    return new ServerOAuthProvider({
      serverUrl: url, settings, store: this.options.store, agent: this.options.agentFor?.(server), clientName: this.options.clientName,
      onSignInRequired: (challenge) => this.challenges.set(OAuthCredentialStore.keyOf(url), challenge),
    });
  }
}
