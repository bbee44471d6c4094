// The output limiter: text within the limit passes whole; a larger result is saved and replaced by its
// head, size and path; a tool may raise its own limit; data, links and structured content are kept.
import * as assert from 'node:assert/strict';
import { effectiveLimit, limitToolOutput, MAX_RESULT_SIZE_META } from '../../src/core/chat/outputLimit';
import type { CallToolResult } from '../../src/core/lifecycle/types';

function saver() {
  const saved: string[] = [];
  return { saved, save: async (text: string) => { saved.push(text); return `/storage/results/${saved.length}.txt`; } };
}

describe('limitToolOutput', () => {
  it('passes a result within the limit whole, saving nothing', async () => {
    const s = saver();
    const out = await limitToolOutput({ content: [{ type: 'text', text: 'hello' }] }, { maxChars: 10, save: s.save });
    assert.deepEqual(out, { parts: [{ kind: 'text', text: 'hello' }], totalChars: 5, isError: false });
    assert.deepEqual(s.saved, []);
  });

  it('saves a larger result and gives its head, its size and the path, within the limit', async () => {
    const s = saver();
    const text = 'x'.repeat(5000);
    const out = await limitToolOutput({ content: [{ type: 'text', text }] }, { maxChars: 1000, save: s.save });
    assert.deepEqual(s.saved, [text]);
    assert.equal(out.savedTo, '/storage/results/1.txt');
    assert.equal(out.totalChars, 5000);
    const [part] = out.parts;
    assert.equal(part.kind, 'text');
    const shown = (part as { text: string }).text;
    assert.ok(shown.length <= 1000, `${shown.length} characters`);
    assert.ok(shown.startsWith('xxxx'));
    assert.match(shown, /The result has 5,000 characters; this is its first part\. The whole result is saved in \/storage\/results\/1\.txt\./);
  });

  it('lets a tool raise its own limit through _meta, never lower it', () => {
    assert.equal(effectiveLimit(100, { [MAX_RESULT_SIZE_META]: 500 }), 500);
    assert.equal(effectiveLimit(100, { [MAX_RESULT_SIZE_META]: 50 }), 100);
    assert.equal(effectiveLimit(100, { [MAX_RESULT_SIZE_META]: 'lots' }), 100);
    assert.equal(effectiveLimit(100), 100);
  });

  it('keeps a result the tool\'s _meta allows', async () => {
    const s = saver();
    const out = await limitToolOutput({ content: [{ type: 'text', text: 'y'.repeat(300) }] }, { maxChars: 100, toolMeta: { [MAX_RESULT_SIZE_META]: 1000 }, save: s.save });
    assert.equal(out.savedTo, undefined);
    assert.equal((out.parts[0] as { text: string }).text.length, 300);
  });

  it('passes images and audio as data parts, links as references, embedded resources by kind', async () => {
    const result: CallToolResult = {
      content: [
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a.md', name: 'a.md', mimeType: 'text/markdown' },
        { type: 'resource', resource: { uri: 'memo://1', text: 'note' } },
        { type: 'resource', resource: { uri: 'memo://2', blob: 'AAAA', mimeType: 'application/pdf' } },
        { type: 'something-new', data: 1 },
      ],
    };
    const out = await limitToolOutput(result, { maxChars: 1000, save: saver().save });
    assert.deepEqual(out.parts.map((p) => p.kind === 'data' ? [p.kind, p.mimeType, p.description] : p.kind === 'reference' ? [p.kind, p.uri, p.name] : [p.kind, p.text]), [
      ['data', 'image/png', 'image (image/png, 8 bytes)'],
      ['data', 'audio/wav', 'audio (audio/wav, 4 bytes)'],
      ['reference', 'file:///a.md', 'a.md'],
      ['text', '[memo://1]\nnote'],
      ['data', 'application/pdf', 'memo://2 (application/pdf, 3 bytes)'],
    ]);
  });

  it('uses the structured content when the tool declares an output schema, keeping images beside it', async () => {
    const result: CallToolResult = { content: [{ type: 'text', text: '{"t": 21}' }, { type: 'image', data: 'AA==', mimeType: 'image/png' }], structuredContent: { temperature: 21 } };
    const withSchema = await limitToolOutput(result, { maxChars: 1000, hasOutputSchema: true, save: saver().save });
    assert.deepEqual(withSchema.parts.map((p) => p.kind), ['text', 'data']);
    assert.equal((withSchema.parts[0] as { text: string }).text, '{"temperature":21}');
    const without = await limitToolOutput(result, { maxChars: 1000, save: saver().save });
    assert.equal((without.parts[0] as { text: string }).text, '{"t": 21}');
  });

  it('says when the tool reported an error', async () => {
    const out = await limitToolOutput({ content: [{ type: 'text', text: 'bad input' }], isError: true }, { maxChars: 100, save: saver().save });
    assert.equal(out.isError, true);
  });
});
