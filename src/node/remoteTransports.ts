// Transports for servers reached over the network (http, sse, ws), and the translation of what goes
// wrong there into sentences a user can act on.
import WebSocketImpl from 'ws';
import { ConnectError } from '../core/lifecycle/errors';
import { SDK_ISSUER_CHECK_OFF } from './auth/legacyIssuer';
import { IssuerWatch, oauthFetchGuard } from './auth/oauthFetchGuard';
import { refreshOnce } from './auth/refreshOnce';
import type { OAuthReach } from './auth/oauthReach';
import { rediscoverOnRefusedToken } from './auth/refusedToken';
import {
  ProtocolError,
  SdkError,
  SdkHttpError,
  SSEClientTransport,
  SseError,
  StreamableHTTPClientTransport,
  WebSocketClientTransport,
  type OAuthClientProvider,
  type Transport,
} from './sdk';
export { displayUrl } from './displayUrl';
import { displayUrl } from './displayUrl';

export type RemoteKind = 'http' | 'sse' | 'ws';

/** How one remote transport's OAuth flow treats issuers: what its guard saw, and whether the SDK's own check is off. */
export interface IssuerPolicy {
  watch: IssuerWatch;
  /** Only after the SDK refused the 2025-03-26 case the guard exempts (legacyIssuer.ts). */
  sdkCheckOff: boolean;
  /** For a flow without a person: how far it may reach beyond the server's origin (oauthReach.ts). */
  reach?: OAuthReach;
}

/**
 * Creates the SDK transport for one remote server. `headers` go on every request (http, sse); with an
 * `authProvider` the SDK answers a 401 (and a 403 insufficient_scope) with its OAuth flow, through our
 * fetch guard, the SDK's issuer check on unless `issuers` says otherwise.
 */
export function createRemoteTransport(
  kind: RemoteKind, url: URL, headers: Record<string, string>, authProvider?: OAuthClientProvider,
  issuers: IssuerPolicy = { watch: new IssuerWatch(), sdkCheckOff: false },
): Transport {
  const oauth = (provider: OAuthClientProvider) => ({
    authProvider: provider,
    fetch: rediscoverOnRefusedToken(oauthFetchGuard(url, refreshOnce(), undefined, issuers.watch, issuers.reach), provider),
    ...(issuers.sdkCheckOff ? SDK_ISSUER_CHECK_OFF : {}),
  });
  switch (kind) {
    case 'http':
      return new StreamableHTTPClientTransport(url, { requestInit: { headers }, ...(authProvider ? oauth(authProvider) : {}) });
    case 'sse':
      // The SSE transport sends requestInit.headers both when opening the event stream and with every POST.
      return new SSEClientTransport(url, { requestInit: { headers }, ...(authProvider ? oauth(authProvider) : {}) });
    case 'ws':
      ensureWebSocketGlobal();
      return new WebSocketClientTransport(url);
  }
}

/**
 * The SDK's WebSocketClientTransport opens `new WebSocket(url, 'mcp')` with the global (browser-style)
 * WebSocket. Node 22+ has one, Node 20 does not: there we install the `ws` package's class, which
 * implements the same API (onopen/onmessage with `event.data` as a string for text frames). This is
 * the only place that touches the global, and it never replaces an existing one.
 */
export function ensureWebSocketGlobal(): void {
  const scope = globalThis as { WebSocket?: unknown };
  if (scope.WebSocket === undefined) scope.WebSocket = WebSocketImpl;
}


/** The HTTP status a transport error carries, if it came from an HTTP answer. */
export function httpStatusOf(error: unknown): number | undefined {
  const status = error instanceof SdkHttpError ? error.status : error instanceof SseError ? error.code : undefined;
  if (status !== undefined) return typeof status === 'number' && status >= 100 && status < 600 ? status : undefined;
  // `ws` rejects a refused upgrade with "Unexpected server response: 401".
  const match = /Unexpected server response: (\d{3})/.exec(errorText(error));
  return match ? Number(match[1]) : undefined;
}

/**
 * Whether an initialize POST failed in a way that says "this endpoint does not speak Streamable HTTP":
 * the spec's backwards-compatibility section has clients fall back to the old HTTP+SSE transport when
 * the POST is answered with a 4xx such as 404 Not Found or 405 Method Not Allowed. Auth answers
 * (401/403) are not in this set: falling back would hide the real problem.
 */
export function isNotStreamableHttp(error: unknown): boolean {
  return error instanceof SdkHttpError && (error.status === 404 || error.status === 405);
}

/** A transport that can exchange an authorization code for tokens (Streamable HTTP and SSE can). */
export interface AuthorizingTransport extends Transport {
  /** `iss` is the redirect's issuer (RFC 9207), checked by the SDK before the code is redeemed. */
  finishAuth(authorizationCode: string, iss?: string): Promise<void>;
}

/** Whether `transport` can finish an authorization-code flow. */
export function canFinishAuth(transport: Transport): transport is AuthorizingTransport {
  return typeof (transport as Partial<AuthorizingTransport>).finishAuth === 'function';
}

/** An error the server answered (JSON-RPC) or the SDK raised itself (timeout, closed): not a network failure. */
export function isProtocolOrLocal(error: unknown): boolean {
  return error instanceof ProtocolError || (error instanceof SdkError && !(error instanceof SdkHttpError));
}

/** Whether a Streamable HTTP request failed because the server no longer knows our session (404 with a session id). */
export function isSessionExpired(error: unknown): boolean {
  return error instanceof SdkHttpError && error.status === 404;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  407: 'Proxy Authentication Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const STATUS_HINT: Record<number, string> = {
  401: 'this server needs authentication',
  403: 'the credentials were refused',
  404: 'check the URL',
  407: 'the proxy needs authentication',
  429: 'the server is rate limiting',
};

/** Network error codes (Node, undici, OpenSSL) → what they mean to a user. */
const NETWORK_REASONS: [RegExp, string][] = [
  [/\bECONNREFUSED\b/, 'connection refused'],
  [/\b(ENOTFOUND|EAI_AGAIN|EAI_NONAME)\b/, 'host not found (DNS lookup failed)'],
  [/\bECONNRESET\b/, 'connection reset by the server'],
  [/\b(other side closed|UND_ERR_SOCKET)\b/, 'connection closed by the server'],
  [/\b(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT)\b/, 'connection timed out'],
  [/\b(EHOSTUNREACH|ENETUNREACH)\b/, 'network unreachable'],
  [/\b(CERT_HAS_EXPIRED)\b/, 'TLS certificate has expired'],
  [/\b(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\b/, 'TLS certificate is self-signed and not trusted'],
  [/\b(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|UNABLE_TO_GET_ISSUER_CERT)\b/, 'TLS certificate could not be verified'],
  [/\bERR_TLS_CERT_ALTNAME_INVALID\b/, 'TLS certificate does not match the host name'],
  [/\b(ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG)\b/, 'TLS handshake failed (does the server speak https?)'],
  [/\b(EPROTO|ERR_SSL_\w+)\b/, 'TLS handshake failed'],
];

/** A user-facing sentence for a failed remote connection or request. */
export function describeRemoteError(error: unknown, url: string | URL): string {
  const where = displayUrl(url);
  const status = httpStatusOf(error);
  if (status !== undefined) {
    const text = STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : '';
    const hint = STATUS_HINT[status] ? ` (${STATUS_HINT[status]})` : '';
    return `${where} answered ${status}${text}${hint}`;
  }
  const reason = networkReason(error);
  if (reason) return `could not connect to ${where}: ${reason}`;
  return `could not connect to ${where}: ${firstLine(error)}`;
}

/** The user-facing network reason ("connection refused", …) of an error, when it is a network failure. */
export function networkReason(error: unknown): string | undefined {
  const text = errorText(error);
  for (const [pattern, reason] of NETWORK_REASONS) if (pattern.test(text)) return reason;
  return undefined;
}

/** Message, code, cause chain and aggregated errors of `error`, flattened into one searchable string. */
function errorText(error: unknown, depth = 0): string {
  if (depth > 5 || error === null || error === undefined) return '';
  if (typeof error !== 'object') return String(error);
  const e = error as { message?: unknown; code?: unknown; cause?: unknown; errors?: unknown };
  const parts = [typeof e.message === 'string' ? e.message : '', typeof e.code === 'string' ? e.code : ''];
  if (e.cause !== undefined) parts.push(errorText(e.cause, depth + 1));
  if (Array.isArray(e.errors)) for (const inner of e.errors) parts.push(errorText(inner, depth + 1));
  return parts.filter(Boolean).join(' | ');
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0] || 'unknown error';
}

/** The URL of a remote server's definition, refused with a sentence when it is missing, invalid or of another scheme. */
export function parseUrl(url: string | undefined, kind: RemoteKind): URL {
  if (!url) throw new ConnectError('no url configured');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConnectError(`invalid url: ${url.split('?')[0]}`);
  }
  const schemes = kind === 'ws' ? ['ws:', 'wss:'] : ['http:', 'https:'];
  if (!schemes.includes(parsed.protocol)) {
    throw new ConnectError(`a "${kind}" server needs a ${schemes.map((s) => `${s}//`).join(' or ')} url, not ${displayUrl(parsed)}`);
  }
  return parsed;
}
