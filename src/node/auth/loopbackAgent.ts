// An AuthorizationAgent that sends the person (or, in the CLI, a headless fetch) to the authorization
// page and receives the code (with the issuer, when sent) on a one-shot listener on 127.0.0.1 at a port
// fixed in advance (the redirect URI is part of the client's registration, so it must be known before
// the flow starts).
import { isLoopbackHostname } from './addressKind';
import type { AuthorizationAgent } from './oauthProvider';
import { listenForRedirect, loopbackRedirectUri, RedirectError, type AuthorizationResponse, type ExpectedIssuer } from './redirectListener';

export interface LoopbackAgentOptions {
  port: number;
  /** Shows the authorization page; resolves false when the person declined to open it. */
  open(authorizationUrl: URL): Promise<boolean>;
  /** How long a sign-in may take in the browser. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export class LoopbackAgent implements AuthorizationAgent {
  constructor(private readonly options: LoopbackAgentOptions) {}

  get redirectUrl(): string {
    return loopbackRedirectUri(this.options.port);
  }

  async authorize(authorizationUrl: URL, issuer?: ExpectedIssuer): Promise<AuthorizationResponse> {
    const problem = authorizationPageProblem(authorizationUrl);
    if (problem) throw new RedirectError(`the sign-in page ${authorizationUrl.href} is not opened: ${problem}`);
    const state = authorizationUrl.searchParams.get('state');
    if (!state) throw new RedirectError('the authorization request carries no state; refusing to sign in without one');
    const listener = await listenForRedirect({ state, port: this.options.port, timeoutMs: this.options.timeoutMs, signal: this.options.signal, issuer });
    try {
      if (!(await this.options.open(authorizationUrl))) throw new RedirectError('the sign-in was cancelled', true);
      return await listener.response;
    } finally {
      listener.close();
    }
  }
}

/**
 * Why an authorization page must not be opened, or undefined when it may: it comes from the
 * authorization server's metadata, so it is opened only as a web page over https (http only on this
 * computer, where nothing travels over a network).
 */
export function authorizationPageProblem(url: URL): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHostname(url.hostname)) return undefined;
  return url.protocol === 'http:'
    ? 'only https: sign-in pages are opened (http: only on this computer)'
    : `only https: sign-in pages are opened, not ${url.protocol}`;
}

/**
 * Opens an authorization page without a person: GET it and follow its redirects, as a browser whose
 * user has already consented would. For automated clients (the conformance suite's authorization
 * servers grant at once). Fails when the page does not redirect back to `redirectUrl`.
 */
export function headlessOpener(redirectUrl: string): (authorizationUrl: URL) => Promise<boolean> {
  return async (authorizationUrl) => {
    const response = await fetch(authorizationUrl, { redirect: 'follow' });
    await response.body?.cancel().catch(() => undefined);
    if (!response.url.startsWith(redirectUrl)) {
      throw new RedirectError(`the authorization page answered ${response.status} without redirecting back to this client`);
    }
    return true;
  };
}
