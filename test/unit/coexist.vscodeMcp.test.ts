// What VS Code's own MCP would run of a workspace's .mcp.json, from its settings: chat.mcp.access, the
// deny and allow lists (read leniently, matched by name, command line or URL the way VS Code matches).
import * as assert from 'node:assert/strict';
import {
  matchesVscodeServer, parseVscodeMcpAccess, parseVscodeServerMatchers, vscodeIdentityOf, vscodeWouldRun,
  type VscodeMcpSettings, type VscodeServerMatcher,
} from '../../src/core/coexist';
import { makeServer } from './helpers/lifecycle';

const memory = makeServer('memory', { scope: 'project' }, { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
const remote = makeServer('docs', { scope: 'project' }, { type: 'http', command: undefined, url: 'https://Docs.Example.com/mcp?team=a#top' });

function settings(more: Partial<VscodeMcpSettings> = {}): VscodeMcpSettings {
  return { readsRootMcpJson: true, access: { effective: 'all', withoutWorkspace: 'all', locked: false }, denied: [], ...more };
}

describe('coexistence: what VS Code\'s own MCP would run', () => {
  describe('parseVscodeMcpAccess', () => {
    it('knows the three values and nothing else', () => {
      assert.deepEqual(['all', 'registry', 'none', 'All', '', undefined, 1, null].map(parseVscodeMcpAccess), ['all', 'registry', 'none', undefined, undefined, undefined, undefined, undefined]);
    });
  });

  describe('parseVscodeServerMatchers', () => {
    it('keeps entries with exactly one non-empty key, as VS Code does', () => {
      const parsed = parseVscodeServerMatchers([
        { serverName: 'memory' },
        { serverUrl: 'https://a.example/*' },
        { serverCommand: ['npx', '-y', 'pkg'] },
        { serverName: 'two', serverUrl: 'https://b.example' },
        { serverName: '' },
        { serverCommand: [] },
        { serverCommand: ['npx', 3] },
        'memory',
        null,
        [],
        {},
      ]);
      assert.deepEqual(parsed, [{ serverName: 'memory' }, { serverUrl: 'https://a.example/*' }, { serverCommand: ['npx', '-y', 'pkg'] }]);
    });

    it('is undefined for anything but an array (no list at all)', () => {
      assert.equal(parseVscodeServerMatchers(undefined), undefined);
      assert.equal(parseVscodeServerMatchers(null), undefined);
      assert.equal(parseVscodeServerMatchers({ serverName: 'x' }), undefined);
      assert.deepEqual(parseVscodeServerMatchers([]), []);
    });
  });

  describe('vscodeIdentityOf', () => {
    it('a command server by its name and whole command line; a remote one by its name and URL', () => {
      assert.deepEqual(vscodeIdentityOf(memory), { name: 'memory', command: ['npx', '-y', '@modelcontextprotocol/server-memory'] });
      assert.deepEqual(vscodeIdentityOf(remote), { name: 'docs', url: 'https://Docs.Example.com/mcp?team=a#top' });
    });
  });

  describe('matchesVscodeServer', () => {
    const cases: [VscodeServerMatcher, boolean][] = [
      [{ serverName: 'memory' }, true],
      [{ serverName: 'Memory' }, false],
      [{ serverCommand: ['npx', '-y', '@modelcontextprotocol/server-memory'] }, true],
      [{ serverCommand: ['npx', '-y'] }, false],
      [{ serverCommand: ['npx', '-y', '@modelcontextprotocol/server-memory', '--extra'] }, false],
      [{ serverUrl: 'https://x.example' }, false],
    ];
    for (const [matcher, expected] of cases) {
      it(`${JSON.stringify(matcher)} ${expected ? 'matches' : 'does not match'} the memory server`, () => {
        assert.equal(matchesVscodeServer(matcher, vscodeIdentityOf(memory)), expected);
      });
    }

    const urls: [string, boolean][] = [
      ['https://docs.example.com/mcp?team=a', true],
      ['HTTPS://DOCS.EXAMPLE.COM/mcp?team=a', true],
      ['https://docs.example.com/mcp', false],
      ['https://docs.example.com/*', true],
      ['https://*.example.com/mcp*', true],
      ['https://other.example.com/*', false],
      ['not a url', false],
    ];
    for (const [serverUrl, expected] of urls) {
      it(`serverUrl ${serverUrl} ${expected ? 'matches' : 'does not match'} the remote server (fragment ignored, case-insensitive)`, () => {
        assert.equal(matchesVscodeServer({ serverUrl }, vscodeIdentityOf(remote)), expected);
      });
    }

    it('a command server never matches a serverUrl, a remote one never a serverCommand', () => {
      assert.equal(matchesVscodeServer({ serverUrl: '*' }, vscodeIdentityOf(memory)), false);
      assert.equal(matchesVscodeServer({ serverCommand: ['npx'] }, vscodeIdentityOf(remote)), false);
    });
  });

  describe('vscodeWouldRun', () => {
    it('runs every server of the file when access is "all" and no list says otherwise', () => {
      assert.deepEqual(vscodeWouldRun(memory, settings()), { runs: true });
      assert.deepEqual(vscodeWouldRun({ ...memory, disabled: true }, settings()), { runs: true }, 'VS Code reads "disabled" entries too');
    });

    it('runs nothing of the file when it does not read it, or access is "registry" or "none"', () => {
      assert.match(whyNot(vscodeWouldRun(memory, settings({ readsRootMcpJson: false }))), /does not read a workspace's \.mcp\.json/);
      assert.match(whyNot(vscodeWouldRun(memory, settings({ access: { effective: 'registry', workspace: 'registry', withoutWorkspace: 'all', locked: false } }))), /chat\.mcp\.access is "registry"/);
      assert.match(whyNot(vscodeWouldRun(memory, settings({ access: { effective: 'none', withoutWorkspace: 'none', locked: false } }))), /chat\.mcp\.access is "none"/);
    });

    it('the access to judge by can be given (what VS Code would do once the workspace value is gone)', () => {
      const off = settings({ access: { effective: 'registry', workspace: 'registry', withoutWorkspace: 'all', locked: false } });
      assert.deepEqual(vscodeWouldRun(memory, off, 'all'), { runs: true });
    });

    it('a denied server does not run; an allow list lets only its servers run', () => {
      assert.match(whyNot(vscodeWouldRun(memory, settings({ denied: [{ serverName: 'memory' }] }))), /deniedServers/);
      assert.deepEqual(vscodeWouldRun(memory, settings({ denied: [{ serverName: 'other' }] })), { runs: true });
      assert.match(whyNot(vscodeWouldRun(memory, settings({ allowed: [{ serverName: 'other' }] }))), /allowedServers/);
      assert.deepEqual(vscodeWouldRun(memory, settings({ allowed: [{ serverCommand: ['npx', '-y', '@modelcontextprotocol/server-memory'] }] })), { runs: true });
      assert.match(whyNot(vscodeWouldRun(memory, settings({ allowed: [] }))), /allowedServers/, 'an empty allow list allows nothing');
    });
  });
});

function whyNot(result: ReturnType<typeof vscodeWouldRun>): string {
  assert.equal(result.runs, false, 'expected VS Code not to run it');
  return result.runs ? '' : result.why;
}
