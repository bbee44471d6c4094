// `switchboard preview` as other tools run it: the built dist/cli.js in a child process, on real
// folders. The JSON contract exactly (keys, order, nulls, `to` only on moves, `error` only on a
// refusal), the exit codes, usage errors, several roots, and that it never writes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { snapshot } from './preview.support';
import { requireBuiltCli, runCli, TempDirs, write } from './support';

describe('switchboard preview (built CLI)', function () {
  this.timeout(20000);
  const temp = new TempDirs();
  before(requireBuiltCli);
  afterEach(() => temp.cleanup());

  const run = (root: string | string[], tool: string, args: unknown) =>
    runCli(['preview', ...[root].flat().flatMap((r) => ['--root', r]), '--tool', tool, '--args', JSON.stringify(args)]);

  it('prints the contract for a modified file: keys in order, 2-space JSON, one trailing newline, exit 0', () => {
    const root = temp.make();
    const file = write(path.join(root, 'a.txt'), 'one\ntwo\n');
    const result = run(root, 'edit_file', { path: file, edits: [{ oldText: 'two', newText: 'deux' }] });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
    const output = JSON.parse(result.stdout) as { changes: Record<string, unknown>[]; diff: string };
    assert.equal(result.stdout, `${JSON.stringify(output, null, 2)}\n`);
    assert.deepEqual(Object.keys(output), ['changes', 'diff']);
    assert.deepEqual(output.changes, [{ path: file, kind: 'modify', before: 'one\ntwo\n', after: 'one\ndeux\n' }]);
    assert.deepEqual(Object.keys(output.changes[0]), ['path', 'kind', 'before', 'after']);
    assert.equal(output.diff, [
      `Index: ${file}`,
      '===================================================================',
      `--- ${file}\toriginal`,
      `+++ ${file}\tmodified`,
      '@@ -1,2 +1,2 @@',
      ' one',
      '-two',
      '+deux',
      '',
    ].join('\n'));
  });

  it('prints a new file with before null, and a move with "to" last', () => {
    const root = temp.make();
    const created = JSON.parse(run(root, 'write_file', { path: 'new.md', content: '# New\n' }).stdout) as { changes: Record<string, unknown>[]; diff: string };
    assert.deepEqual(created.changes, [{ path: path.join(root, 'new.md'), kind: 'create', before: null, after: '# New\n' }]);
    assert.match(created.diff, /^=+\n--- \/dev\/null\n\+\+\+ .*new\.md\n@@ -0,0 \+1,1 @@\n\+# New\n$/);

    write(path.join(root, 'old.md'), 'text');
    const moved = run(root, 'move_file', { source: 'old.md', destination: 'renamed.md' });
    assert.equal(moved.status, 0, moved.stderr);
    const output = JSON.parse(moved.stdout) as { changes: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(output.changes[0]), ['path', 'kind', 'before', 'after', 'to']);
    assert.deepEqual(output.changes[0], { path: path.join(root, 'old.md'), kind: 'move', before: 'text', after: 'text', to: path.join(root, 'renamed.md') });
  });

  it('prints the refusal in "error" with no changes and exits 1', () => {
    const root = temp.make();
    const result = run(root, 'write_file', { path: '/etc/switchboard-preview.txt', content: 'x' });
    assert.equal(result.status, 1);
    assert.equal(result.stderr, '');
    const output = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(output), ['changes', 'diff', 'error']);
    assert.deepEqual(output, { changes: [], diff: '', error: `Access denied - path outside allowed directories: /etc/switchboard-preview.txt not in ${root}` });
  });

  it('flags a write the server accepts that lands outside every root ("outsideRoots", exit 1)', () => {
    const root = path.join(temp.make(), 'root');
    fs.mkdirSync(root);
    for (const requested of [`${root}'`, `${root} `]) {
      const result = run(root, 'write_file', { path: requested, content: 'beside' });
      assert.equal(result.status, 1, result.stdout);
      const output = JSON.parse(result.stdout) as Record<string, unknown>;
      assert.deepEqual(Object.keys(output), ['changes', 'diff', 'outsideRoots']);
      assert.deepEqual(output.outsideRoots, [requested]);
      assert.deepEqual(output.changes, [{ path: requested, kind: 'create', before: null, after: 'beside' }]);
      assert.equal(fs.existsSync(requested), false, 'and wrote nothing');
    }
  });

  it('shows a line the server re-encodes (bytes that are not UTF-8) as changed', () => {
    const root = temp.make();
    const file = path.join(root, 'latin1.txt');
    fs.writeFileSync(file, Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from('\nkeep\nold\n')]));
    const result = run(root, 'edit_file', { path: file, edits: [{ oldText: 'old', newText: 'new' }] });
    assert.equal(result.status, 0, result.stdout);
    const output = JSON.parse(result.stdout) as { changes: { before: string; after: string }[]; diff: string };
    assert.equal(output.changes[0].before, 'caf\\xE9\nkeep\nold\n');
    assert.equal(output.changes[0].after, 'caf\uFFFD\nkeep\nnew\n');
    assert.match(output.diff, /^-caf\\xE9$/m);
    assert.match(output.diff, /^\+caf\uFFFD$/m);
    assert.match(output.diff, /^ keep$/m);
  });

  it('accepts several --root, resolving relative paths against the first one they land in', () => {
    const first = temp.make();
    const second = temp.make();
    write(path.join(second, 'doc.txt'), 'v1');
    const result = run([first, second], 'write_file', { path: `../${path.basename(second)}/doc.txt`, content: 'v2' });
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.deepEqual((JSON.parse(result.stdout) as { changes: unknown[] }).changes, [{ path: path.join(second, 'doc.txt'), kind: 'modify', before: 'v1', after: 'v2' }]);
    // With only the first root the same path is outside.
    assert.equal(run(first, 'write_file', { path: `../${path.basename(second)}/doc.txt`, content: 'v2' }).status, 1);
  });

  it('reads only: a predicted create, edit and move leave every byte in place', () => {
    const root = temp.make();
    write(path.join(root, 'a.txt'), 'a\r\nb\r\n');
    fs.mkdirSync(path.join(root, 'dir'));
    const before = snapshot(root);
    assert.equal(run(root, 'write_file', { path: 'dir/new.txt', content: 'x' }).status, 0);
    assert.equal(run(root, 'edit_file', { path: 'a.txt', edits: [{ oldText: 'a', newText: 'A' }] }).status, 0);
    assert.equal(run(root, 'move_file', { source: 'a.txt', destination: 'dir/a.txt' }).status, 0);
    assert.deepEqual(snapshot(root), before);
  });

  it('reports usage errors with exit 2 and a hint, printing nothing on stdout', () => {
    const root = temp.make();
    const notDir = write(path.join(root, 'file.txt'), '');
    const cases: [string[], RegExp][] = [
      [['preview', '--tool', 'write_file', '--args', '{}'], /missing --root DIR/],
      [['preview', '--root', root, '--args', '{}'], /missing --tool TOOL/],
      [['preview', '--root', root, '--tool', 'write_file'], /missing --args 'JSON'/],
      [['preview', '--root', root, '--tool', 'read_file', '--args', '{}'], /--tool read_file: expected one of write_file, edit_file, move_file/],
      [['preview', '--root', root, '--tool', 'write_file', '--args', '{not json'], /--args is not valid JSON/],
      [['preview', '--root', root, '--tool', 'write_file', '--args', '[1]'], /--args must be a JSON object/],
      [['preview', '--root', notDir, '--tool', 'write_file', '--args', '{}'], /not an existing folder/],
      [['preview', '--root', path.join(root, 'missing'), '--tool', 'write_file', '--args', '{}'], /not an existing folder/],
      [['preview', '--root', root, '--tool', 'write_file', '--tool', 'edit_file', '--args', '{}'], /option '--tool' given twice/],
    ];
    for (const [args, message] of cases) {
      const result = runCli(args);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, message);
      assert.match(result.stderr, /Run 'switchboard preview --help' for usage\./);
    }
  });

  it('documents the contract in --help and lists the command', () => {
    const help = runCli(['preview', '--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--root DIR/);
    assert.match(help.stdout, /"changes": \[ \{ "path": absolute, "kind": "create" \| "modify" \| "move"/);
    assert.match(runCli(['--help']).stdout, /preview +Predict what a server-filesystem/);
  });
});
