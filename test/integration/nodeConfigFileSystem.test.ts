import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../../src/core/disposable';
import { NodeConfigFileSystem } from '../../src/node/configFileSystem';
import { delay, TempDirs, waitFor, write } from './support';

describe('NodeConfigFileSystem', () => {
  const temp = new TempDirs();
  const watches: Disposable[] = [];
  afterEach(() => {
    for (const watch of watches.splice(0)) watch.dispose();
    temp.cleanup();
  });

  describe('read', () => {
    const files = new NodeConfigFileSystem();

    it('returns the text as UTF-8 and keeps a BOM', async () => {
      const dir = temp.make();
      const file = write(path.join(dir, 'a.json'), '\uFEFF{"servers": {"é": {}}}');
      assert.deepEqual(await files.read(file, 1024), { kind: 'text', text: '\uFEFF{"servers": {"é": {}}}' });
    });

    it('reports a missing file, including one below a file (ENOTDIR)', async () => {
      const dir = temp.make();
      assert.deepEqual(await files.read(path.join(dir, 'nope.json'), 1024), { kind: 'missing' });
      assert.deepEqual(await files.read(path.join(dir, 'no', 'such', 'dir.json'), 1024), { kind: 'missing' });
      const plain = write(path.join(dir, 'plain'), 'x');
      assert.deepEqual(await files.read(path.join(plain, '.mcp.json'), 1024), { kind: 'missing' });
    });

    it('reports a directory', async () => {
      const dir = temp.make();
      assert.deepEqual(await files.read(dir, 1024), { kind: 'directory' });
    });

    it('reports a file over the limit with its size, and reads one exactly at the limit', async () => {
      const dir = temp.make();
      const big = write(path.join(dir, 'big.json'), 'x'.repeat(2049));
      assert.deepEqual(await files.read(big, 2048), { kind: 'tooLarge', size: 2049 });
      const exact = write(path.join(dir, 'exact.json'), 'y'.repeat(2048));
      assert.deepEqual(await files.read(exact, 2048), { kind: 'text', text: 'y'.repeat(2048) });
    });

    it('reports an unreadable file with the error message', async function () {
      if (process.platform === 'win32') this.skip();
      const dir = temp.make();
      // A symlink loop is unreadable even for root (who ignores permission bits).
      const loop = path.join(dir, 'loop.json');
      fs.symlinkSync(loop, loop);
      const result = await files.read(loop, 1024);
      assert.equal(result.kind, 'unreadable');
      assert.match((result as { message: string }).message, /ELOOP/);
    });

    it('reports EACCES for a file without read permission', async function () {
      if (process.platform === 'win32' || process.getuid?.() === 0) this.skip();
      const dir = temp.make();
      const file = write(path.join(dir, 'secret.json'), '{}');
      fs.chmodSync(file, 0o000);
      const result = await files.read(file, 1024);
      assert.equal(result.kind, 'unreadable');
      assert.match((result as { message: string }).message, /EACCES/);
    });

    it('does not block on a FIFO', async function () {
      if (process.platform === 'win32') this.skip();
      const dir = temp.make();
      const fifo = path.join(dir, 'fifo.json');
      const { spawnSync } = await import('node:child_process');
      if (spawnSync('mkfifo', [fifo]).status !== 0) this.skip();
      const result = await files.read(fifo, 1024);
      assert.equal(result.kind, 'unreadable');
    });
  });

  describe('watch', () => {
    for (const mode of ['fs.watch', 'polling'] as const) {
      describe(mode, () => {
        const files = new NodeConfigFileSystem({ forcePolling: mode === 'polling', pollIntervalMs: 50 });

        /** Watches `file` and returns a counter of change notifications. */
        function watch(file: string): { count: number } {
          const counter = { count: 0 };
          watches.push(files.watch(file, () => { counter.count++; }));
          return counter;
        }

        async function expectNotified(counter: { count: number }, what: string, action: () => void): Promise<void> {
          const before = counter.count;
          action();
          await waitFor(what, () => counter.count > before, 2000);
        }

        it('notifies on create, change and delete', async () => {
          const dir = temp.make();
          const file = path.join(dir, '.mcp.json');
          const counter = watch(file);
          await delay(20);
          await expectNotified(counter, 'create', () => write(file, '{}'));
          await delay(60); // polling compares stats: let mtimes differ
          await expectNotified(counter, 'change', () => write(file, '{"servers": {}}'));
          await expectNotified(counter, 'delete', () => fs.rmSync(file));
        });

        it('notifies on an atomic save (write a temp file, rename it over the target)', async () => {
          const dir = temp.make();
          const file = write(path.join(dir, '.mcp.json'), '{}');
          const counter = watch(file);
          await delay(20);
          for (const text of ['{"a": 1}', '{"a": 22}']) {
            await expectNotified(counter, `atomic save of ${text}`, () => {
              write(`${file}.tmp`, text);
              fs.renameSync(`${file}.tmp`, file);
            });
          }
        });

        it('picks up a file whose folders are created later, and survives their deletion and re-creation', async () => {
          const dir = temp.make();
          const file = path.join(dir, 'a', 'b', 'c', 'local.mcp.json');
          const counter = watch(file);
          await delay(20);
          fs.mkdirSync(path.join(dir, 'a'));
          await delay(30);
          await expectNotified(counter, 'file created in new folders', () => write(file, '{}'));
          await expectNotified(counter, 'folders deleted', () => fs.rmSync(path.join(dir, 'a'), { recursive: true }));
          await delay(30);
          await expectNotified(counter, 'file created again', () => write(file, '{"x": 1}'));
          await delay(60);
          await expectNotified(counter, 'changed after re-creation', () => write(file, '{"x": 22}'));
        });

        it('ignores other files in the same folder', async function () {
          if (mode === 'polling') this.skip(); // polling never looks at siblings
          const dir = temp.make();
          const counter = watch(path.join(dir, '.mcp.json'));
          await delay(20);
          write(path.join(dir, 'other.json'), '{}');
          write(path.join(dir, '.mcp.json.bak'), '{}');
          await delay(200);
          assert.equal(counter.count, 0);
        });

        it('stops notifying once disposed', async () => {
          const dir = temp.make();
          const file = path.join(dir, '.mcp.json');
          let count = 0;
          const watch = files.watch(file, () => { count++; });
          await delay(20);
          watch.dispose();
          watch.dispose(); // idempotent
          write(file, '{}');
          await delay(200);
          assert.equal(count, 0);
        });
      });
    }

    it('follows a symbolic link to the file it points to', async function () {
      if (process.platform === 'win32') this.skip(); // creating links needs privileges there
      const dir = temp.make();
      const real = write(path.join(dir, 'dotfiles', 'mcp.json'), '{}');
      const link = path.join(dir, 'home', '.mcp.json');
      fs.mkdirSync(path.dirname(link));
      fs.symlinkSync(real, link);
      let count = 0;
      watches.push(new NodeConfigFileSystem().watch(link, () => { count++; }));
      await delay(20);
      fs.writeFileSync(real, '{"servers": {}}');
      await waitFor('edit of the link target', () => count > 0, 2000);
    });
  });
});
