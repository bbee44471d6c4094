// Sampling in the core: what a person reads of a request, the per-server rate limit, the cards.
import * as assert from 'node:assert/strict';
import type { ServerIdentity } from '../../src/core/approvals/serverIdentity';
import { describeContent, SamplingBroker, SamplingCancelledError, SamplingRateLimit, samplingAlwaysAllows, toSamplingCards, withSamplingAlways, CARD_MESSAGE_LIMIT, type SamplingRequest } from '../../src/core/sampling';
import { FakeClock } from './helpers/lifecycle';

describe('sampling', () => {
  it('keeps "always" by the server\'s identity: a project server named like the person\'s own does not inherit it', () => {
    const own: ServerIdentity = { name: 'helper', scope: 'user', file: '/config/user.mcp.json' };
    const lookAlike: ServerIdentity = { name: 'helper', scope: 'project', file: '/repo/.mcp.json' };
    const identities = withSamplingAlways([], own);
    assert.deepEqual(withSamplingAlways(identities, own), identities, 'kept once');
    assert.equal(samplingAlwaysAllows({ identities, legacyNames: [] }, own), true);
    assert.equal(samplingAlwaysAllows({ identities, legacyNames: [] }, lookAlike), false);
    assert.equal(samplingAlwaysAllows({ identities: withSamplingAlways([], lookAlike), legacyNames: [] }, own), false, 'nor the other way round');
    // An "always" kept by name before identities holds for the person's own servers of that name only.
    assert.equal(samplingAlwaysAllows({ identities: [], legacyNames: ['helper'] }, own), true);
    assert.equal(samplingAlwaysAllows({ identities: [], legacyNames: ['helper'] }, { ...own, scope: 'local' }), true);
    assert.equal(samplingAlwaysAllows({ identities: [], legacyNames: ['helper'] }, lookAlike), false);
    assert.equal(samplingAlwaysAllows({ identities: [], legacyNames: ['helper'] }, { ...own, scope: 'plugin' }), false);
  });

  it('shows text as it is and describes what is not text', () => {
    assert.equal(describeContent({ type: 'text', text: 'hello' }), 'hello');
    assert.equal(describeContent({ type: 'image', mimeType: 'image/png', data: 'A'.repeat(4096) }), '[image: image/png, 3.0 KB]');
    assert.equal(describeContent([{ type: 'text', text: 'a' }, { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }]), 'a\n[audio: audio/wav, 3 B]');
    assert.equal(describeContent(null), '');
  });

  it('lets a server make `limit` requests per window, then says how long to wait, per server', () => {
    const clock = new FakeClock();
    const limit = new SamplingRateLimit(clock, 2, 1000);
    assert.deepEqual([limit.take('a'), limit.take('a')], [{ ok: true }, { ok: true }]);
    clock.advance(400);
    assert.deepEqual(limit.take('a'), { ok: false, retryInMs: 600 });
    assert.deepEqual(limit.take('b'), { ok: true }, 'another server has its own count');
    clock.advance(600);
    assert.deepEqual(limit.take('a'), { ok: true }, 'the oldest left the window');
  });

  it('projects requests onto cards: long messages cut, hidden characters shown, plain data', () => {
    const request: SamplingRequest = {
      id: 's1', serverId: 'ws/x', serverName: 'x', createdAt: 1, maxTokens: 100, temperature: 0.2,
      messages: [{ role: 'user', text: 'y'.repeat(CARD_MESSAGE_LIMIT + 10) }, { role: 'assistant', text: 'ok\u202e' }],
      systemPrompt: 'be brief', modelPreferences: { hints: ['claude'], speedPriority: 0.8 }, model: 'copilot/gpt',
    };
    const [card] = toSamplingCards([request]);
    assert.equal(card?.messages[0]?.text.length, CARD_MESSAGE_LIMIT);
    assert.ok(card?.messages[0]?.text.endsWith('…'));
    assert.equal(card?.messages[1]?.text, 'ok\\u{202E}');
    assert.deepEqual([card?.systemPrompt, card?.maxTokens, card?.temperature, card?.model, card?.modelPreferences], ['be brief', 100, 0.2, 'copilot/gpt', { hints: ['claude'], speedPriority: 0.8 }]);
    assert.deepEqual(JSON.parse(JSON.stringify(card)), card);
  });

  it('a request the server withdraws is gone and rejects', async () => {
    const broker = new SamplingBroker();
    const controller = new AbortController();
    const asked = broker.ask({ id: 's', serverId: 'x', serverName: 'x', messages: [], maxTokens: 1, createdAt: 0 }, controller.signal);
    controller.abort();
    await assert.rejects(asked, SamplingCancelledError);
    assert.deepEqual(broker.pending(), []);
    broker.dispose();
  });
});
