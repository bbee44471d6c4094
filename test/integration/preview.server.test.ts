// `switchboard preview` against the real @modelcontextprotocol/server-filesystem: each case predicts a
// write_file, edit_file or move_file call with the built CLI, then makes the same call on the real
// server (through the extension's own connector, which sends the roots), and compares the folders
// byte for byte with what the prediction said — or, for a predicted refusal, checks that the server
// refused with the same message and changed nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { previewFilesystemCall } from '../../src/core/approvals/preview';
import type { EffectiveServer } from '../../src/core/config/types';
import type { ServerLog } from '../../src/core/lifecycle/ports';
import type { CallToolResult } from '../../src/core/lifecycle/types';
import type { SdkServerConnection } from '../../src/node/connection';
import { nodePreviewFileSystem } from '../../src/node/previewFileSystem';
import { NodeServerConnector, processLauncher, type StdioLauncher } from '../../src/node/connector';
import type { ProcessTransport } from '../../src/node/process/processTransport';
import { FILESYSTEM, isAlive } from './helperServers';
import { assertSameTree, expectedAfter, preview, snapshot, type Prediction } from './preview.support';
import { REPO_ROOT, requireBuiltCli, TempDirs } from './support';

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Collects the server's stderr for failure messages. */
class StderrLog implements ServerLog {
  readonly lines: string[] = [];
  info(): void {}
  warn(): void {}
  error(text: string): void { this.lines.push(text); }
  stderr(text: string): void { this.lines.push(text); }
  serverMessage(): void {}
  trace(): void {}
}

function filesystemServer(root: string): EffectiveServer {
  return {
    name: 'filesystem', id: 'filesystem', scope: 'user',
    launch: { type: 'stdio', command: process.execPath, args: [FILESYSTEM, root], env: {}, headers: {} },
    disabled: false, alwaysLoad: false, needsInput: [],
    source: { file: 'test.mcp.json', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
    fingerprint: 'filesystem', needsTrust: false,
  };
}

/** The text of a tool result; a thrown protocol error counts as a refusal with its message. */
async function call(connection: SdkServerConnection, tool: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  try {
    const result: CallToolResult = await connection.callTool(tool, args, { timeoutMs: 15_000 });
    const text = result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');
    return { isError: result.isError === true, text };
  } catch (error) {
    return { isError: true, text: error instanceof Error ? error.message : String(error) };
  }
}

/** One call to predict and then make: `dir` is its own folder inside the root, `outside` its own folder outside every root. */
interface Case {
  name: string;
  tool: 'write_file' | 'edit_file' | 'move_file';
  setup?(dir: string, outside: string): void;
  args(dir: string, outside: string): Record<string, unknown>;
  /** The refusal predicted (a message or its pattern), or absent when the call succeeds. */
  refusal?: string | RegExp | ((dir: string, outside: string) => string);
  /** When the server's message differs by design (a random temporary name, the SDK's schema wording), the pattern both must match. */
  looseRefusal?: RegExp;
}

const file = (target: string, text: string | Buffer, mode?: number): void => {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, text);
  if (mode !== undefined) fs.chmodSync(target, mode);
};

const CASES: Case[] = [
  // write_file
  { name: 'write_file creates a new file', tool: 'write_file', args: (d) => ({ path: path.join(d, 'new.txt'), content: 'hello\nworld' }) },
  {
    name: 'write_file overwrites a CRLF file with exactly the given bytes, keeping its mode', tool: 'write_file',
    setup: (d) => file(path.join(d, 'crlf.txt'), 'one\r\ntwo\r\n', 0o600),
    args: (d) => ({ path: path.join(d, 'crlf.txt'), content: 'uno\r\ndos ✓ 🚀\r\n' }),
  },
  {
    name: 'write_file replaces a read-only file and keeps it read-only', tool: 'write_file',
    setup: (d) => file(path.join(d, 'locked.txt'), 'locked', 0o444),
    args: (d) => ({ path: path.join(d, 'locked.txt'), content: 'replaced anyway' }),
  },
  {
    name: 'write_file resolves a relative path against the root', tool: 'write_file',
    setup: (d) => fs.mkdirSync(path.join(d, 'sub')),
    args: (d) => ({ path: `${path.basename(d)}/sub/../rel.txt`, content: 'relative' }),
  },
  {
    name: 'write_file refuses a missing parent folder', tool: 'write_file',
    args: (d) => ({ path: path.join(d, 'missing', 'deeper', 'x.txt'), content: 'x' }),
    refusal: (d) => `ENOENT: no such file or directory, open '${path.join(d, 'missing', 'deeper', 'x.txt')}'`,
  },
  {
    name: 'write_file refuses an absolute path outside the root', tool: 'write_file',
    args: (_d, o) => ({ path: path.join(o, 'x.txt'), content: 'x' }),
    refusal: /^Access denied - path outside allowed directories: /,
  },
  {
    name: 'write_file refuses a relative path that climbs out', tool: 'write_file',
    args: (d) => ({ path: `${path.basename(d)}/../../escape.txt`, content: 'x' }),
    refusal: /^Access denied - path outside allowed directories: /,
  },
  {
    name: 'write_file refuses a link to a file outside the root', tool: 'write_file',
    setup: (d, o) => { file(path.join(o, 'secret.txt'), 'secret'); fs.symlinkSync(path.join(o, 'secret.txt'), path.join(d, 'link.txt')); },
    args: (d) => ({ path: path.join(d, 'link.txt'), content: 'overwritten' }),
    refusal: /^Access denied - symlink target outside allowed directories: /,
  },
  {
    name: 'write_file refuses a new file in a linked folder outside the root', tool: 'write_file',
    setup: (d, o) => fs.symlinkSync(o, path.join(d, 'out')),
    args: (d) => ({ path: path.join(d, 'out', 'new.txt'), content: 'x' }),
    refusal: /^Access denied - symlink target outside allowed directories: /,
  },
  {
    name: 'write_file through a link inside the root writes the target and keeps the link', tool: 'write_file',
    setup: (d) => { file(path.join(d, 'real.txt'), 'real'); fs.symlinkSync('real.txt', path.join(d, 'alias.txt')); },
    args: (d) => ({ path: path.join(d, 'alias.txt'), content: 'through the alias' }),
  },
  {
    name: 'write_file refuses a dangling link', tool: 'write_file',
    setup: (d) => fs.symlinkSync('nowhere.txt', path.join(d, 'dangling.txt')),
    args: (d) => ({ path: path.join(d, 'dangling.txt'), content: 'x' }),
    refusal: (d) => `Parent directory does not exist: ${d}`,
  },
  {
    name: 'write_file refuses a folder as its target', tool: 'write_file',
    setup: (d) => fs.mkdirSync(path.join(d, 'folder')),
    args: (d) => ({ path: path.join(d, 'folder'), content: 'x' }),
    refusal: /^EISDIR: illegal operation on a directory, rename /, looseRefusal: /^EISDIR: illegal operation on a directory, rename /,
  },
  {
    name: 'write_file finds a Unicode-equivalent folder name', tool: 'write_file',
    setup: (d) => fs.mkdirSync(path.join(d, 'cafe\u0301')),
    args: (d) => ({ path: path.join(d, 'caf\u00e9', 'menu.txt'), content: 'espresso' }),
  },
  {
    name: 'write_file refuses content that is not a string', tool: 'write_file',
    args: (d) => ({ path: path.join(d, 'x.txt'), content: 7 }),
    refusal: /^Invalid arguments for tool write_file/, looseRefusal: /write_file/,
  },
  // edit_file
  {
    name: 'edit_file applies several edits in sequence', tool: 'edit_file',
    setup: (d) => file(path.join(d, 'app.js'), 'const a = 1;\nconst b = 2;\nconsole.log(a + b);\n'),
    args: (d) => ({ path: path.join(d, 'app.js'), edits: [{ oldText: 'const a = 1;', newText: 'const a = 10;' }, { oldText: 'a = 10;\nconst b = 2;', newText: 'a = 10;\nlet b = 20;' }, { oldText: 'a + b', newText: 'a * b' }] }),
  },
  {
    name: 'edit_file matches with flexible whitespace and re-indents like the server', tool: 'edit_file',
    setup: (d) => file(path.join(d, 'nest.js'), 'function f() {\n    if (x) {\n        return 1;\n    }\n}\nclass A {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n'),
    args: (d) => ({ path: path.join(d, 'nest.js'), edits: [
      { oldText: 'if (x) {\n    return 1;\n}', newText: 'if (y) {\n    return 2;\n}' },
      { oldText: 'if (x) {\n  return 1;\n}', newText: 'if (z) {\n      return 3;\n  }\n    extra();' },
    ] }),
  },
  {
    name: 'edit_file rewrites a CRLF file with LF', tool: 'edit_file',
    setup: (d) => file(path.join(d, 'win.txt'), 'first\r\nsecond\r\nthird'),
    args: (d) => ({ path: path.join(d, 'win.txt'), edits: [{ oldText: 'second\r\nthird', newText: '2nd\r\n3rd' }] }),
  },
  {
    name: 'edit_file with no edits still normalizes line endings', tool: 'edit_file',
    setup: (d) => file(path.join(d, 'win.txt'), 'a\r\nb\r\n'),
    args: (d) => ({ path: path.join(d, 'win.txt'), edits: [] }),
  },
  {
    name: 'edit_file keeps a BOM and turns invalid UTF-8 into U+FFFD as the server writes it', tool: 'edit_file',
    setup: (d) => file(path.join(d, 'bytes.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('ok '), Buffer.from([0xff, 0xfe]), Buffer.from(' end\n')])),
    args: (d) => ({ path: path.join(d, 'bytes.txt'), edits: [{ oldText: 'end', newText: 'fin' }] }),
  },
  {
    name: 'edit_file through a link inside the root edits its target', tool: 'edit_file',
    setup: (d) => { file(path.join(d, 'real.txt'), 'alpha\n'); fs.symlinkSync(path.join(d, 'real.txt'), path.join(d, 'alias.txt')); },
    args: (d) => ({ path: path.join(d, 'alias.txt'), edits: [{ oldText: 'alpha', newText: 'beta' }] }),
  },
  {
    name: 'edit_file refuses an edit that matches nothing, and applies none of the others', tool: 'edit_file',
    setup: (d) => file(path.join(d, 'f.txt'), 'one\ntwo\n'),
    args: (d) => ({ path: path.join(d, 'f.txt'), edits: [{ oldText: 'one', newText: '1' }, { oldText: 'three', newText: '3' }] }),
    refusal: 'Could not find exact match for edit:\nthree',
  },
  {
    name: 'edit_file with dryRun changes nothing', tool: 'edit_file',
    setup: (d) => file(path.join(d, 'f.txt'), 'one\ntwo\n'),
    args: (d) => ({ path: path.join(d, 'f.txt'), edits: [{ oldText: 'two', newText: 'deux' }], dryRun: true }),
  },
  {
    name: 'edit_file refuses a missing file', tool: 'edit_file',
    args: (d) => ({ path: path.join(d, 'nope.txt'), edits: [] }),
    refusal: (d) => `ENOENT: no such file or directory, open '${path.join(d, 'nope.txt')}'`,
  },
  {
    name: 'edit_file refuses a folder', tool: 'edit_file',
    setup: (d) => fs.mkdirSync(path.join(d, 'folder')),
    args: (d) => ({ path: path.join(d, 'folder'), edits: [] }),
    refusal: 'EISDIR: illegal operation on a directory, read',
  },
  {
    name: 'edit_file refuses a file outside the root', tool: 'edit_file',
    setup: (_d, o) => file(path.join(o, 'f.txt'), 'one'),
    args: (_d, o) => ({ path: path.join(o, 'f.txt'), edits: [{ oldText: 'one', newText: '1' }] }),
    refusal: /^Access denied - path outside allowed directories: /,
  },
  // move_file
  {
    name: 'move_file moves a file into a folder', tool: 'move_file',
    setup: (d) => { file(path.join(d, 'a.txt'), 'moving\n'); fs.mkdirSync(path.join(d, 'archive')); },
    args: (d) => ({ source: path.join(d, 'a.txt'), destination: path.join(d, 'archive', 'b.txt') }),
  },
  {
    name: 'move_file moves a folder with its contents', tool: 'move_file',
    setup: (d) => { file(path.join(d, 'src', 'x.txt'), 'x'); file(path.join(d, 'src', 'deep', 'y.txt'), 'y'); },
    args: (d) => ({ source: path.join(d, 'src'), destination: path.join(d, 'lib') }),
  },
  {
    name: 'move_file of a link moves the file it points to', tool: 'move_file',
    setup: (d) => { file(path.join(d, 'target.txt'), 't'); fs.symlinkSync('target.txt', path.join(d, 'link.txt')); },
    args: (d) => ({ source: path.join(d, 'link.txt'), destination: path.join(d, 'moved.txt') }),
  },
  {
    name: 'move_file refuses an existing destination', tool: 'move_file',
    setup: (d) => { file(path.join(d, 'a.txt'), 'a'); file(path.join(d, 'b.txt'), 'b'); },
    args: (d) => ({ source: path.join(d, 'a.txt'), destination: path.join(d, 'b.txt') }),
    refusal: (d) => `Destination already exists: ${path.join(d, 'b.txt')}`,
  },
  {
    name: 'move_file refuses a missing source', tool: 'move_file',
    args: (d) => ({ source: path.join(d, 'nope.txt'), destination: path.join(d, 'b.txt') }),
    refusal: (d) => `ENOENT: no such file or directory, rename '${path.join(d, 'nope.txt')}' -> '${path.join(d, 'b.txt')}'`,
  },
  {
    name: 'move_file refuses a missing destination folder', tool: 'move_file',
    setup: (d) => file(path.join(d, 'a.txt'), 'a'),
    args: (d) => ({ source: path.join(d, 'a.txt'), destination: path.join(d, 'missing', 'b.txt') }),
    refusal: (d) => `ENOENT: no such file or directory, rename '${path.join(d, 'a.txt')}' -> '${path.join(d, 'missing', 'b.txt')}'`,
  },
  {
    name: 'move_file refuses a folder moved into itself', tool: 'move_file',
    setup: (d) => file(path.join(d, 'dir', 'x'), 'x'),
    args: (d) => ({ source: path.join(d, 'dir'), destination: path.join(d, 'dir', 'inner') }),
    refusal: (d) => `EINVAL: invalid argument, rename '${path.join(d, 'dir')}' -> '${path.join(d, 'dir', 'inner')}'`,
  },
  {
    name: 'move_file refuses a destination outside the root', tool: 'move_file',
    setup: (d) => file(path.join(d, 'a.txt'), 'a'),
    args: (d, o) => ({ source: path.join(d, 'a.txt'), destination: path.join(o, 'a.txt') }),
    refusal: /^Access denied - path outside allowed directories: /,
  },
  {
    name: 'move_file refuses a source outside the root', tool: 'move_file',
    setup: (_d, o) => file(path.join(o, 'a.txt'), 'a'),
    args: (d, o) => ({ source: path.join(o, 'a.txt'), destination: path.join(d, 'a.txt') }),
    refusal: /^Access denied - path outside allowed directories: /,
  },
];

describe('switchboard preview predicts what server-filesystem does', function () {
  this.timeout(60_000);
  const temp = new TempDirs();
  const spawned: ProcessTransport[] = [];
  const launch = processLauncher();
  const recordingLauncher: StdioLauncher = async (request) => {
    const launched = await launch(request);
    spawned.push(launched.transport as ProcessTransport);
    return launched;
  };
  const connector = new NodeServerConnector({ clientVersion: VERSION, launchStdio: recordingLauncher });
  const log = new StderrLog();
  let root: string;
  let outsideBase: string;
  let connection: SdkServerConnection;

  before(async () => {
    requireBuiltCli();
    // The root sits in a folder of its own: a call the server lets out beside the root lands in that folder.
    root = path.join(temp.make('switchboard-preview-'), 'root');
    fs.mkdirSync(root);
    outsideBase = temp.make('switchboard-preview-outside-');
    connection = (await connector.connect({
      server: filesystemServer(root),
      log,
      roots: () => [{ uri: pathToFileURL(root).href, name: 'root' }],
      startupTimeoutMs: 20_000,
      shutdownGraceMs: 200,
      trace: false,
      signal: new AbortController().signal,
    })) as SdkServerConnection;
  });

  after(async () => {
    await connection?.close();
    await connector.dispose();
    temp.cleanup();
    const alive = spawned.map((transport) => transport.pid).filter((pid): pid is number => pid !== undefined && isAlive(pid));
    assert.deepEqual(alive, [], 'the server process is gone');
  });

  CASES.forEach((testCase, index) => {
    it(testCase.name, async () => {
      const dir = path.join(root, `case-${index}`);
      const outside = path.join(outsideBase, `case-${index}`);
      fs.mkdirSync(dir);
      fs.mkdirSync(outside);
      testCase.setup?.(dir, outside);
      const args = testCase.args(dir, outside);
      const before = snapshot(dir, outside);

      const prediction: Prediction = preview([root], testCase.tool, args);
      assert.deepEqual(snapshot(dir, outside), before, 'the preview wrote nothing');
      const result = await call(connection, testCase.tool, args);
      const after = snapshot(dir, outside);
      const context = `prediction ${JSON.stringify(prediction)}\nserver said ${JSON.stringify(result)}\nserver stderr ${log.lines.slice(-5).join('\n')}`;

      if (testCase.refusal === undefined) {
        assert.equal(prediction.error, undefined, context);
        assert.equal(result.isError, false, context);
        assertSameTree(after, expectedAfter(before, prediction.changes), context);
        if (args.dryRun === true) assert.deepEqual(prediction.changes, []);
        else assert.ok(prediction.changes.length > 0, 'a successful call changes something');
        return;
      }
      const refusal = typeof testCase.refusal === 'function' ? testCase.refusal(dir, outside) : testCase.refusal;
      assert.ok(prediction.error !== undefined, `a refusal was predicted\n${context}`);
      if (typeof refusal === 'string') assert.equal(prediction.error, refusal);
      else assert.match(prediction.error, refusal);
      assert.deepEqual(prediction.changes, []);
      assert.equal(prediction.diff, '');
      assert.equal(result.isError, true, context);
      if (testCase.looseRefusal !== undefined) assert.match(result.text, testCase.looseRefusal, context);
      else assert.equal(result.text, prediction.error, context);
      assertSameTree(after, before, `the refused call changed nothing\n${context}`);
    });
  });

  it('predicts the server writing beside the root for a trailing quote or space, and flags it', async () => {
    for (const requested of [`${root}'`, `${root} `]) {
      assert.equal(fs.existsSync(requested), false);
      const prediction = preview([root], 'write_file', { path: requested, content: 'beside' });
      assert.deepEqual(prediction, { changes: [{ path: requested, kind: 'create', before: null, after: 'beside' }], diff: prediction.diff, outsideRoots: [requested] });
      const flagged = await previewFilesystemCall('write_file', { path: requested, content: 'beside' }, { roots: [root], fs: nodePreviewFileSystem, home: os.homedir() });
      assert.deepEqual(flagged.outsideRoots, [requested]);
      const result = await call(connection, 'write_file', { path: requested, content: 'beside' });
      assert.equal(result.isError, false, result.text);
      assert.equal(fs.readFileSync(requested, 'utf8'), 'beside');
    }
  });

  it('predicts the diff edit_file answers for a dry run, byte for byte', async () => {
    const dir = path.join(root, 'dry-diff');
    file(path.join(dir, 'f.ts'), 'export const one = 1;\nexport const two = 2;\nexport const three = 3;\n');
    const edits = [{ oldText: 'const two = 2;', newText: 'const two = 22;' }, { oldText: 'three = 3', newText: 'three = 33' }];
    const prediction = preview([root], 'edit_file', { path: path.join(dir, 'f.ts'), edits });
    const result = await call(connection, 'edit_file', { path: path.join(dir, 'f.ts'), edits, dryRun: true });
    assert.equal(result.isError, false, result.text);
    assert.equal(result.text, `\`\`\`diff\n${prediction.diff}\`\`\`\n\n`);
  });
});
