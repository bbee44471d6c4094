// The OAuth credential store and the provider the SDK talks to, over an in-memory SecretStorage.
import * as assert from 'node:assert/strict';
import { SignInRequiredError } from '../../src/core/lifecycle/errors';
import { MemorySecretStore, OAuthCredentialStore, type SecretStore } from '../../src/node/auth/credentialStore';
import { ServerOAuthProvider, type AuthorizationAgent } from '../../src/node/auth/oauthProvider';

const SERVER = new URL('https://mcp.example.com/mcp');

describe('OAuth credential store', () => {
  it('keys records by server URL without user info, query or fragment', () => {
    assert.equal(OAuthCredentialStore.keyOf('https://user:pw@mcp.example.com:8443/mcp?token=s3cret#x'), 'switchboard.oauth:https://mcp.example.com:8443/mcp');
    assert.notEqual(OAuthCredentialStore.keyOf('https://a.example/mcp'), OAuthCredentialStore.keyOf('https://a.example/other'));
  });

  it('saves tokens per server, reads them back after a restart, and clears one server only', async () => {
    const secrets = new MemorySecretStore();
    const store = new OAuthCredentialStore(secrets, () => 1000);
    await store.saveTokens(SERVER, { access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1' });
    await store.update('https://other.example/mcp', (record) => ({ ...record, client: { client_id: 'c2' } }));
    const reopened = new OAuthCredentialStore(secrets);
    assert.deepEqual(await reopened.load(SERVER), { tokens: { access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1' }, savedAt: 1000 });
    assert.equal(await reopened.hasTokens(SERVER), true);
    await reopened.clear(SERVER);
    assert.deepEqual(await reopened.load(SERVER), {});
    assert.deepEqual(secrets.keys(), ['switchboard.oauth:https://other.example/mcp'], 'an empty record is deleted, the other kept');
  });

  it('reads an unreadable record as nothing stored', async () => {
    const secrets = new MemorySecretStore();
    await secrets.store(OAuthCredentialStore.keyOf(SERVER), '{not json');
    assert.deepEqual(await new OAuthCredentialStore(secrets).load(SERVER), {});
    await secrets.store(OAuthCredentialStore.keyOf(SERVER), JSON.stringify({ tokens: { token_type: 'Bearer' }, client: { client_id: 'ok' } }));
    assert.deepEqual(await new OAuthCredentialStore(secrets).load(SERVER), { client: { client_id: 'ok' } }, 'tokens without an access_token are dropped');
  });

  it('applies concurrent updates one after another, so none is lost', async () => {
    const writes: string[] = [];
    const slow: SecretStore = {
      values: new Map<string, string>(),
      get(key: string) { return Promise.resolve((this as unknown as { values: Map<string, string> }).values.get(key)); },
      async store(key: string, value: string) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        writes.push(value);
        (this as unknown as { values: Map<string, string> }).values.set(key, value);
      },
      delete() { return Promise.resolve(); },
    } as SecretStore & { values: Map<string, string> };
    const store = new OAuthCredentialStore(slow);
    await Promise.all([
      store.update(SERVER, (record) => ({ ...record, client: { client_id: 'c' } })),
      store.saveTokens(SERVER, { access_token: 'at', token_type: 'Bearer' }),
    ]);
    const record = await new OAuthCredentialStore(slow).load(SERVER);
    assert.equal(record.client?.client_id, 'c');
    assert.equal(record.tokens?.access_token, 'at');
    assert.equal(writes.length, 2);
  });
});

describe('ServerOAuthProvider', () => {
  const agent = (redirectUrl: string, response = { code: 'the-code', iss: 'https://auth.example.com' }): AuthorizationAgent & { seen: URL[]; issuers: unknown[] } => {
    const seen: URL[] = [];
    const issuers: unknown[] = [];
    return { redirectUrl, seen, issuers, authorize: (url, issuer) => { seen.push(url); issuers.push(issuer); return Promise.resolve(response); } };
  };

  it('without a person, never registers or redirects: it asks for a sign-in instead', async () => {
    const provider = new ServerOAuthProvider({ serverUrl: SERVER, settings: {}, store: new OAuthCredentialStore(new MemorySecretStore()), clientName: 'MCP Switchboard' });
    await assert.rejects(Promise.resolve().then(() => provider.clientInformation()), (error: unknown) => error instanceof SignInRequiredError && error.message === 'https://mcp.example.com/mcp needs you to sign in');
    const url = new URL('https://auth.example.com/authorize?scope=read%20write&state=x');
    await assert.rejects(Promise.resolve().then(() => provider.redirectToAuthorization(url)), (error: unknown) => error instanceof SignInRequiredError && /scope: read write/.test(error.message));
  });

  it('presents a client from the config before anything stored, and stores tokens per server', async () => {
    const store = new OAuthCredentialStore(new MemorySecretStore());
    await store.update(SERVER, (record) => ({ ...record, client: { client_id: 'registered' } }));
    const provider = new ServerOAuthProvider({ serverUrl: SERVER, settings: { clientId: 'configured', clientSecret: 'sec' }, store, clientName: 'MCP Switchboard' });
    assert.deepEqual(await provider.clientInformation(), { client_id: 'configured', client_secret: 'sec' });
    await provider.saveClientInformation({ client_id: 'from-server' });
    assert.equal((await store.load(SERVER)).client?.client_id, 'registered', 'a configured client is never overwritten in the store');
    await provider.saveTokens({ access_token: 'at', token_type: 'Bearer' });
    assert.equal((await provider.tokens())?.access_token, 'at');
  });

  it('registers again when the stored client was registered for another redirect URI', async () => {
    const store = new OAuthCredentialStore(new MemorySecretStore());
    await store.update(SERVER, (record) => ({ ...record, client: { client_id: 'old', redirect_uris: ['http://127.0.0.1:1111/callback'] } }));
    const same = new ServerOAuthProvider({ serverUrl: SERVER, settings: {}, store, agent: agent('http://127.0.0.1:1111/callback'), clientName: 'x' });
    assert.equal((await same.clientInformation())?.client_id, 'old');
    const moved = new ServerOAuthProvider({ serverUrl: SERVER, settings: {}, store, agent: agent('http://127.0.0.1:2222/callback'), clientName: 'x' });
    assert.equal(await moved.clientInformation(), undefined);
    assert.deepEqual(moved.clientMetadata.redirect_uris, ['http://127.0.0.1:2222/callback']);
    assert.deepEqual(moved.clientMetadata.grant_types, ['authorization_code', 'refresh_token']);
  });

  it('asks for offline_access only where the authorization server lists it, and hands the code and its issuer over once', async () => {
    const store = new OAuthCredentialStore(new MemorySecretStore());
    const person = agent('http://127.0.0.1:3333/callback');
    const provider = new ServerOAuthProvider({ serverUrl: SERVER, settings: {}, store, agent: person, clientName: 'x' });
    const discovery = (scopes: string[]) => ({
      authorizationServerUrl: 'https://auth.example.com',
      authorizationServerMetadata: { issuer: 'https://auth.example.com', authorization_endpoint: 'https://auth.example.com/a', token_endpoint: 'https://auth.example.com/t', response_types_supported: ['code'], scopes_supported: scopes },
    });
    await provider.saveDiscoveryState(discovery(['read']));
    await provider.redirectToAuthorization(new URL('https://auth.example.com/a?scope=read'));
    assert.equal(person.seen[0].searchParams.get('scope'), 'read');
    await provider.saveDiscoveryState(discovery(['read', 'offline_access']));
    await provider.redirectToAuthorization(new URL('https://auth.example.com/a?scope=read'));
    assert.equal(person.seen[1].searchParams.get('scope'), 'read offline_access');
    assert.deepEqual(person.issuers[1], { issuer: 'https://auth.example.com', sendsIss: false }, 'the agent is told where the sign-in started');
    assert.deepEqual(provider.takeAuthorizationResponse(), { code: 'the-code', iss: 'https://auth.example.com' });
    assert.equal(provider.takeAuthorizationResponse(), undefined);
  });

  it('invalidates what the server refused, and only that', async () => {
    const store = new OAuthCredentialStore(new MemorySecretStore());
    await store.update(SERVER, () => ({ tokens: { access_token: 'at', token_type: 'Bearer' }, client: { client_id: 'c' } }));
    const provider = new ServerOAuthProvider({ serverUrl: SERVER, settings: {}, store, clientName: 'x' });
    await provider.invalidateCredentials('tokens');
    assert.deepEqual(await store.load(SERVER), { client: { client_id: 'c' } });
    await provider.invalidateCredentials('all');
    assert.deepEqual(await store.load(SERVER), {});
  });
});
