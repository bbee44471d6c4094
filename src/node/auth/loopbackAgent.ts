// An AuthorizationAgent that sends the person (or, in the CLI, a headless fetch) to the authorization
// page and receives the code on a one-shot listener on 127.0.0.1 at a port fixed in advance (the
// redirect URI is part of the client's registration, so it must be known before the flow starts).
import type { AuthorizationAgent } from './oauthProvider';
import { listenForRedirect, loopbackRedirectUri, RedirectError } from './redirectListener';

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

  async authorize(authorizationUrl: URL): Promise<string> {
    const state = authorizationUrl.searchParams.get('state');
    if (!state) throw new RedirectError('the authorization request carries no state; refusing to sign in without one');
    const listener = await listenForRedirect({ state, port: this.options.port, timeoutMs: this.options.timeoutMs, signal: this.options.signal });
    try {
      if (!(await this.options.open(authorizationUrl))) throw new RedirectError('the sign-in was cancelled', true);
      return await listener.code;
    } finally {
      listener.close();
    }
  }
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
