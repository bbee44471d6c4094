import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { canonicalJson, fingerprint } from '../../src/core/config/fingerprint';
import type { LaunchDefinition } from '../../src/core/config/types';
import { parseText } from './helpers/config';

const base: LaunchDefinition = { type: 'stdio', command: 'npx', args: ['-y', 'server'], env: { B: '2', A: '1' }, headers: {} };

describe('canonicalJson', () => {
  it('sorts object keys recursively, keeps array order and omits undefined fields', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: undefined } }), '{"a":{"d":[3,{"y":null,"z":true}]},"b":1}');
  });

  it('writes undefined inside arrays as null, like JSON, and escapes strings', () => {
    assert.equal(canonicalJson([undefined, 'quote"d', 1.5]), '[null,"quote\\"d",1.5]');
    assert.equal(canonicalJson(undefined), 'null');
  });
});

describe('fingerprint', () => {
  it('is the sha256 hex of the canonical launch definition', () => {
    const expected = createHash('sha256').update('{"args":["-y","server"],"command":"npx","env":{"A":"1","B":"2"},"type":"stdio"}').digest('hex');
    assert.equal(fingerprint(base), expected);
    assert.match(fingerprint(base), /^[0-9a-f]{64}$/);
  });

  it('does not change with whitespace, comments or key order in the file', () => {
    const a = parseText('{"mcpServers":{"s":{"command":"npx","args":["-y","server"],"env":{"A":"1","B":"2"}}}}');
    const b = parseText([
      '{',
      '  // the same server, written differently',
      '  "mcpServers": {',
      '    "s": {',
      '      "env": { "B": "2", /* sorted? */ "A": "1", },',
      '      "args": [ "-y", "server" ],',
      '      "command": "npx",',
      '    },',
      '  },',
      '}'].join('\r\n'));
    assert.equal(fingerprint(a.servers[0].launch), fingerprint(b.servers[0].launch));
    assert.equal(fingerprint(a.servers[0].launch), fingerprint(base));
  });

  it('covers the envFile path and the names and value digests it defined when read', () => {
    const parsed = parseText('{"mcpServers":{"s":{"command":"npx","args":["-y","server"],"env":{"A":"1","B":"2"},"envFile":"repo.env"}}}');
    const withFile = parsed.servers[0].launch;
    assert.equal(withFile.envFile, 'repo.env');
    // A repository adding "envFile" to a trusted server changes what runs: it must ask again.
    assert.notEqual(fingerprint(withFile), fingerprint(base));
    const read = { ...withFile, envFileVars: { TOKEN: 'hmac-sha256:aa' } };
    const seen = new Set([
      fingerprint(withFile),
      fingerprint({ ...withFile, envFile: 'other.env' }),
      fingerprint(read),
      fingerprint({ ...withFile, envFileVars: { TOKEN: 'hmac-sha256:bb' } }),
      fingerprint({ ...withFile, envFileVars: { TOKEN: 'hmac-sha256:aa', NODE_OPTIONS: 'hmac-sha256:cc' } }),
      // An empty env file is not a file that could not be read.
      fingerprint({ ...withFile, envFileVars: {} }),
    ]);
    assert.equal(seen.size, 6);
    assert.equal(fingerprint({ ...withFile, envFileVars: { TOKEN: 'hmac-sha256:aa' } }), fingerprint(read));
  });

  it('treats empty env and headers as absent, and ignores fields outside the launch', () => {
    const withoutEnv: LaunchDefinition = { ...base, env: {} };
    const parsed = parseText('{"mcpServers":{"s":{"command":"npx","args":["-y","server"],"env":{},"disabled":true,"timeout":9}}}');
    assert.equal(fingerprint(parsed.servers[0].launch), fingerprint(withoutEnv));
  });

  it('changes when an argument, an env value, the url or a header changes', () => {
    const seen = new Set([
      fingerprint(base),
      fingerprint({ ...base, args: ['-y', 'server@2'] }),
      fingerprint({ ...base, args: ['server', '-y'] }),
      fingerprint({ ...base, env: { A: '1', B: '3' } }),
      fingerprint({ ...base, cwd: '/ws/app' }),
      fingerprint({ type: 'http', url: 'https://a.dev', args: [], env: {}, headers: {} }),
      fingerprint({ type: 'http', url: 'https://b.dev', args: [], env: {}, headers: {} }),
      fingerprint({ type: 'sse', url: 'https://b.dev', args: [], env: {}, headers: {} }),
      fingerprint({ type: 'http', url: 'https://b.dev', args: [], env: {}, headers: { Authorization: 'x' } }),
    ]);
    assert.equal(seen.size, 9);
  });
});
