// OAuth for the conformance client: what each auth scenario's context (MCP_CONFORMANCE_CONTEXT) means
// for the server entry, and the two grants that are not a config setting of the extension. The SDK does
// the protocol in every case; this file only supplies credentials, and for the enterprise-managed flow
// (SEP-990) the one step the SDK leaves to the client: exchanging the IdP's ID token for an ID-JAG
// (RFC 8693) before the SDK sends the jwt-bearer grant (RFC 7523).
import type { EffectiveServer, OAuthSettings } from '../core/config/types';
import type { OAuthCredentialStore } from '../node/auth/credentialStore';
import { LoopbackAgent, headlessOpener } from '../node/auth/loopbackAgent';
import { OAuthProviders, type ConnectAuthProvider, type OAuthSupport } from '../node/auth/oauthSupport';
import { loopbackRedirectUri } from '../node/auth/redirectListener';
import {
  PrivateKeyJwtProvider, type OAuthClientInformationMixed, type OAuthClientMetadata, type OAuthClientProvider,
  type OAuthDiscoveryState, type OAuthTokens,
} from '../node/sdk';

/** The scenario context keys this client understands (all strings). */
export type ScenarioContext = Record<string, unknown>;

/** The `oauth` entry of the server for a scenario: pre-registered or client-credentials clients from its context. */
export function oauthSettingsFor(scenario: string, context: ScenarioContext, clientMetadataUrl: string | undefined): OAuthSettings | undefined {
  if (!scenario.startsWith('auth/')) return undefined;
  const settings: OAuthSettings = {};
  if (clientMetadataUrl !== undefined) settings.clientMetadataUrl = clientMetadataUrl;
  const clientId = text(context.client_id);
  const clientSecret = text(context.client_secret);
  if (scenario === 'auth/client-credentials-basic') return { grantType: 'client_credentials', clientId: required(clientId, 'client_id'), clientSecret: required(clientSecret, 'client_secret') };
  if (clientId !== undefined && scenario === 'auth/pre-registration') {
    settings.clientId = clientId;
    if (clientSecret !== undefined) settings.clientSecret = clientSecret;
  }
  return settings;
}

/**
 * The OAuth support of the conformance client: the extension's providers with a headless agent (the
 * suite's authorization servers grant at once, so following the redirects is the whole "browser"), and
 * for the two scenarios that need more than config, the SDK's JWT client or the cross-app provider.
 */
export function conformanceOAuth(scenario: string, context: ScenarioContext, store: OAuthCredentialStore, clientName: string, port: number): OAuthSupport {
  if (scenario === 'auth/client-credentials-jwt') {
    return {
      providerFor: () => new PrivateKeyJwtProvider({
        clientId: required(text(context.client_id), 'client_id'),
        privateKey: required(text(context.private_key_pem), 'private_key_pem'),
        algorithm: text(context.signing_algorithm) ?? 'ES256',
        clientName,
      }),
    };
  }
  if (scenario === 'auth/cross-app-access-complete-flow') {
    return { providerFor: (_server: EffectiveServer, url: URL) => new CrossAppAccessProvider(url, context, clientName) as ConnectAuthProvider };
  }
  const agent = new LoopbackAgent({ port, open: headlessOpener(loopbackRedirectUri(port)), timeoutMs: 30_000 });
  return new OAuthProviders({ store, clientName, agentFor: () => agent });
}

/**
 * SEP-990 enterprise-managed authorization: no browser. The SDK discovers the MCP server's
 * authorization server and calls prepareTokenRequest; we get an ID-JAG from the enterprise IdP by
 * token exchange and hand the SDK a jwt-bearer grant carrying it. The client authenticates to the
 * authorization server with its own id and secret (the SDK picks client_secret_basic).
 */
class CrossAppAccessProvider implements OAuthClientProvider {
  private stored: OAuthTokens | undefined;
  private discovery: OAuthDiscoveryState | undefined;

  constructor(private readonly serverUrl: URL, private readonly context: ScenarioContext, private readonly clientName: string) {}

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.clientName, redirect_uris: [], grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'] };
  }

  clientInformation(): OAuthClientInformationMixed {
    return { client_id: required(text(this.context.client_id), 'client_id'), client_secret: required(text(this.context.client_secret), 'client_secret') };
  }

  tokens(): OAuthTokens | undefined {
    return this.stored;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.stored = tokens;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  redirectToAuthorization(): never {
    throw new Error('the enterprise-managed flow never sends a person to an authorization page');
  }

  saveCodeVerifier(): void {
    // No authorization code, no PKCE.
  }

  codeVerifier(): never {
    throw new Error('the enterprise-managed flow has no PKCE verifier');
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const metadata = this.discovery?.authorizationServerMetadata;
    const audience = metadata?.issuer ?? this.discovery?.authorizationServerUrl;
    if (audience === undefined) throw new Error('the authorization server is not known yet (discovery did not run)');
    const exchange = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token: required(text(this.context.idp_id_token), 'idp_id_token'),
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      audience,
      resource: this.discovery?.resourceMetadata?.resource ?? this.serverUrl.href,
      client_id: required(text(this.context.idp_client_id), 'idp_client_id'),
    });
    if (scope) exchange.set('scope', scope);
    const response = await fetch(required(text(this.context.idp_token_endpoint), 'idp_token_endpoint'), { method: 'POST', body: exchange });
    if (!response.ok) throw new Error(`the identity provider refused the token exchange: HTTP ${response.status}`);
    const body = await response.json() as { access_token?: unknown };
    if (typeof body.access_token !== 'string') throw new Error('the identity provider answered the token exchange without an access_token');
    const grant = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: body.access_token });
    if (scope) grant.set('scope', scope);
    return grant;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function required(value: string | undefined, key: string): string {
  if (value === undefined) throw new Error(`MCP_CONFORMANCE_CONTEXT has no "${key}", which this scenario needs`);
  return value;
}
