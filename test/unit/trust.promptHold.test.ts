// No trust prompt for a half-typed edit: promptHold's decision (unsaved, not parsing, changed a moment
// ago) and TrustPrompts over it with a fake clock — the servers of a held file wait (and say so to the
// views), the prompt comes once the file is saved, valid and settled, and a file that changed on disk
// right before the prompt waits again, so the prompt shows what is on disk.
import * as assert from 'node:assert/strict';
import type { EffectiveServer } from '../../src/core/config/types';
import { PROMPT_SETTLE_MS, promptHold, WAITING_LABEL } from '../../src/core/trust/promptHold';
import { TrustGate, trustDisplay } from '../../src/core/trust/trustGate';
import { TrustPrompts, type TrustPromptRequest } from '../../src/core/trust/trustPrompts';
import { TrustStore, type DocumentStorage } from '../../src/core/trust/trustStore';
import { TEST_DIGEST } from './helpers/digest';
import { FakeClock, flush, makeServer } from './helpers/lifecycle';

const FILE = '/ws/.mcp.json';

class MemoryStorage implements DocumentStorage {
  private document: unknown;
  read(): Promise<unknown> { return Promise.resolve(this.document); }
  write(document: unknown): Promise<void> { this.document = JSON.parse(JSON.stringify(document)); return Promise.resolve(); }
}

const project = (id: string, command = `run-${id}`): EffectiveServer => {
  const server = makeServer(id, { scope: 'project', folder: '/ws' }, { command });
  return { ...server, source: { ...server.source, file: FILE } };
};

async function setup(servers: EffectiveServer[]) {
  const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
  const gate = new TrustGate(store, { isRestricted: () => false, isVerified: () => false, dangerFlags: () => [] });
  const clock = new FakeClock();
  const config = { servers, shadowed: [] };
  const file = { dirty: false, usable: true, changedOnDisk: [] as string[][] };
  const asked: TrustPromptRequest[] = [];
  let waitingEvents = 0;
  const prompts = new TrustPrompts({
    config: () => config,
    gate,
    store,
    prompter: () => ({ ask: (request) => { asked.push(request); return Promise.resolve('later'); } }),
    review: () => Promise.resolve(),
    onProblem: (message) => assert.fail(message),
    files: {
      facts: () => ({ dirty: file.dirty, usable: file.usable }),
      changedOnDisk: (files) => Promise.resolve(file.changedOnDisk.shift()?.filter((f) => files.includes(f)) ?? []),
    },
    clock,
  });
  prompts.onDidChangeWaiting(() => { waitingEvents++; });
  return { gate, clock, config, file, asked, prompts, waitingEvents: () => waitingEvents };
}

describe('promptHold (whether a config file may be asked about now)', () => {
  const now = 10_000;

  it('waits while an editor holds unsaved changes, whatever else holds', () => {
    assert.deepEqual(promptHold({ dirty: true, usable: false, lastChangeAt: now }, now), { kind: 'wait', reason: 'unsaved' });
  });

  it('waits while the file does not parse', () => {
    assert.deepEqual(promptHold({ dirty: false, usable: false, lastChangeAt: undefined }, now), { kind: 'wait', reason: 'invalid' });
  });

  it('waits until the settle delay after the last change has passed, and says when to look again', () => {
    assert.deepEqual(promptHold({ dirty: false, usable: true, lastChangeAt: now - 100 }, now, 1000), { kind: 'wait', reason: 'settling', retryAt: now + 900 });
    assert.deepEqual(promptHold({ dirty: false, usable: true, lastChangeAt: now - 1000 }, now, 1000), { kind: 'ready' });
  });

  it('is ready for a saved, valid file never seen changing (a workspace opened)', () => {
    assert.deepEqual(promptHold({ dirty: false, usable: true, lastChangeAt: undefined }, now), { kind: 'ready' });
  });

  it('a held server that needs trust reads "changed — waiting for trust" in the views; an allowed one shows nothing', () => {
    const display = trustDisplay({ state: 'needsTrust', reason: 'a project server that was never trusted' }, 'settling');
    assert.equal(display?.label, WAITING_LABEL);
    assert.equal(WAITING_LABEL, 'changed — waiting for trust');
    assert.match(display?.reason ?? '', /unchanged for a moment/);
    assert.equal(trustDisplay({ state: 'allowed', reason: 'you trusted this exact definition' }, 'settling'), undefined);
    assert.equal(trustDisplay({ state: 'needsTrust', reason: 'never trusted' })?.label, 'needs trust');
  });
});

describe('TrustPrompts while a config file is edited', () => {
  it('a changed file is asked about only once it stayed unchanged for the settle delay; meanwhile its servers wait', async () => {
    const t = await setup([project('a')]);
    t.prompts.touch(FILE);
    await flush();
    assert.equal(t.asked.length, 0, 'no prompt right after the change');
    assert.equal(t.prompts.waiting('a'), 'settling');
    assert.equal(t.waitingEvents(), 1, 'the views were told');
    await t.clock.tick(PROMPT_SETTLE_MS / 2);
    t.prompts.touch(FILE); // another autosave: the delay starts again
    await t.clock.tick(PROMPT_SETTLE_MS - 1);
    assert.equal(t.asked.length, 0, 'still being edited');
    await t.clock.tick(1);
    assert.equal(t.asked.length, 1, 'asked once the file settled');
    assert.deepEqual(t.asked[0].entries.map((entry) => entry.server.id), ['a']);
    assert.equal(t.prompts.waiting('a'), undefined, 'no longer waiting');
  });

  it('never asks while an editor holds unsaved changes of the file, however long', async () => {
    const t = await setup([project('a')]);
    t.file.dirty = true;
    t.prompts.touch(FILE);
    await t.clock.tick(PROMPT_SETTLE_MS * 10);
    await t.prompts.check();
    assert.equal(t.asked.length, 0);
    assert.equal(t.prompts.waiting('a'), 'unsaved');
    // Saved: the save is a change, so it settles first.
    t.file.dirty = false;
    t.prompts.touch(FILE);
    await flush();
    assert.equal(t.asked.length, 0);
    await t.clock.tick(PROMPT_SETTLE_MS);
    assert.equal(t.asked.length, 1);
  });

  it('never asks about a file that does not parse (the last valid servers it kept wait too)', async () => {
    const t = await setup([project('a')]);
    t.file.usable = false;
    t.prompts.touch(FILE);
    await t.clock.tick(PROMPT_SETTLE_MS * 3);
    assert.equal(t.asked.length, 0);
    assert.equal(t.prompts.waiting('a'), 'invalid');
    t.file.usable = true;
    t.prompts.touch(FILE);
    await t.clock.tick(PROMPT_SETTLE_MS);
    assert.equal(t.asked.length, 1);
  });

  it('reads the file again right before the prompt: changed on disk meanwhile, it waits again and then shows the new definition', async () => {
    const t = await setup([project('a', 'np')]);
    t.file.changedOnDisk = [[FILE]]; // the next save is already on disk, not yet in the configuration
    await t.prompts.check();
    assert.equal(t.asked.length, 0, 'not asked about the text that is no longer on disk');
    assert.equal(t.prompts.waiting('a'), 'settling');
    // The configuration catches up with the file on disk.
    t.config.servers = [project('a', 'npx')];
    await t.clock.tick(PROMPT_SETTLE_MS);
    assert.equal(t.asked.length, 1);
    assert.equal(t.asked[0].entries[0].server.launch.command, 'npx', 'the prompt shows the definition on disk');
    assert.match(t.asked[0].text.detail, /npx/);
  });

  it('a server a person asked to start is asked about at once, even while its file is being edited', async () => {
    const t = await setup([project('a')]);
    t.file.dirty = true;
    t.prompts.touch(FILE);
    await flush();
    const answer = await t.prompts.ask(['a']);
    assert.equal(answer, 'later');
    assert.equal(t.asked.length, 1);
  });

  it('settled() resolves only after the held file was asked about: a question of the same moment comes right after the prompt', async () => {
    const t = await setup([project('a')]);
    t.prompts.touch(FILE);
    let settled = false;
    const done = t.prompts.settled().then(() => { settled = true; });
    await flush();
    assert.equal(settled, false, 'a prompt is still to come');
    await t.clock.tick(PROMPT_SETTLE_MS);
    await done;
    assert.equal(t.asked.length, 1, 'the prompt came first');
  });

  it('a file opened unchanged (no edit seen) is asked about at once, as before', async () => {
    const t = await setup([project('a')]);
    await t.prompts.check();
    assert.equal(t.asked.length, 1);
    assert.equal(t.prompts.waiting('a'), undefined);
    assert.deepEqual(t.clock.pending(), [], 'no timer left behind');
  });
});
