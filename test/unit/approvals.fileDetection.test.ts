// Which calls get a file preview: the per-server setting, server-filesystem by its name, and the
// generic rule (a path in a root plus content/text/contents); and the prediction of such a write.
import * as assert from 'node:assert/strict';
import { detectFilePreview, FILESYSTEM_SERVER_NAME, fileToolsOf, knownLocalWriter, previewFileWrite, previewToolCall, type PreviewContext } from '../../src/core/approvals/preview';
import { MemoryFileSystem } from './helpers/memoryFileSystem';

const ROOT = '/work/repo';
const roots = [ROOT];
/** An input schema declaring these string arguments. */
const declares = (...names: string[]): { inputSchema: unknown } => ({ inputSchema: { type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])) } });

describe('file preview detection', () => {
  it('uses the per-server setting first, with its argument names', () => {
    const plan = detectFilePreview({ serverInfoName: 'notes', tool: 'save', args: { file: 'a.md', body: 'x' }, fileTools: { save: { path: 'file', content: 'body' } } }, roots);
    assert.deepEqual(plan, { kind: 'content', source: 'setting', pathArgument: 'file', contentArgument: 'body' });
  });

  it('recognizes server-filesystem\'s writing tools by the server\'s name, and only those', () => {
    assert.deepEqual(detectFilePreview({ serverInfoName: FILESYSTEM_SERVER_NAME, tool: 'edit_file', args: { path: 'a', edits: [] } }, roots), { kind: 'filesystem', tool: 'edit_file' });
    assert.equal(detectFilePreview({ serverInfoName: FILESYSTEM_SERVER_NAME, tool: 'read_text_file', args: { path: 'a' } }, roots), undefined);
    // Another server's write_file is not assumed to behave like server-filesystem's: the generic rule applies.
    assert.deepEqual(detectFilePreview({ serverInfoName: 'other', tool: 'write_file', args: { path: 'a', content: 'x' }, ...declares('path', 'content') }, roots), { kind: 'content', source: 'generic', pathArgument: 'path', contentArgument: 'content' });
    // A server that does not run here is not this machine's server-filesystem, whatever it calls itself.
    assert.equal(detectFilePreview({ serverInfoName: FILESYSTEM_SERVER_NAME, tool: 'write_file', args: { path: 'a', content: 'x' }, local: false }, roots), undefined);
  });

  it('gives the fileWriteTools setting (by server name) to the person\'s own servers only', () => {
    const setting = { notes: { save: { path: 'file', content: 'body' } } };
    assert.deepEqual(fileToolsOf(setting, { name: 'notes', scope: 'user' }), setting.notes);
    assert.deepEqual(fileToolsOf(setting, { name: 'notes', scope: 'local' }), setting.notes);
    assert.equal(fileToolsOf(setting, { name: 'notes', scope: 'project' }), undefined);
    assert.equal(fileToolsOf(setting, { name: 'notes', scope: 'plugin' }), undefined);
    assert.equal(fileToolsOf(setting, { name: 'toString', scope: 'user' }), undefined);
  });

  it('guesses only from arguments the tool\'s schema declares', () => {
    assert.equal(detectFilePreview({ serverInfoName: 'x', tool: 'run_command', args: { command: 'ls', path: 'a.txt', content: 'x' }, ...declares('command') }, roots), undefined);
    assert.equal(detectFilePreview({ serverInfoName: 'x', tool: 't', args: { path: 'a.txt', content: 'x' } }, roots), undefined, 'no schema, no guess');
    assert.equal(detectFilePreview({ serverInfoName: 'x', tool: 't', args: { where: `${ROOT}/a.txt`, content: 'x' }, ...declares('content') }, roots), undefined);
  });

  it('never guesses for an open-world tool or a server that does not run here (a commit pushed elsewhere is no local edit)', () => {
    const push = { serverInfoName: 'github', tool: 'create_or_update_file', args: { owner: 'o', repo: 'r', path: 'a.txt', content: 'x', message: 'm' }, ...declares('owner', 'repo', 'path', 'content', 'message') };
    assert.equal(detectFilePreview({ ...push, openWorld: true }, roots), undefined);
    assert.equal(detectFilePreview({ ...push, local: false }, roots), undefined);
    const guessed = detectFilePreview(push, roots);
    assert.deepEqual(guessed, { kind: 'content', source: 'generic', pathArgument: 'path', contentArgument: 'content' });
    assert.equal(knownLocalWriter(guessed!), undefined, 'a guess is never a known local writer');
    assert.equal(knownLocalWriter({ kind: 'filesystem', tool: 'write_file' }), 'exact');
    assert.equal(knownLocalWriter({ kind: 'content', source: 'setting', pathArgument: 'file', contentArgument: 'body' }), 'mapped');
  });

  it('finds a path by a path-like argument name, or by an absolute value inside a root', () => {
    assert.deepEqual(detectFilePreview({ serverInfoName: 'x', tool: 't', args: { filePath: 'rel.txt', text: 'x' }, ...declares('filePath', 'text') }, roots), { kind: 'content', source: 'generic', pathArgument: 'filePath', contentArgument: 'text' });
    assert.deepEqual(detectFilePreview({ serverInfoName: 'x', tool: 't', args: { where: `${ROOT}/a.txt`, contents: 'x' }, ...declares('where', 'contents') }, roots), { kind: 'content', source: 'generic', pathArgument: 'where', contentArgument: 'contents' });
    assert.deepEqual(detectFilePreview({ serverInfoName: 'x', tool: 't', args: { where: `file://${ROOT}/a.txt`, contents: 'x' }, ...declares('where', 'contents') }, roots), { kind: 'content', source: 'generic', pathArgument: 'where', contentArgument: 'contents' });
  });

  it('does not treat a call without content, or with only a non-path string, as a file write', () => {
    assert.equal(detectFilePreview({ serverInfoName: 'x', tool: 't', args: { path: `${ROOT}/a` }, ...declares('path', 'content') }, roots), undefined);
    assert.equal(detectFilePreview({ serverInfoName: 'x', tool: 't', args: { title: 'notes', text: 'x' }, ...declares('title', 'text') }, roots), undefined);
    assert.equal(detectFilePreview({ serverInfoName: 'x', tool: 't', args: { where: '/etc/hosts', text: 'x' }, ...declares('where', 'text') }, roots), undefined);
  });
});

describe('previews of generic and mapped writes', () => {
  const context = (fs: MemoryFileSystem): PreviewContext => ({ roots, fs, home: '/home/me' });
  const generic = { kind: 'content', source: 'generic', pathArgument: 'path', contentArgument: 'content' } as const;

  it('shows a new file as all added, relative paths against the first root', async () => {
    const fs = new MemoryFileSystem().dir(ROOT);
    const preview = await previewToolCall(generic, { path: 'docs/new.md', content: '# Title\n' }, context(fs));
    assert.deepEqual(preview.changes, [{ path: `${ROOT}/docs/new.md`, kind: 'create', before: null, after: '# Title\n' }]);
    assert.match(preview.diff, /--- \/dev\/null\n\+\+\+ \/work\/repo\/docs\/new\.md\n@@ -0,0 \+1,1 @@\n\+# Title\n$/);
    assert.equal(preview.outsideRoots, undefined);
  });

  it('modifies an existing file through the setting\'s argument names', async () => {
    const fs = new MemoryFileSystem().file(`${ROOT}/a.md`, 'old\n');
    const preview = await previewToolCall({ kind: 'content', source: 'setting', pathArgument: 'file', contentArgument: 'body' }, { file: `${ROOT}/a.md`, body: 'new\n' }, context(fs));
    assert.deepEqual(preview.changes, [{ path: `${ROOT}/a.md`, kind: 'modify', before: 'old\n', after: 'new\n' }]);
  });

  it('flags a path outside every root, by its text or through a link, and still predicts it', async () => {
    const fs = new MemoryFileSystem().dir(ROOT).file('/etc/hosts', '127.0.0.1 localhost\n').link(`${ROOT}/hosts`, '/etc/hosts');
    const direct = await previewToolCall(generic, { path: '/etc/hosts', content: 'x' }, context(fs));
    assert.deepEqual(direct.outsideRoots, ['/etc/hosts']);
    assert.equal(direct.changes[0]?.kind, 'modify');
    const linked = await previewToolCall(generic, { path: 'hosts', content: 'x' }, context(fs));
    assert.deepEqual(linked.outsideRoots, ['hosts']);
    assert.equal(linked.changes[0]?.path, '/etc/hosts');
  });

  it('reports a mapped argument that is missing instead of guessing', async () => {
    const fs = new MemoryFileSystem().dir(ROOT);
    const preview = await previewToolCall({ kind: 'content', source: 'setting', pathArgument: 'file', contentArgument: 'body' }, { file: 'a.md' }, context(fs));
    assert.match(preview.error ?? '', /expected string arguments "file" and "body" \(from the setting for this tool\)/);
    assert.deepEqual(preview.changes, []);
  });

  it('detects and predicts in one step, and leaves other calls alone', async () => {
    const fs = new MemoryFileSystem().file(`${ROOT}/a.txt`, 'one\n');
    const edited = await previewFileWrite({ serverInfoName: FILESYSTEM_SERVER_NAME, tool: 'edit_file', args: { path: 'a.txt', edits: [{ oldText: 'one', newText: 'two' }] } }, context(fs));
    assert.deepEqual(edited?.plan, { kind: 'filesystem', tool: 'edit_file' });
    assert.deepEqual(edited?.preview.changes, [{ path: `${ROOT}/a.txt`, kind: 'modify', before: 'one\n', after: 'two\n' }]);
    assert.equal(await previewFileWrite({ serverInfoName: 'memory', tool: 'create_entities', args: { entities: [] } }, context(fs)), undefined);
  });

  it('refuses to overwrite a folder', async () => {
    const fs = new MemoryFileSystem().dir(`${ROOT}/sub`);
    const preview = await previewToolCall(generic, { path: 'sub', content: 'x' }, context(fs));
    assert.equal(preview.error, `${ROOT}/sub is a directory`);
  });
});
