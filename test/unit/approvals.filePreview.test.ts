// Predictions of server-filesystem's write_file, edit_file and move_file on an in-memory tree: what
// changes, the unified diff, and each refusal with the server's message. (The same cases run against
// the real server in test/integration/preview.server.test.ts.)
import * as assert from 'node:assert/strict';
import { previewFilesystemCall, resolveServerPath, type PreviewContext } from '../../src/core/approvals/preview';
import { MemoryFileSystem } from './helpers/memoryFileSystem';

const ROOT = '/work/repo';

function context(fs: MemoryFileSystem, roots = [ROOT]): PreviewContext {
  return { roots, fs, home: '/home/me' };
}

describe('file previews of server-filesystem calls', () => {
  describe('write_file', () => {
    it('shows a new file as all added against /dev/null', async () => {
      const fs = new MemoryFileSystem().dir(ROOT);
      const preview = await previewFilesystemCall('write_file', { path: 'notes/../new.txt', content: 'one\ntwo\n' }, context(fs));
      assert.deepEqual(preview.changes, [{ path: `${ROOT}/new.txt`, kind: 'create', before: null, after: 'one\ntwo\n' }]);
      assert.equal(preview.error, undefined);
      assert.equal(preview.diff, [
        '===================================================================',
        '--- /dev/null',
        `+++ ${ROOT}/new.txt`,
        '@@ -0,0 +1,2 @@',
        '+one',
        '+two',
        '',
      ].join('\n'));
    });

    it('replaces an existing file byte for byte (no line-ending change) and diffs it with the server\'s headers', async () => {
      const fs = new MemoryFileSystem().file(`${ROOT}/a.txt`, 'keep\r\nold\r\n');
      const preview = await previewFilesystemCall('write_file', { path: `${ROOT}/a.txt`, content: 'keep\r\nnew\r\n' }, context(fs));
      assert.deepEqual(preview.changes, [{ path: `${ROOT}/a.txt`, kind: 'modify', before: 'keep\r\nold\r\n', after: 'keep\r\nnew\r\n' }]);
      assert.match(preview.diff, /^Index: \/work\/repo\/a\.txt\n=+\n--- \/work\/repo\/a\.txt\toriginal\n\+\+\+ \/work\/repo\/a\.txt\tmodified\n@@ -1,2 \+1,2 @@\n keep\r\n-old\r\n\+new\r\n$/);
    });

    it('refuses a missing parent folder as the exclusive create would (ENOENT)', async () => {
      const fs = new MemoryFileSystem().dir(ROOT);
      const preview = await previewFilesystemCall('write_file', { path: 'missing/dir/x.txt', content: 'x' }, context(fs));
      assert.deepEqual(preview, { changes: [], diff: '', error: `ENOENT: no such file or directory, open '${ROOT}/missing/dir/x.txt'` });
    });

    it('refuses a folder as the target', async () => {
      const fs = new MemoryFileSystem().dir(`${ROOT}/sub`);
      const preview = await previewFilesystemCall('write_file', { path: 'sub', content: 'x' }, context(fs));
      assert.match(preview.error ?? '', /^EISDIR: illegal operation on a directory/);
      assert.deepEqual(preview.changes, []);
    });

    it('flags and refuses a path outside every root, absolute, relative or under ~', async () => {
      const fs = new MemoryFileSystem().dir(ROOT).dir('/work/other').file('/home/me/x', 'secret');
      for (const requested of ['/etc/passwd', '../other/x.txt', '~/x', '/work/repo-sibling/x']) {
        const preview = await previewFilesystemCall('write_file', { path: requested, content: 'x' }, context(fs));
        assert.match(preview.error ?? '', /^Access denied - path outside allowed directories: .* not in \/work\/repo$/, requested);
        assert.deepEqual(preview.outsideRoots, [requested]);
        assert.deepEqual(preview.changes, []);
      }
      assert.ok(!fs.reads.includes('/home/me/x'), 'a refused path is never read');
    });

    it('accepts a path under any of several roots, relative ones against the first root they land in', async () => {
      const fs = new MemoryFileSystem().dir(ROOT).file('/work/docs/readme.md', 'hi\n');
      const preview = await previewFilesystemCall('write_file', { path: '../docs/readme.md', content: 'hello\n' }, context(fs, [ROOT, '/work/docs']));
      assert.equal(preview.changes[0]?.path, '/work/docs/readme.md');
      assert.equal(preview.changes[0]?.kind, 'modify');
    });

    it('refuses a symbolic link that escapes the roots, and writes through one that stays inside to its target', async () => {
      const fs = new MemoryFileSystem().dir(ROOT).file('/outside/secret.txt', 's').link(`${ROOT}/escape`, '/outside/secret.txt')
        .link(`${ROOT}/out-dir`, '/outside').file(`${ROOT}/real.txt`, 'r').link(`${ROOT}/alias.txt`, 'real.txt');
      const escape = await previewFilesystemCall('write_file', { path: 'escape', content: 'x' }, context(fs));
      assert.equal(escape.error, `Access denied - symlink target outside allowed directories: /outside/secret.txt not in ${ROOT}`);
      assert.deepEqual(escape.outsideRoots, ['escape']);
      const throughDir = await previewFilesystemCall('write_file', { path: 'out-dir/new.txt', content: 'x' }, context(fs));
      assert.equal(throughDir.error, `Access denied - symlink target outside allowed directories: /outside not in ${ROOT}`);
      const alias = await previewFilesystemCall('write_file', { path: 'alias.txt', content: 'x' }, context(fs));
      assert.deepEqual(alias.changes, [{ path: `${ROOT}/real.txt`, kind: 'modify', before: 'r', after: 'x' }]);
    });

    it('refuses a dangling link as a missing parent, like the server', async () => {
      const fs = new MemoryFileSystem().dir(ROOT).link(`${ROOT}/dangling`, 'nowhere');
      const preview = await previewFilesystemCall('write_file', { path: 'dangling', content: 'x' }, context(fs));
      assert.equal(preview.error, `Parent directory does not exist: ${ROOT}`);
    });

    it('predicts, and flags, a trailing quote or space that the server lets out beside the root', async () => {
      const fs = new MemoryFileSystem().dir(ROOT);
      for (const requested of [`${ROOT}'`, `${ROOT} `]) {
        const preview = await previewFilesystemCall('write_file', { path: requested, content: 'x' }, context(fs));
        assert.deepEqual(preview.changes, [{ path: requested, kind: 'create', before: null, after: 'x' }]);
        assert.deepEqual(preview.outsideRoots, [requested]);
      }
      const inside = await previewFilesystemCall('write_file', { path: `${ROOT}/a.txt`, content: 'x' }, context(fs));
      assert.equal(inside.outsideRoots, undefined);
    });

    it('refuses arguments of the wrong type', async () => {
      const fs = new MemoryFileSystem().dir(ROOT);
      const preview = await previewFilesystemCall('write_file', { path: 'a.txt', content: 42 }, context(fs));
      assert.equal(preview.error, 'Invalid arguments for tool write_file: "content" must be a string');
    });
  });

  describe('edit_file', () => {
    it('applies several edits in sequence and writes LF, even to a CRLF file', async () => {
      const fs = new MemoryFileSystem().file(`${ROOT}/src/app.ts`, 'const a = 1;\r\nconst b = 2;\r\n');
      const preview = await previewFilesystemCall('edit_file', {
        path: 'src/app.ts',
        edits: [{ oldText: 'const a = 1;', newText: 'const a = 10;' }, { oldText: 'a = 10;\r\nconst b', newText: 'a = 10;\nlet b' }],
      }, context(fs));
      assert.deepEqual(preview.changes, [{ path: `${ROOT}/src/app.ts`, kind: 'modify', before: 'const a = 1;\r\nconst b = 2;\r\n', after: 'const a = 10;\nlet b = 2;\n' }]);
      // The line-ending change is part of what the call does, so the diff shows every line.
      assert.match(preview.diff, /-const a = 1;\r\n-const b = 2;\r\n\+const a = 10;\n\+let b = 2;\n$/);
    });

    it('matches with flexible whitespace and re-indents as the server does', async () => {
      const fs = new MemoryFileSystem().file(`${ROOT}/f.py`, 'def f():\n    if x:\n        return 1\n');
      const preview = await previewFilesystemCall('edit_file', { path: 'f.py', edits: [{ oldText: 'if x:\n  return 1', newText: 'if y:\n    return 2' }] }, context(fs));
      assert.equal(preview.changes[0]?.after, 'def f():\n    if y:\n      return 2\n');
    });

    it('shows a non-matching edit as an error, never as a diff', async () => {
      const fs = new MemoryFileSystem().file(`${ROOT}/f.txt`, 'one\n');
      const preview = await previewFilesystemCall('edit_file', { path: 'f.txt', edits: [{ oldText: 'one', newText: '1' }, { oldText: 'two', newText: '2' }] }, context(fs));
      assert.deepEqual(preview, { changes: [], diff: '', error: 'Could not find exact match for edit:\ntwo' });
    });

    it('changes nothing for dryRun, but still refuses what the server would refuse', async () => {
      const fs = new MemoryFileSystem().file(`${ROOT}/f.txt`, 'one\n');
      const dry = await previewFilesystemCall('edit_file', { path: 'f.txt', edits: [{ oldText: 'one', newText: '1' }], dryRun: true }, context(fs));
      assert.deepEqual(dry, { changes: [], diff: '', dryRun: true });
      const failing = await previewFilesystemCall('edit_file', { path: 'f.txt', edits: [{ oldText: 'zero', newText: '0' }], dryRun: true }, context(fs));
      assert.equal(failing.error, 'Could not find exact match for edit:\nzero');
    });

    it('refuses a missing file and a folder', async () => {
      const fs = new MemoryFileSystem().dir(`${ROOT}/sub`);
      const missing = await previewFilesystemCall('edit_file', { path: 'nope.txt', edits: [] }, context(fs));
      assert.equal(missing.error, `ENOENT: no such file or directory, open '${ROOT}/nope.txt'`);
      const folder = await previewFilesystemCall('edit_file', { path: 'sub', edits: [] }, context(fs));
      assert.equal(folder.error, 'EISDIR: illegal operation on a directory, read');
    });

    it('refuses malformed edits', async () => {
      const fs = new MemoryFileSystem().file(`${ROOT}/f.txt`, 'x');
      const preview = await previewFilesystemCall('edit_file', { path: 'f.txt', edits: [{ oldText: 'x' }] }, context(fs));
      assert.equal(preview.error, 'Invalid arguments for tool edit_file: "newText" must be a string (edits[0])');
      const dry = await previewFilesystemCall('edit_file', { path: 'f.txt', edits: [], dryRun: 'yes' }, context(fs));
      assert.equal(dry.error, 'Invalid arguments for tool edit_file: "dryRun" must be a boolean');
    });
  });

  describe('move_file', () => {
    it('moves a file: source, destination, unchanged text, a header-only diff', async () => {
      const fs = new MemoryFileSystem().file(`${ROOT}/a.txt`, 'text\n').dir(`${ROOT}/archive`);
      const preview = await previewFilesystemCall('move_file', { source: 'a.txt', destination: 'archive/b.txt' }, context(fs));
      assert.deepEqual(preview.changes, [{ path: `${ROOT}/a.txt`, kind: 'move', before: 'text\n', after: 'text\n', to: `${ROOT}/archive/b.txt` }]);
      assert.equal(preview.diff, `===================================================================\n--- ${ROOT}/a.txt\n+++ ${ROOT}/archive/b.txt\n`);
    });

    it('moves a folder with null texts', async () => {
      const fs = new MemoryFileSystem().file(`${ROOT}/dir/x`, 'x');
      const preview = await previewFilesystemCall('move_file', { source: 'dir', destination: 'renamed' }, context(fs));
      assert.deepEqual(preview.changes, [{ path: `${ROOT}/dir`, kind: 'move', before: null, after: null, to: `${ROOT}/renamed` }]);
    });

    it('refuses an existing destination, a missing source or destination folder, and a folder moved into itself', async () => {
      const fs = new MemoryFileSystem().file(`${ROOT}/a.txt`, 'a').file(`${ROOT}/b.txt`, 'b').dir(`${ROOT}/dir`);
      const cases: [Record<string, string>, string][] = [
        [{ source: 'a.txt', destination: 'b.txt' }, `Destination already exists: ${ROOT}/b.txt`],
        [{ source: 'a.txt', destination: 'a.txt' }, `Destination already exists: ${ROOT}/a.txt`],
        [{ source: 'nope.txt', destination: 'c.txt' }, `ENOENT: no such file or directory, rename '${ROOT}/nope.txt' -> '${ROOT}/c.txt'`],
        [{ source: 'a.txt', destination: 'missing/c.txt' }, `ENOENT: no such file or directory, rename '${ROOT}/a.txt' -> '${ROOT}/missing/c.txt'`],
        [{ source: 'dir', destination: 'dir/inner' }, `EINVAL: invalid argument, rename '${ROOT}/dir' -> '${ROOT}/dir/inner'`],
      ];
      for (const [args, error] of cases) {
        const preview = await previewFilesystemCall('move_file', args, context(fs));
        assert.deepEqual(preview, { changes: [], diff: '', error }, JSON.stringify(args));
      }
    });

    it('validates the source before the destination, and flags either outside the roots', async () => {
      const fs = new MemoryFileSystem().file(`${ROOT}/a.txt`, 'a');
      const out = await previewFilesystemCall('move_file', { source: 'a.txt', destination: '/tmp/a.txt' }, context(fs));
      assert.deepEqual(out.outsideRoots, ['/tmp/a.txt']);
      const both = await previewFilesystemCall('move_file', { source: '/etc/x', destination: '/tmp/a.txt' }, context(fs));
      assert.deepEqual(both.outsideRoots, ['/etc/x']);
    });
  });

  describe('path validation', () => {
    it('walks a missing path from its root, picking a Unicode-equivalent folder name and refusing an ambiguous one', async () => {
      const composed = 'caf\u00e9';
      const decomposed = 'cafe\u0301';
      const fs = new MemoryFileSystem().dir(`${ROOT}/${decomposed}`);
      assert.deepEqual(await resolveServerPath(`${ROOT}/${composed}/new.txt`, [ROOT], fs, '/home/me'), { ok: true, path: `${ROOT}/${decomposed}/new.txt` });
      fs.dir(`${ROOT}/${composed}`);
      assert.deepEqual(await resolveServerPath(`${ROOT}/caf\u00e9/new.txt`, [ROOT], fs, '/home/me'), { ok: true, path: `${ROOT}/${composed}/new.txt` });
      // "Å" three ways: the Angstrom sign and A + ring are two entries that both compose to U+00C5.
      const ambiguous = new MemoryFileSystem().dir(`${ROOT}/\u212b`).dir(`${ROOT}/A\u030a`);
      assert.deepEqual(await resolveServerPath(`${ROOT}/\u00c5/x`, [ROOT], ambiguous, '/home/me'), { ok: false, error: 'Ambiguous Unicode path component: \u00c5', outside: false });
    });

    it('refuses a Windows drive path on POSIX and a NUL byte', async () => {
      const fs = new MemoryFileSystem().dir(ROOT);
      assert.deepEqual(await resolveServerPath('C:\\Users\\x', [ROOT], fs, '/home/me'), { ok: false, error: 'Access denied - Windows-style path received on a POSIX host: C:\\Users\\x', outside: true });
      assert.equal((await resolveServerPath(`${ROOT}/a\0b`, [ROOT], fs, '/home/me')).ok, false);
    });

    it('skips a root that does not exist and refuses everything when none is left', async () => {
      const fs = new MemoryFileSystem().dir(ROOT);
      const preview = await previewFilesystemCall('write_file', { path: `${ROOT}/a`, content: '' }, context(fs, ['/nowhere']));
      assert.match(preview.error ?? '', /^no usable root/);
    });
  });
});
