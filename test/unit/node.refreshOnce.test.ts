// refreshOnce: concurrent refresh_token grants with one token share one request and its answer.
import * as assert from 'node:assert/strict';
import { refreshOnce } from '../../src/node/auth/refreshOnce';

function grant(token: string): RequestInit {
  return { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }) };
}

describe('refreshOnce', () => {
  it('sends one refresh for twins with the same token, and gives each its own readable answer', async () => {
    const sent: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const fetchOnce = refreshOnce(async (_url, init) => {
      sent.push((init!.body as URLSearchParams).get('refresh_token')!);
      await gate;
      return new Response(JSON.stringify({ access_token: `at-${sent.length}`, token_type: 'Bearer' }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const first = fetchOnce('https://as.example/token', grant('rt-twin-1'));
    const second = fetchOnce('https://as.example/token', grant('rt-twin-1'));
    release();
    const answers = await Promise.all([first, second]);
    assert.deepEqual(sent, ['rt-twin-1']);
    for (const answer of answers) assert.deepEqual(await answer.json(), { access_token: 'at-1', token_type: 'Bearer' });
    assert.equal(answers[0].headers.get('content-type'), 'application/json');
  });

  it('sends refreshes with different tokens, failures included, and passes every other request through', async () => {
    const sent: string[] = [];
    const fetchOnce = refreshOnce((url, init) => {
      sent.push(init?.body instanceof URLSearchParams ? `${init.body.get('grant_type')}:${init.body.get('refresh_token') ?? ''}` : String(url));
      return Promise.resolve(new Response('{"error":"invalid_grant"}', { status: 400 }));
    });
    assert.equal((await fetchOnce('https://as.example/token', grant('rt-a'))).status, 400);
    await fetchOnce('https://as.example/token', grant('rt-b'));
    await fetchOnce('https://as.example/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: 'c' }) });
    await fetchOnce('https://mcp.example/mcp', { method: 'POST', body: '{}' });
    assert.deepEqual(sent, ['refresh_token:rt-a', 'refresh_token:rt-b', 'authorization_code:', 'https://mcp.example/mcp']);
  });
});
