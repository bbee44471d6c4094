// No keystroke trusts a server: a definition the person is editing in an editor (a keystroke in the
// last minute) is asked about on a card, never in a modal, however long the pause; a change from
// outside still gets the modal; a card trusts exactly the definition it shows; and the modal's first
// button (the one a dialog focuses, which a stray Enter or Space presses) never trusts.
import * as assert from 'node:assert/strict';
import type { EffectiveServer } from '../../src/core/config/types';
import { EDITING_WINDOW_MS, PROMPT_SETTLE_MS, promptHold, REVIEW_LABEL, trustRoute, type EditingFacts } from '../../src/core/trust/promptHold';
import { TRUST_PROMPT_CHOICES } from '../../src/core/trust/promptText';
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

const project = (id: string, args: string[] = []): EffectiveServer => {
  const server = makeServer(id, { scope: 'project', folder: '/ws' }, { command: 'node', args });
  return { ...server, source: { ...server.source, file: FILE } };
};

async function setup(servers: EffectiveServer[]) {
  const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
  const gate = new TrustGate(store, { isRestricted: () => false, isVerified: () => false, dangerFlags: () => [] });
  const clock = new FakeClock();
  const config = { servers, shadowed: [] };
  const file: { dirty: boolean; usable: boolean; editing: EditingFacts | undefined; changedOnDisk: string[][] } = {
    dirty: false, usable: true, editing: undefined, changedOnDisk: [],
  };
  const asked: TrustPromptRequest[] = [];
  const prompts = new TrustPrompts({
    config: () => config,
    gate,
    store,
    prompter: () => ({ ask: (request) => { asked.push(request); return Promise.resolve('later'); } }),
    review: () => Promise.resolve(),
    onProblem: (message) => assert.fail(message),
    files: {
      facts: () => ({ dirty: file.dirty, usable: file.usable, ...(file.editing ? { editing: file.editing } : {}) }),
      changedOnDisk: (files) => Promise.resolve(file.changedOnDisk.shift()?.filter((f) => files.includes(f)) ?? []),
    },
    clock,
  });
  /** A keystroke in the open editor now, then the autosave the configuration reads. */
  const type = (): void => {
    file.editing = { openInEditor: true, lastKeystrokeAt: clock.now() };
    prompts.touch(FILE);
  };
  return { store, gate, clock, config, file, asked, prompts, type };
}

describe('trustRoute (card or modal for a changed definition)', () => {
  const now = 500_000;

  it('a card for a file open in an editor that had a keystroke in the last minute', () => {
    assert.equal(trustRoute({ openInEditor: true, lastKeystrokeAt: now - 2600 }, now), 'card');
    assert.equal(trustRoute({ openInEditor: true, lastKeystrokeAt: now - EDITING_WINDOW_MS }, now), 'card');
    assert.equal(EDITING_WINDOW_MS, 60_000);
  });

  it('the modal for a change from outside: not open, never typed in, or typed in longer ago than a minute', () => {
    assert.equal(trustRoute(undefined, now), 'modal');
    assert.equal(trustRoute({ openInEditor: false, lastKeystrokeAt: now - 100 }, now), 'modal');
    assert.equal(trustRoute({ openInEditor: true, lastKeystrokeAt: undefined }, now), 'modal');
    assert.equal(trustRoute({ openInEditor: true, lastKeystrokeAt: now - EDITING_WINDOW_MS - 1 }, now), 'modal');
  });

  it('promptHold sends an edited file to its card before any other hold, and says "changed — review to trust"', () => {
    const editing = { openInEditor: true, lastKeystrokeAt: now - 10 };
    assert.deepEqual(promptHold({ dirty: false, usable: true, lastChangeAt: now - 5000, editing }, now), { kind: 'wait', reason: 'review' });
    assert.deepEqual(promptHold({ dirty: true, usable: false, lastChangeAt: now, editing }, now), { kind: 'wait', reason: 'review' });
    assert.deepEqual(promptHold({ dirty: false, usable: true, lastChangeAt: now - 5000, editing: { openInEditor: false, lastKeystrokeAt: now - 10 } }, now), { kind: 'ready' });
    const display = trustDisplay({ state: 'needsTrust', reason: 'the definition changed since you trusted it' }, 'review');
    assert.equal(display?.label, REVIEW_LABEL);
    assert.equal(REVIEW_LABEL, 'changed — review to trust');
    assert.match(display?.reason ?? '', /card/);
  });
});

describe('the modal trust prompt\'s buttons', () => {
  it('the first button (focused by the dialog, pressed by a stray Enter or Space) does not trust', () => {
    assert.equal(TRUST_PROMPT_CHOICES[0].title, 'Review…');
    assert.notEqual(TRUST_PROMPT_CHOICES[0].answer, 'trust');
    assert.deepEqual(TRUST_PROMPT_CHOICES.map((choice) => choice.answer), ['review', 'trust', 'refuse']);
  });
});

describe('TrustPrompts: a card for what the person is editing, the modal for changes from outside', () => {
  it('an edited definition is never asked about in a modal, however long the pause after the last keystroke', async () => {
    const t = await setup([project('a', ['/srv.mjs', '/tm'])]);
    t.type();
    await flush();
    assert.equal(t.prompts.waiting('a'), 'review');
    // The pause of the report (2.6 s), then much longer: past the settle delay and the editing window.
    for (const ms of [2600, PROMPT_SETTLE_MS * 4, EDITING_WINDOW_MS * 2]) {
      await t.clock.tick(ms);
      await t.prompts.check();
      assert.equal(t.asked.length, 0, `no modal after ${ms} ms more`);
      assert.equal(t.prompts.waiting('a'), 'review');
    }
    const cards = t.prompts.cards();
    assert.deepEqual(cards.map((card) => card.serverId), ['a']);
    assert.equal(cards[0].fingerprint, t.config.servers[0].fingerprint);
    assert.match(cards[0].definition, /Command: node \/srv\.mjs \/tm/);
    assert.equal(t.gate.decide(t.config.servers[0]).state, 'needsTrust', 'nothing was trusted');
  });

  it('the card shows the change against the trusted definition', async () => {
    const t = await setup([project('a', ['/srv.mjs'])]);
    await t.store.trust(t.config.servers[0]);
    t.config.servers = [project('a', ['/srv.mjs', '/tmp'])];
    t.type();
    await flush();
    const [card] = t.prompts.cards();
    assert.match(card.message, /changed since you trusted it/);
    assert.deepEqual(card.changes, [{ kind: 'added', text: 'args[1] added: "/tmp"' }]);
    assert.equal(card.blocked, undefined);
  });

  it('a change from outside (no keystroke in an open editor) still gets the modal once the file settled', async () => {
    const t = await setup([project('a')]);
    t.prompts.touch(FILE);
    await t.clock.tick(PROMPT_SETTLE_MS);
    assert.equal(t.asked.length, 1);
    assert.deepEqual(t.prompts.cards(), []);
  });

  it('a file open in an editor but last typed in over a minute ago, changed on disk (a pull): the modal', async () => {
    const t = await setup([project('a')]);
    t.file.editing = { openInEditor: true, lastKeystrokeAt: t.clock.now() - EDITING_WINDOW_MS - 1 };
    t.prompts.touch(FILE);
    await t.clock.tick(PROMPT_SETTLE_MS);
    assert.equal(t.asked.length, 1);
  });

  it('Trust and start on the card trusts the definition it showed, and asks nothing else', async () => {
    const t = await setup([project('a', ['/tmp'])]);
    t.type();
    await flush();
    const [card] = t.prompts.cards();
    await t.prompts.answerCard('a', card.fingerprint, 'trust');
    assert.equal(t.gate.decide(t.config.servers[0]).state, 'allowed');
    await t.prompts.check();
    assert.equal(t.prompts.waiting('a'), undefined);
    assert.deepEqual(t.prompts.cards(), []);
    assert.equal(t.asked.length, 0);
  });

  it("Don't trust on the card refuses that definition", async () => {
    const t = await setup([project('a')]);
    t.type();
    await flush();
    await t.prompts.answerCard('a', t.prompts.cards()[0].fingerprint, 'refuse');
    assert.equal(t.gate.decide(t.config.servers[0]).state, 'refused');
  });

  it('a card never trusts another definition than the one it showed, nor unsaved or unparsable text', async () => {
    const t = await setup([project('a', ['/tm'])]);
    t.type();
    await flush();
    const shown = t.prompts.cards()[0].fingerprint;
    // Typing went on: the definition is another one now.
    t.config.servers = [project('a', ['/tmp'])];
    t.type();
    await flush();
    await assert.rejects(t.prompts.answerCard('a', shown, 'trust'), /changed since the card showed it/);
    const next = t.prompts.cards()[0].fingerprint;
    t.file.dirty = true;
    t.type();
    await flush();
    assert.match(t.prompts.cards()[0].blocked ?? '', /unsaved changes/);
    await assert.rejects(t.prompts.answerCard('a', next, 'trust'), /cannot be trusted yet: the file has unsaved changes/);
    t.file.dirty = false;
    t.file.usable = false;
    await assert.rejects(t.prompts.answerCard('a', next, 'trust'), /does not parse/);
    t.file.usable = true;
    t.file.changedOnDisk = [[FILE]];
    await assert.rejects(t.prompts.answerCard('a', next, 'trust'), /changed since the card showed it/);
    await assert.rejects(t.prompts.answerCard('b', next, 'trust'), /no card asks about "b"/);
    assert.equal(t.gate.decide(t.config.servers[0]).state, 'needsTrust', 'nothing was trusted');
    assert.equal(t.asked.length, 0);
  });

  it('"Review…" in the modal moves the definitions to their card: the modal does not come back by itself', async () => {
    const t = await setup([project('a')]);
    let answers = 0;
    const prompts = new TrustPrompts({
      config: () => t.config, gate: t.gate, store: t.store,
      prompter: () => ({ ask: () => { answers++; return Promise.resolve('review'); } }),
      review: () => Promise.resolve(),
      onProblem: (message) => assert.fail(message),
      clock: t.clock,
    });
    await prompts.check();
    await prompts.check();
    assert.equal(answers, 1);
    assert.equal(prompts.waiting('a'), 'review');
    assert.deepEqual(prompts.cards().map((card) => card.serverId), ['a']);
  });

  it('a card does not hold back settled(): it waits for the person, not for the file', async () => {
    const t = await setup([project('a')]);
    t.type();
    await t.prompts.settled();
    assert.equal(t.prompts.waiting('a'), 'review');
  });

  it('a person asking to start a carded server gets the modal at once (a deliberate request)', async () => {
    const t = await setup([project('a')]);
    t.type();
    await flush();
    assert.equal(await t.prompts.ask(['a']), 'later');
    assert.equal(t.asked.length, 1);
  });
});
