import * as assert from 'node:assert/strict';
import { fingerprint } from '../../src/core/config/fingerprint';
import { standardLayerSpecs } from '../../src/core/config/layerSpecs';
import { mergeLayers } from '../../src/core/config/merge';
import { parseLayer } from '../../src/core/config/parse';
import type { Layer, LayerSpec } from '../../src/core/config/types';
import { brief, HOME, scopeSpec } from './helpers/config';

/** A layer whose servers each run `command` = `<scope>-<name>`, so the winner is visible. */
function layer(spec: LayerSpec, names: string[], extra = ''): Layer {
  const servers = names.map((name) => `"${name}": { "command": "${spec.scope}-${name}" }`).join(', ');
  return parseLayer(spec, { kind: 'text', text: `{ ${extra}"mcpServers": { ${servers} } }` });
}

function folderSpecs(folder: string): { local: LayerSpec; project: LayerSpec } {
  const vars = { env: {}, userHome: HOME, workspaceFolder: folder };
  return {
    local: { scope: 'local', file: `/store/local${folder}.mcp.json`, folder, vars },
    project: { scope: 'project', file: `${folder}/.mcp.json`, folder, vars },
  };
}

describe('mergeLayers', () => {
  it('gives local > project > user > plugin, keeping the losers as shadowed', () => {
    const merged = mergeLayers([
      layer(scopeSpec('plugin', { root: [] }), ['s']),
      layer(scopeSpec('user'), ['s']),
      layer(scopeSpec('project'), ['s']),
      layer(scopeSpec('local'), ['s']),
    ]);
    assert.deepEqual(merged.servers.map((s) => [s.id, s.scope, s.launch.command]), [['s', 'local', 'local-s']]);
    const shadowedBy = { id: 's', scope: 'local', file: '/store/local/app.mcp.json' };
    assert.deepEqual(merged.shadowed.map((s) => [s.scope, s.source.file, s.shadowedBy]), [
      ['project', '/ws/app/.mcp.json', shadowedBy],
      ['user', `${HOME}/.mcp.json`, shadowedBy],
      ['plugin', '/ext/pub.tool/package.json', shadowedBy],
    ]);
    assert.equal(merged.shadowed[0].folder, '/ws/app');
  });

  it('lets project beat user and user beat plugin, name by name', () => {
    const merged = mergeLayers([
      layer(scopeSpec('project'), ['a']),
      layer(scopeSpec('user'), ['a', 'b']),
      parseLayer(scopeSpec('plugin'), { kind: 'text', text: '{"contributes":{"mcpServers":{"b":{"command":"plugin-b"},"c":{"command":"plugin-c"}}}}' }),
    ]);
    assert.deepEqual(merged.servers.map((s) => [s.id, s.launch.command]), [['a', 'project-a'], ['b', 'user-b'], ['c', 'plugin-c']]);
    assert.deepEqual(merged.shadowed.map((s) => [s.name, s.scope, s.shadowedBy.scope]), [['a', 'user', 'project'], ['b', 'plugin', 'user']]);
  });

  it('marks only project servers as needing trust and fingerprints every server', () => {
    const merged = mergeLayers([layer(scopeSpec('local'), ['l']), layer(scopeSpec('project'), ['p']), layer(scopeSpec('user'), ['u'])]);
    assert.deepEqual(merged.servers.map((s) => [s.id, s.needsTrust]), [['l', false], ['p', true], ['u', false]]);
    for (const server of merged.servers) assert.equal(server.fingerprint, fingerprint(server.launch));
  });

  it('resolves two plugins with the same name by label, then file, whatever the layer order', () => {
    const zeta = scopeSpec('plugin', { file: '/ext/zeta/package.json', label: 'zeta.ext', root: [] });
    const alpha = scopeSpec('plugin', { file: '/ext/alpha/package.json', label: 'alpha.ext', root: [] });
    for (const order of [[zeta, alpha], [alpha, zeta]]) {
      const merged = mergeLayers(order.map((spec) => layer(spec, ['tool'])));
      assert.deepEqual(merged.servers.map((s) => s.source.file), ['/ext/alpha/package.json']);
      assert.deepEqual(merged.shadowed.map((s) => [s.source.file, s.shadowedBy.file]), [['/ext/zeta/package.json', '/ext/alpha/package.json']]);
    }
  });

  it('keeps a name defined by two folders under folder-qualified ids, warning at each', () => {
    const one = folderSpecs('/ws/web');
    const two = folderSpecs('/ws/api');
    const merged = mergeLayers([layer(one.project, ['db']), layer(two.project, ['db']), layer(scopeSpec('user'), ['db'])]);
    assert.deepEqual(merged.servers.map((s) => [s.id, s.folder]), [['api/db', '/ws/api'], ['web/db', '/ws/web']]);
    assert.deepEqual(merged.problems.map(brief), ['folder-name-clash warning 1:19-1:23', 'folder-name-clash warning 1:19-1:23']);
    assert.deepEqual(merged.problems.map((p) => p.file), ['/ws/web/.mcp.json', '/ws/api/.mcp.json']);
    assert.match(merged.problems[0].message, /also defined in workspace folder "\/ws\/api" \(as "api\/db"\); both are kept, this one as "web\/db"/);
    assert.deepEqual(merged.shadowed.map((s) => [s.scope, s.shadowedBy.id]), [['user', 'web/db']]);
  });

  it('disambiguates folders with the same basename deterministically', () => {
    const merged = mergeLayers([layer(folderSpecs('/a/app').project, ['x']), layer(folderSpecs('/b/app').project, ['x'])]);
    assert.deepEqual(merged.servers.map((s) => [s.id, s.folder]), [['app/x', '/a/app'], ['app~2/x', '/b/app']]);
  });

  it('resolves local over project per folder before comparing folders', () => {
    const web = folderSpecs('/ws/web');
    const api = folderSpecs('/ws/api');
    const merged = mergeLayers([layer(web.local, ['db']), layer(web.project, ['db', 'only']), layer(api.project, ['db'])]);
    assert.deepEqual(merged.servers.map((s) => [s.id, s.scope, s.folder]), [
      ['web/db', 'local', '/ws/web'],
      ['api/db', 'project', '/ws/api'],
      ['only', 'project', '/ws/web'],
    ]);
    assert.deepEqual(merged.shadowed.map((s) => [s.scope, s.folder, s.shadowedBy]), [
      ['project', '/ws/web', { id: 'web/db', scope: 'local', file: '/store/local/ws/web.mcp.json' }],
    ]);
  });

  it('concatenates problems in layer order and dedupes inputs by id, first wins', () => {
    const project = layer(scopeSpec('project'), ['a'], '"inputs": [{"id": "token", "type": "promptString", "description": "project"}], "extra": 1, ');
    const user = parseLayer(scopeSpec('user'), { kind: 'text', text: '{"inputs": [{"id": "token", "type": "promptString", "description": "user"}, {"id": "org", "type": "promptString"}], "mcpServers": {"u": {"command": 1}}}' });
    const broken = parseLayer(scopeSpec('local'), { kind: 'text', text: '{,}' });
    const merged = mergeLayers([broken, project, user]);
    assert.deepEqual(merged.problems.map((p) => [p.code, p.file]), [
      ['syntax', '/store/local/app.mcp.json'],
      ['wrong-type', `${HOME}/.mcp.json`],
    ]);
    assert.deepEqual(merged.inputs.map((i) => [i.id, i.description]), [['token', 'project'], ['org', undefined]]);
  });

  it('sorts servers by scope order, then id', () => {
    const merged = mergeLayers([layer(scopeSpec('user'), ['b', 'a']), layer(scopeSpec('plugin', { root: [] }), ['0']), layer(scopeSpec('project'), ['z'])]);
    assert.deepEqual(merged.servers.map((s) => `${s.scope}:${s.id}`), ['project:z', 'user:a', 'user:b', 'plugin:0']);
  });
});

describe('standardLayerSpecs', () => {
  it('builds local and project layers per folder, then user, then plugins, each with its variables', () => {
    const env = { PATH: '/bin' };
    const specs = standardLayerSpecs({
      folders: [{ path: '/ws/web', localFile: '/store/web.mcp.json' }, { path: '/ws/api' }],
      userHome: HOME,
      env,
      plugins: [{ file: '/ext/t/package.json', root: ['contributes'], label: 'pub.t', extensionPath: '/ext/t' }, { file: 'api:pub.u', label: 'pub.u', inline: '{}' }],
    });
    assert.deepEqual(specs, [
      { scope: 'local', file: '/store/web.mcp.json', folder: '/ws/web', vars: { env, userHome: HOME, workspaceFolder: '/ws/web' } },
      { scope: 'project', file: '/ws/web/.mcp.json', folder: '/ws/web', vars: { env, userHome: HOME, workspaceFolder: '/ws/web' } },
      { scope: 'project', file: '/ws/api/.mcp.json', folder: '/ws/api', vars: { env, userHome: HOME, workspaceFolder: '/ws/api' } },
      { scope: 'user', file: `${HOME}/.mcp.json`, vars: { env, userHome: HOME } },
      { scope: 'plugin', file: '/ext/t/package.json', label: 'pub.t', root: ['contributes'], vars: { env, userHome: HOME, extensionPath: '/ext/t' } },
      { scope: 'plugin', file: 'api:pub.u', label: 'pub.u', inline: '{}', vars: { env, userHome: HOME } },
    ]);
  });

  it('expands ~ and ${userHome} in the user file setting, and treats empty as the default', () => {
    const user = (userFile: string): string => standardLayerSpecs({ folders: [], userFile, userHome: HOME, env: {} })[0].file;
    assert.equal(user('~/cfg/mcp.json'), `${HOME}/cfg/mcp.json`);
    assert.equal(user('${userHome}/x.json'), `${HOME}/x.json`);
    assert.equal(user('  '), `${HOME}/.mcp.json`);
  });
});
