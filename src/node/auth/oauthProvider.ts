// The OAuthClientProvider we hand the SDK for one remote server. The SDK does the protocol (metadata
// discovery, dynamic registration, PKCE, token and refresh requests, scope step-up); this class keeps
// what it hands back (in the credential store, per server URL) and decides what the SDK leaves to the
// client: which client to present, when to add `offline_access`, and what "send the person to the
// authorization page" means. Without an agent (a start nobody asked for) it never opens anything:
// stored tokens and their refresh are used, and anything needing a person raises SignInRequiredError.
import { randomBytes } from 'node:crypto';
import type { OAuthSettings } from '../../core/config/types';
import { SignInRequiredError } from '../../core/lifecycle/errors';
import { displayUrl } from '../remoteTransports';
import type {
  OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, OAuthTokens,
} from '../sdk';
import type { OAuthCredentialStore } from './credentialStore';
import { IssuerWatch } from './oauthFetchGuard';
import { unattendedReach, type OAuthReach, type SignInChallenge } from './oauthReach';
import { checkedResource } from './resourceIdentifier';
import { loopbackRedirectUri, type AuthorizationResponse, type ExpectedIssuer } from './redirectListener';

/** The person's side of an authorization-code sign-in: a browser and the loopback redirect. */
export interface AuthorizationAgent {
  /** Where the authorization server sends the browser back to (fixed before the flow starts). */
  readonly redirectUrl: string;
  /**
   * Shows the authorization page and resolves with what the redirect brought back (code and issuer);
   * `issuer` is where the sign-in started, when its metadata is known.
   */
  authorize(authorizationUrl: URL, issuer?: ExpectedIssuer): Promise<AuthorizationResponse>;
}

export interface ServerOAuthProviderOptions {
  serverUrl: URL;
  settings: OAuthSettings;
  store: OAuthCredentialStore;
  /** Present when a person may be sent to the authorization page now. */
  agent?: AuthorizationAgent;
  clientName: string;
  /** What its flow's fetch guard records (default: a fresh one). */
  watch?: IssuerWatch;
  /** Told where the person's sign-in should start: the scope of an authorization request that needed a person, or the challenge a start stopped at. */
  onSignInRequired?(challenge: SignInChallenge): void;
}

/** An OAuthClientProvider that also hands over the response an agent brought back, for `finishAuth`. */
export interface CodeHoldingProvider extends OAuthClientProvider {
  /** The authorization response (code and issuer) received since the last call, once. */
  takeAuthorizationResponse(): AuthorizationResponse | undefined;
}

export class ServerOAuthProvider implements CodeHoldingProvider {
  private verifier: string | undefined;
  private pendingResponse: AuthorizationResponse | undefined;
  private lastState: string | undefined;
  /** Refreshed from the store on every read of the discovery state, so `offline_access` sees the latest. */
  private discovery: OAuthDiscoveryState | undefined;

  /** What the fetch guard of this provider's flow records. */
  readonly watch: IssuerWatch;
  /** Without an agent (a start nobody asked for): how far its flow may reach beyond the server's origin. */
  readonly reach: OAuthReach | undefined;

  constructor(private readonly options: ServerOAuthProviderOptions) {
    this.watch = options.watch ?? new IssuerWatch();
    this.reach = options.agent ? undefined : unattendedReach({
      serverUrl: options.serverUrl, store: options.store, onDeferred: (challenge) => options.onSignInRequired?.(challenge),
    });
  }

  get redirectUrl(): string {
    // Without an agent nothing is redirected; the SDK still needs a value to know this is an interactive client.
    return this.options.agent?.redirectUrl ?? loopbackRedirectUri(this.options.settings.callbackPort ?? 0);
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const metadata: OAuthClientMetadata = {
      client_name: this.options.clientName,
      redirect_uris: [this.redirectUrl],
      // SEP-2207: a client that wants to refresh says so in its registration.
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
    const scopes = this.options.settings.scopes;
    if (scopes && scopes.length > 0) metadata.scope = scopes.join(' ');
    return metadata;
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { clientId, clientSecret } = this.options.settings;
    if (clientId !== undefined) {
      const info: OAuthClientInformationMixed = { client_id: clientId };
      if (clientSecret !== undefined) info.client_secret = clientSecret;
      return info;
    }
    const { client } = await this.options.store.load(this.options.serverUrl);
    if (client && this.options.agent && !this.fitsRedirect(client)) return undefined; // registered for another redirect: register again
    if (client) return client;
    if (!this.options.agent) {
      // Registering needs no person, but a registration without a sign-in after it is of no use. (The
      // sign-in then asks for the scopes the server advertises, which discovery has stored by now.)
      throw new SignInRequiredError(this.signInMessage());
    }
    return undefined;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    // A configured client stays in the config; only what the authorization server gave us is stored.
    if (this.options.settings.clientId !== undefined) return;
    await this.options.store.update(this.options.serverUrl, (record) => ({ ...record, client: info }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.options.store.load(this.options.serverUrl)).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.options.store.saveTokens(this.options.serverUrl, tokens);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no PKCE code verifier: the sign-in was not started by this client');
    return this.verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.discovery = state;
    await this.options.store.update(this.options.serverUrl, (record) => ({ ...record, discovery: state }));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    this.discovery = (await this.options.store.load(this.options.serverUrl)).discovery;
    return this.discovery;
  }

  /**
   * Told by the SDK the resource indicator it is about to send (as the metadata wrote it, after the
   * SDK's own check, which refuses another origin and lets any path prefix through), before anything is
   * registered, opened or exchanged: RFC 9728 §3.3 decides (resourceIdentifier.ts). The discovery state
   * says whether the metadata URL came from a WWW-Authenticate challenge; otherwise the guard saw where
   * it came from, or it is a stored one. A refused document is forgotten (the SDK stored it first), so
   * no later flow reads it as checked. (The SDK's other hook, validateResourceURL, would have the
   * indicator sent as a parsed URL, a pathless one with a "/" added: not as published.)
   */
  async saveResourceUrl(resource: string): Promise<void> {
    const source = this.discovery?.resourceMetadataUrl !== undefined ? 'challenge' : this.watch.resourceMetadataFrom ?? 'stored';
    try {
      checkedResource(this.options.serverUrl, resource, source);
    } catch (error) {
      await this.invalidateCredentials('discovery');
      throw error;
    }
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'verifier') return;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
    await this.options.store.update(this.options.serverUrl, (record) => {
      const next = { ...record };
      if (scope === 'all' || scope === 'tokens') { delete next.tokens; delete next.savedAt; }
      if (scope === 'all' || scope === 'client') delete next.client;
      if (scope === 'all' || scope === 'discovery') delete next.discovery;
      return next;
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const agent = this.options.agent;
    if (!agent) {
      const scope = authorizationUrl.searchParams.get('scope') ?? undefined;
      this.options.onSignInRequired?.(scope === undefined ? {} : { scope });
      throw new SignInRequiredError(this.signInMessage(scope));
    }
    this.addOfflineAccess(authorizationUrl);
    const metadata = this.discovery?.authorizationServerMetadata;
    const issuer = metadata === undefined ? undefined : { issuer: metadata.issuer, sendsIss: metadata.authorization_response_iss_parameter_supported === true };
    this.pendingResponse = await agent.authorize(authorizationUrl, issuer);
  }

  takeAuthorizationResponse(): AuthorizationResponse | undefined {
    const response = this.pendingResponse;
    this.pendingResponse = undefined;
    return response;
  }

  /** The state of the authorization request this provider started last (the redirect must carry it). */
  get expectedState(): string | undefined {
    return this.lastState;
  }

  /** SEP-2207: ask for a refresh token with `offline_access`, but only where the authorization server lists it. */
  private addOfflineAccess(url: URL): void {
    const supported = this.discovery?.authorizationServerMetadata?.scopes_supported ?? [];
    if (!supported.includes('offline_access')) return;
    const scopes = (url.searchParams.get('scope') ?? '').split(' ').filter(Boolean);
    if (scopes.includes('offline_access')) return;
    url.searchParams.set('scope', [...scopes, 'offline_access'].join(' '));
  }

  private fitsRedirect(client: OAuthClientInformationMixed): boolean {
    // A client ID metadata document URL is not tied to one redirect; a registered client is.
    if (/^https:\/\//.test(client.client_id)) return true;
    const uris = 'redirect_uris' in client && Array.isArray(client.redirect_uris) ? client.redirect_uris.map(String) : [];
    return uris.length === 0 || uris.includes(this.redirectUrl);
  }

  private signInMessage(scope?: string | null): string {
    const message = `${displayUrl(this.options.serverUrl)} needs you to sign in${scope ? ` (scope: ${scope})` : ''}`;
    // A 401 from a server that publishes no OAuth metadata at all may just want an API key.
    const advertised = this.discovery?.resourceMetadata !== undefined || this.discovery?.authorizationServerMetadata !== undefined;
    return advertised || this.discovery === undefined ? message : `${message}; it publishes no OAuth metadata: if it expects an API key, put it in "headers"`;
  }
}
