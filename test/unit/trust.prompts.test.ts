// When a person is asked to trust project servers (TrustPrompts over the TrustGate and a TrustStore):
// one prompt at a time with every server that needs trust, nothing asked twice in a session after
// "decide later", "Don't trust" remembered until the definition changes, a Start asks even then,
// formatting-only edits never ask again, and a change during an open prompt is asked right after it.
import * as assert from 'node:assert/strict';
import { mergeLayers } from '../../src/core/config/merge';
import type { EffectiveServer, ShadowedServer } from '../../src/core/config/types';
import type { DangerFlag } from '../../src/core/trust/dangerFlags';
import { TrustGate, type TrustGateHost } from '../../src/core/trust/trustGate';
import { TrustPrompts, type TrustAnswer, type TrustPrompter, type TrustPromptRequest } from '../../src/core/trust/trustPrompts';
import { TrustStore, type DocumentStorage } from '../../src/core/trust/trustStore';
import { parseText } from './helpers/config';
import { makeServer } from './helpers/lifecycle';
import { TEST_DIGEST } from './helpers/digest';

class MemoryStorage implements DocumentStorage {
  private document: unknown;
  read(): Promise<unknown> { return Promise.resolve(this.document); }
  write(document: unknown): Promise<void> { this.document = JSON.parse(JSON.stringify(document)); return Promise.resolve(); }
}

/** A prompter that records every prompt and answers from a queue, or holds the prompt open until told. */
class ScriptedPrompter implements TrustPrompter {
  readonly asked: TrustPromptRequest[] = [];
  answers: (TrustAnswer | Error)[] = [];
  private held: ((answer: TrustAnswer) => void)[] = [];
  hold = false;

  ask(request: TrustPromptRequest): Promise<TrustAnswer> {
    this.asked.push(request);
    if (this.hold) return new Promise((resolve) => this.held.push(resolve));
    const answer = this.answers.shift() ?? 'later';
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  }

  release(answer: TrustAnswer): void {
    this.hold = false;
    for (const resolve of this.held.splice(0)) resolve(answer);
  }

  ids(index: number): string[] {
    return this.asked[index].entries.map((entry) => entry.server.id);
  }
}

const host = (overrides: Partial<TrustGateHost> = {}): TrustGateHost => ({
  isRestricted: () => false,
  isVerified: () => false,
  dangerFlags: () => [],
  ...overrides,
});

const project = (id: string, command = `run-${id}`): EffectiveServer => makeServer(id, { scope: 'project', folder: '/ws' }, { command });

async function setup(options: { host?: TrustGateHost; servers?: EffectiveServer[]; shadowed?: ShadowedServer[] } = {}) {
  const store = await TrustStore.load(new MemoryStorage(), { digest: TEST_DIGEST });
  const gate = new TrustGate(store, options.host ?? host());
  const prompter = new ScriptedPrompter();
  const config = { servers: options.servers ?? [], shadowed: options.shadowed ?? [] };
  const reviewed: string[][] = [];
  const problems: string[] = [];
  const prompts = new TrustPrompts({
    config: () => config,
    gate,
    store,
    prompter: () => prompter,
    review: async (entries) => { reviewed.push(entries.map((entry) => entry.server.id)); },
    onProblem: (message) => problems.push(message),
  });
  return { store, gate, prompter, config, prompts, reviewed, problems };
}

describe('TrustPrompts (when a person is asked)', () => {
  it('asks once about every project server that needs trust, and only about those', async () => {
    const user = makeServer('u');
    const t = await setup({ servers: [project('a'), user, project('b')] });
    t.prompter.answers = ['trust'];
    await t.prompts.check();
    assert.equal(t.prompter.asked.length, 1);
    assert.deepEqual(t.prompter.ids(0), ['a', 'b']);
    assert.ok(t.gate.gate(t.config.servers[0]) === 'allowed' && t.gate.gate(t.config.servers[2]) === 'allowed', 'both trusted');
    await t.prompts.check();
    assert.equal(t.prompter.asked.length, 1, 'nothing left to ask');
  });

  it('"decide later" (closing the prompt) is not remembered: nothing is stored, and only this session is spared', async () => {
    const t = await setup({ servers: [project('a')] });
    await t.prompts.check();
    assert.equal(t.prompter.asked.length, 1);
    assert.deepEqual(t.store.list(), [], 'nothing remembered');
    assert.equal(t.gate.decide(t.config.servers[0]).state, 'needsTrust');
    await t.prompts.check();
    assert.equal(t.prompter.asked.length, 1, 'not asked again in this session');
    // A new session (a new TrustPrompts over the same store) asks again.
    const again = new TrustPrompts({
      config: () => t.config, gate: t.gate, store: t.store, prompter: () => t.prompter, review: async () => undefined, onProblem: () => undefined,
    });
    await again.check();
    assert.equal(t.prompter.asked.length, 2);
  });

  it('"Don\'t trust" is remembered for that definition: not asked again until it changes', async () => {
    const t = await setup({ servers: [project('a', 'cmd-1')] });
    t.prompter.answers = ['refuse'];
    await t.prompts.check();
    assert.equal(t.gate.decide(t.config.servers[0]).state, 'refused');
    const fresh = new TrustPrompts({
      config: () => t.config, gate: t.gate, store: t.store, prompter: () => t.prompter, review: async () => undefined, onProblem: () => undefined,
    });
    await fresh.check();
    assert.equal(t.prompter.asked.length, 1, 'a later session does not ask either');
    t.config.servers = [project('a', 'cmd-2')];
    await fresh.check();
    assert.equal(t.prompter.asked.length, 2, 'a changed definition asks again');
  });

  it('whitespace, comment and key-order edits of .mcp.json never ask again', async () => {
    const effective = (text: string): EffectiveServer => mergeLayers([parseText(text)]).servers[0];
    const first = effective('{"mcpServers":{"db":{"command":"node","args":["db.js"],"env":{"A":"1","B":"2"}}}}');
    const t = await setup({ servers: [first] });
    t.prompter.answers = ['trust'];
    await t.prompts.check();
    assert.equal(t.gate.gate(first), 'allowed');
    const edited = effective(`{
      // the database server
      "mcpServers": {
        "db": { "env": { "B": "2", "A": "1" },   "args": [ "db.js" ], /* same */ "command": "node", },
      },
    }`);
    assert.equal(edited.fingerprint, first.fingerprint);
    t.config.servers = [edited];
    await t.prompts.check();
    assert.equal(t.prompter.asked.length, 1, 'not asked again');
    assert.equal(t.gate.gate(edited), 'allowed');
  });

  it('a Start asks about that one server even after "decide later" or "Don\'t trust", and resolves with the answer', async () => {
    const t = await setup({ servers: [project('a'), project('b')] });
    t.prompter.answers = ['later'];
    await t.prompts.check();
    t.prompter.answers = ['refuse'];
    assert.equal(await t.prompts.ask(['a']), 'refuse');
    assert.deepEqual(t.prompter.ids(1), ['a'], 'only the server that was started');
    t.prompter.answers = ['trust'];
    assert.equal(await t.prompts.ask(['a']), 'trust', 'a refused server is asked again when started');
    assert.equal(t.gate.gate(t.config.servers[0]), 'allowed');
    assert.equal(await t.prompts.ask(['a']), undefined, 'a trusted server is not asked about');
    assert.equal(t.prompter.asked.length, 3);
  });

  it('one prompt at a time: what comes up while it is open is asked right after it closes', async () => {
    const t = await setup({ servers: [project('a')] });
    t.prompter.hold = true;
    const first = t.prompts.check();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(t.prompter.asked.length, 1);
    t.config.servers = [project('a'), project('b')];
    void t.prompts.check();
    const started = t.prompts.ask(['a']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(t.prompter.asked.length, 1, 'no second prompt on top of the open one');
    t.prompter.answers = ['trust'];
    t.prompter.release('later');
    await first;
    assert.equal(await started, 'later', 'the Start waiting on the open prompt gets its answer');
    assert.equal(t.prompter.asked.length, 2);
    assert.deepEqual(t.prompter.ids(1), ['b'], 'then the new server alone');
  });

  it('trusts exactly what was shown: a definition changed while the prompt was open is asked about again', async () => {
    const t = await setup({ servers: [project('a', 'cmd-1')] });
    t.prompter.hold = true;
    const done = t.prompts.check();
    await new Promise((resolve) => setImmediate(resolve));
    t.config.servers = [project('a', 'cmd-2')];
    void t.prompts.check();
    t.prompter.answers = ['refuse'];
    t.prompter.release('trust');
    await done;
    assert.equal(t.prompter.asked.length, 2);
    assert.equal(t.prompter.asked[1].entries[0].server.launch.command, 'cmd-2');
    assert.equal(t.gate.decide(project('a', 'cmd-1')).state, 'allowed');
    assert.equal(t.gate.decide(project('a', 'cmd-2')).state, 'refused');
  });

  it('"Review file" opens the definitions and asks no more in this session', async () => {
    const t = await setup({ servers: [project('a')] });
    t.prompter.answers = ['review'];
    await t.prompts.check();
    assert.deepEqual(t.reviewed, [['a']]);
    await t.prompts.check();
    assert.equal(t.prompter.asked.length, 1);
    assert.deepEqual(t.store.list(), []);
  });

  it('a prompt that cannot be shown counts as "decide later" and is reported', async () => {
    const t = await setup({ servers: [project('a')] });
    t.prompter.answers = [new Error('refused to show dialog in tests')];
    await t.prompts.check();
    assert.equal(t.problems.length, 1);
    assert.match(t.problems[0], /could not be shown.*refused to show dialog in tests/);
    assert.equal(t.gate.decide(t.config.servers[0]).state, 'needsTrust');
  });

  it('never asks in Restricted Mode, nor for a verified repository unless the definition is flagged', async () => {
    let restricted = true;
    const flagged: DangerFlag = { id: 'sudo', reason: 'runs a command with elevated privileges' };
    const t = await setup({
      host: host({ isRestricted: () => restricted, isVerified: () => true, dangerFlags: (server) => (server.id === 'bad' ? [flagged] : []) }),
      servers: [project('good'), project('bad')],
    });
    await t.prompts.check();
    assert.equal(t.prompter.asked.length, 0, 'Restricted Mode asks nothing');
    assert.equal(t.gate.decide(t.config.servers[0]).state, 'restricted');
    restricted = false;
    await t.prompts.check();
    assert.equal(t.gate.decide(t.config.servers[0]).state, 'allowed', 'verified and not flagged: allowed without a prompt');
    assert.deepEqual(t.prompter.ids(0), ['bad'], 'the flagged one asks even in a verified repository');
    assert.deepEqual(t.prompter.asked[0].entries[0].flags, [flagged]);
  });

  it('shows which entry a server shadows', async () => {
    const a = project('a');
    const shadowed: ShadowedServer = { name: 'a', scope: 'user', source: { ...a.source, file: '/home/ada/.mcp.json' }, shadowedBy: { id: 'a', scope: 'project', file: '/ws/.mcp.json' } };
    const t = await setup({ servers: [a], shadowed: [shadowed] });
    await t.prompts.check();
    assert.deepEqual(t.prompter.asked[0].entries[0].shadows, [shadowed]);
    assert.match(t.prompter.asked[0].text.detail, /Replaces your user server "a"/);
  });

  it('computes each definition\'s danger flags once', async () => {
    let calls = 0;
    const t = await setup({ host: host({ dangerFlags: () => { calls++; return []; } }), servers: [project('a')] });
    for (let i = 0; i < 5; i++) t.gate.decide(t.config.servers[0]);
    assert.equal(calls, 1);
    t.gate.clearFlags();
    t.gate.decide(t.config.servers[0]);
    assert.equal(calls, 2);
    assert.equal(t.gate.decide(makeServer('u')).state, 'allowed');
    assert.equal(calls, 2, 'servers the person wrote are not scanned');
  });
});
