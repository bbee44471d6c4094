import * as assert from 'node:assert/strict';
import type { LaunchDefinition } from '../../src/core/config/types';
import { formatDuration } from '../../src/core/lifecycle/clock';
import { ConnectError, errorMessage, stderrTailOf } from '../../src/core/lifecycle/errors';
import { isRedactable, redactLaunch, redactText, redactUrl, secretsOf } from '../../src/core/lifecycle/redact';
import { startupSummaryLine, summarize } from '../../src/core/lifecycle/summary';

const stdio = (extra: Partial<LaunchDefinition>): LaunchDefinition => ({ type: 'stdio', command: 'npx', args: [], env: {}, headers: {}, ...extra });
const remote = (extra: Partial<LaunchDefinition>): LaunchDefinition => ({ type: 'http', args: [], env: {}, headers: {}, ...extra });

function assertNoSecret(output: string, secrets: string[]): void {
  for (const secret of secrets) assert.ok(!output.includes(secret), `${JSON.stringify(secret)} survived in ${JSON.stringify(output)}`);
}

describe('redaction', () => {
  it('prints a stdio launch with env values masked, also where they occur inside args', () => {
    const launch = stdio({
      args: ['-y', '@acme/server', '--token=ghp_abcdefghijklmnop', '--api-key', 'sk-0123456789', 'path with space'],
      env: { GITHUB_TOKEN: 'ghp_abcdefghijklmnop', OPENAI_KEY: 'sk-0123456789', DEBUG: '1' },
    });
    const printed = redactLaunch(launch);
    assert.equal(printed, "DEBUG=*** GITHUB_TOKEN=*** OPENAI_KEY=*** npx -y @acme/server --token=*** --api-key *** 'path with space'");
    assertNoSecret(printed, ['ghp_abcdefghijklmnop', 'sk-0123456789']);
  });

  it('prints a remote launch with URL credentials, header values and their literal occurrences masked', () => {
    const launch = remote({
      url: 'https://alice:hunter22@mcp.example.com/mcp?key=tok_9f8e7d6c5b4a',
      headers: { Authorization: 'Bearer tok_9f8e7d6c5b4a', 'X-Team': 'platform' },
    });
    const printed = redactLaunch(launch);
    assert.equal(printed, 'https://***:***@mcp.example.com/mcp?key=*** (headers: Authorization=***, X-Team=***)');
    assertNoSecret(printed, ['alice', 'hunter22', 'tok_9f8e7d6c5b4a', 'platform']);
  });

  it('masks a user-only credential and percent-encoded secrets in URLs', () => {
    assert.equal(redactUrl('https://ghp_secret12345@host/x'), 'https://***@host/x');
    const launch = remote({ url: 'wss://host/ws?t=a%2Fb%2Bc%3D123', headers: { Token: 'a/b+c=123' } });
    assertNoSecret(redactLaunch(launch), ['a%2Fb%2Bc%3D123', 'a/b+c=123']);
  });

  it('collects every secret of a launch, longest first, including the token of a Bearer header and decoded credentials', () => {
    const secrets = secretsOf(remote({ url: 'https://bob:p%40ssw0rd@host', headers: { Authorization: 'Bearer abcdefgh12345678' }, env: { FLAG: 'true', EMPTY: '' } }));
    assert.deepEqual(secrets, ['Bearer%20abcdefgh12345678', 'Bearer abcdefgh12345678', 'abcdefgh12345678', 'p%40ssw0rd', 'p@ssw0rd']);
  });

  it('scrubs secrets from any text, longest first, and leaves short or boolean-like values alone', () => {
    const secrets = ['abcd1234', 'abcd1234-extended', 'true', '1', ''];
    assert.equal(redactText('key=abcd1234-extended other=abcd1234 ok=true n=1', secrets), 'key=*** other=*** ok=true n=1');
    assert.equal(isRedactable('  '), false);
    assert.equal(isRedactable('off'), false);
    assert.equal(isRedactable('s3cr'), true);
  });

  it('keeps stderr lines free of env values', () => {
    const launch = stdio({ env: { DB_PASSWORD: 'correct horse battery' } });
    const line = redactText('FATAL: password authentication failed (correct horse battery)', secretsOf(launch));
    assert.equal(line, 'FATAL: password authentication failed (***)');
  });
});

describe('startup summary', () => {
  it('groups states and writes one line', () => {
    const summary = summarize([
      { id: 'a', state: { kind: 'ready', since: 0, startMs: 1 } },
      { id: 'b', state: { kind: 'failed', error: 'command not found: nope\nmore', stderrTail: [] } },
      { id: 'c', state: { kind: 'needsTrust' } },
      { id: 'd', state: { kind: 'stopped' } },
      { id: 'e', state: { kind: 'starting', since: 0 } },
      { id: 'f', state: { kind: 'needsSignIn', reason: 'https://x.example/mcp needs you to sign in' } },
    ]);
    assert.deepEqual(summary, { ready: ['a'], failed: [{ id: 'b', error: 'command not found: nope\nmore' }], needsTrust: ['c'], needsSignIn: ['f'], disabled: [], stopped: ['d'] });
    assert.equal(startupSummaryLine(summary), 'MCP servers: 1 ready · 1 failed (b: command not found: nope) · 1 needs trust · 1 needs sign-in · 1 stopped');
  });

  it('says when nothing is configured and shortens long reasons', () => {
    assert.equal(startupSummaryLine(summarize([])), 'MCP servers: none configured');
    const line = startupSummaryLine({ ready: [], failed: [{ id: 'x', error: 'e'.repeat(300) }, { id: 'y', error: 'boom' }], needsTrust: [], needsSignIn: [], disabled: [], stopped: [] });
    assert.equal(line, `MCP servers: 2 failed (x: ${'e'.repeat(119)}…; y: boom)`);
  });
});

describe('formatDuration', () => {
  it('reads naturally from milliseconds to minutes', () => {
    assert.deepEqual([250, 1000, 1500, 30_000, 59_960, 60_000, 150_000, 300_000].map(formatDuration),
      ['250 ms', '1 s', '1.5 s', '30 s', '60 s', '1 minute', '2 min 30 s', '5 minutes']);
  });
});

describe('lifecycle errors', () => {
  it('ConnectError carries the stderr tail; other errors may too', () => {
    const error = new ConnectError('spawn failed', ['a', 'b']);
    assert.deepEqual(stderrTailOf(error), ['a', 'b']);
    assert.deepEqual(stderrTailOf(Object.assign(new Error('x'), { stderrTail: ['c'] })), ['c']);
    assert.deepEqual(stderrTailOf(Object.assign(new Error('x'), { stderrTail: [1] })), []);
    assert.deepEqual(stderrTailOf('plain'), []);
    assert.equal(errorMessage(error), 'spawn failed');
    assert.equal(errorMessage('text'), 'text');
  });
});
