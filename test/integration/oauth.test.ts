// OAuth end to end on loopback: the extension's lifecycle core and connector against an MCP server
// protected by the SDK's own server-side auth (test/fixtures/servers/oauth-protected.mjs). A start
// without tokens parks in needsSignIn without registering or opening anything; a sign-in through the
// fixture's real authorization page (fetched and approved as a browser would) stores tokens; the next
// start is ready; an expired access token is refreshed without asking; a dead refresh token asks for a
// sign-in once; signing out forgets everything.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { EffectiveServer, OAuthSettings } from '../../src/core/config/types';
import { ToolCallGate } from '../../src/core/calls';
import { ServerRegistry } from '../../src/core/lifecycle/registry';
import type { ServerLog } from '../../src/core/lifecycle/ports';
import { MemorySecretStore, OAuthCredentialStore } from '../../src/node/auth/credentialStore';
import { OAuthProviders } from '../../src/node/auth/oauthSupport';
import { freeLoopbackPort } from '../../src/node/auth/redirectListener';
import { signIn } from '../../src/node/auth/signIn';
import { NodeServerConnector } from '../../src/node/connector';
import { HelperServers, type HelperServer } from './helperServers';
import { REPO_ROOT } from './support';

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const LOG: ServerLog & { lines: string[] } = {
  lines: [],
  info(m) { this.lines.push(`info: ${m}`); },
  warn(m) { this.lines.push(`warn: ${m}`); },
  error(m) { this.lines.push(`error: ${m}`); },
  stderr() { /* remote servers have none */ },
  serverMessage() { /* not used */ },
  trace() { /* not used */ },
};

function remote(url: string, oauth?: OAuthSettings): EffectiveServer {
  return {
    name: 'secured', id: 'secured', scope: 'user',
    launch: { type: 'http', url, args: [], env: {}, headers: {}, ...(oauth ? { oauth } : {}) },
    disabled: false, alwaysLoad: false, needsInput: [],
    source: { file: 'test.mcp.json', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
    fingerprint: 'secured', needsTrust: false,
  };
}

/** A browser whose person approves: loads the authorization page, submits its Approve button, follows the redirect home. */
async function approvingBrowser(authorizationUrl: URL, seen: string[]): Promise<boolean> {
  const page = await fetch(authorizationUrl);
  const html = await page.text();
  assert.equal(page.status, 200, html);
  seen.push(html);
  const id = /name="id" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(id, 'the page has a consent form');
  const consent = await fetch(new URL('/consent', authorizationUrl), {
    method: 'POST', body: new URLSearchParams({ id, decision: 'approve' }), redirect: 'follow',
  });
  assert.equal(consent.status, 200, 'the redirect reached the loopback listener');
  await consent.body?.cancel();
  return true;
}

/** A browser whose person denies: loads the authorization page and submits its Deny button. */
async function denyingBrowser(authorizationUrl: URL): Promise<boolean> {
  const html = await (await fetch(authorizationUrl)).text();
  const id = /name="id" value="([^"]+)"/.exec(html)![1];
  const answer = await fetch(new URL('/consent', authorizationUrl), { method: 'POST', body: new URLSearchParams({ id, decision: 'deny' }) });
  await answer.body?.cancel();
  return true;
}

async function stats(server: HelperServer): Promise<Record<string, number>> {
  return await (await fetch(`http://127.0.0.1:${server.port}/control/stats`)).json() as Record<string, number>;
}

describe('OAuth against an SDK-protected server (loopback)', function () {
  this.timeout(30_000);
  const helpers = new HelperServers();
  let fixture: HelperServer;
  let registry: ServerRegistry;
  let calls: ToolCallGate;
  let connector: NodeServerConnector;
  let store: OAuthCredentialStore;
  let secrets: MemorySecretStore;
  let url: string;

  before(async () => {
    fixture = await helpers.fixture('oauth-protected.mjs');
    url = `http://127.0.0.1:${fixture.port}/mcp`;
  });
  after(() => helpers.stopAll());

  beforeEach(() => {
    secrets = new MemorySecretStore();
    store = new OAuthCredentialStore(secrets);
    connector = new NodeServerConnector({ clientVersion: VERSION, oauth: new OAuthProviders({ store, clientName: 'MCP Switchboard' }) });
    registry = new ServerRegistry({ connector, logFor: () => LOG, settings: { startupTimeoutMs: 10_000, requestTimeoutMs: 10_000 } });
    calls = new ToolCallGate({ registry });
  });
  afterEach(async () => {
    await registry.stopAll();
    await connector.dispose();
    registry.dispose();
  });

  it('parks in needsSignIn without a browser or a registration, then is ready after a sign-in and calls the tool', async () => {
    const before = await stats(fixture);
    registry.reconcile([remote(url)]);
    await registry.settled();
    const parked = registry.get('secured')!.state;
    assert.equal(parked.kind, 'needsSignIn', JSON.stringify(parked));
    assert.equal(parked.kind === 'needsSignIn' && parked.reason, `${url} needs you to sign in`);
    const quiet = await stats(fixture);
    assert.equal(quiet.registrations, before.registrations, 'no registration without a person');
    assert.equal(quiet.authorizations, before.authorizations);

    const pages: string[] = [];
    await signIn({ server: remote(url), store, clientName: 'MCP Switchboard', open: (u) => approvingBrowser(u, pages), timeoutMs: 10_000 });
    assert.match(pages[0], /MCP Switchboard asks for: <span id="scopes">mcp:tools<\/span>/);
    const after = await stats(fixture);
    assert.equal(after.registrations, before.registrations + 1, 'registered once, dynamically');
    assert.equal(after.codeGrants, before.codeGrants + 1);
    assert.deepEqual(secrets.keys(), [`switchboard.oauth:${url}`]);
    const record = await store.load(url);
    assert.ok(record.tokens?.access_token && record.tokens.refresh_token);

    await registry.start('secured');
    assert.equal(registry.get('secured')!.state.kind, 'ready');
    await registry.catalogsLoaded();
    assert.deepEqual(registry.get('secured')!.catalog.tools.map((tool) => tool.name), ['whoami']);
    const { result } = await calls.call({ serverId: 'secured', tool: 'whoami', arguments: {}, caller: 'test' });
    assert.match(JSON.stringify(result.content), /with scopes mcp:tools/);
  });

  it('refreshes an expired access token without asking, and asks once when the refresh token is dead too', async () => {
    await signIn({ server: remote(url), store, clientName: 'MCP Switchboard', open: (u) => approvingBrowser(u, []), timeoutMs: 10_000 });
    registry.reconcile([remote(url)]);
    await registry.settled();
    assert.equal(registry.get('secured')!.state.kind, 'ready');
    const start = await stats(fixture);

    await fetch(`http://127.0.0.1:${fixture.port}/control/expire-access`, { method: 'POST' });
    await calls.call({ serverId: 'secured', tool: 'whoami', arguments: {}, caller: 'test' });
    const refreshed = await stats(fixture);
    // Once, or twice when another request (the event stream reconnecting) met the old token too.
    assert.ok(refreshed.refreshGrants > start.refreshGrants && refreshed.refreshGrants <= start.refreshGrants + 2, `refresh grants: ${refreshed.refreshGrants - start.refreshGrants}`);
    assert.equal(refreshed.authorizations, start.authorizations, 'no new sign-in');

    await fetch(`http://127.0.0.1:${fixture.port}/control/revoke-all`, { method: 'POST' });
    // A loop would start the server again (every start passes through "starting"): watch for one, no sleep needed.
    const states: string[] = [];
    const watching = registry.onDidChangeState((change) => { if (change.id === 'secured') states.push(change.state.kind); });
    await assert.rejects(calls.call({ serverId: 'secured', tool: 'whoami', arguments: {}, caller: 'test' }), /needs you to sign in/);
    assert.equal(registry.get('secured')!.state.kind, 'needsSignIn', 'the refused call parks the server');
    await registry.restart('secured');
    assert.equal(registry.get('secured')!.state.kind, 'needsSignIn');
    assert.equal((await store.load(url)).tokens, undefined, 'the refused tokens are forgotten');
    await registry.settled();
    watching.dispose();
    // At most the one requested restart, then parked again.
    assert.equal(states.at(-1), 'needsSignIn', states.join(' → '));
    assert.ok(states.filter((kind) => kind === 'starting').length <= 1, `at most one start, the requested one: ${states.join(' → ')}`);
    const end = await stats(fixture);
    assert.equal(end.authorizations, start.authorizations, 'no authorization request without a person: no loop');
    assert.equal(registry.get('secured')!.state.kind, 'needsSignIn', 'stays parked');
  });

  it('survives several requests meeting the expired token together although the refresh token rotates', async () => {
    await signIn({ server: remote(url), store, clientName: 'MCP Switchboard', open: (u) => approvingBrowser(u, []), timeoutMs: 10_000 });
    registry.reconcile([remote(url)]);
    await registry.settled();
    assert.equal(registry.get('secured')!.state.kind, 'ready');
    const start = await stats(fixture);
    await fetch(`http://127.0.0.1:${fixture.port}/control/expire-access`, { method: 'POST' });
    const results = await Promise.all([1, 2, 3].map(() => calls.call({ serverId: 'secured', tool: 'whoami', arguments: {}, caller: 'test' })));
    assert.equal(results.length, 3);
    const end = await stats(fixture);
    // Twins of one refresh token share one grant; a request that sent the old access token after the
    // new one was stored may refresh once more (the SDK refreshes on every 401), never with a used token.
    assert.ok(end.refreshGrants > start.refreshGrants && end.refreshGrants <= start.refreshGrants + 2, `refresh grants: ${end.refreshGrants - start.refreshGrants}`);
    assert.equal(end.authorizations, start.authorizations, 'nobody was asked to sign in');
    assert.equal(registry.get('secured')!.state.kind, 'ready');
    await calls.call({ serverId: 'secured', tool: 'whoami', arguments: {}, caller: 'test' });
    assert.equal((await stats(fixture)).refreshGrants, end.refreshGrants, 'the stored tokens work');
  });

  it('signs out: the stored credentials are gone and the next start needs a sign-in again', async () => {
    await signIn({ server: remote(url), store, clientName: 'MCP Switchboard', open: (u) => approvingBrowser(u, []), timeoutMs: 10_000 });
    registry.reconcile([remote(url)]);
    await registry.settled();
    assert.equal(registry.get('secured')!.state.kind, 'ready');
    await store.clear(url);
    assert.deepEqual(secrets.keys(), []);
    await registry.restart('secured');
    assert.equal(registry.get('secured')!.state.kind, 'needsSignIn');
  });

  it('a denied sign-in fails with the authorization server\'s answer and stores no token', async () => {
    await assert.rejects(signIn({ server: remote(url), store, clientName: 'MCP Switchboard', open: denyingBrowser, timeoutMs: 10_000 }), /refused the sign-in: access_denied/);
    assert.equal((await store.load(url)).tokens, undefined);
  });

  it('a denied sign-in whose answer names another issuer is refused unread: its text is not shown (RFC 9207)', async () => {
    const mixed = await helpers.fixture('oauth-protected.mjs', { ISS_PARAMETER: 'https://login.example.com/' });
    const mixedUrl = `http://127.0.0.1:${mixed.port}/mcp`;
    await assert.rejects(signIn({ server: remote(mixedUrl), store, clientName: 'MCP Switchboard', open: denyingBrowser, timeoutMs: 10_000 }), (error: Error) => {
      assert.match(error.message, /an error answer that does not come from http:\/\/127\.0\.0\.1:\d+\/, the authorization server this sign-in started at, was refused unread \(RFC 9207\)/);
      assert.doesNotMatch(error.message, /denied the request|login\.example\.com/);
      return true;
    });
    assert.equal((await store.load(mixedUrl)).tokens, undefined);
  });

  it('says so when a server answering 401 publishes no OAuth metadata (it may want an API key instead)', async () => {
    const keyed = await helpers.fixture('http-expiring-session.mjs', { REQUIRE_HEADER: 'x-api-key: s3cret' });
    const keyedUrl = `http://127.0.0.1:${keyed.port}/mcp`;
    registry.reconcile([remote(keyedUrl)]);
    await registry.settled();
    const state = registry.get('secured')!.state;
    assert.equal(state.kind, 'needsSignIn');
    assert.equal(state.kind === 'needsSignIn' && state.reason, `${keyedUrl} needs you to sign in; it publishes no OAuth metadata: if it expects an API key, put it in "headers"`);
    await helpers.stop(keyed.child);
  });

  it('uses the configured callbackPort in the redirect URI it registers and sends', async () => {
    const port = await freeLoopbackPort();
    const redirects: string[] = [];
    await signIn({
      server: remote(url, { callbackPort: port }), store, clientName: 'MCP Switchboard', timeoutMs: 10_000,
      open: (u) => { redirects.push(u.searchParams.get('redirect_uri') ?? ''); return approvingBrowser(u, []); },
    });
    assert.deepEqual(redirects, [`http://127.0.0.1:${port}/callback`]);
    const client = (await store.load(url)).client as { redirect_uris?: string[] } | undefined;
    assert.deepEqual(client?.redirect_uris, [`http://127.0.0.1:${port}/callback`]);
  });
});

describe('OAuth against a hostile authorization server (loopback)', function () {
  this.timeout(30_000);
  const helpers = new HelperServers();
  after(() => helpers.stopAll());

  /** Signs in to a fixture whose authorization server metadata is changed by `override`; the pages it was asked to open. */
  async function signInWith(override: Record<string, string>, env: Record<string, string> = {}): Promise<{ attempt: Promise<void>; opened: string[]; stats: () => Promise<Record<string, number>>; store: OAuthCredentialStore; url: string }> {
    const server = await helpers.fixture('oauth-protected.mjs', { METADATA_OVERRIDE: JSON.stringify(override), ...env });
    const url = `http://127.0.0.1:${server.port}/mcp`;
    const opened: string[] = [];
    const store = new OAuthCredentialStore(new MemorySecretStore());
    const attempt = signIn({ server: remote(url), store, clientName: 'MCP Switchboard', open: (u) => { opened.push(u.href); return approvingBrowser(u, []); }, timeoutMs: 10_000 });
    return { attempt, opened, stats: () => stats(server), store, url };
  }

  it('refuses authorization server metadata whose issuer is another server, before registering or opening anything', async () => {
    const { attempt, opened, stats: counts } = await signInWith({ issuer: 'https://login.example.com' });
    await assert.rejects(attempt, /names the issuer "https:\/\/login\.example\.com", not http:\/\/127\.0\.0\.1:\d+: refused/);
    assert.deepEqual(opened, []);
    assert.equal((await counts()).registrations, 0);
  });

  it('refuses an issuer on another origin at the root of a server without resource metadata (the 2025-03-26 place), naming both issuers', async () => {
    const { attempt, opened, stats: counts } = await signInWith({ issuer: 'https://login.example.com' }, { NO_RESOURCE_METADATA: '1' });
    await assert.rejects(attempt, /names the issuer "https:\/\/login\.example\.com", not http:\/\/127\.0\.0\.1:\d+: refused/);
    assert.deepEqual(opened, []);
    assert.equal((await counts()).registrations, 0);
  });

  it('refuses an issuer elsewhere on the server\'s origin when its resource metadata named an authorization server (not the 2025-03-26 case)', async () => {
    const { attempt, opened, stats: counts } = await signInWith({}, { ISSUER_PATH: '/oauth' });
    await assert.rejects(attempt, /names the issuer "http:\/\/127\.0\.0\.1:\d+\/oauth", not http:\/\/127\.0\.0\.1:\d+: refused/);
    assert.deepEqual(opened, []);
    assert.equal((await counts()).registrations, 0);
  });

  for (const [what, resource, refusal] of [
    // The SDK alone lets a path prefix on the server's origin through; the spec's rule is identity.
    ['its origin (a path prefix the SDK alone would let through)', 'origin',
      /^the protected resource metadata of http:\/\/127\.0\.0\.1:\d+\/mcp names the resource "http:\/\/127\.0\.0\.1:\d+\/", not http:\/\/127\.0\.0\.1:\d+\/mcp: refused, nothing was signed in to \(RFC 9728 §3\.3\)$/],
    // Another origin the SDK refuses itself, naming both too.
    ['another server', 'https://mcp.example.com/mcp', /^Protected resource https:\/\/mcp\.example\.com\/mcp does not match expected http:\/\/127\.0\.0\.1:\d+\/mcp/],
  ] as const) {
    it(`refuses protected resource metadata whose resource is ${what}, naming both, before registering or opening anything (RFC 9728 §3.3)`, async () => {
      const { attempt, opened, stats: counts, store: own, url: ownUrl } = await signInWith({}, { RESOURCE_OVERRIDE: resource });
      await assert.rejects(attempt, (error: Error) => {
        assert.match(error.message, refusal);
        return true;
      });
      assert.deepEqual(opened, []);
      assert.equal((await counts()).registrations, 0);
      assert.equal((await own.load(ownUrl)).tokens, undefined);
    });
  }

  it('signs in where the authorization server sends its issuer with the code (RFC 9207)', async () => {
    const { attempt, stats: counts, store: own, url: ownUrl } = await signInWith({}, { ISS_PARAMETER: 'issuer' });
    await attempt;
    assert.equal((await counts()).codeGrants, 1);
    assert.ok((await own.load(ownUrl)).tokens?.access_token);
  });

  for (const [what, iss, named] of [['another issuer', 'https://login.example.com/', 'names another issuer'], ['no issuer', 'missing', 'names no issuer']]) {
    it(`refuses an answer that names ${what} where the authorization server says it sends its own, without using the code or showing the answer's text`, async () => {
      const { attempt, opened, stats: counts, store: own, url: ownUrl } = await signInWith({}, { ISS_PARAMETER: iss });
      await assert.rejects(attempt, (error: Error) => {
        assert.match(error.message, new RegExp(`^the sign-in to http://127\\.0\\.0\\.1:\\d+/mcp: the answer the browser brought back ${named}, not "http://127\\.0\\.0\\.1:\\d+/", the authorization server this sign-in started at: refused, the code was not used \\(RFC 9207\\)$`));
        assert.doesNotMatch(error.message, /login\.example\.com/);
        return true;
      });
      assert.equal(opened.length, 1, 'the page was opened; the answer came back');
      assert.equal((await counts()).codeGrants, 0, 'the code was never redeemed');
      assert.equal((await own.load(ownUrl)).tokens, undefined);
    });
  }

  it('never opens a sign-in page that is not a web page, and names it', async () => {
    const { attempt, opened } = await signInWith({ authorization_endpoint: 'file:///etc/passwd' });
    await assert.rejects(attempt, /the sign-in page file:\/\/\/etc\/passwd\?\S+ is not opened: only https: sign-in pages are opened, not file:/);
    assert.deepEqual(opened, []);
  });

  it('never sends the code to a token endpoint on a link-local address', async () => {
    const { attempt } = await signInWith({ token_endpoint: 'http://169.254.169.254/latest/token' });
    // The SDK refuses a plain-http token endpoint itself now; our fetch guard would refuse it after that.
    await assert.rejects(attempt, /Refusing to send credentials to non-https token endpoint 'http:\/\/169\.254\.169\.254\/latest\/token'|was sent to http:\/\/169\.254\.169\.254\/latest\/token: not followed/);
  });
});

/** A listener on 127.0.0.1 (its own port: another origin) that serves one JSON document at every path and counts the requests. */
async function countingListener(document: () => unknown): Promise<{ origin: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(document()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`, requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe('OAuth discovery on another host waits for the person (loopback)', function () {
  this.timeout(30_000);
  const helpers = new HelperServers();
  after(() => helpers.stopAll());

  it('a start sends nothing to the host the 401 names; the person\'s sign-in does, and the start after it is ready', async () => {
    let serverUrl = '';
    let authorizationServer = '';
    // Resource metadata kept on another origin, naming the fixture's own authorization server.
    const elsewhere = await countingListener(() => ({ resource: serverUrl, authorization_servers: [authorizationServer] }));
    const server = await helpers.fixture('oauth-protected.mjs', { RESOURCE_METADATA_URL: `${elsewhere.origin}/prm` });
    serverUrl = `http://127.0.0.1:${server.port}/mcp`;
    authorizationServer = `http://127.0.0.1:${server.port}/`;
    const store = new OAuthCredentialStore(new MemorySecretStore());
    const providers = new OAuthProviders({ store, clientName: 'MCP Switchboard' });
    const connector = new NodeServerConnector({ clientVersion: VERSION, oauth: providers });
    const registry = new ServerRegistry({ connector, logFor: () => LOG, settings: { startupTimeoutMs: 10_000, requestTimeoutMs: 10_000 } });
    try {
      registry.reconcile([remote(serverUrl)]);
      await registry.settled();
      assert.deepEqual(elsewhere.requests, [], 'no request to the other host before Sign In');
      const parked = registry.get('secured')!.state;
      assert.equal(parked.kind, 'needsSignIn', JSON.stringify(parked));
      assert.equal(parked.kind === 'needsSignIn' && parked.reason,
        `${serverUrl} needs you to sign in; its sign-in goes to ${elsewhere.origin}, which is contacted only once you choose Sign In`);
      await registry.restart('secured');
      assert.deepEqual(elsewhere.requests, [], 'nor on a second start');

      const challenge = providers.signInChallenge(serverUrl);
      assert.equal(challenge.resourceMetadataUrl?.href, `${elsewhere.origin}/prm`);
      await signIn({ server: remote(serverUrl), store, clientName: 'MCP Switchboard', open: (u) => approvingBrowser(u, []), timeoutMs: 10_000, ...challenge });
      assert.deepEqual(elsewhere.requests, ['GET /prm'], 'the person\'s sign-in fetched the metadata the 401 named');
      assert.deepEqual((await store.load(serverUrl)).approvedOrigins, [elsewhere.origin]);

      await registry.start('secured');
      assert.equal(registry.get('secured')!.state.kind, 'ready');
    } finally {
      await registry.stopAll();
      await connector.dispose();
      registry.dispose();
      await elsewhere.close();
    }
  });
});

describe('OAuth against a 2025-03-26 server: no resource metadata, an issuer elsewhere on its origin (loopback)', function () {
  this.timeout(30_000);
  const helpers = new HelperServers();
  after(() => helpers.stopAll());

  it('parks in needsSignIn, signs in with the SDK\'s issuer check relaxed for this case only, then connects and calls', async () => {
    const server = await helpers.fixture('oauth-protected.mjs', { NO_RESOURCE_METADATA: '1', ISSUER_PATH: '/oauth' });
    const url = `http://127.0.0.1:${server.port}/mcp`;
    const store = new OAuthCredentialStore(new MemorySecretStore());
    const connector = new NodeServerConnector({ clientVersion: VERSION, oauth: new OAuthProviders({ store, clientName: 'MCP Switchboard' }) });
    const registry = new ServerRegistry({ connector, logFor: () => LOG, settings: { startupTimeoutMs: 10_000, requestTimeoutMs: 10_000 } });
    const calls = new ToolCallGate({ registry });
    try {
      registry.reconcile([remote(url)]);
      await registry.settled();
      const parked = registry.get('secured')!.state;
      assert.equal(parked.kind, 'needsSignIn', JSON.stringify(parked));

      await signIn({ server: remote(url), store, clientName: 'MCP Switchboard', open: (u) => approvingBrowser(u, []), timeoutMs: 10_000 });
      const record = await store.load(url);
      assert.equal(record.discovery?.authorizationServerMetadata?.issuer, `http://127.0.0.1:${server.port}/oauth`);
      assert.ok(record.tokens?.access_token);

      await registry.start('secured');
      assert.equal(registry.get('secured')!.state.kind, 'ready');
      const { result } = await calls.call({ serverId: 'secured', tool: 'whoami', arguments: {}, caller: 'test' });
      assert.match(JSON.stringify(result.content), /with scopes mcp:tools/);
    } finally {
      await registry.stopAll();
      await connector.dispose();
      registry.dispose();
    }
  });
});
