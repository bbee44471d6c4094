// Server text in notifications: after plainText, VS Code finds no link, no command and no icon in it.
// The oracle below is what VS Code 1.139 does with a notification string (parseLinkedText's pattern,
// newlines made spaces first, then theme icons in the text between links), copied from its workbench.
import * as assert from 'node:assert/strict';
import { plainText } from '../../src/vscode/ui/plainText';

const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const VSCODE_ICON = /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g;

/** The links and icons VS Code would render in `text` shown as a notification. */
function rendered(text: string): { links: string[]; icons: string[] } {
  const flat = text.replace(/(\r\n|\n|\r)/gm, ' ').trim();
  const links = [...flat.matchAll(VSCODE_LINK)].map((m) => m[2] ?? '');
  const between = flat.split(VSCODE_LINK).join(' ');
  const icons = [...between.matchAll(VSCODE_ICON)].filter((m) => m[1] === undefined).map((m) => m[2] ?? '');
  return { links, icons };
}

const HOSTILE = [
  '[Sign in again](command:switchboard.exportCallHistory?%5B%22%2Ftmp%2Fx.json%22%5D "https://login.example.com")',
  "[Sign in again](command:switchboard.acceptToolChange?%5B%22a%22%5D 'https://login.example.com')",
  '[[nested](command:a)](command:b)',
  '[a [b](command:x)',
  '\\[escaped\\](command:x)',
  '\\[half](command:x)',
  '[x](COMMAND:workbench.action.terminal.new)',
  '[x](HtTpS://evil.example/)',
  '[x](http://evil.example/)',
  '[x](file:///etc/passwd)',
  '[x\n](command:a)',
  '[x]\r\n(command:a)',
  'ok [one](command:a) and [two](command:b "t") end',
  '$(loading~spin) Signed in $(check)',
  '[$(key) Sign in](command:a)',
];

describe('plainText: server text shows as text in notifications', () => {
  it('the oracle finds the links and icons in the raw hostile strings (so the check can fail)', () => {
    for (const text of HOSTILE.filter((t) => !t.startsWith('$(') && !t.includes(']\r\n('))) {
      assert.ok(rendered(text).links.length > 0, `a link in ${JSON.stringify(text)}`);
    }
    assert.deepEqual(rendered('$(loading~spin) Signed in $(check)').icons, ['loading~spin', 'check']);
  });

  it('leaves no link, command or icon in any of them', () => {
    for (const text of HOSTILE) {
      assert.deepEqual(rendered(plainText(text)), { links: [], icons: [] }, JSON.stringify(text));
    }
  });

  it('keeps every character a person should read, and changes visibly where it changes', () => {
    assert.equal(plainText('[Sign in](command:x "y")'), '[Sign in] (command:x "y")');
    assert.equal(plainText('$(check) done'), '\\$(check) done');
    assert.equal(plainText('\\$(check) already escaped'), '\\$(check) already escaped');
  });

  it('changes nothing that VS Code shows as text anyway', () => {
    for (const text of [
      'MCP server "memory" failed to start: spawn npx ENOENT',
      'see https://example.com/docs (or http://localhost:3000)',
      '<a href="command:workbench.action.terminal.new">click</a>',
      '<https://evil.example/> and <command:x>',
      '**bold** _it_ `code` # heading',
      'arrays like a[0] (index) and f(x) are fine',
      '$5 (five dollars) and $(not an icon)',
    ]) assert.equal(plainText(text), text);
  });

  it('is idempotent', () => {
    for (const text of HOSTILE) assert.equal(plainText(plainText(text)), plainText(text));
  });

  it('random mixes of link and icon syntax never render as a link or an icon', () => {
    const pieces = ['[', ']', '(', ')', '](', '\\', '"', "'", ' ', '\n', 'command:a', 'https://e', 'file:/x', 'x', '$(', 'check', '~spin', '$'];
    let seed = 15;
    const next = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    for (let i = 0; i < 5000; i++) {
      const text = Array.from({ length: 1 + next(24) }, () => pieces[next(pieces.length)]).join('');
      assert.deepEqual(rendered(plainText(text)), { links: [], icons: [] }, JSON.stringify(text));
    }
  });
});

describe('plainText: a status message keeps its own leading icon', () => {
  it('keeps the first icon only when asked, and only at the start', () => {
    assert.equal(plainText('$(check) "x" $(key) [a](command:b)', { keepLeadingIcon: true }), '$(check) "x" \\$(key) [a] (command:b)');
    assert.equal(plainText('$(check) done'), '\\$(check) done');
    assert.equal(plainText('"x" $(check)', { keepLeadingIcon: true }), '"x" \\$(check)');
  });
});
