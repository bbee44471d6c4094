// Code mode's printed output is scanned when the script called a tool that brings outside content, and
// only then: a page's injection printed by a script is found, the same text after local tools is not read.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ModelToolCatalog } from '../../src/core/chat';
import { codeRunText, outsideCodeCalls, scanCodeOutput } from '../../src/core/code';

const page = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'tool-outputs', 'poisoned-page.html'), 'utf8');
const ordinary = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'tool-outputs', 'ordinary-news-article.html'), 'utf8');

const schema = { type: 'object', properties: {} } as const;
const catalog = new ModelToolCatalog([
  { id: 'web', state: { kind: 'ready' }, catalog: { tools: [{ name: 'fetch', inputSchema: schema, annotations: { openWorldHint: true } }], resources: [], resourceTemplates: [], prompts: [] } },
  { id: 'notes', state: { kind: 'ready' }, catalog: {
    tools: [
      { name: 'read_note', inputSchema: schema, annotations: { openWorldHint: false } },
      { name: 'count', inputSchema: schema },
    ], resources: [], resourceTemplates: [], prompts: [],
  } },
]);

describe('code mode: the printed output is scanned after outside content', () => {
  it('names the calls to tools that bring outside content, each once, and reads a tool gone from the catalog as outside', () => {
    assert.deepEqual(outsideCodeCalls([
      { server: 'notes', tool: 'read_note', ok: true },
      { server: 'web', tool: 'fetch', ok: true },
      { server: 'notes', tool: 'count', ok: false, error: 'no' },
      { server: 'web', tool: 'fetch', ok: true },
      { server: 'gone', tool: 'x', ok: true },
    ], catalog), ['web › fetch', 'notes › count', 'gone › x']);
    assert.deepEqual(outsideCodeCalls([{ server: 'notes', tool: 'read_note', ok: true }], catalog), []);
  });

  it('finds a poisoned page printed by a script that fetched it', () => {
    const result = { output: page, calls: [{ server: 'web', tool: 'fetch', ok: true }] };
    const scanned = scanCodeOutput(result, codeRunText(result), catalog);
    assert.deepEqual(scanned.outside, ['web › fetch']);
    assert.ok(scanned.findings.length > 0, 'the page is flagged');
  });

  it('does not flag an ordinary page, and does not read the output of a run that stayed on this machine', () => {
    const fetched = { output: ordinary, calls: [{ server: 'web', tool: 'fetch', ok: true }] };
    assert.deepEqual(scanCodeOutput(fetched, codeRunText(fetched), catalog).findings, []);
    const local = { output: page, calls: [{ server: 'notes', tool: 'read_note', ok: true }] };
    assert.deepEqual(scanCodeOutput(local, codeRunText(local), catalog), { findings: [], outside: [] });
  });
});
