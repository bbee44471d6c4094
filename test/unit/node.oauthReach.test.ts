// A start nobody asked for sends nothing to the hosts a server's answers name: the fetch guard, given
// the start's reach, refuses any request off the server's origin that the person's last sign-in did not
// reach, and a 401 whose challenge names metadata elsewhere ends the flow there with a sign-in request.
import * as assert from 'node:assert/strict';
import { SignInRequiredError } from '../../src/core/lifecycle/errors';
import { MemorySecretStore, OAuthCredentialStore } from '../../src/node/auth/credentialStore';
import { IssuerWatch, oauthFetchGuard } from '../../src/node/auth/oauthFetchGuard';
import { ServerOAuthProvider } from '../../src/node/auth/oauthProvider';
import { signInRequiredIn, unattendedReach, type SignInChallenge } from '../../src/node/auth/oauthReach';
import type { FetchLike } from '../../src/node/sdk';

const SERVER = new URL('https://mcp.example.com/mcp');
const resolve = async (): Promise<string[]> => ['93.184.216.34'];

/** A fetch that records what it was asked and answers `status` with these headers. */
function answering(requested: string[], status = 200, headers: Record<string, string> = {}): FetchLike {
  return async (input) => {
    requested.push(String(input));
    return new Response(status === 401 ? null : '{}', { status, headers: { 'content-type': 'application/json', ...headers } });
  };
}

function startReach(store: OAuthCredentialStore, told: SignInChallenge[]) {
  return unattendedReach({ serverUrl: SERVER, store, onDeferred: (challenge) => told.push(challenge) });
}

describe('OAuth: what a start may reach', () => {
  it('sends a start\'s request to another origin nowhere, asking for a sign-in instead; the server\'s own origin is asked', async () => {
    const requested: string[] = [];
    const told: SignInChallenge[] = [];
    const guarded = oauthFetchGuard(SERVER, answering(requested), resolve, new IssuerWatch(), startReach(new OAuthCredentialStore(new MemorySecretStore()), told));
    await assert.rejects(guarded('https://auth.example.com/.well-known/oauth-authorization-server'), (error: Error) => {
      assert.ok(error instanceof SignInRequiredError);
      assert.equal(error.message, 'https://mcp.example.com/mcp needs you to sign in; its sign-in goes to https://auth.example.com, which is contacted only once you choose Sign In');
      return true;
    });
    assert.deepEqual(requested, []);
    assert.deepEqual(told, [{}]);
    await guarded('https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
    assert.deepEqual(requested, ['https://mcp.example.com/.well-known/oauth-protected-resource/mcp']);
  });

  it('stops at a 401 whose challenge names metadata on another origin, keeping the challenge for the sign-in', async () => {
    const requested: string[] = [];
    const told: SignInChallenge[] = [];
    const challenge = 'Bearer resource_metadata="https://prm.example.net/mcp", scope="files:read"';
    const guarded = oauthFetchGuard(SERVER, answering(requested, 401, { 'www-authenticate': challenge }), resolve, new IssuerWatch(), startReach(new OAuthCredentialStore(new MemorySecretStore()), told));
    await assert.rejects(guarded(SERVER, { method: 'POST' }), /needs you to sign in; its sign-in goes to https:\/\/prm\.example\.net, which is contacted only once you choose Sign In/);
    assert.deepEqual(requested, [SERVER.href], 'only the server was asked');
    assert.deepEqual(told.map((t) => ({ url: t.resourceMetadataUrl?.href, scope: t.scope })), [{ url: 'https://prm.example.net/mcp', scope: 'files:read' }]);
  });

  it('passes a 401 whose challenge names the server\'s own origin, and any 401 of a flow with a person', async () => {
    const own = 'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"';
    const guarded = oauthFetchGuard(SERVER, answering([], 401, { 'www-authenticate': own }), resolve, new IssuerWatch(), startReach(new OAuthCredentialStore(new MemorySecretStore()), []));
    assert.equal((await guarded(SERVER, { method: 'POST' })).status, 401);
    const elsewhere = 'Bearer resource_metadata="https://prm.example.net/mcp"';
    const attended = oauthFetchGuard(SERVER, answering([], 401, { 'www-authenticate': elsewhere }), resolve);
    assert.equal((await attended(SERVER, { method: 'POST' })).status, 401);
  });

  it('lets a start reach the origins the person\'s last sign-in reached, and only those', async () => {
    const store = new OAuthCredentialStore(new MemorySecretStore());
    await store.update(SERVER, (record) => ({ ...record, approvedOrigins: ['https://auth.example.com'] }));
    const requested: string[] = [];
    const guarded = oauthFetchGuard(SERVER, answering(requested), resolve, new IssuerWatch(), startReach(store, []));
    await guarded('https://auth.example.com/token', { method: 'POST' });
    await assert.rejects(guarded('https://auth.example.org/token', { method: 'POST' }), SignInRequiredError);
    await assert.rejects(guarded('https://auth.example.com:8443/token', { method: 'POST' }), SignInRequiredError);
    assert.deepEqual(requested, ['https://auth.example.com/token']);
  });

  it('records the origins a flow with a person reached, not the server\'s; still https only there', async () => {
    const watch = new IssuerWatch();
    const guarded = oauthFetchGuard(SERVER, answering([]), resolve, watch);
    await guarded('https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
    await guarded('https://auth.example.com/.well-known/oauth-authorization-server').catch(() => undefined);
    await assert.rejects(guarded('http://auth.example.org/token'), /only https:/);
    assert.deepEqual([...watch.reached], ['https://auth.example.com']);
  });

  it('gives the start\'s provider a reach and the person\'s none', () => {
    const store = new OAuthCredentialStore(new MemorySecretStore());
    assert.ok(new ServerOAuthProvider({ serverUrl: SERVER, settings: {}, store, clientName: 'test' }).reach);
    const agent = { redirectUrl: 'http://127.0.0.1:1/callback', authorize: () => Promise.reject(new Error('not here')) };
    assert.equal(new ServerOAuthProvider({ serverUrl: SERVER, settings: {}, store, clientName: 'test', agent }).reach, undefined);
  });

  it('finds the sign-in request inside the SDK\'s wrapping, and nothing else', () => {
    const asked = new SignInRequiredError('x needs you to sign in');
    assert.equal(signInRequiredIn(new Error('Version negotiation probe failed', { cause: asked })), asked);
    assert.equal(signInRequiredIn(asked), asked);
    assert.equal(signInRequiredIn(new Error('probe failed', { cause: new Error('ECONNREFUSED') })), undefined);
    assert.equal(signInRequiredIn('text'), undefined);
  });
});
