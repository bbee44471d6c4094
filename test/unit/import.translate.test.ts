// The parts every host shares: variable dialects, the default locations per platform, secret detection.
import * as assert from 'node:assert/strict';
import { defaultLocations, literalSecrets } from '../../src/core/import';
import { translateVariables } from '../../src/core/import/variables';

describe('import: variable dialects', () => {
  it('keeps Claude Code ${VAR} and ${VAR:-default}; its ${userHome} is an environment variable', () => {
    assert.deepEqual(translateVariables('${A}/${B:-x}/${userHome}', 'claude'), { ok: true, value: '${A}/${B:-x}/${env:userHome}' });
    assert.equal(translateVariables('${env:A}', 'claude').ok, false);
  });

  it('keeps the VS Code variables we expand and refuses the others', () => {
    assert.deepEqual(translateVariables('${env:A} ${input:k} ${workspaceFolder} ${userHome}', 'vscode'), { ok: true, value: '${env:A} ${input:k} ${workspaceFolder} ${userHome}' });
    for (const other of ['${cwd}', '${/}', '${config:x}', '${command:y}', '${A}', '${A:-b}']) {
      assert.equal(translateVariables(other, 'vscode').ok, false, other);
    }
  });

  it('Cursor has no ${input:}, Windsurf only ${env:}', () => {
    assert.equal(translateVariables('${input:k}', 'cursor').ok, false);
    assert.equal(translateVariables('${userHome}', 'windsurf').ok, false);
    assert.deepEqual(translateVariables('${env:K}', 'windsurf'), { ok: true, value: '${env:K}' });
  });

  it('a host without variables keeps text without ${ and refuses any ${…}', () => {
    assert.deepEqual(translateVariables('a $HOME b ${', 'literal'), { ok: true, value: 'a $HOME b ${' });
    assert.deepEqual(translateVariables('x ${HOME}', 'literal'), { ok: false, reason: '${HOME}: this host does not expand variables, so it is literal text, and Switchboard would expand it' });
  });
});

describe('import: default locations', () => {
  const home = '/home/me';

  it('per platform, from the home, the XDG folder or APPDATA', () => {
    assert.deepEqual(defaultLocations('claude-desktop', { platform: 'darwin', home: '/Users/me', env: {} }), ['/Users/me/Library/Application Support/Claude/claude_desktop_config.json']);
    assert.deepEqual(defaultLocations('claude-desktop', { platform: 'win32', home: 'C:\\Users\\me', env: { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' } }), ['C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json']);
    assert.deepEqual(defaultLocations('goose', { platform: 'linux', home, env: { XDG_CONFIG_HOME: '/xdg' } }), ['/xdg/goose/config.yaml']);
    assert.deepEqual(defaultLocations('goose', { platform: 'win32', home: 'C:\\Users\\me', env: {} }), ['C:\\Users\\me\\AppData\\Roaming\\Block\\goose\\config\\config.yaml']);
    assert.deepEqual(defaultLocations('zed', { platform: 'darwin', home: '/Users/me', env: {} }), ['/Users/me/.config/zed/settings.json']);
  });

  it('reads CODEX_HOME when set, and each workspace folder\'s project file', () => {
    assert.deepEqual(defaultLocations('codex', { platform: 'linux', home, env: { CODEX_HOME: '/opt/codex' }, folders: ['/ws'] }), ['/opt/codex/config.toml', '/ws/.codex/config.toml']);
    assert.deepEqual(defaultLocations('vscode', { platform: 'linux', home, env: {}, folders: ['/ws'] }), [
      '/home/me/.config/Code/User/mcp.json', '/home/me/.config/Code - Insiders/User/mcp.json', '/ws/.vscode/mcp.json',
    ]);
    assert.deepEqual(defaultLocations('windsurf', { platform: 'linux', home, env: {}, folders: ['/ws'] }), ['/home/me/.codeium/windsurf/mcp_config.json']);
  });
});

describe('import: literal secrets', () => {
  it('by name or by the shape of the value, never a value made of variables', () => {
    assert.deepEqual(literalSecrets({
      type: 'http', url: 'https://x',
      env: { API_KEY: 'abc', DEBUG: '1', OTHER: 'sk-abcdefghijklmnopqrstu', FROM_ENV: '${env:X}' },
      headers: { 'X-Region': 'eu', Authorization: 'Bearer abc' },
    }), [{ field: 'env', key: 'API_KEY' }, { field: 'env', key: 'OTHER' }, { field: 'headers', key: 'Authorization' }]);
  });
});
