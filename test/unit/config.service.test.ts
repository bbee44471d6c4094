import * as assert from 'node:assert/strict';
import { ConfigService, type ConfigSnapshot } from '../../src/core/config/service';
import type { LayerSpec } from '../../src/core/config/types';
import { delay, FakeFileSystem, scopeSpec } from './helpers/config';

const THROTTLE = 15;
const PROJECT = '/ws/app/.mcp.json';
const USER = '/home/ada/.mcp.json';

const servers = (...names: string[]): string =>
  JSON.stringify({ mcpServers: Object.fromEntries(names.map((name) => [name, { command: `run-${name}` }])) });

function setup(files: Record<string, string> = { [PROJECT]: servers('a', 'shared'), [USER]: servers('u', 'shared') }) {
  const fs = new FakeFileSystem();
  for (const [file, text] of Object.entries(files)) fs.set(file, text);
  const errors: unknown[] = [];
  const service = new ConfigService(fs, { throttleMs: THROTTLE, onError: (error) => errors.push(error) });
  const events: ConfigSnapshot[] = [];
  service.onDidChange((snapshot) => events.push(snapshot));
  const specs: LayerSpec[] = [scopeSpec('project'), scopeSpec('user')];
  return { fs, service, events, errors, specs };
}

const ids = (snapshot: ConfigSnapshot): string[] => snapshot.servers.map((s) => `${s.scope}:${s.id}`);

describe('ConfigService', () => {
  let dispose: (() => void) | undefined;
  afterEach(() => { dispose?.(); dispose = undefined; });

  it('starts empty at version 0', () => {
    const { service } = setup();
    dispose = () => service.dispose();
    assert.deepEqual(service.current, { servers: [], shadowed: [], problems: [], inputs: [], layers: [], version: 0 });
  });

  it('reads every layer, watches every file and emits one snapshot', async () => {
    const { fs, service, events, specs } = setup();
    dispose = () => service.dispose();
    const inline = scopeSpec('plugin', { file: 'api:pub.tool', inline: servers('p'), root: [] });
    await service.setSpecs([...specs, inline]);
    assert.equal(events.length, 1);
    assert.equal(events[0], service.current);
    assert.equal(service.current.version, 1);
    assert.deepEqual(ids(service.current), ['project:a', 'project:shared', 'user:u', 'plugin:p']);
    assert.deepEqual(service.current.shadowed.map((s) => `${s.scope}:${s.name}`), ['user:shared']);
    assert.deepEqual(service.current.layers.map((l) => l.spec.file), [PROJECT, USER, 'api:pub.tool']);
    assert.deepEqual(fs.reads.sort(), [USER, PROJECT].sort());
    assert.deepEqual([...fs.watchers.keys()].sort(), [USER, PROJECT].sort());
  });

  it('re-reads only the changed file, once per burst, after the throttle', async () => {
    const { fs, service, events, specs } = setup();
    dispose = () => service.dispose();
    await service.setSpecs(specs);
    fs.reads.length = 0;
    fs.write(PROJECT, servers('a'));
    fs.write(PROJECT, servers('a', 'b'));
    fs.write(PROJECT, servers('a', 'b', 'c'));
    assert.deepEqual(fs.reads, [], 'nothing is read before the throttle expires');
    await delay(THROTTLE * 3);
    assert.deepEqual(fs.reads, [PROJECT]);
    assert.equal(events.length, 2);
    assert.equal(service.current.version, 2);
    assert.deepEqual(ids(service.current), ['project:a', 'project:b', 'project:c', 'user:shared', 'user:u']);
  });

  it('keeps a broken file\'s last good servers, reports its problems, and leaves other layers alone', async () => {
    const { fs, service, specs } = setup();
    dispose = () => service.dispose();
    await service.setSpecs(specs);
    const before = service.current.servers.find((s) => s.id === 'a');
    fs.write(PROJECT, '{ "mcpServers": { "a": { "command": "run-a" } }');
    fs.write(USER, servers('u', 'v'));
    await delay(THROTTLE * 3);
    const snapshot = service.current;
    assert.deepEqual(ids(snapshot), ['project:a', 'project:shared', 'user:u', 'user:v']);
    assert.deepEqual(snapshot.servers.find((s) => s.id === 'a'), before);
    assert.deepEqual(snapshot.problems.map((p) => [p.code, p.severity, p.file]), [
      ['syntax', 'error', PROJECT],
      ['kept-last-good', 'warning', PROJECT],
    ]);
    assert.match(snapshot.problems[1].message, /Showing the last valid servers from this file \("a", "shared"\) until the error is fixed/);
    assert.equal(snapshot.layers[0].usable, false);

    fs.write(PROJECT, servers('a2'));
    await delay(THROTTLE * 3);
    assert.deepEqual(ids(service.current), ['project:a2', 'user:u', 'user:v']);
    assert.deepEqual(service.current.problems, []);
  });

  it('shows only problems for a file that was broken from the start', async () => {
    const { service, specs } = setup({ [PROJECT]: '[]', [USER]: servers('u') });
    dispose = () => service.dispose();
    await service.setSpecs(specs);
    assert.deepEqual(ids(service.current), ['user:u']);
    assert.deepEqual(service.current.problems.map((p) => p.code), ['not-an-object']);
  });

  it('removes a deleted file\'s servers, and the servers it shadowed come back', async () => {
    const { fs, service, specs } = setup();
    dispose = () => service.dispose();
    await service.setSpecs(specs);
    fs.remove(PROJECT);
    await delay(THROTTLE * 3);
    assert.deepEqual(ids(service.current), ['user:shared', 'user:u']);
    assert.deepEqual(service.current.shadowed, []);
    assert.deepEqual(service.current.problems, []);
  });

  it('turns a failing read into a problem, without an unhandled rejection', async () => {
    const { fs, service, specs } = setup();
    dispose = () => service.dispose();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => { unhandled.push(reason); };
    process.on('unhandledRejection', onUnhandled);
    try {
      fs.failReads.add(USER);
      await service.setSpecs(specs);
      assert.deepEqual(service.current.problems.map((p) => [p.code, p.file]), [['unreadable', USER]]);
      assert.match(service.current.problems[0].message, /EACCES/);
      assert.deepEqual(ids(service.current), ['project:a', 'project:shared']);
      fs.fire(USER);
      await delay(THROTTLE * 3);
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('does not emit when a saved file did not change', async () => {
    const { fs, service, events, specs } = setup();
    dispose = () => service.dispose();
    await service.setSpecs(specs);
    fs.fire(PROJECT);
    await delay(THROTTLE * 3);
    assert.deepEqual(fs.reads.filter((f) => f === PROJECT).length, 2);
    assert.equal(events.length, 1);
  });

  it('tells whether a file as it is now is what the configuration was read from (the trust prompt reads it again)', async () => {
    const { fs, service, specs } = setup();
    dispose = () => service.dispose();
    await service.setSpecs(specs);
    assert.equal(service.isCurrentRead(PROJECT, { kind: 'text', text: servers('a', 'shared') }), true);
    // Changed on disk, the re-read still to come: not what the configuration shows.
    fs.set(PROJECT, servers('b'));
    assert.equal(service.isCurrentRead(PROJECT, { kind: 'text', text: servers('b') }), false);
    fs.fire(PROJECT);
    await delay(THROTTLE * 3);
    assert.equal(service.isCurrentRead(PROJECT, { kind: 'text', text: servers('b') }), true, 'caught up after the re-read');
    assert.equal(service.isCurrentRead(PROJECT, { kind: 'missing' }), false);
  });

  it('reads a file again when it changes while being read', async () => {
    const { fs, service, specs } = setup();
    dispose = () => service.dispose();
    await service.setSpecs(specs);
    const read = fs.read.bind(fs);
    let changedDuringRead = false;
    fs.read = async (file, max) => {
      if (file === PROJECT && !changedDuringRead) {
        changedDuringRead = true;
        const result = await read(file, max);
        fs.write(PROJECT, servers('late'));
        return result;
      }
      return read(file, max);
    };
    fs.write(PROJECT, servers('early'));
    await delay(THROTTLE * 5);
    assert.deepEqual(ids(service.current).filter((id) => id.startsWith('project:')), ['project:late']);
  });

  it('reload re-reads every layer and emits', async () => {
    const { fs, service, events, specs } = setup();
    dispose = () => service.dispose();
    await service.setSpecs(specs);
    fs.set(USER, servers('changed'));
    await service.reload();
    assert.equal(events.length, 2);
    assert.deepEqual(ids(service.current), ['project:a', 'project:shared', 'user:changed']);
  });

  it('re-watches on setSpecs and keeps last good servers of a file that stays configured', async () => {
    const { fs, service, specs } = setup();
    dispose = () => service.dispose();
    await service.setSpecs(specs);
    fs.set(PROJECT, '{ broken');
    await service.setSpecs([specs[0]]);
    assert.deepEqual(ids(service.current), ['project:a', 'project:shared']);
    assert.deepEqual(service.current.problems.map((p) => p.code), ['syntax', 'syntax', 'kept-last-good']);
    assert.deepEqual([...fs.watchers.entries()].filter(([, set]) => set.size > 0).map(([file]) => file), [PROJECT]);
  });

  it('reports a file it cannot watch, and still reads it', async () => {
    const { fs, service, specs } = setup();
    dispose = () => service.dispose();
    fs.failWatches.add(USER);
    await service.setSpecs(specs);
    assert.deepEqual(service.current.problems.map((p) => [p.code, p.severity, p.file]), [['watch-failed', 'warning', USER]]);
    assert.deepEqual(ids(service.current), ['project:a', 'project:shared', 'user:u']);
  });

  it('passes a throwing listener\'s error to onError and keeps working', async () => {
    const { fs, service, errors, specs } = setup();
    dispose = () => service.dispose();
    service.onDidChange(() => { throw new Error('listener bug'); });
    await service.setSpecs(specs);
    fs.write(PROJECT, servers('x'));
    await delay(THROTTLE * 3);
    assert.deepEqual(errors.map((e) => (e as Error).message), ['listener bug', 'listener bug']);
    assert.deepEqual(ids(service.current)[0], 'project:x');
  });

  it('dispose unwatches, cancels pending re-reads and emits nothing more', async () => {
    const { fs, service, events, specs } = setup();
    await service.setSpecs(specs);
    fs.write(PROJECT, servers('z'));
    fs.reads.length = 0;
    service.dispose();
    assert.equal(fs.watcherCount(), 0);
    await delay(THROTTLE * 3);
    assert.deepEqual(fs.reads, []);
    assert.equal(events.length, 1);
    await service.setSpecs(specs);
    assert.equal(events.length, 1);
  });
});
