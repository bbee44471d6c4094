// The sentences users see when a remote server cannot be reached, from the errors Node, undici, ws
// and the SDK's transports actually raise.
import * as assert from 'node:assert/strict';
import { describeRemoteError, displayUrl, httpStatusOf, isNotStreamableHttp, isSessionExpired } from '../../src/node/remoteTransports';
import { SdkErrorCode, SdkHttpError, SseError } from '../../src/node/sdk';

const URL_ = 'https://user:pw@mcp.example.com/mcp?token=secret';
const WHERE = 'https://mcp.example.com/mcp';

/** What the Streamable HTTP transport raises for an HTTP answer that is not a success. */
function httpError(status: number, message: string): SdkHttpError {
  return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, message, { status });
}

/** undici's shape: TypeError('fetch failed') with the socket error as cause. */
function fetchFailed(code: string, message = `connect ${code} 10.0.0.1:443`): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
}

describe('remote connection errors', () => {
  it('never shows credentials or the query string of a url', () => {
    assert.equal(displayUrl(URL_), WHERE);
    assert.equal(displayUrl('not a url'), '(invalid url)');
  });

  it('names network failures', () => {
    assert.equal(describeRemoteError(fetchFailed('ECONNREFUSED'), URL_), `could not connect to ${WHERE}: connection refused`);
    assert.equal(describeRemoteError(fetchFailed('ENOTFOUND', 'getaddrinfo ENOTFOUND mcp.example.com'), URL_), `could not connect to ${WHERE}: host not found (DNS lookup failed)`);
    assert.equal(describeRemoteError(fetchFailed('EAI_AGAIN'), URL_), `could not connect to ${WHERE}: host not found (DNS lookup failed)`);
    assert.equal(describeRemoteError(fetchFailed('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error'), URL_), `could not connect to ${WHERE}: connection timed out`);
    assert.equal(describeRemoteError(fetchFailed('ECONNRESET', 'read ECONNRESET'), URL_), `could not connect to ${WHERE}: connection reset by the server`);
    // Happy eyeballs: undici reports an AggregateError of both address families.
    const aggregate = new TypeError('fetch failed', { cause: new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:443'), { code: 'ECONNREFUSED' })]) });
    assert.equal(describeRemoteError(aggregate, URL_), `could not connect to ${WHERE}: connection refused`);
  });

  it('names TLS failures', () => {
    assert.equal(describeRemoteError(fetchFailed('CERT_HAS_EXPIRED', 'certificate has expired'), URL_), `could not connect to ${WHERE}: TLS certificate has expired`);
    assert.equal(describeRemoteError(fetchFailed('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), URL_), `could not connect to ${WHERE}: TLS certificate is self-signed and not trusted`);
    assert.equal(describeRemoteError(fetchFailed('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"), URL_), `could not connect to ${WHERE}: TLS certificate does not match the host name`);
    assert.equal(describeRemoteError(fetchFailed('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number'), URL_), `could not connect to ${WHERE}: TLS handshake failed (does the server speak https?)`);
  });

  it('explains HTTP answers from every transport', () => {
    assert.equal(describeRemoteError(httpError(401, 'Error POSTing to endpoint: unauthorized'), URL_), `${WHERE} answered 401 Unauthorized (this server needs authentication)`);
    assert.equal(describeRemoteError(httpError(403, 'forbidden'), URL_), `${WHERE} answered 403 Forbidden (the credentials were refused)`);
    // The SSE transport (eventsource): "Non-200 status code (401)" with the status as code.
    const sse = new SseError(401, 'Non-200 status code (401)', undefined as never);
    assert.equal(describeRemoteError(sse, URL_), `${WHERE} answered 401 Unauthorized (this server needs authentication)`);
    // ws: a refused upgrade.
    assert.equal(describeRemoteError(new Error('Unexpected server response: 502'), 'wss://mcp.example.com/ws'), 'wss://mcp.example.com/ws answered 502 Bad Gateway');
    assert.equal(describeRemoteError(httpError(418, "I'm a teapot"), URL_), `${WHERE} answered 418`);
  });

  it('knows which statuses mean "fall back to SSE" and "session expired"', () => {
    assert.equal(isNotStreamableHttp(httpError(404, 'x')), true);
    assert.equal(isNotStreamableHttp(httpError(405, 'x')), true);
    assert.equal(isNotStreamableHttp(httpError(401, 'x')), false);
    assert.equal(isNotStreamableHttp(new Error('404')), false);
    assert.equal(isSessionExpired(httpError(404, 'Session not found')), true);
    assert.equal(isSessionExpired(httpError(400, 'Bad Request')), false);
    assert.equal(httpStatusOf(new SdkHttpError(SdkErrorCode.ClientHttpUnexpectedContent, 'Unexpected content type', { status: -1 })), undefined);
  });
});
