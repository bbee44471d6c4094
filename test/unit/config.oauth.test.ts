// The `oauth` entry of a remote server: read, checked, expanded, redacted and fingerprinted.
import * as assert from 'node:assert/strict';
import { fingerprint } from '../../src/core/config/fingerprint';
import { inputIdsOf, substituteInputs } from '../../src/core/config/inputs';
import { secretsOf } from '../../src/core/lifecycle/redact';
import { parseJson } from './helpers/config';

describe('config: oauth', () => {
  it('reads every field of a remote server\'s oauth entry and keeps ${input:…} for launch time', () => {
    const layer = parseJson({
      inputs: [{ id: 'gh-secret', type: 'promptString', password: true }],
      mcpServers: {
        github: {
          type: 'http', url: 'https://api.example.com/mcp',
          oauth: { clientId: 'Iv1.abc', clientSecret: '${input:gh-secret}', scopes: ['repo', 'read:org'], callbackPort: 33418, clientMetadataUrl: 'https://app.example.com/client.json' },
        },
      },
    });
    assert.deepEqual(layer.problems, []);
    const launch = layer.servers[0].launch;
    assert.deepEqual(launch.oauth, { clientId: 'Iv1.abc', clientSecret: '${input:gh-secret}', scopes: ['repo', 'read:org'], callbackPort: 33418, clientMetadataUrl: 'https://app.example.com/client.json' });
    assert.deepEqual(layer.servers[0].needsInput, ['gh-secret']);
    assert.deepEqual(inputIdsOf(launch), ['gh-secret']);
    const resolved = substituteInputs(launch, { 'gh-secret': 'the-secret-value' });
    assert.equal(resolved.oauth?.clientSecret, 'the-secret-value');
    assert.equal(launch.oauth?.clientSecret, '${input:gh-secret}', 'the parsed launch keeps the placeholder');
    assert.ok(secretsOf(resolved).includes('the-secret-value'), 'the secret is scrubbed from logs');
  });

  it('reports wrong types at their position and leaves the server out', () => {
    const layer = parseJson({ mcpServers: { bad: { url: 'https://x.example/mcp', oauth: { clientId: 7, scopes: 'repo', callbackPort: 70000 } } } });
    assert.deepEqual(layer.servers, []);
    const messages = layer.problems.map((problem) => `${problem.severity} ${problem.message}`);
    assert.ok(messages.some((m) => m.startsWith('error "clientId" in "oauth" of server "bad" must be a non-empty string')));
    assert.ok(messages.some((m) => m.startsWith('error "scopes" in "oauth" of server "bad" must be an array')));
    assert.ok(messages.some((m) => m.startsWith('error "callbackPort" in "oauth" of server "bad" must be a port number')));
  });

  it('warns about unknown keys, an oauth entry on a stdio server, and needs a secret for client credentials', () => {
    const unknown = parseJson({ mcpServers: { s: { url: 'https://x.example/mcp', oauth: { clientID: 'typo' } } } });
    assert.equal(unknown.servers.length, 1);
    assert.match(unknown.problems[0].message, /Unknown field "clientID" in "oauth" of server "s"/);
    const local = parseJson({ mcpServers: { s: { command: 'run', oauth: { clientId: 'x' } } } });
    assert.equal(local.servers[0].launch.oauth, undefined);
    assert.equal(local.problems[0].code, 'ignored-field');
    const machine = parseJson({ mcpServers: { s: { url: 'https://x.example/mcp', oauth: { grantType: 'client_credentials', clientId: 'x' } } } });
    assert.deepEqual(machine.servers, []);
    assert.match(machine.problems[0].message, /needs "clientId" and "clientSecret"/);
    const insecure = parseJson({ mcpServers: { s: { url: 'https://x.example/mcp', oauth: { clientMetadataUrl: 'http://x.example/c.json' } } } });
    assert.match(insecure.problems[0].message, /must be an https:\/\/ URL with a path/);
  });

  it('changes the fingerprint when the oauth client changes, and not for servers without one', () => {
    const base = { type: 'http' as const, url: 'https://x.example/mcp', args: [], env: {}, headers: {} };
    assert.equal(fingerprint(base), fingerprint({ ...base, oauth: undefined }));
    assert.notEqual(fingerprint({ ...base, oauth: { clientId: 'a' } }), fingerprint({ ...base, oauth: { clientId: 'b' } }));
  });
});
