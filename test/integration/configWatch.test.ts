// The config service on real files through NodeConfigFileSystem: what a user sees while editing.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigService, standardLayerSpecs, type ConfigSnapshot } from '../../src/core/config';
import type { ConfigRead } from '../../src/core/config/types';
import { NodeConfigFileSystem } from '../../src/node/configFileSystem';
import { delay, REPO_ROOT, TempDirs, waitFor, write, writeJson } from './support';

const THROTTLE_MS = 50;

/** NodeConfigFileSystem that counts reads per file, to see how often the service re-reads. */
class CountingFileSystem extends NodeConfigFileSystem {
  readonly reads = new Map<string, number>();

  override read(file: string, maxBytes: number): Promise<ConfigRead> {
    this.reads.set(file, (this.reads.get(file) ?? 0) + 1);
    return super.read(file, maxBytes);
  }
}

const serverNames = (snapshot: ConfigSnapshot) => snapshot.servers.map((s) => s.name);
const commandOf = (snapshot: ConfigSnapshot, name: string) => snapshot.servers.find((s) => s.name === name)?.launch.command;

describe('ConfigService + NodeConfigFileSystem on real files', function () {
  this.timeout(20000);
  const temp = new TempDirs();
  let service: ConfigService | undefined;
  let files: CountingFileSystem;
  let changes: ConfigSnapshot[];

  afterEach(() => {
    service?.dispose();
    service = undefined;
    temp.cleanup();
  });

  /** Starts a service over one workspace, a home and an optional local file. */
  async function start(opts: { localFile?: (root: string) => string } = {}): Promise<{ root: string; ws: string; home: string; project: string; user: string }> {
    const root = temp.make();
    const ws = path.join(root, 'ws');
    const home = path.join(root, 'home');
    fs.mkdirSync(ws);
    fs.mkdirSync(home);
    files = new CountingFileSystem();
    changes = [];
    service = new ConfigService(files, { throttleMs: THROTTLE_MS });
    service.onDidChange((snapshot) => changes.push(snapshot));
    await service.setSpecs(standardLayerSpecs({
      folders: [{ path: ws, localFile: opts.localFile?.(root) }],
      userHome: home,
      env: {},
    }));
    return { root, ws, home, project: path.join(ws, '.mcp.json'), user: path.join(home, '.mcp.json') };
  }

  const current = () => service!.current;

  it('picks up a file created after start', async () => {
    const { project } = await start();
    assert.deepEqual(serverNames(current()), []);
    writeJson(project, { mcpServers: { late: { command: 'node' } } });
    await waitFor('server "late"', () => serverNames(current()).includes('late'));
    assert.equal(current().servers[0].scope, 'project');
  });

  it('picks up an edit within 1 s', async () => {
    const root = temp.make();
    const user = writeJson(path.join(root, 'home', '.mcp.json'), { mcpServers: { edit: { command: 'one' } } });
    files = new CountingFileSystem();
    service = new ConfigService(files, { throttleMs: THROTTLE_MS });
    await service.setSpecs(standardLayerSpecs({ folders: [], userHome: path.join(root, 'home'), env: {} }));
    assert.equal(commandOf(current(), 'edit'), 'one');
    const versionBefore = current().version;

    writeJson(user, { mcpServers: { edit: { command: 'two' } } });
    const elapsed = await waitFor('command "two"', () => commandOf(current(), 'edit') === 'two', 5000);
    assert.ok(elapsed < 1000, `the edit took ${elapsed} ms to show`);
    assert.ok(current().version > versionBefore, 'the version increases');
  });

  it('keeps the last good servers on a broken edit, reports the problem at its line, and clears it once fixed', async () => {
    const { project, user } = await start();
    writeJson(user, { mcpServers: { fromUser: { command: 'u' } } });
    writeJson(project, { mcpServers: { good: { command: 'node', args: ['v1'] } } });
    await waitFor('both files read', () => serverNames(current()).length === 2);

    write(project, `{
  "mcpServers": {
    "good": { "command": "node", "args": ["v2"] }
    "added": { "command": "x" }
  }
}
`);
    await waitFor('a syntax problem', () => current().problems.some((p) => p.file === project && p.severity === 'error'));
    const problem = current().problems.find((p) => p.file === project && p.severity === 'error')!;
    assert.deepEqual([problem.line, problem.column], [4, 5]);
    // The last good definition still stands, and the other scope is untouched.
    assert.deepEqual(serverNames(current()).sort(), ['fromUser', 'good']);
    assert.deepEqual(current().servers.find((s) => s.name === 'good')!.launch.args, ['v1']);

    writeJson(project, { mcpServers: { good: { command: 'node', args: ['v3'] }, added: { command: 'x' } } });
    await waitFor('the problem to clear', () => !current().problems.some((p) => p.file === project));
    assert.deepEqual(serverNames(current()).sort(), ['added', 'fromUser', 'good']);
    assert.deepEqual(current().servers.find((s) => s.name === 'good')!.launch.args, ['v3']);
  });

  it('removes the servers of a deleted file', async () => {
    const { project, user } = await start();
    writeJson(project, { mcpServers: { p: { command: 'x' } } });
    writeJson(user, { mcpServers: { u: { command: 'y' } } });
    await waitFor('both servers', () => serverNames(current()).length === 2);
    fs.rmSync(project);
    await waitFor('"p" to go', () => !serverNames(current()).includes('p'));
    assert.deepEqual(serverNames(current()), ['u']);
  });

  it('coalesces a burst of 20 writes into a few reloads that end on the last write', async () => {
    const { project } = await start();
    writeJson(project, { mcpServers: { burst: { command: 'v0' } } });
    await waitFor('the first version', () => commandOf(current(), 'burst') === 'v0');
    await delay(THROTTLE_MS * 3);
    const readsBefore = files.reads.get(project) ?? 0;
    const changesBefore = changes.length;

    const burstStart = Date.now();
    for (let i = 1; i <= 20; i++) {
      writeJson(project, { mcpServers: { burst: { command: `v${i}` } } });
      await delay(5);
    }
    const burstMs = Date.now() - burstStart;
    await waitFor('the last write', () => commandOf(current(), 'burst') === 'v20');
    await delay(THROTTLE_MS * 4); // let any trailing reload happen before counting

    const reads = (files.reads.get(project) ?? 0) - readsBefore;
    const events = changes.length - changesBefore;
    // At most one re-read per throttle window, plus the trailing one (the burst takes ~100–250 ms).
    const bound = Math.min(10, Math.ceil(burstMs / THROTTLE_MS) + 2);
    assert.ok(reads <= bound, `20 writes in ${burstMs} ms caused ${reads} reads (bound ${bound})`);
    assert.ok(events <= reads, `${events} change events for ${reads} reads`);
    assert.ok(events >= 1);
    assert.equal(commandOf(current(), 'burst'), 'v20');
  });

  it('re-reads only the file that changed', async () => {
    const { project, user } = await start();
    writeJson(user, { mcpServers: { u: { command: 'y' } } });
    writeJson(project, { mcpServers: { p: { command: 'x' } } });
    await waitFor('both servers', () => serverNames(current()).length === 2);
    await delay(THROTTLE_MS * 3);
    const userReads = files.reads.get(user);
    writeJson(project, { mcpServers: { p: { command: 'z' } } });
    await waitFor('the edit', () => commandOf(current(), 'p') === 'z');
    await delay(THROTTLE_MS * 3);
    assert.equal(files.reads.get(user), userReads);
  });

  it('picks up a file in a folder created later', async () => {
    const { root } = await start({ localFile: (dir) => path.join(dir, 'storage', 'deep', 'er', 'local.mcp.json') });
    const local = path.join(root, 'storage', 'deep', 'er', 'local.mcp.json');
    await delay(50);
    fs.mkdirSync(path.join(root, 'storage'));
    await delay(50);
    writeJson(local, { mcpServers: { mine: { command: 'm' } } });
    await waitFor('server "mine"', () => serverNames(current()).includes('mine'));
    assert.equal(current().servers[0].scope, 'local');
  });

  describe('disposal', () => {
    /** Runs a child that watches, changes a file, disposes, and then should have nothing keeping it alive. */
    function runChild(leakOneWatch: boolean): Promise<{ exited: boolean; code: number | null; stderr: string }> {
      const root = temp.make();
      const script = path.join(root, 'child.js');
      fs.writeFileSync(script, `
const fs = require('fs');
const path = require('path');
const { NodeConfigFileSystem } = require(${JSON.stringify(path.join(REPO_ROOT, 'out', 'src', 'node', 'configFileSystem.js'))});
const { ConfigService, standardLayerSpecs } = require(${JSON.stringify(path.join(REPO_ROOT, 'out', 'src', 'core', 'config', 'index.js'))});
const root = ${JSON.stringify(root)};
(async () => {
  const files = new NodeConfigFileSystem();
  const service = new ConfigService(files, { throttleMs: 200 });
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  await service.setSpecs(standardLayerSpecs({
    folders: [{ path: ws, localFile: path.join(root, 'not', 'yet', 'local.mcp.json') }],
    userHome: path.join(root, 'home'),
    env: {},
  }));
  const direct = files.watch(path.join(root, 'a', 'b', 'c.json'), () => {});
  // A change right before dispose leaves a throttled re-read pending: dispose must cancel it too.
  fs.writeFileSync(path.join(ws, '.mcp.json'), '{"mcpServers": {"x": {"command": "y"}}}');
  await new Promise((resolve) => setTimeout(resolve, 30));
  service.dispose();
  direct.dispose();
  ${leakOneWatch ? "files.watch(path.join(ws, '.mcp.json'), () => {});" : ''}
  process.stdout.write('disposed\\n');
})().catch((error) => { console.error(error); process.exit(3); });
`);
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        let timer: NodeJS.Timeout | undefined;
        child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('disposed') && timer === undefined) {
            timer = setTimeout(() => { child.kill(); resolve({ exited: false, code: null, stderr }); }, 2000);
          }
        });
        child.on('error', reject);
        child.on('exit', (code) => {
          if (timer !== undefined && child.killed) return;
          clearTimeout(timer);
          resolve({ exited: true, code, stderr });
        });
      });
    }

    it('leaves nothing behind: the process exits by itself within 2 s', async () => {
      const result = await runChild(false);
      assert.ok(result.exited, `the process was still alive 2 s after dispose; stderr: ${result.stderr}`);
      assert.equal(result.code, 0, result.stderr);
    });

    it('(control) a watch that is not disposed does keep the process alive', async () => {
      const result = await runChild(true);
      assert.equal(result.exited, false, 'a live watch should keep the process running, or the test above proves nothing');
    });
  });
});
