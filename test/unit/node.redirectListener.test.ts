// The loopback redirect listener of a sign-in, on real sockets: it binds 127.0.0.1 only, takes one
// answer carrying the right state, refuses others, and is gone after an answer, a timeout or a cancel.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import { freeLoopbackPort, listenForRedirect, RedirectError } from '../../src/node/auth/redirectListener';

/** GET `url` with a fresh connection; resolves with the status, or the connection error's code. */
function get(url: string): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

function connectError(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1000, () => { socket.destroy(); resolve('timeout'); });
    socket.once('connect', () => { socket.destroy(); resolve(undefined); });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('redirect listener', () => {
  it('listens on 127.0.0.1 only, and nowhere else', async () => {
    const listener = await listenForRedirect({ state: 's1', port: 0, timeoutMs: 5000 });
    try {
      assert.match(listener.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      assert.equal(await connectError('127.0.0.1', listener.port), undefined, 'reachable on 127.0.0.1');
      const others = Object.values(os.networkInterfaces()).flat()
        .filter((address): address is os.NetworkInterfaceInfo => address !== undefined && address.address !== '127.0.0.1')
        .map((address) => address.address);
      others.push('::1');
      for (const address of new Set(others)) {
        const error = await connectError(address, listener.port);
        assert.ok(error !== undefined, `must not accept connections on ${address}`);
      }
    } finally {
      listener.close();
    }
  });

  it('hands over the code of an answer with the right state, once, then closes', async () => {
    const listener = await listenForRedirect({ state: 'right-state', port: 0, timeoutMs: 5000 });
    const first = await get(`${listener.redirectUri}?code=abc123&state=right-state`);
    assert.equal(first.status, 200);
    assert.match(first.body ?? '', /signed in/i);
    assert.doesNotMatch(first.body ?? '', /abc123/, 'the page never shows the code');
    assert.deepEqual(await listener.response, { code: 'abc123' });
    const second = await get(`${listener.redirectUri}?code=again&state=right-state`);
    assert.equal(second.error, 'ECONNREFUSED', 'the port is released after one use');
  });

  it('refuses an answer with another state (or none) and keeps waiting for the right one', async () => {
    const listener = await listenForRedirect({ state: 'expected', port: 0, timeoutMs: 5000 });
    let settled = false;
    void listener.response.then(() => { settled = true; }, () => { settled = true; });
    assert.equal((await get(`${listener.redirectUri}?code=forged&state=other`)).status, 400);
    assert.equal((await get(`${listener.redirectUri}?code=forged`)).status, 400);
    assert.equal((await get(`http://127.0.0.1:${listener.port}/elsewhere?code=x&state=expected`)).status, 404);
    assert.equal(settled, false);
    assert.equal((await get(`${listener.redirectUri}?code=real&state=expected`)).status, 200);
    assert.deepEqual(await listener.response, { code: 'real' });
  });

  it('hands the issuer of the answer on with the code (RFC 9207), decoded, as the server sent it', async () => {
    const listener = await listenForRedirect({ state: 'st', port: 0, timeoutMs: 5000 });
    assert.equal((await get(`${listener.redirectUri}?code=c1&state=st&iss=https%3A%2F%2Fauth.example.com%2Ftenant%2F`)).status, 200);
    assert.deepEqual(await listener.response, { code: 'c1', iss: 'https://auth.example.com/tenant/' });
  });

  it('hands an empty issuer on as empty, for the SDK to refuse (never as no issuer at all)', async () => {
    const listener = await listenForRedirect({ state: 'st', port: 0, timeoutMs: 5000 });
    assert.equal((await get(`${listener.redirectUri}?code=c2&iss=&state=st`)).status, 200);
    assert.deepEqual(await listener.response, { code: 'c2', iss: '' });
  });

  it('ends with the authorization server\'s error when it refused', async () => {
    const listener = await listenForRedirect({ state: 'st', port: 0, timeoutMs: 5000 });
    const page = await get(`${listener.redirectUri}?error=access_denied&error_description=User%20said%20no&state=st`);
    assert.equal(page.status, 400);
    await assert.rejects(listener.response, (error: unknown) => error instanceof RedirectError && /access_denied \(User said no\)/.test(error.message));
  });

  describe('an error answer from another authorization server (RFC 9207 mix-up)', () => {
    const issuer = { issuer: 'https://auth.example.com', sendsIss: true };
    const refusedUnread = (error: unknown): boolean => error instanceof RedirectError
      && /an error answer that does not come from https:\/\/auth\.example\.com, the authorization server this sign-in started at, was refused unread \(RFC 9207\)/.test(error.message)
      && !/Visit|evil/.test(error.message);

    it('is refused without its text when it names another issuer', async () => {
      const listener = await listenForRedirect({ state: 'st', port: 0, timeoutMs: 5000, issuer });
      const page = await get(`${listener.redirectUri}?error=access_denied&error_description=Visit%20evil.example&iss=https%3A%2F%2Fevil.example&state=st`);
      assert.equal(page.status, 400);
      assert.match(page.body ?? '', /not accepted/);
      assert.doesNotMatch(page.body ?? '', /evil/);
      await assert.rejects(listener.response, refusedUnread);
    });

    it('is refused when it names none where the authorization server promised one', async () => {
      const listener = await listenForRedirect({ state: 'st', port: 0, timeoutMs: 5000, issuer });
      assert.equal((await get(`${listener.redirectUri}?error=access_denied&error_description=Visit%20evil.example&state=st`)).status, 400);
      await assert.rejects(listener.response, refusedUnread);
    });

    it('is the authorization server\'s answer when the issuer fits, or none was promised and none came', async () => {
      const right = await listenForRedirect({ state: 'st', port: 0, timeoutMs: 5000, issuer });
      await get(`${right.redirectUri}?error=access_denied&error_description=No&iss=https%3A%2F%2Fauth.example.com&state=st`);
      await assert.rejects(right.response, /refused the sign-in: access_denied \(No\)/);
      const unpromised = await listenForRedirect({ state: 'st', port: 0, timeoutMs: 5000, issuer: { ...issuer, sendsIss: false } });
      await get(`${unpromised.redirectUri}?error=access_denied&error_description=No&state=st`);
      await assert.rejects(unpromised.response, /refused the sign-in: access_denied \(No\)/);
    });
  });

  it('gives up after its timeout and releases the port', async () => {
    const started = Date.now();
    const listener = await listenForRedirect({ state: 'st', port: 0, timeoutMs: 150 });
    await assert.rejects(listener.response, /no answer from the browser within/);
    assert.ok(Date.now() - started >= 140);
    assert.equal(await connectError('127.0.0.1', listener.port), 'ECONNREFUSED');
  });

  it('ends when the sign-in is cancelled', async () => {
    const cancel = new AbortController();
    const listener = await listenForRedirect({ state: 'st', port: 0, timeoutMs: 5000, signal: cancel.signal });
    cancel.abort();
    await assert.rejects(listener.response, (error: unknown) => error instanceof RedirectError && error.cancelled && /cancelled/.test(error.message));
    assert.equal(await connectError('127.0.0.1', listener.port), 'ECONNREFUSED');
  });

  it('binds a fixed port when asked, and says so clearly when it is taken', async () => {
    const port = await freeLoopbackPort();
    const listener = await listenForRedirect({ state: 'st', port, timeoutMs: 5000 });
    try {
      assert.equal(listener.redirectUri, `http://127.0.0.1:${port}/callback`);
      await assert.rejects(listenForRedirect({ state: 'st', port, timeoutMs: 5000 }), new RegExp(`port ${port} on 127.0.0.1 is in use`));
    } finally {
      listener.close();
    }
  });
});
