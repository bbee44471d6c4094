// SEP-2352: a server may move to another authorization server. Its protected resource metadata then
// names the new one, but the SDK starts each sign-in from the discovery state the provider stored, so
// it would go on asking the old authorization server for tokens the server no longer accepts. A 401 to
// a request that carried our token is the sign that something changed: the stored discovery is dropped
// before the SDK handles that 401, so its next sign-in discovers again (two GETs when nothing moved,
// after which a refresh token of the same issuer is still used; tokens and a registered client of the
// old issuer are set aside by the SDK's issuer check).
import type { FetchLike, OAuthClientProvider } from '../sdk';

/** Whether a request made with `init` carried an access token (Bearer, or DPoP-bound). */
function carriedToken(init: Parameters<FetchLike>[1]): boolean {
  return /^(Bearer|DPoP)\s/i.test(new Headers(init?.headers).get('authorization') ?? '');
}

/** `inner`, forgetting `provider`'s discovery state whenever a request carrying its token is answered 401. */
export function rediscoverOnRefusedToken(inner: FetchLike, provider: OAuthClientProvider): FetchLike {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.status === 401 && carriedToken(init)) await provider.invalidateCredentials?.('discovery');
    return response;
  };
}
