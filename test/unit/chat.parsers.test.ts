// The chat's two small languages: `@server:uri` mentions anywhere in a prompt, and
// `/mcp__server__prompt args` at its start. Random input never throws.
import * as assert from 'node:assert/strict';
import { parseMentions, replaceMentions } from '../../src/core/chat/mentions';
import { bindPromptArguments, parseSlashCommand } from '../../src/core/chat/slashCommand';

const pairs = (prompt: string) => parseMentions(prompt).map((m) => [m.server, m.uri]);

describe('parseMentions', () => {
  const cases: [string, string[][]][] = [
    ['read @docs:file:///guide.md please', [['docs', 'file:///guide.md']]],
    ['@everything:demo://resource/static/document/architecture.md', [['everything', 'demo://resource/static/document/architecture.md']]],
    ['compare @a:file:///x.md and @b.c-d_e:https://h/y?q=1#f', [['a', 'file:///x.md'], ['b.c-d_e', 'https://h/y?q=1#f']]],
    ['see @docs:file:///guide.md.', [['docs', 'file:///guide.md']]],
    ['(see @docs:https://x/a_(b))', [['docs', 'https://x/a_(b)']]],
    ['what is in @docs:file:///a.md, @docs:file:///b.md?', [['docs', 'file:///a.md'], ['docs', 'file:///b.md']]],
    ['@docs:<file:///My Documents/notes.md> now', [['docs', 'file:///My Documents/notes.md']]],
    ['mail me@host:file:///x', []],
    ['@mcp hello', []],
    ['@docs:guide.md (no scheme)', []],
    ['@docs: file:///x', []],
    ['@docs:<>', []],
    ['line one\n@notes:memory://today\nline three', [['notes', 'memory://today']]],
    ['["@x:y://z"]', []],
    ['[@x:y://z]', [['x', 'y://z']]],
  ];
  for (const [prompt, expected] of cases) {
    it(JSON.stringify(prompt), () => assert.deepEqual(pairs(prompt), expected));
  }

  it('gives exact offsets, and replaceMentions swaps them out', () => {
    const prompt = 'read @docs:file:///guide.md, then @b:x://y.';
    const mentions = parseMentions(prompt);
    assert.deepEqual(mentions.map((m) => prompt.slice(m.start, m.end)), ['@docs:file:///guide.md', '@b:x://y']);
    assert.equal(replaceMentions(prompt, mentions, (m) => `[${m.server}]`), 'read [docs], then [b].');
  });

  it('never throws on random text (fuzz)', () => {
    const alphabet = ['@', ':', '/', '<', '>', ' ', '\n', 'a', 'Z', '0', '.', '-', '_', '(', ')', '"', 'é', '数', '🚀', '\\', '?', '#'];
    let seed = 42;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
    for (let n = 0; n < 3000; n++) {
      const length = Math.floor(random() * 60);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const mentions = parseMentions(text);
      for (const m of mentions) {
        assert.ok(m.start >= 0 && m.end <= text.length && m.start < m.end, `offsets inside the text: ${JSON.stringify(text)}`);
        assert.ok(text.slice(m.start, m.end).startsWith(`@${m.server}:`));
      }
      assert.equal(typeof replaceMentions(text, mentions, () => ''), 'string');
      assert.doesNotThrow(() => parseSlashCommand(text));
    }
  });
});

describe('parseSlashCommand', () => {
  it('reads the name, positional and key=value arguments', () => {
    assert.deepEqual(parseSlashCommand('/mcp__everything__args-prompt Paris style=formal'), {
      name: 'mcp__everything__args-prompt', positional: ['Paris'], named: { style: 'formal' },
    });
  });

  it('groups quoted values, double quotes with escapes', () => {
    assert.deepEqual(parseSlashCommand(`/p "New York" city='São Paulo' note="say \\"hi\\""`), {
      name: 'p', positional: ['New York'], named: { city: 'São Paulo', note: 'say "hi"' },
    });
  });

  it('keeps a quoted key=value as one positional value', () => {
    assert.deepEqual(parseSlashCommand(`/p "a=b" c`)?.positional, ['a=b', 'c']);
  });

  it('reports an unclosed quote but keeps the command', () => {
    const parsed = parseSlashCommand('/p "open');
    assert.equal(parsed?.name, 'p');
    assert.equal(parsed?.error, 'a double quote is not closed');
  });

  it('is not a command unless the prompt starts with one', () => {
    assert.equal(parseSlashCommand('please /p x'), undefined);
    assert.equal(parseSlashCommand('/p.x y'), undefined);
    assert.deepEqual(parseSlashCommand('  /p'), { name: 'p', positional: [], named: {} });
  });

  it('binds positional values to the declared arguments not already named, and says what is missing or extra', () => {
    const declared = [{ name: 'city', required: true }, { name: 'state' }, { name: 'style', required: true }];
    assert.deepEqual(bindPromptArguments(parseSlashCommand('/p state=CA Paris formal extra bogus=1')!, declared), {
      args: { state: 'CA', city: 'Paris', style: 'formal' }, missing: [], extra: ['extra'], unknown: ['bogus'],
    });
    assert.deepEqual(bindPromptArguments(parseSlashCommand('/p')!, declared).missing, ['city', 'style']);
  });
});
