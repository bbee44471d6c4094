// The fetch the SDK's OAuth flow is given, for one remote server. The SDK follows whatever URLs the
// server (its WWW-Authenticate header, its protected resource metadata) and the authorization server
// (its metadata) name, with any scheme it can fetch and to any address; and it uses authorization
// server metadata without checking that its `issuer` is the server it was fetched from. Here, a
// request away from the server's own origin goes only to an https: URL (or http: on this computer,
// for a server on this computer), and to a private, loopback or link-local address only when the
// server itself is on such a network; and authorization server metadata whose `issuer` is not the
// URL it was derived from (RFC 8414 §3.3; OpenID Connect Discovery §4.3) is refused. One case is
// exempt: when no protected resource metadata named an authorization server, the 2025-03-26 revision
// of MCP has a server publish its authorization server's metadata at the root
// `/.well-known/oauth-authorization-server` of its own origin, with an issuer elsewhere on that origin
// (e.g. `/oauth`); the server the person configured vouches for it there. The exemption is recorded
// (IssuerWatch) so that the SDK's own issuer check is relaxed for that flow only (legacyIssuer.ts).
// An issuer on another origin is refused there too.
// A flow nobody asked for (a start) is given an OAuthReach: it requests nothing outside the server's
// origin but what the person's last sign-in reached, and a challenge naming another origin ends it with
// the sign-in the person is asked for (oauthReach.ts).
import { extractWWWAuthenticateParams, type FetchLike } from '../sdk';
import { isLoopbackHostname, kindOfHost, type AddressKind, type Resolve } from './addressKind';
import type { OAuthReach, SignInChallenge } from './oauthReach';

/** A request the OAuth flow was about to make and did not. */
export class OAuthUrlRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OAuthUrlRefusedError';
  }
}

const WELL_KNOWN_OAUTH = '/.well-known/oauth-authorization-server';
const WELL_KNOWN_OIDC = '/.well-known/openid-configuration';

/**
 * The issuer an authorization server metadata URL was built from (RFC 8414 §3.1 inserts the well-known
 * segment before the issuer's path; OpenID Connect appends it, and the SDK tries both), or undefined
 * when `url` is not such a URL.
 */
export function issuerOfMetadataUrl(url: URL): string | undefined {
  const { origin, pathname } = url;
  for (const wellKnown of [WELL_KNOWN_OAUTH, WELL_KNOWN_OIDC]) {
    if (pathname === wellKnown) return origin;
    if (pathname.startsWith(`${wellKnown}/`)) return origin + pathname.slice(wellKnown.length);
  }
  if (pathname.endsWith(WELL_KNOWN_OIDC)) return origin + pathname.slice(0, -WELL_KNOWN_OIDC.length);
  return undefined;
}

function originOf(url: string): string | undefined {
  try { return new URL(url).origin; } catch { return undefined; }
}

/** Whether `url` is where a 2025-03-26 server publishes its authorization server's metadata: the root well-known URL of its own origin. */
export function isLegacyMetadataUrl(serverUrl: URL, url: URL): boolean {
  return url.origin === serverUrl.origin && url.pathname === WELL_KNOWN_OAUTH;
}

/** Whether two issuer identifiers are the same, a single trailing `/` apart at most (as the SDK compares them). */
export function sameIssuer(a: string, b: string): boolean {
  const normal = (s: string): string => {
    let href = s;
    try { href = new URL(s).href; } catch { /* not a URL: compared as written */ }
    return href.endsWith('/') ? href.slice(0, -1) : href;
  };
  return normal(a) === normal(b);
}

/** Why the OAuth flow of the server at `serverUrl` must not request `target`, or undefined when it may. */
export async function oauthUrlProblem(serverUrl: URL, target: URL, resolve?: Resolve): Promise<string | undefined> {
  if (target.origin === serverUrl.origin) return undefined;
  const serverOnLoopback = isLoopbackHostname(serverUrl.hostname);
  const httpAllowed = target.protocol === 'http:' && serverOnLoopback && isLoopbackHostname(target.hostname);
  if (target.protocol !== 'https:' && !httpAllowed) {
    return `only https: addresses are followed${serverOnLoopback ? ' (or http: on this computer)' : ''}`;
  }
  let kind: AddressKind;
  let serverKind: AddressKind;
  try {
    kind = await kindOfHost(target.hostname, resolve);
    if (kind === 'public') return undefined;
    serverKind = await kindOfHost(serverUrl.hostname, resolve);
  } catch (error) {
    // Unknown is not safe: a request whose address cannot be checked is not sent.
    return `its address could not be looked up (${error instanceof Error ? error.message : String(error)})`;
  }
  return kind === serverKind ? undefined : `it is ${PLACE[kind]}, and the server is not`;
}

const PLACE: Record<AddressKind, string> = {
  public: 'on the internet', private: 'on a private network', loopback: 'on this computer', linkLocal: 'a link-local address',
};

/** A URL as it may be shown or logged: no user info, no query (either can carry a secret). */
function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function urlOf(input: Parameters<FetchLike>[0]): URL {
  return new URL(typeof input === 'string' || input instanceof URL ? input : (input as { url: string }).url);
}

/**
 * What one OAuth flow's guard saw: what decides whether the 2025-03-26 exemption applies, where the
 * protected resource metadata came from (its `resource` is checked against it, resourceIdentifier.ts),
 * and the origins besides the server's it sent requests to.
 */
export class IssuerWatch {
  /** A protected resource metadata document (RFC 9728) of this flow named an authorization server. */
  namedAuthorizationServer = false;
  /** The issuer of root metadata let through under the 2025-03-26 exemption, if any. */
  legacyIssuer: string | undefined;
  /** The URL the last protected resource metadata document of this flow came from. */
  resourceMetadataFrom: URL | undefined;
  /** The origins, other than the server's, this flow sent requests to. */
  readonly reached = new Set<string>();
}

/** Whether `response` to a request made with `init` may be protected resource metadata (a JSON document fetched with GET). */
function mayBeResourceMetadata(init: Parameters<FetchLike>[1], response: Response): boolean {
  const method = init?.method ?? 'GET';
  return method.toUpperCase() === 'GET' && response.ok && /\bapplication\/([\w.+-]*\+)?json\b/i.test(response.headers.get('content-type') ?? '');
}

async function jsonOf(response: Response): Promise<unknown> {
  return response.clone().json().catch(() => undefined);
}

/**
 * `inner` restricted to what the OAuth flow of the server at `serverUrl` may request, metadata issuers
 * checked; with `reach` (a flow nobody asked for), nothing outside the server's origin that it does not allow.
 */
export function oauthFetchGuard(serverUrl: URL, inner: FetchLike = fetch, resolve?: Resolve, watch: IssuerWatch = new IssuerWatch(), reach?: OAuthReach): FetchLike {
  /** The last challenge the server answered with: where the person's sign-in starts. */
  let challenge: SignInChallenge = {};
  return async (input, init) => {
    const target = urlOf(input);
    const elsewhere = target.origin !== serverUrl.origin;
    if (elsewhere && reach !== undefined && !(await reach.mayRequest(target))) throw reach.deferred(target, challenge);
    const problem = await oauthUrlProblem(serverUrl, target, resolve);
    if (problem !== undefined) {
      throw new OAuthUrlRefusedError(`the sign-in to ${displayUrl(serverUrl)} was sent to ${displayUrl(target)}: not followed, ${problem}`);
    }
    if (elsewhere) watch.reached.add(target.origin);
    const response = await inner(input, init);
    if (reach !== undefined && response.status === 401) {
      const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
      challenge = { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
      // The SDK would follow the challenge at once, and take a refusal there for "no metadata": stopped here instead.
      if (resourceMetadataUrl !== undefined && resourceMetadataUrl.origin !== serverUrl.origin && !(await reach.mayRequest(resourceMetadataUrl))) {
        await response.body?.cancel().catch(() => undefined);
        throw reach.deferred(resourceMetadataUrl, challenge);
      }
    }
    const issuer = issuerOfMetadataUrl(target);
    if (issuer === undefined) {
      // Protected resource metadata may live at any URL (WWW-Authenticate names it): any JSON document
      // fetched with GET that names authorization servers counts, so the exemption can only be narrower.
      if (mayBeResourceMetadata(init, response)) {
        const document = (await jsonOf(response)) as { authorization_servers?: unknown; resource?: unknown } | undefined;
        const servers = document?.authorization_servers;
        if (Array.isArray(servers) && servers.length > 0) watch.namedAuthorizationServer = true;
        if (typeof document?.resource === 'string') watch.resourceMetadataFrom = target;
      }
      return response;
    }
    if (!response.ok) return response;
    const advertised = ((await jsonOf(response)) as { issuer?: unknown } | null | undefined)?.issuer;
    const legacy = typeof advertised === 'string' && !watch.namedAuthorizationServer && isLegacyMetadataUrl(serverUrl, target)
      && originOf(advertised) === serverUrl.origin;
    if (legacy && !sameIssuer(advertised, issuer)) {
      watch.legacyIssuer = advertised;
      return response;
    }
    if (typeof advertised !== 'string' || !sameIssuer(advertised, issuer)) {
      await response.body?.cancel().catch(() => undefined);
      const named = typeof advertised === 'string' ? `names the issuer ${JSON.stringify(advertised)}` : 'names no issuer';
      throw new OAuthUrlRefusedError(`the authorization server metadata at ${displayUrl(target)} ${named}, not ${issuer}: refused (its issuer must be the server it comes from)`);
    }
    return response;
  };
}
