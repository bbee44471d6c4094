// The SDK checks that authorization server metadata names the issuer it was fetched for (RFC 8414
// §3.3), and can only switch that check off for a whole flow. It stays on. A flow is run again with it
// off only when the SDK refused exactly the case our fetch guard exempts (oauthFetchGuard.ts): no
// protected resource metadata named an authorization server, so the metadata came from the root of the
// server's own origin, as a 2025-03-26 server publishes it, with an issuer elsewhere on that origin.
// The guard keeps checking every metadata document of the run that follows; anything else with a
// mismatched issuer stays refused.
import { IssuerMismatchError } from '../sdk';
import type { IssuerWatch } from './oauthFetchGuard';

/** The SDK option that turns its issuer check off; given only to a flow `isExemptLegacyIssuer` allowed. */
export const SDK_ISSUER_CHECK_OFF = { skipIssuerMetadataValidation: true } as const;

/**
 * Whether `error` is the SDK refusing the metadata of the 2025-03-26 case: it expected the server's own
 * origin (nothing named another authorization server) and received the issuer the guard let through.
 */
export function isExemptLegacyIssuer(error: unknown, serverUrl: URL, watch: IssuerWatch): boolean {
  return error instanceof IssuerMismatchError && error.kind === 'metadata'
    && error.expected === new URL('/', serverUrl).href
    && watch.legacyIssuer !== undefined && error.received === watch.legacyIssuer;
}

/**
 * A sentence for an issuer the SDK refused. Metadata names the issuer it received; an authorization
 * response does not: its `iss` came through the browser and may be an attacker's text (RFC 9207's
 * mix-up), so only the issuer that was expected is shown.
 */
export function describeIssuerMismatch(error: unknown): string | undefined {
  if (!(error instanceof IssuerMismatchError)) return undefined;
  if (error.kind === 'authorization_response') {
    return `the answer the browser brought back ${error.received === undefined ? 'names no issuer' : 'names another issuer'}, not ${JSON.stringify(error.expected)}, the authorization server this sign-in started at: refused, the code was not used (RFC 9207)`;
  }
  return `the authorization server metadata names the issuer ${JSON.stringify(error.received ?? '(none)')}, expected ${JSON.stringify(error.expected)}: refused`;
}
