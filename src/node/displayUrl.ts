// In a file of its own so that the sign-in code can use it without the transports (which use the sign-in code).

/** A URL as it may be shown or logged: no user info, no query string (either can carry a secret). */
export function displayUrl(url: string | URL): string {
  try {
    const u = new URL(String(url));
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}
