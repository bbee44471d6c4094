// An entry's "roots": false (no roots capability: the server keeps the folders its arguments name) or
// a list of folders (these instead of the workspace folders). Parsed with ~ and variables expanded,
// covered by the fingerprint (trust), flagged when a repository's entry reaches outside the workspace,
// and answered to roots/list as file URIs.
import * as assert from 'node:assert/strict';
import { fingerprint } from '../../src/core/config/fingerprint';
import type { LaunchDefinition } from '../../src/core/config/types';
import { dangerFlags } from '../../src/core/trust/dangerFlags';
import { formatLaunchChange, launchDiff, storedLaunch } from '../../src/core/trust/launchDiff';
import { declaresRoots, followsWorkspace, rootsFor } from '../../src/node/serverRoots';
import { shellParser } from './helpers/bashParser';
import { briefs, parseText } from './helpers/config';
import { TEST_DIGEST } from './helpers/digest';

const entry = (fields: string): ReturnType<typeof parseText> => parseText(`{"mcpServers": {"s": {${fields}}}}`);
const rootsOf = (fields: string): LaunchDefinition['roots'] => entry(fields).servers[0]?.launch.roots;

describe('roots setting', () => {
  describe('parsing', () => {
    it('takes false, true (as absent) or a list of folders with ~ and ${workspaceFolder} expanded', () => {
      assert.equal(rootsOf('"command": "x", "roots": false'), false);
      assert.equal(rootsOf('"command": "x", "roots": true'), undefined);
      assert.equal(rootsOf('"command": "x"'), undefined);
      assert.deepEqual(rootsOf('"command": "x", "roots": ["~/notes", "${workspaceFolder}/docs", "/srv/data", "/srv/data"]'), ['/home/ada/notes', '/ws/app/docs', '/srv/data']);
      assert.deepEqual(rootsOf('"command": "x", "roots": []'), []);
      assert.deepEqual(rootsOf('"url": "https://example.com/mcp", "roots": ["C:\\\\Users\\\\ada"]'), ['C:\\Users\\ada'], 'remote servers get roots too');
      assert.deepEqual(entry('"command": "x", "roots": false').problems, [], 'a known field');
    });

    it('refuses a relative folder, an input, and other types, naming the field', () => {
      const relative = entry('"command": "x", "roots": ["docs"]');
      assert.deepEqual(relative.servers, []);
      assert.match(relative.problems[0].message, /"roots" of server "s" must hold absolute folders .* but "docs" is relative/);
      const input = entry('"command": "x", "roots": ["${input:dir}"]');
      assert.deepEqual(input.servers, []);
      assert.match(input.problems[0].message, /"roots" of server "s" cannot use \$\{input:…\}/);
      assert.deepEqual(briefs(entry('"command": "x", "roots": "~/notes"')), ['wrong-type error 1:48-1:57']);
      assert.deepEqual(briefs(entry('"command": "x", "roots": ["/a", 2]')), ['wrong-type error 1:55-1:56']);
    });
  });

  it('is covered by the fingerprint, and absent roots keep the hash a launch had before', () => {
    const launch: LaunchDefinition = { type: 'stdio', command: 'npx', args: ['server-filesystem'], env: {}, headers: {} };
    const before = fingerprint(launch);
    assert.equal(fingerprint({ ...launch, roots: undefined }), before);
    const none = fingerprint({ ...launch, roots: false });
    const home = fingerprint({ ...launch, roots: ['/home/ada'] });
    const root = fingerprint({ ...launch, roots: ['/'] });
    assert.equal(new Set([before, none, home, root]).size, 4);
  });

  it('shows a change of roots in what changed since the definition was trusted', () => {
    const launch: LaunchDefinition = { type: 'stdio', command: 'npx', args: ['server-filesystem'], env: {}, headers: {}, roots: ['/ws/app/docs'] };
    const trusted = storedLaunch(launch, TEST_DIGEST);
    assert.deepEqual(trusted.roots, ['/ws/app/docs']);
    assert.deepEqual(launchDiff(trusted, launch, TEST_DIGEST), []);
    assert.deepEqual(launchDiff(trusted, { ...launch, roots: ['/ws/app/docs', '/home/ada'] }, TEST_DIGEST).map(formatLaunchChange), ['roots changed: "/ws/app/docs" → "/ws/app/docs, /home/ada"']);
    assert.deepEqual(launchDiff(trusted, { ...launch, roots: undefined }, TEST_DIGEST).map(formatLaunchChange), ['roots removed: "/ws/app/docs"']);
  });

  it('flags a repository\'s roots outside the workspace folders', () => {
    const context = { workspaceFolders: ['/ws/app'], pathDirs: ['/usr/bin'], userHome: '/home/ada', shellParser };
    const subject = (roots: LaunchDefinition['roots']) => ({ launch: { type: 'stdio' as const, command: 'npx', args: ['server-filesystem'], env: {}, headers: {}, roots }, folder: '/ws/app' });
    const outside = dangerFlags(subject(['/ws/app/docs', '/home/ada']), context);
    assert.deepEqual(outside.map((flag) => [flag.id, flag.detail]), [['outside-workspace', 'root /home/ada']]);
    assert.deepEqual(dangerFlags(subject(['/ws/app/docs']), context), []);
    assert.deepEqual(dangerFlags(subject(false), context), []);
  });

  it('answers roots/list with the folders as file URIs, the workspace roots when absent, and nothing for false', () => {
    const workspace = () => [{ uri: 'file:///ws/app', name: 'app' }];
    assert.deepEqual(rootsFor({}, workspace), [{ uri: 'file:///ws/app', name: 'app' }]);
    assert.deepEqual(rootsFor({ roots: ['/home/ada/my notes', '/'] }, workspace), [
      { uri: 'file:///home/ada/my%20notes', name: 'my notes' },
      { uri: 'file:///', name: '/' },
    ]);
    assert.deepEqual(rootsFor({ roots: false }, workspace), []);
    assert.deepEqual([declaresRoots({}), declaresRoots({ roots: [] }), declaresRoots({ roots: false })], [true, true, false]);
    assert.deepEqual([followsWorkspace({}), followsWorkspace({ roots: ['/a'] }), followsWorkspace({ roots: false })], [true, false, false]);
  });
});
