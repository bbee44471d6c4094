// The loopback end of an authorization-code sign-in (RFC 8252 §7.3): a one-shot HTTP listener on
// 127.0.0.1 that waits for the browser to come back with `?code=…&state=…`, and `iss=…` where the
// authorization server sends it (the SDK checks it before the code is redeemed: RFC 9207's mix-up
// defence, so it is handed on, never dropped). It answers only the redirect path, only a request
// carrying the state of this sign-in, once; then it closes. A wrong state is refused and the listener
// keeps waiting (a stray or forged request must not end the sign-in); an `error=` answer from the
// authorization server ends it with that error; so does the timeout. Nothing here logs the code.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateAuthorizationResponseIssuer } from '../sdk';
import { oauthRefusal } from './oauthErrorText';

export const LOOPBACK_HOST = '127.0.0.1';
export const REDIRECT_PATH = '/callback';

export interface RedirectListenerOptions {
  /** The `state` the authorization request carried; the redirect must echo it. */
  state: string;
  /** 0 = any free port. */
  port: number;
  /** How long to wait for the browser before giving up. */
  timeoutMs: number;
  /** Ends the wait early (the person cancelled). */
  signal?: AbortSignal;
  /**
   * Where the sign-in started. An error answer from elsewhere (a mix-up: RFC 9207) is refused without
   * showing its text, which is then an attacker's; a code is handed on for the SDK's own issuer check.
   */
  issuer?: ExpectedIssuer;
}

/** The authorization server a sign-in started at, as its metadata names it (RFC 9207). */
export interface ExpectedIssuer {
  issuer: string;
  /** Whether its metadata promises an `iss` on every answer (`authorization_response_iss_parameter_supported`). */
  sendsIss: boolean;
}

/** What the browser brought back: the code, and the issuer that says which authorization server sent it. */
export interface AuthorizationResponse {
  code: string;
  /** The `iss` parameter (RFC 9207), when the redirect carried one. */
  iss?: string;
}

export interface RedirectListener {
  /** `http://127.0.0.1:PORT/callback`. */
  readonly redirectUri: string;
  readonly port: number;
  /** The authorization response; rejects on timeout, cancel, or an error answer. The listener is closed once it settles. */
  readonly response: Promise<AuthorizationResponse>;
  /** Stops listening (a pending `response` rejects). */
  close(): void;
}

/** The sign-in did not come back with a code; `cancelled` when the person ended it (nothing to report). */
export class RedirectError extends Error {
  constructor(message: string, readonly cancelled = false) {
    super(message);
    this.name = 'RedirectError';
  }
}

/** Starts listening on 127.0.0.1 for one redirect; resolves once the port is bound. */
export async function listenForRedirect(options: RedirectListenerOptions): Promise<RedirectListener> {
  options.signal?.throwIfAborted();
  let settle!: { resolve: (response: AuthorizationResponse) => void; reject: (error: Error) => void };
  const response = new Promise<AuthorizationResponse>((resolve, reject) => { settle = { resolve, reject }; });
  // The caller may only look at `response` after the browser opened: never an unhandled rejection.
  response.catch(() => undefined);
  let done = false;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${LOOPBACK_HOST}`);
    if (req.method !== 'GET' || url.pathname !== REDIRECT_PATH || done) {
      answer(res, 404, 'Not found', 'This address only takes the sign-in redirect of MCP Switchboard.');
      return;
    }
    if (url.searchParams.get('state') !== options.state) {
      answer(res, 400, 'Sign-in not accepted', 'This answer does not belong to the sign-in MCP Switchboard started (the state does not match). Start the sign-in again from VS Code.');
      return;
    }
    const error = url.searchParams.get('error');
    const expected = options.issuer;
    if (error !== null && expected !== undefined && !fromIssuer(url.searchParams, expected)) {
      answer(res, 400, 'Sign-in not accepted', 'This answer does not come from the authorization server the sign-in started at, so what it says is not shown. Start the sign-in again from VS Code.');
      finish(new RedirectError(`an error answer that does not come from ${expected.issuer}, the authorization server this sign-in started at, was refused unread (RFC 9207)`));
      return;
    }
    if (error !== null) {
      const refusal = oauthRefusal(error, url.searchParams.get('error_description'));
      answer(res, 400, 'Sign-in failed', `The authorization server answered: ${refusal}. You can close this tab.`);
      finish(new RedirectError(`the authorization server refused the sign-in: ${refusal}`));
      return;
    }
    const value = url.searchParams.get('code');
    if (!value) {
      answer(res, 400, 'Sign-in failed', 'The redirect carried no authorization code.');
      finish(new RedirectError('the redirect carried no authorization code'));
      return;
    }
    answer(res, 200, 'Signed in', 'You are signed in. You can close this tab and return to VS Code.');
    const iss = url.searchParams.get('iss');
    finish(iss === null ? { code: value } : { code: value, iss });
  });
  const finish = (result: AuthorizationResponse | Error): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    // Answered requests keep their sockets alive; closing them lets the port go at once.
    server.close();
    server.closeAllConnections();
    if (result instanceof Error) settle.reject(result);
    else settle.resolve(result);
  };
  const onAbort = (): void => finish(new RedirectError('the sign-in was cancelled', true));
  const timer = setTimeout(() => finish(new RedirectError(`no answer from the browser within ${Math.round(options.timeoutMs / 1000)} s`)), options.timeoutMs);
  timer.unref?.();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, LOOPBACK_HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    finish(new RedirectError('could not listen'));
    const code = (error as NodeJS.ErrnoException).code;
    throw new RedirectError(code === 'EADDRINUSE'
      ? `port ${options.port} on ${LOOPBACK_HOST} is in use; free it or change "callbackPort"`
      : `cannot listen on ${LOOPBACK_HOST}:${options.port}: ${(error as Error).message}`);
  }
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://${LOOPBACK_HOST}:${port}${REDIRECT_PATH}`,
    port,
    response,
    close: () => finish(new RedirectError('the sign-in was closed', true)),
  };
}

/** Whether the answer's `iss` fits where the sign-in started (the SDK's RFC 9207 rules). */
function fromIssuer(params: URLSearchParams, expected: ExpectedIssuer): boolean {
  try {
    validateAuthorizationResponseIssuer({ iss: params.get('iss') ?? undefined, expectedIssuer: expected.issuer, issParameterSupported: expected.sendsIss });
    return true;
  } catch {
    return false;
  }
}

/** A free port on 127.0.0.1 now (bound and released), for a redirect URI that must be known before listening. */
export async function freeLoopbackPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK_HOST, resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The redirect URI for a port. */
export function loopbackRedirectUri(port: number): string {
  return `http://${LOOPBACK_HOST}:${port}${REDIRECT_PATH}`;
}

function answer(res: http.ServerResponse, status: number, title: string, text: string): void {
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${escapeHtml(text)}</p></body></html>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
  res.end(body);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
