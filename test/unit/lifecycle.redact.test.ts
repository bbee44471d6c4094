import * as assert from 'node:assert/strict';
import type { LaunchDefinition } from '../../src/core/config/types';
import { formatDuration } from '../../src/core/lifecycle/clock';
import { ConnectError, errorMessage, stderrTailOf } from '../../src/core/lifecycle/errors';
import type { CloseInfo, ConnectRequest, ServerConnection, ServerConnector, ServerLog } from '../../src/core/lifecycle/ports';
import {
  argSecrets, isRedactable, isSecretName, redactArgs, redactCommandLine, redactLaunch, redactText, redactUrl, secretsOf,
} from '../../src/core/lifecycle/redact';
import { SecretSet } from '../../src/core/lifecycle/redactConnection';
import { RedactingConnector } from '../../src/core/lifecycle/redactingConnector';
import { startupSummaryLine, summarize } from '../../src/core/lifecycle/summary';
import { makeServer } from './helpers/lifecycle';

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

describe('the one redaction of arguments', () => {
  it('masks secrets by position: --api-key=V, --token V, KEY=V, Authorization: V, URL credentials and secret parameters', () => {
    const args = [
      '--api-key=sk-live-0123456789', '--token', 'ghp_abcdefghijkl', 'GITHUB_PERSONAL_ACCESS_TOKEN=ghp_zyxwvutsrq', '--header', 'Authorization: Bearer eyJhbGciOi.abc',
      'https://alice:pa55w0rd@api.example.com/mcp?access_token=at-777777&team=web', '--password=hunter22',
    ];
    assert.deepEqual(redactArgs(args), [
      '--api-key=***', '--token', '***', 'GITHUB_PERSONAL_ACCESS_TOKEN=***', '--header', 'Authorization: ***',
      'https://***:***@api.example.com/mcp?access_token=***&team=web', '--password=***',
    ]);
    assert.deepEqual(argSecrets(args).sort(), ['Bearer eyJhbGciOi.abc', 'alice', 'at-777777', 'eyJhbGciOi.abc', 'ghp_abcdefghijkl', 'ghp_zyxwvutsrq', 'hunter22', 'pa55w0rd', 'sk-live-0123456789'].sort());
  });

  it('leaves what only looks like a secret name alone', () => {
    const args = ['--max-tokens', '4096', '--key-file', '/etc/key.pem', '--tokenizer', 'bpe', '--token', '--verbose', '--monkey=banana', 'KEYBOARD=us', 'https://example.com/?q=token'];
    assert.deepEqual(redactArgs(args), args);
    assert.deepEqual(argSecrets(args), []);
    assert.equal(isSecretName('GITHUB_TOKEN'), true);
    assert.equal(isSecretName('X-Api-Key'), true);
    assert.equal(isSecretName('max-tokens'), false);
  });

  it('scrubs a secret argument wherever the server prints it again', () => {
    const launch = stdio({ args: ['--token', 'ghp_abcdefghijkl', '--api-key=sk-live-0123456789'] });
    const secrets = secretsOf(launch);
    assert.equal(redactText('auth with ghp_abcdefghijkl and sk-live-0123456789 failed', secrets), 'auth with *** and *** failed');
    assert.equal(redactLaunch(launch), 'npx --token *** --api-key=***');
  });

  it('prints the env file of a launch and scrubs known values from it', () => {
    assert.equal(redactLaunch(stdio({ args: ['server.js'], envFile: '/ws/app/.env' })), 'npx server.js (envFile /ws/app/.env)');
    assert.equal(redactCommandLine('node', ['my server.js', '--key', 'abcd-1234'], []), "node 'my server.js' --key ***");
  });
});

describe('RedactingConnector', () => {
  function fakeConnection(onCloseListener: { fire?: (info: CloseInfo) => void }): ServerConnection {
    return {
      serverInfo: { name: 'fake', version: '1' },
      supports: { tools: false, resources: false, resourceTemplates: false, prompts: false, logging: false },
      listPage: () => Promise.resolve({ items: [] }),
      callTool: () => Promise.reject(new Error('tool saw from-the-env-file-42')),
      readResource: () => Promise.resolve({ contents: [] }),
      getPrompt: () => Promise.resolve({ messages: [] }),
      complete: () => Promise.resolve({ values: [] }),
      setLogLevel: () => Promise.resolve(),
      notifyRootsChanged: () => Promise.resolve(),
      onListChanged: () => ({ dispose: () => undefined }),
      onClose: (listener) => { onCloseListener.fire = listener; return { dispose: () => undefined }; },
      close: () => Promise.resolve(),
      dispose: () => undefined,
    };
  }

  function request(log: ServerLog, args: string[] = []): ConnectRequest {
    return {
      server: makeServer('s', {}, { args }), log, roots: () => [], startupTimeoutMs: 1000, shutdownGraceMs: 10, trace: false,
      signal: new AbortController().signal,
    };
  }

  it('scrubs what the launch learned (env file values) and the secret arguments from the log, errors and close reasons', async () => {
    const lines: string[] = [];
    const log: ServerLog = {
      info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m), stderr: (m) => lines.push(m),
      serverMessage: (_level, _logger, data) => lines.push(JSON.stringify(data)), trace: () => undefined,
    };
    const closing: { fire?: (info: CloseInfo) => void } = {};
    const closes: CloseInfo[] = [];
    const inner: ServerConnector = {
      connect: (req) => {
        req.log.stderr('token=ghp_abcdefghijkl before the env file was read');
        req.addSecrets?.(['from-the-env-file-42']);
        req.log.stderr('TOKEN=from-the-env-file-42');
        req.log.serverMessage('info', undefined, { TOKEN: 'from-the-env-file-42' });
        return Promise.resolve(fakeConnection(closing));
      },
    };
    const connection = await new RedactingConnector(inner).connect(request(log, ['--token', 'ghp_abcdefghijkl']));
    connection.onClose((info) => closes.push(info));
    await assert.rejects(connection.callTool('x', {}, { timeoutMs: 10 }), { message: 'tool saw ***' });
    closing.fire?.({ expected: false, exitCode: 1, signal: null, reason: 'exit: from-the-env-file-42', stderrTail: ['from-the-env-file-42'] });
    assert.deepEqual(lines, ['token=*** before the env file was read', 'TOKEN=***', '{"TOKEN":"***"}']);
    assert.deepEqual(closes.map((c) => [c.reason, c.stderrTail]), [['exit: ***', ['***']]]);

    const failing: ServerConnector = {
      connect: (req) => {
        req.addSecrets?.(['from-the-env-file-42']);
        return Promise.reject(new ConnectError('spawn failed with from-the-env-file-42', ['from-the-env-file-42']));
      },
    };
    await assert.rejects(new RedactingConnector(failing).connect(request(log)), (error: ConnectError) =>
      error.message === 'spawn failed with ***' && error.stderrTail[0] === '***');
  });

  it('SecretSet grows and keeps every form, longest first', () => {
    const set = new SecretSet(['abcd']);
    set.add(['a b/c d e', 'no']);
    assert.deepEqual(set.list(), ['a%20b%2Fc%20d%20e', 'a b/c d e', 'abcd']);
  });
});
