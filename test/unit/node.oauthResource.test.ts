// The resource a protected resource metadata document names must be the server's, as RFC 9728 §3.3
// says (identical to the identifier its URL was made from, or to the server's URL when a challenge
// named it), not merely on its origin with a path prefix as the SDK's own check allows.
import * as assert from 'node:assert/strict';
import { checkedResource, expectedResources, ResourceMismatchError } from '../../src/node/auth/resourceIdentifier';
import { MemorySecretStore, OAuthCredentialStore } from '../../src/node/auth/credentialStore';
import { ServerOAuthProvider } from '../../src/node/auth/oauthProvider';

const SERVER = 'https://mcp.example.com/tenant/mcp';
const PATH_WELL_KNOWN = new URL('https://mcp.example.com/.well-known/oauth-protected-resource/tenant/mcp');
const ROOT_WELL_KNOWN = new URL('https://mcp.example.com/.well-known/oauth-protected-resource');

describe('OAuth: the resource of protected resource metadata (RFC 9728 §3.3)', () => {
  it('takes the server\'s own URL from a challenge, from its well-known URL and stored, query included', () => {
    for (const source of ['challenge', PATH_WELL_KNOWN, 'stored'] as const) assert.equal(checkedResource(SERVER, SERVER, source).href, SERVER);
    const query = 'https://mcp.example.com/mcp?tenant=a';
    assert.equal(checkedResource(query, query, new URL('https://mcp.example.com/.well-known/oauth-protected-resource/mcp?tenant=a')).href, query);
  });

  it('takes the origin only for the document of the origin\'s well-known URL (or a stored one), never for one a challenge named', () => {
    assert.deepEqual(expectedResources(SERVER, ROOT_WELL_KNOWN).map(String), ['https://mcp.example.com/']);
    assert.equal(checkedResource(SERVER, 'https://mcp.example.com', ROOT_WELL_KNOWN).href, 'https://mcp.example.com/');
    assert.deepEqual(expectedResources(SERVER, 'stored').map(String), [SERVER, 'https://mcp.example.com/']);
    assert.deepEqual(expectedResources(SERVER, 'challenge').map(String), [SERVER]);
    assert.deepEqual(expectedResources(SERVER, PATH_WELL_KNOWN).map(String), [SERVER]);
    assert.throws(() => checkedResource(SERVER, 'https://mcp.example.com/', 'challenge'), ResourceMismatchError);
    assert.throws(() => checkedResource(SERVER, 'https://mcp.example.com/', PATH_WELL_KNOWN), ResourceMismatchError);
    assert.throws(() => checkedResource(SERVER, SERVER, ROOT_WELL_KNOWN), ResourceMismatchError);
  });

  it('takes the server\'s URL for a document from any other URL (another origin, another path)', () => {
    for (const from of ['https://auth.example.com/.well-known/oauth-protected-resource/tenant/mcp', 'https://mcp.example.com/prm.json']) {
      assert.deepEqual(expectedResources(SERVER, new URL(from)).map(String), [SERVER], from);
    }
  });

  it('refuses a path prefix, a longer path, another origin, a trailing slash and what is not a URL, naming both', () => {
    for (const resource of ['https://mcp.example.com/tenant', 'https://mcp.example.com/tenant/mcp/x', 'https://mcp.example.com/tenant/mcp/',
      'https://evil.example.com/tenant/mcp', 'http://mcp.example.com/tenant/mcp', 'not a url']) {
      assert.throws(() => checkedResource(SERVER, resource, 'challenge'), (error: Error) => {
        assert.ok(error instanceof ResourceMismatchError, resource);
        assert.equal(error.message, `the protected resource metadata of ${SERVER} names the resource ${JSON.stringify(resource)}, not ${SERVER}: refused, nothing was signed in to (RFC 9728 §3.3)`);
        return true;
      });
    }
  });

  it('repeats a long resource only in part, and never the query of the server\'s URL', () => {
    const long = `https://evil.example.com/${'a'.repeat(500)}`;
    assert.throws(() => checkedResource('https://mcp.example.com/mcp?key=secret', long, 'challenge'), (error: Error) => {
      assert.ok(error.message.length < 400, error.message);
      assert.doesNotMatch(error.message, /secret/);
      return true;
    });
  });

  it('is checked when the SDK hands the provider the indicator it will send, told where the document came from; a refused one is forgotten', async () => {
    const store = new OAuthCredentialStore(new MemorySecretStore());
    const provider = new ServerOAuthProvider({ serverUrl: new URL(SERVER), settings: {}, store, clientName: 'test' });
    await provider.saveDiscoveryState({ authorizationServerUrl: 'https://auth.example.com', resourceMetadataUrl: ROOT_WELL_KNOWN.href });
    await assert.rejects(provider.saveResourceUrl('https://mcp.example.com/'), /names the resource "https:\/\/mcp\.example\.com\/", not https:\/\/mcp\.example\.com\/tenant\/mcp: refused/);
    assert.equal((await store.load(SERVER)).discovery, undefined, 'the refused document is not kept');
    await provider.saveDiscoveryState({ authorizationServerUrl: 'https://auth.example.com' });
    provider.watch.resourceMetadataFrom = PATH_WELL_KNOWN;
    await assert.rejects(provider.saveResourceUrl('https://mcp.example.com'), ResourceMismatchError);
    await provider.saveDiscoveryState({ authorizationServerUrl: 'https://auth.example.com' });
    provider.watch.resourceMetadataFrom = ROOT_WELL_KNOWN;
    await provider.saveResourceUrl('https://mcp.example.com');
    await assert.rejects(provider.saveResourceUrl(SERVER), ResourceMismatchError);
  });
});
