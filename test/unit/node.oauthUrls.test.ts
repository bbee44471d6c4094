// Which URLs the OAuth flow follows and which sign-in pages open: https (http only on this computer),
// private and link-local addresses only for a server that is there itself, and authorization server
// metadata only when its issuer is the server it came from (RFC 8414 §3.3).
import * as assert from 'node:assert/strict';
import { isLoopbackHostname, kindOfAddress, kindOfHost } from '../../src/node/auth/addressKind';
import { authorizationPageProblem, LoopbackAgent } from '../../src/node/auth/loopbackAgent';
import { isExemptLegacyIssuer } from '../../src/node/auth/legacyIssuer';
import { IssuerWatch, issuerOfMetadataUrl, oauthFetchGuard, oauthUrlProblem, OAuthUrlRefusedError, sameIssuer } from '../../src/node/auth/oauthFetchGuard';
import { IssuerMismatchError } from '../../src/node/sdk';
import { RedirectError } from '../../src/node/auth/redirectListener';
import type { FetchLike } from '../../src/node/sdk';

const DNS: Record<string, string[]> = {
  'auth.example.com': ['93.184.216.34'],
  'metadata.internal': ['169.254.169.254'],
  'corp.internal': ['10.1.2.3'],
  'other.corp.internal': ['10.9.9.9'],
  'sneaky.example.com': ['93.184.216.35', '192.168.1.1'],
  'mcp.example.com': ['93.184.216.36'],
};
const resolve = async (host: string): Promise<string[]> => DNS[host] ?? [];

describe('OAuth URLs: addresses', () => {
  it('knows loopback, private, link-local and public addresses, IPv4 written as IPv6 too', () => {
    const cases: [string, string | undefined][] = [
      ['127.0.0.1', 'loopback'], ['127.8.9.10', 'loopback'], ['::1', 'loopback'], ['[::1]', 'loopback'], ['::ffff:127.0.0.1', 'loopback'], ['[::ffff:7f00:1]', 'loopback'],
      ['10.0.0.1', 'private'], ['172.16.5.5', 'private'], ['172.31.255.255', 'private'], ['192.168.0.1', 'private'], ['100.64.0.1', 'private'], ['0.0.0.0', 'private'], ['fd00::1', 'private'], ['::', 'private'],
      ['169.254.169.254', 'linkLocal'], ['fe80::1', 'linkLocal'], ['::ffff:a9fe:a9fe', 'linkLocal'],
      ['8.8.8.8', 'public'], ['172.32.0.1', 'public'], ['2606:4700::1111', 'public'],
      ['example.com', undefined],
    ];
    for (const [address, kind] of cases) assert.equal(kindOfAddress(address), kind, address);
  });

  it('takes localhost as this computer and a name as the least public of its addresses', async () => {
    assert.ok(isLoopbackHostname('localhost') && isLoopbackHostname('LOCALHOST.') && isLoopbackHostname('a.localhost') && isLoopbackHostname('127.0.0.1'));
    assert.ok(!isLoopbackHostname('localhost.example.com') && !isLoopbackHostname('10.0.0.1'));
    assert.equal(await kindOfHost('auth.example.com', resolve), 'public');
    assert.equal(await kindOfHost('sneaky.example.com', resolve), 'private');
    assert.equal(await kindOfHost('metadata.internal', resolve), 'linkLocal');
  });
});

describe('OAuth URLs: what discovery follows', () => {
  const remote = new URL('https://mcp.example.com/mcp');
  const local = new URL('http://127.0.0.1:3000/mcp');
  const corp = new URL('https://corp.internal/mcp');
  const problem = (server: URL, target: string) => oauthUrlProblem(server, new URL(target), resolve);

  it('follows https on the internet, and anything on the server\'s own origin', async () => {
    assert.equal(await problem(remote, 'https://auth.example.com/.well-known/oauth-authorization-server'), undefined);
    assert.equal(await problem(local, 'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp'), undefined);
  });

  it('refuses other schemes, and http except from a loopback server to loopback', async () => {
    assert.match(await problem(remote, 'http://auth.example.com/.well-known/oauth-authorization-server') ?? '', /only https:/);
    assert.match(await problem(remote, 'http://127.0.0.1:9/token') ?? '', /only https:/);
    assert.match(await problem(remote, 'file:///etc/passwd') ?? '', /only https:/);
    assert.match(await problem(remote, 'ftp://auth.example.com/x') ?? '', /only https:/);
    assert.equal(await problem(local, 'http://localhost:4000/.well-known/oauth-authorization-server'), undefined);
    assert.match(await problem(local, 'http://auth.example.com/') ?? '', /only https: addresses are followed \(or http: on this computer\)/);
  });

  it('refuses private, loopback and link-local addresses unless the server is on such a network itself', async () => {
    assert.match(await problem(remote, 'https://169.254.169.254/latest/meta-data') ?? '', /link-local/);
    assert.match(await problem(remote, 'https://metadata.internal/') ?? '', /link-local/);
    assert.match(await problem(remote, 'https://10.0.0.1/') ?? '', /private network/);
    assert.match(await problem(remote, 'https://sneaky.example.com/') ?? '', /private network/);
    assert.match(await problem(remote, 'https://localhost/') ?? '', /this computer/);
    assert.match(await problem(remote, 'https://[::ffff:7f00:1]/') ?? '', /this computer/);
    assert.equal(await problem(corp, 'https://other.corp.internal/.well-known/oauth-authorization-server'), undefined);
    assert.match(await problem(corp, 'https://169.254.169.254/') ?? '', /link-local/);
    assert.equal(await problem(local, 'https://127.0.0.1:4443/'), undefined);
    assert.match(await problem(local, 'https://10.0.0.1/') ?? '', /private network/);
  });

  it('does not follow an address it cannot look up', async () => {
    const failing = async (): Promise<string[]> => { throw new Error('getaddrinfo ENOTFOUND nowhere.example'); };
    assert.equal(await oauthUrlProblem(remote, new URL('https://nowhere.example/'), failing), 'its address could not be looked up (getaddrinfo ENOTFOUND nowhere.example)');
  });
});

describe('OAuth URLs: the authorization server\'s issuer', () => {
  it('derives the issuer a metadata URL was built from', () => {
    const cases: [string, string | undefined][] = [
      ['https://as.example.com/.well-known/oauth-authorization-server', 'https://as.example.com'],
      ['https://as.example.com/.well-known/oauth-authorization-server/tenant1', 'https://as.example.com/tenant1'],
      ['https://as.example.com/.well-known/openid-configuration', 'https://as.example.com'],
      ['https://as.example.com/.well-known/openid-configuration/tenant1', 'https://as.example.com/tenant1'],
      ['https://as.example.com/tenant1/.well-known/openid-configuration', 'https://as.example.com/tenant1'],
      ['https://as.example.com/.well-known/oauth-protected-resource', undefined],
      ['https://as.example.com/token', undefined],
    ];
    for (const [url, issuer] of cases) assert.equal(issuerOfMetadataUrl(new URL(url)), issuer, url);
    assert.ok(sameIssuer('https://as.example.com/', 'https://as.example.com') && sameIssuer('https://AS.example.com:443', 'https://as.example.com'));
    assert.ok(!sameIssuer('https://as.example.com/tenant2', 'https://as.example.com/tenant1') && !sameIssuer('https://evil.example.com', 'https://as.example.com'));
  });

  function serving(body: unknown, requested: string[]): FetchLike {
    return async (input) => {
      requested.push(String(input instanceof URL ? input.href : input));
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    };
  }
  const server = new URL('https://mcp.example.com/mcp');
  const metadataUrl = 'https://auth.example.com/.well-known/oauth-authorization-server/tenant1';

  it('passes metadata whose issuer is where it came from, body intact', async () => {
    const guarded = oauthFetchGuard(server, serving({ issuer: 'https://auth.example.com/tenant1', token_endpoint: 'https://auth.example.com/t' }, []), resolve);
    const response = await guarded(new URL(metadataUrl));
    assert.deepEqual(await response.json(), { issuer: 'https://auth.example.com/tenant1', token_endpoint: 'https://auth.example.com/t' });
  });

  it('refuses metadata naming another issuer, or none', async () => {
    for (const body of [{ issuer: 'https://evil.example.com' }, { issuer: 'https://auth.example.com/tenant2' }, { token_endpoint: 'x' }]) {
      const guarded = oauthFetchGuard(server, serving(body, []), resolve);
      await assert.rejects(guarded(metadataUrl), (error: Error) => error instanceof OAuthUrlRefusedError && /must be the server it comes from/.test(error.message) && error.message.includes('https://auth.example.com/tenant1'));
    }
  });

  it('takes the metadata a 2025-03-26 server publishes at its own root with an issuer on its own origin, and nothing else', async () => {
    const body = { issuer: 'https://mcp.example.com/oauth', token_endpoint: 'https://mcp.example.com/oauth/token' };
    const guarded = oauthFetchGuard(server, serving(body, []), resolve);
    assert.deepEqual(await (await guarded('https://mcp.example.com/.well-known/oauth-authorization-server')).json(), body);
    await assert.rejects(guarded('https://mcp.example.com/.well-known/openid-configuration'), OAuthUrlRefusedError);
    await assert.rejects(guarded('https://mcp.example.com/.well-known/oauth-authorization-server/tenant'), OAuthUrlRefusedError);
    await assert.rejects(oauthFetchGuard(server, serving({ issuer: 'https://auth.example.com/oauth' }, []), resolve)('https://auth.example.com/.well-known/oauth-authorization-server'), OAuthUrlRefusedError);
    await assert.rejects(oauthFetchGuard(server, serving({ issuer: 'https://login.example.com' }, []), resolve)('https://mcp.example.com/.well-known/oauth-authorization-server'), OAuthUrlRefusedError);
  });

  it('records the 2025-03-26 exemption it made, and makes none once resource metadata named an authorization server', async () => {
    const legacy = { issuer: 'https://mcp.example.com/oauth' };
    const watch = new IssuerWatch();
    await oauthFetchGuard(server, serving(legacy, []), resolve, watch)('https://mcp.example.com/.well-known/oauth-authorization-server');
    assert.equal(watch.legacyIssuer, 'https://mcp.example.com/oauth');
    assert.equal(watch.namedAuthorizationServer, false);

    const named = new IssuerWatch();
    const prm = { resource: 'https://mcp.example.com/mcp', authorization_servers: ['https://mcp.example.com/'] };
    await oauthFetchGuard(server, serving(prm, []), resolve, named)('https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
    assert.equal(named.namedAuthorizationServer, true);
    await assert.rejects(
      oauthFetchGuard(server, serving(legacy, []), resolve, named)('https://mcp.example.com/.well-known/oauth-authorization-server'),
      (error: Error) => error instanceof OAuthUrlRefusedError && error.message.includes('names the issuer "https://mcp.example.com/oauth", not https://mcp.example.com'),
    );
    assert.equal(named.legacyIssuer, undefined);
  });

  it('relaxes the SDK\'s issuer check only for the exact mismatch the guard exempted', () => {
    const watch = new IssuerWatch();
    watch.legacyIssuer = 'https://mcp.example.com/oauth';
    assert.equal(isExemptLegacyIssuer(new IssuerMismatchError('metadata', 'https://mcp.example.com/', 'https://mcp.example.com/oauth'), server, watch), true);
    assert.equal(isExemptLegacyIssuer(new IssuerMismatchError('metadata', 'https://mcp.example.com/', 'https://mcp.example.com/other'), server, watch), false);
    assert.equal(isExemptLegacyIssuer(new IssuerMismatchError('metadata', 'https://auth.example.com/', 'https://mcp.example.com/oauth'), server, watch), false);
    assert.equal(isExemptLegacyIssuer(new IssuerMismatchError('authorization_response', 'https://mcp.example.com/', 'https://mcp.example.com/oauth'), server, watch), false);
    assert.equal(isExemptLegacyIssuer(new IssuerMismatchError('metadata', 'https://mcp.example.com/', 'https://mcp.example.com/oauth'), server, new IssuerWatch()), false);
    assert.equal(isExemptLegacyIssuer(new Error('Issuer mismatch'), server, watch), false);
  });

  it('never sends a refused request, and leaves other answers alone', async () => {
    const requested: string[] = [];
    const guarded = oauthFetchGuard(server, serving({ anything: true }, requested), resolve);
    await assert.rejects(guarded('https://169.254.169.254/latest/meta-data/'), OAuthUrlRefusedError);
    await assert.rejects(guarded('http://auth.example.com/token'), /not followed, only https:/);
    assert.deepEqual(requested, []);
    assert.deepEqual(await (await guarded('https://auth.example.com/token')).json(), { anything: true });
    assert.deepEqual(await (await guarded('https://mcp.example.com/mcp')).json(), { anything: true });
    assert.equal(requested.length, 2);
  });
});

describe('OAuth URLs: which sign-in pages open', () => {
  it('opens https pages, and http pages only on this computer', () => {
    assert.equal(authorizationPageProblem(new URL('https://auth.example.com/authorize?x=1')), undefined);
    assert.equal(authorizationPageProblem(new URL('http://127.0.0.1:3000/authorize')), undefined);
    assert.equal(authorizationPageProblem(new URL('http://localhost:3000/authorize')), undefined);
    assert.match(authorizationPageProblem(new URL('http://auth.example.com/authorize')) ?? '', /only https:/);
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'command:workbench.action.terminal.new', 'vscode://x/y', 'data:text/html,x']) {
      assert.match(authorizationPageProblem(new URL(url)) ?? '', /only https: sign-in pages are opened, not/, url);
    }
  });

  it('the agent refuses such a page with the URL shown, and never opens it', async () => {
    const opened: string[] = [];
    const agent = new LoopbackAgent({ port: 0, timeoutMs: 1000, open: async (url) => { opened.push(url.href); return true; } });
    await assert.rejects(agent.authorize(new URL('file:///etc/passwd?state=s')), (error: Error) =>
      error instanceof RedirectError && error.message.includes('file:///etc/passwd?state=s') && /not opened/.test(error.message));
    assert.deepEqual(opened, []);
  });
});
