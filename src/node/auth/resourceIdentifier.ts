// The `resource` a protected resource metadata document names (RFC 9728) decides the audience of the
// tokens a sign-in asks for (the `resource` parameter, RFC 8707). RFC 9728 §3.3: it must be identical
// to the resource identifier the metadata URL was made from, and, when the URL came from a
// WWW-Authenticate challenge, to the URL the request went to; otherwise the document is not used. The
// SDK's own check (checkResourceAllowed) lets through any resource on the server's origin whose path is
// a prefix of the server's, so a document naming `https://host/` would have tokens made for every path
// of that host. Here the spec's rule decides; the SDK still says what the server's identifier is.
import { resourceUrlFromServerUrl } from '../sdk';
import { displayUrl } from '../remoteTransports';

/** How much of a refused `resource` an error repeats (it is the server's text). */
const SHOWN_CHARS = 200;

/** A protected resource metadata document whose `resource` is not the server's. */
export class ResourceMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResourceMismatchError';
  }
}

const WELL_KNOWN_PRM = '/.well-known/oauth-protected-resource';

/**
 * Where a metadata document came from, as far as its `resource` is concerned: from the URL a
 * WWW-Authenticate challenge named, from this URL (found at a well-known URL in this flow), or
 * `stored` (read from an earlier flow, checked when it arrived).
 */
export type ResourceMetadataSource = 'challenge' | URL | 'stored';

/**
 * The resource identifiers the metadata of the server at `serverUrl` may name. From a challenge: the
 * server's own URL. From a well-known URL on the server's origin: the identifier that URL was made
 * from (RFC 9728 §3.1 inserts the well-known path between the host and the identifier's path and
 * query); the SDK asks the one made from the server's URL first, then the origin's. A stored document:
 * either of those two.
 */
export function expectedResources(serverUrl: string | URL, source: ResourceMetadataSource): URL[] {
  const server = resourceUrlFromServerUrl(serverUrl);
  if (source === 'stored') {
    const origin = new URL(server.origin);
    return origin.href === server.href ? [server] : [server, origin];
  }
  if (source === 'challenge' || source.origin !== server.origin) return [server];
  const { pathname, search } = source;
  if (pathname !== WELL_KNOWN_PRM && !pathname.startsWith(`${WELL_KNOWN_PRM}/`)) return [server];
  return [new URL(`${server.origin}${pathname.slice(WELL_KNOWN_PRM.length) || '/'}${search}`)];
}

/**
 * The resource indicator for the server at `serverUrl`: `resource` as a URL when it is identical to an
 * identifier `expectedResources` allows; otherwise a ResourceMismatchError that names both.
 */
export function checkedResource(serverUrl: string | URL, resource: string, source: ResourceMetadataSource): URL {
  const expected = expectedResources(serverUrl, source);
  let received: URL | undefined;
  try {
    received = new URL(resource);
  } catch {
    received = undefined;
  }
  if (received !== undefined && expected.some((url) => url.href === received.href)) return received;
  const shown = resource.length > SHOWN_CHARS ? `${resource.slice(0, SHOWN_CHARS)}…` : resource;
  const wanted = expected.map((url) => displayUrl(url)).join(' or ');
  throw new ResourceMismatchError(
    `the protected resource metadata of ${displayUrl(serverUrl)} names the resource ${JSON.stringify(shown)}, not ${wanted}: refused, nothing was signed in to (RFC 9728 §3.3)`,
  );
}
