// The administrator's policy compares URLs after normalising scheme and host, as the transport will
// reach them: case, a trailing dot, IDNA, the default port, user info.
import * as assert from 'node:assert/strict';
import type { EffectiveServer } from '../../src/core/config/types';
import { evaluatePolicy, normalizeUrl, parsePolicyFile, type Policy } from '../../src/core/policy';

function remote(url: string): EffectiveServer {
  return {
    name: 'remote', id: 'remote', scope: 'user', disabled: false, alwaysLoad: false, needsInput: [], needsTrust: false, fingerprint: 'ab'.repeat(32),
    launch: { type: 'http', url, args: [], env: {}, headers: {} },
    source: { file: '/u/.mcp.json', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
  };
}

function policy(text: string): Policy {
  const read = parsePolicyFile('/p.json', text);
  assert.deepEqual(read.problems, []);
  return read.policy;
}

describe('policy: URLs', () => {
  it('normalises scheme, host case, trailing dot, default port and IDNA', () => {
    assert.equal(normalizeUrl('HTTPS://Evil.Example.:443/'), 'https://evil.example/');
    assert.equal(normalizeUrl('http://EVIL.example:80/mcp?x=1'), 'http://evil.example/mcp?x=1');
    assert.equal(normalizeUrl('https://bücher.example/mcp'), 'https://xn--bcher-kva.example/mcp');
    assert.equal(normalizeUrl('https://good.example@evil.example/'), 'https://evil.example/');
    assert.equal(normalizeUrl('not a url'), undefined);
  });

  it('a deny rule matches every spelling of its host', () => {
    const deny = policy('{ "deniedServers": [{ "url": "https://evil.example/*" }, { "url": "https://*.bücher.example/*" }] }');
    for (const url of ['HTTPS://Evil.Example.:443/', 'https://EVIL.EXAMPLE/mcp', 'https://evil.example.:443/mcp', 'https://x@evil.example/', 'https://mcp.BÜCHER.example/sse', 'https://mcp.xn--bcher-kva.example/sse']) {
      assert.equal(evaluatePolicy(deny, remote(url)).verdict, 'denied', url);
    }
    assert.equal(evaluatePolicy(deny, remote('https://evil.example:8443/')).verdict, 'allowed', 'another port is another server');
    const maybe = evaluatePolicy(deny, remote('https://[bad/'));
    assert.equal(maybe.verdict, 'denied', 'a URL the parser does not read may be the denied one');
    assert.match(maybe.reason, /https:\/\/\[bad\/ \(not a URL the parser reads\)/);
  });

  it('an allow rule allows only the host it names, whatever the spelling, never by user info', () => {
    const only = policy('{ "onlyAllowlisted": true, "allowedServers": [{ "url": "HTTPS://Good.Example/*" }] }');
    assert.equal(evaluatePolicy(only, remote('https://good.example./mcp')).verdict, 'allowed');
    assert.equal(evaluatePolicy(only, remote('https://GOOD.example:443/mcp')).verdict, 'allowed');
    assert.equal(evaluatePolicy(only, remote('https://good.example/@evil.example/')).verdict, 'allowed');
    const prefix = policy('{ "onlyAllowlisted": true, "allowedServers": [{ "url": "https://good.example*" }] }');
    assert.equal(evaluatePolicy(prefix, remote('https://good.example@evil.example/')).verdict, 'denied');
  });
});
