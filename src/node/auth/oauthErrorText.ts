// What an authorization server wrote (an `error` code, its `error_description`, a token endpoint's
// error body) becomes part of a sentence a person reads: in a notification, a log, a terminal. It is
// server text and is shown as text: its hidden characters (controls, among them a terminal's escape
// sequences that make hyperlinks, bidi overrides, zero-width characters) are escaped with the helper
// every surface uses for such text (visibleText.ts), it is cut to what a sentence can carry, and an
// `error_uri` is never repeated. A notification adds its own pass against link syntax (plainText).
import { visible } from '../../protocol/visibleText';
import { OAuthError } from '../sdk';

/** Characters of an authorization server's text a sign-in error repeats. */
export const OAUTH_TEXT_MAX_CHARS = 300;

/** An authorization server's `text`, as a sign-in error shows it. */
export function oauthServerText(text: string): string {
  const shown = visible(text);
  return shown.length > OAUTH_TEXT_MAX_CHARS ? `${shown.slice(0, OAUTH_TEXT_MAX_CHARS)}… (cut)` : shown;
}

/** `error` (and `description`, when given) of an authorization server's refusal, as one phrase. */
export function oauthRefusal(error: string, description?: string | null): string {
  return `${oauthServerText(error)}${description ? ` (${oauthServerText(description)})` : ''}`;
}

/**
 * The sentence for an error the SDK raised from an authorization server's answer (an OAuthError: its
 * code and description, or the body it could not read), or undefined for any other error.
 */
export function describeOAuthError(error: unknown, where: string): string | undefined {
  if (!(error instanceof OAuthError)) return undefined;
  return `the sign-in to ${where}: the authorization server answered ${oauthRefusal(String(error.code), error.message)}`;
}
