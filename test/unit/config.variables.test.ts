import * as assert from 'node:assert/strict';
import { expandHome, expandVariables } from '../../src/core/config/variables';
import type { VariableContext } from '../../src/core/config/types';
import { briefs, HOME, parseText, scopeSpec } from './helpers/config';

const vars: VariableContext = { env: { API_KEY: 'k-123', EMPTY: '', PORT: '8080' }, userHome: HOME, workspaceFolder: '/ws/app' };

describe('expandVariables', () => {
  it('expands ${VAR} and ${env:VAR} from the environment', () => {
    assert.deepEqual(expandVariables('key=${API_KEY}; port=${env:PORT}', vars), { value: 'key=k-123; port=8080', inputs: [], fromEnvironment: { API_KEY: 'k-123', PORT: '8080' }, issues: [] });
  });

  it('uses the default of ${VAR:-default} when the variable is unset or empty', () => {
    assert.equal(expandVariables('${MISSING:-fallback}', vars).value, 'fallback');
    assert.equal(expandVariables('${EMPTY:-fallback}', vars).value, 'fallback');
    assert.equal(expandVariables('${PORT:-1}', vars).value, '8080');
    assert.equal(expandVariables('${MISSING:-}', vars).value, '');
    // A set-but-empty variable without a default is set: it expands to nothing, without a problem.
    assert.deepEqual(expandVariables('[${EMPTY}]', vars), { value: '[]', inputs: [], fromEnvironment: { EMPTY: '' }, issues: [] });
  });

  it('expands ${workspaceFolder}, ${userHome} and ${extensionPath} when the layer provides them', () => {
    assert.equal(expandVariables('${workspaceFolder}/src:${userHome}/bin', vars).value, `/ws/app/src:${HOME}/bin`);
    assert.equal(expandVariables('${extensionPath}/server.js', { ...vars, extensionPath: '/ext/x' }).value, '/ext/x/server.js');
  });

  it('reports an unset variable as an error with its exact text and index, leaving it verbatim', () => {
    const result = expandVariables('Bearer ${TOKEN}', vars);
    assert.equal(result.value, 'Bearer ${TOKEN}');
    assert.deepEqual(result.issues, [{
      severity: 'error', code: 'unresolved-variable', token: '${TOKEN}', index: 7,
      message: '${TOKEN} is not set in the environment; set it or write ${TOKEN:-default}',
    }]);
  });

  it('reports ${workspaceFolder} and ${extensionPath} where the layer has none', () => {
    const user: VariableContext = { env: {}, userHome: HOME };
    assert.deepEqual(expandVariables('${workspaceFolder} ${extensionPath}', user).issues.map((i) => [i.code, i.token, i.index]), [
      ['unresolved-variable', '${workspaceFolder}', 0],
      ['unresolved-variable', '${extensionPath}', 19],
    ]);
  });

  it('leaves ${input:id} verbatim and records the id once', () => {
    assert.deepEqual(expandVariables('${input:token}:${input:token}:${input:region}', vars), {
      value: '${input:token}:${input:token}:${input:region}', inputs: ['token', 'region'], fromEnvironment: {}, issues: [],
    });
  });

  it('keeps a lone $ and an unclosed ${ literal, and reports unsupported forms', () => {
    assert.deepEqual(expandVariables('cost $5 and ${unclosed', vars), { value: 'cost $5 and ${unclosed', inputs: [], fromEnvironment: {}, issues: [] });
    assert.deepEqual(expandVariables('${config:foo} ${}', vars).issues.map((i) => [i.code, i.token]), [
      ['unknown-variable', '${config:foo}'],
      ['unknown-variable', '${}'],
    ]);
  });

  it('expands a leading ~ to the home folder only', () => {
    assert.equal(expandHome('~/bin/server', '/home/ada/'), '/home/ada/bin/server');
    assert.equal(expandHome('~', '/home/ada'), '/home/ada');
    assert.equal(expandHome('~\\bin', 'C:\\Users\\ada'), 'C:\\Users\\ada\\bin');
    assert.equal(expandHome('~other/bin', '/home/ada'), '~other/bin');
    assert.equal(expandHome('a/~/b', '/home/ada'), 'a/~/b');
  });
});

describe('variables in parsed entries', () => {
  const env = { API_KEY: 'k-123', HOST: 'mcp.example.com' };

  it('expands command, args, env, cwd, envFile, url and headers', () => {
    const local = parseText(JSON.stringify({
      mcpServers: {
        s: { command: '~/bin/${HOST}', args: ['--key=${API_KEY}', '~/not-expanded'], env: { KEY: '${env:API_KEY}' }, cwd: '${workspaceFolder}/sub', envFile: '~/.env' },
      },
    }), { vars: { env, userHome: HOME, workspaceFolder: '/ws/app' } });
    assert.deepEqual(local.problems, []);
    assert.deepEqual(local.servers[0].launch, {
      type: 'stdio', command: `${HOME}/bin/mcp.example.com`, args: ['--key=k-123', '~/not-expanded'], env: { KEY: 'k-123' }, cwd: '/ws/app/sub', headers: {},
      envFile: `${HOME}/.env`, expandedVars: { HOST: 'mcp.example.com', API_KEY: 'k-123' },
    });

    const remote = parseText(JSON.stringify({ servers: { r: { url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${API_KEY}' } } } }), { vars: { env, userHome: HOME } });
    assert.deepEqual(remote.servers[0].launch, {
      type: 'http', url: 'https://mcp.example.com/mcp', args: [], env: {}, headers: { Authorization: 'Bearer k-123' },
      expandedVars: { HOST: 'mcp.example.com', API_KEY: 'k-123' },
    });
  });

  it('reports an unresolved variable at the exact ${…} text and skips the entry', () => {
    const text = '{"mcpServers": {\n  "s": { "command": "npx", "env": { "KEY": "pre-${API_TOKEN}-post" } },\n  "ok": { "command": "x" }\n}}';
    const layer = parseText(text);
    assert.deepEqual(briefs(layer), ['unresolved-variable error 2:49-2:61']);
    assert.equal(layer.problems[0].message, '${API_TOKEN} is not set in the environment; set it or write ${API_TOKEN:-default}');
    assert.deepEqual(layer.servers.map((s) => s.name), ['ok']);
  });

  it('reports each occurrence of the same unresolved variable at its own position', () => {
    const layer = parseText('{"mcpServers": {"s": {"command": "x", "args": ["${A}/${A}"]}}}');
    assert.deepEqual(briefs(layer), ['unresolved-variable error 1:49-1:53', 'unresolved-variable error 1:54-1:58']);
  });

  it('reports ${workspaceFolder} in the user scope and ${extensionPath} outside plugins', () => {
    const user = parseText('{"mcpServers": {"s": {"command": "${workspaceFolder}/run"}}}', scopeSpec('user'));
    assert.deepEqual(briefs(user), ['unresolved-variable error 1:35-1:53']);
    assert.match(user.problems[0].message, /only works in a workspace folder/);
    const project = parseText('{"mcpServers": {"s": {"command": "${extensionPath}/run"}}}');
    assert.deepEqual(briefs(project), ['unresolved-variable error 1:35-1:51']);
    const plugin = parseText('{"mcpServers": {"s": {"command": "${extensionPath}/run"}}}', scopeSpec('plugin', { root: [] }));
    assert.equal(plugin.servers[0].launch.command, '/ext/pub.tool/run');
  });

  it('records ${input:id} in needsInput, warning only when inputs does not declare it', () => {
    const text = JSON.stringify({
      inputs: [{ id: 'token', type: 'promptString', password: true }],
      servers: { r: { url: 'https://x.dev/mcp', headers: { Authorization: 'Bearer ${input:token}', 'X-Org': '${input:org}' } } },
    });
    const layer = parseText(text);
    assert.deepEqual(layer.servers[0].needsInput, ['token', 'org']);
    assert.deepEqual(layer.servers[0].launch.headers, { Authorization: 'Bearer ${input:token}', 'X-Org': '${input:org}' });
    assert.deepEqual(layer.problems.map((p) => [p.code, p.severity, p.column, p.endColumn]), [
      ['undeclared-input', 'warning', text.indexOf('${input:org}') + 1, text.indexOf('${input:org}') + 13],
    ]);
  });

  it('accepts an ${input:id} placeholder in a url and still checks its scheme', () => {
    const ok = parseText('{"inputs": [{"id": "host", "type": "promptString"}], "servers": {"r": {"url": "https://${input:host}/mcp"}}}');
    assert.deepEqual(ok.problems, []);
    assert.deepEqual(ok.servers[0].needsInput, ['host']);
    const bad = parseText('{"servers": {"r": {"url": "file://${input:host}"}}}');
    assert.deepEqual(bad.problems.map((p) => p.code), ['undeclared-input', 'bad-url']);
  });
});
