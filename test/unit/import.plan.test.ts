// What an import writes from what a person ticked: conflicts renamed, replaced or skipped, secrets moved
// into inputs with their values handed back, and the source's inputs declared only when used.
import * as assert from 'node:assert/strict';
import { freeName, planImport, type ImportedServer } from '../../src/core/import';

const server = (name: string, entry: ImportedServer['entry'], secrets: ImportedServer['secrets'] = []): ImportedServer => ({ name, entry, file: '/src/mcp.json', secrets });

describe('import plan', () => {
  const github = server('github', { type: 'http', url: 'https://x/mcp', headers: { Authorization: 'Bearer abc123' } }, [{ field: 'headers', key: 'Authorization' }]);
  const memory = server('memory', { type: 'stdio', command: 'npx', env: { KEY: '${input:key}' } });

  it('renames, replaces or skips a name the target has; others are written as they are', () => {
    const existing = new Set(['github', 'memory']);
    const renamed = planImport([github, memory], [], existing, new Map([['github', { kind: 'rename', name: 'github-2' }], ['memory', { kind: 'skip' }]]), false);
    assert.deepEqual(renamed.servers.map((s) => [s.name, s.replace]), [['github-2', false]]);
    const replaced = planImport([github], [], existing, new Map([['github', { kind: 'replace' }]]), false);
    assert.deepEqual(replaced.servers.map((s) => [s.name, s.replace]), [['github', true]]);
    assert.deepEqual(planImport([github], [], existing, new Map(), false).servers, [], 'no answer means skip');
  });

  it('moves literal secrets into password inputs, keeping the scheme of an Authorization header', () => {
    const plan = planImport([github], [], new Set(), new Map(), true);
    assert.deepEqual(plan.servers[0].entry.headers, { Authorization: 'Bearer ${input:github-Authorization}' });
    assert.deepEqual(plan.inputs, [{ id: 'github-Authorization', type: 'promptString', description: 'Authorization of github', password: true }]);
    assert.deepEqual(plan.secrets, [{ id: 'github-Authorization', value: 'abc123' }]);
    assert.equal(github.entry.headers?.Authorization, 'Bearer abc123', 'the source is not changed');
  });

  it('declares a source input only when a written entry uses it', () => {
    const key = { id: 'key', type: 'promptString', password: true };
    const other = { id: 'other', type: 'promptString' };
    assert.deepEqual(planImport([memory], [key, other], new Set(), new Map(), false).inputs, [key]);
    assert.deepEqual(planImport([github], [key, other], new Set(), new Map(), false).inputs, []);
  });

  it('proposes a free name', () => {
    assert.equal(freeName('a', new Set(['a', 'a-2'])), 'a-3');
  });
});
