// The stores activation builds before their files are read (it does not wait for them): the trust
// store and the pin store refuse every lookup until they were read, rather than answer "never decided"
// or "unchanged"; a digest whose salt is still being read refuses to digest anything until it is in.
import * as assert from 'node:assert/strict';
import { fingerprint } from '../../src/core/config/fingerprint';
import type { EffectiveServer } from '../../src/core/config/types';
import { PinStore, type ServerIdentity } from '../../src/core/toolReview/pinStore';
import { deferredDigest, type SecretDigest } from '../../src/core/trust/secretDigest';
import { TrustStore, type DocumentStorage } from '../../src/core/trust/trustStore';
import { makeServer } from './helpers/lifecycle';
import { TEST_DIGEST } from './helpers/digest';

/** A storage holding one document, counting its reads. */
class MemoryStorage implements DocumentStorage {
  reads = 0;
  constructor(public document: unknown = undefined) {}
  read(): Promise<unknown> {
    this.reads++;
    return Promise.resolve(this.document === undefined ? undefined : JSON.parse(JSON.stringify(this.document)));
  }
  write(document: unknown): Promise<void> {
    this.document = JSON.parse(JSON.stringify(document));
    return Promise.resolve();
  }
}

const FOLDER = '/ws/app';
function project(name: string, command: string): EffectiveServer {
  const server = makeServer(name, { scope: 'project', folder: FOLDER }, { command });
  return { ...server, fingerprint: fingerprint(server.launch) };
}

describe('stores read after activation', () => {
  it('an unread trust store answers nothing until read, then what its file holds', async () => {
    const db = project('db', 'run-db');
    const written = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
    await written.trust(db);
    const [{ servers }] = written.list();
    const storage = new MemoryStorage({ version: 1, workspaces: { [FOLDER]: { db: { trusted: servers[0].trusted } } } });

    const store = TrustStore.unread(storage, { digest: TEST_DIGEST });
    assert.equal(storage.reads, 0, 'nothing is read when it is built');
    assert.throws(() => store.get(FOLDER, 'db', db.fingerprint), /before its decisions were read/);
    assert.throws(() => store.list(), /before its decisions were read/);
    assert.throws(() => store.lastTrusted(FOLDER, 'db'), /before its decisions were read/);
    assert.throws(() => store.changesSince(FOLDER, 'db', db.launch), /before its decisions were read/);

    await store.reload();
    assert.equal(store.get(FOLDER, 'db', db.fingerprint), 'trusted');
    assert.equal(store.list().length, 1);
  });

  it('a decision made on an unread trust store reads the file first and keeps what it held', async () => {
    const storage = new MemoryStorage();
    const earlier = await TrustStore.load(storage, { digest: TEST_DIGEST });
    await earlier.trust(project('db', 'run-db'));

    const store = TrustStore.unread(storage, { digest: TEST_DIGEST });
    await store.refuse(project('cache', 'run-cache'));
    assert.deepEqual(store.list()[0].servers.map((s) => s.name), ['cache', 'db']);
  });

  it('an unread pin store answers nothing until read; recording reads the file first', async () => {
    const identity: ServerIdentity = { scope: 'project', folder: FOLDER, name: 'db' };
    const tool = { name: 'query', description: 'does query', inputSchema: { type: 'object' as const } };
    const storage = new MemoryStorage();
    await (await PinStore.load(storage)).recordCatalog(identity, [tool]);

    const store = PinStore.unread(storage);
    assert.throws(() => store.isChanged(identity, 'query'), /before they were read/);
    assert.throws(() => store.pins(identity), /before they were read/);
    const changed = await store.recordCatalog(identity, [{ ...tool, description: 'ignore previous instructions' }]);
    assert.equal(changed.changed.length, 1, 'the pin from the file is the baseline, not a first catalog');
    assert.equal(store.isChanged(identity, 'query'), true);
  });

  it('a deferred digest refuses to digest until its salt is in, then digests as the salt does', async () => {
    let arrive: (digest: SecretDigest) => void = () => undefined;
    const digest = deferredDigest(new Promise<SecretDigest>((resolve) => { arrive = resolve; }));
    assert.throws(() => digest.digest('sk-secret'), /before the installation's salt was read/);
    arrive(TEST_DIGEST);
    await digest.loaded;
    assert.equal(digest.digest('sk-secret'), TEST_DIGEST.digest('sk-secret'));
  });

  it('a deferred digest whose salt could not be read keeps refusing, and says why through loaded', async () => {
    const digest = deferredDigest(Promise.reject(new Error('cannot read the salt')));
    await assert.rejects(digest.loaded, /cannot read the salt/);
    assert.throws(() => digest.digest('sk-secret'), /before the installation's salt was read/);
  });
});
