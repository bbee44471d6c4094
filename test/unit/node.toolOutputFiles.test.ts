// Large tool results on disk: a folder and files only their owner can read, and files older than the
// retention period removed (newer ones and anything that is not a plain file left alone).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { removeExpired, writeOwnerOnly } from '../../src/node/toolOutputFiles';

const DAY = 86_400_000;
const posix = process.platform !== 'win32';

describe('tool output files', () => {
  let root: string;
  beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-output-')); });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('writes files readable by their owner only, in a folder only its owner can enter (even one that was wider)', async function () {
    if (!posix) this.skip();
    const dir = path.join(root, 'tool-output');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    const previous = process.umask(0o000);
    try {
      const file = await writeOwnerOnly(dir, 'a.txt', 'secret result');
      assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.equal(fs.readFileSync(file, 'utf8'), 'secret result');
    } finally {
      process.umask(previous);
    }
  });

  it('never writes through a file or a link that was already there', async () => {
    const dir = path.join(root, 'out');
    await writeOwnerOnly(dir, 'a.txt', 'first');
    await assert.rejects(writeOwnerOnly(dir, 'a.txt', 'second'), /EEXIST/);
    if (posix) {
      fs.writeFileSync(path.join(root, 'elsewhere'), 'keep');
      fs.symlinkSync(path.join(root, 'elsewhere'), path.join(dir, 'b.txt'));
      await assert.rejects(writeOwnerOnly(dir, 'b.txt', 'x'), /EEXIST/);
      assert.equal(fs.readFileSync(path.join(root, 'elsewhere'), 'utf8'), 'keep');
    }
  });

  it('removes the files older than the retention period, and only those', async () => {
    const dir = path.join(root, 'out');
    const now = Date.now();
    const old = await writeOwnerOnly(dir, 'old.txt', 'x');
    const recent = await writeOwnerOnly(dir, 'recent.txt', 'y');
    fs.utimesSync(old, new Date(now - 8 * DAY), new Date(now - 8 * DAY));
    fs.utimesSync(recent, new Date(now - 6 * DAY), new Date(now - 6 * DAY));
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.utimesSync(path.join(dir, 'sub'), new Date(now - 30 * DAY), new Date(now - 30 * DAY));
    assert.deepEqual(await removeExpired(dir, 7 * DAY, now), ['old.txt']);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['recent.txt', 'sub']);
    assert.deepEqual(await removeExpired(path.join(root, 'missing'), DAY, now), []);
  });
});
