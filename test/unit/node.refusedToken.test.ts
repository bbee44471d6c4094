// SEP-2352: a refused token makes the next sign-in discover the authorization server again. A fetch
// and a provider that record what happens; no network.
import * as assert from 'node:assert/strict';
import { rediscoverOnRefusedToken } from '../../src/node/auth/refusedToken';
import type { FetchLike, OAuthClientProvider } from '../../src/node/sdk';

function setUp(status: number): { fetch: FetchLike; invalidated: string[] } {
  const invalidated: string[] = [];
  const provider = { invalidateCredentials: (scope: string) => { invalidated.push(scope); return Promise.resolve(); } } as unknown as OAuthClientProvider;
  const inner: FetchLike = () => Promise.resolve(new Response('{}', { status }));
  return { fetch: rediscoverOnRefusedToken(inner, provider), invalidated };
}

describe('rediscoverOnRefusedToken', () => {
  it('forgets the discovery state when a request that carried the token is answered 401, before the answer is handed on', async () => {
    const { fetch, invalidated } = setUp(401);
    const response = await fetch('https://mcp.example.com/mcp', { method: 'POST', headers: { Authorization: 'Bearer at' } });
    assert.equal(response.status, 401);
    assert.deepEqual(invalidated, ['discovery']);
    await fetch(new URL('https://mcp.example.com/mcp'), { headers: [['authorization', 'DPoP bound']] });
    await fetch('https://mcp.example.com/mcp', { headers: new Headers([['authorization', 'bearer lower']]) });
    assert.deepEqual(invalidated, ['discovery', 'discovery', 'discovery']);
  });

  it('keeps it on a 401 to a request without a token (the first connect) and on any other answer', async () => {
    const refused = setUp(401);
    await refused.fetch('https://mcp.example.com/mcp', { method: 'POST' });
    await refused.fetch('https://auth.example.com/token', { method: 'POST', headers: { Authorization: 'Basic Y2xpZW50OnNlY3JldA==' } });
    assert.deepEqual(refused.invalidated, []);
    const fine = setUp(200);
    await fine.fetch('https://mcp.example.com/mcp', { headers: { Authorization: 'Bearer at' } });
    const forbidden = setUp(403);
    await forbidden.fetch('https://mcp.example.com/mcp', { headers: { Authorization: 'Bearer at' } });
    assert.deepEqual([...fine.invalidated, ...forbidden.invalidated], []);
  });
});
