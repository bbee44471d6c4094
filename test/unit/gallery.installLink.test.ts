// Install links read as hostile input: VS Code's `mcp/install?{json}` shape and its `name=…&config=…`
// form give the whole definition; oversize, bad JSON, a bad name, an untranslatable definition are clear
// errors; fields that are not installed are listed, never dropped silently.
import * as assert from 'node:assert/strict';
import { InstallLinkError, installLinkQuery, MAX_LINK_BYTES, parseInstallLink } from '../../src/core/gallery';

const link = (value: unknown) => encodeURIComponent(JSON.stringify(value));

describe('install links', () => {
  it('reads VS Code\'s {json} shape: name, the definition and its inputs', () => {
    const parsed = parseInstallLink(link({
      name: 'memory', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { TOKEN: '${input:token}' },
      inputs: [{ id: 'token', type: 'promptString', password: true }, { id: 'unused', type: 'promptString' }],
    }));
    assert.deepEqual(parsed, {
      name: 'memory',
      entry: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { TOKEN: '${input:token}' } },
      inputs: [{ id: 'token', type: 'promptString', password: true }],
      leftOut: ['input "unused" not declared: the definition does not use it'],
    });
  });

  it('reads the name=…&config=… form and a remote server', () => {
    const parsed = parseInstallLink(`name=docs&config=${link({ type: 'http', url: 'https://example.com/mcp', headers: { 'X-Key': '${env:KEY}' } })}`);
    assert.deepEqual(parsed.entry, { type: 'http', url: 'https://example.com/mcp', headers: { 'X-Key': '${env:KEY}' } });
    assert.equal(parsed.name, 'docs');
  });

  it('lists every field it does not install', () => {
    const parsed = parseInstallLink(link({ name: 'x', command: 'run', gallery: 'https://example.com', scope: 'project', autoStart: true }));
    assert.deepEqual(parsed.leftOut, [
      '"gallery" not imported: where VS Code installed it from is not kept',
      '"scope" not imported: not a field Switchboard knows',
      '"autoStart" not imported: not a field Switchboard knows',
    ]);
  });

  it('refuses what it cannot read, saying why', () => {
    const refuses = (query: string, pattern: RegExp) => assert.throws(() => parseInstallLink(query), (error: unknown) => error instanceof InstallLinkError && pattern.test(error.message));
    refuses('%7B%22name%22%3A', /not valid JSON/);
    refuses('%E0%A4%A', /not percent-encoded correctly/);
    refuses(link(['a']), /must be one JSON object/);
    refuses(link({ command: 'x' }), /gives no "name"/);
    refuses(link({ name: 'a/b', command: 'x' }), /the server name "a\/b" has "\/" \(U\+002F\)/);
    refuses(link({ name: 'bell\u0007', command: 'x' }), /has U\+0007 \(a control character\)/);
    refuses(link({ name: 'x'.repeat(101), command: 'x' }), /not usable: it must be 1 to 100 characters/);
    refuses(link({ name: 'x' }), /no definition/);
    refuses(link({ name: 'x', command: 42 }), /"x" cannot be installed: "command" is a number, not a string/);
    refuses(link({ name: 'x', command: 'run', sandboxEnabled: true }), /cannot be installed: "sandboxEnabled": VS Code runs it in a sandbox/);
    refuses(link({ name: 'x', env: { A: 'b' } }), /cannot be installed: it has neither a command nor a URL/);
    refuses(link({ name: 'x', command: 'run', args: ['a'.repeat(MAX_LINK_BYTES)] }), /more than/);
    refuses('name=x', /no "config"/);
  });

  it('refuses a name with a character that could hide or fake text, naming it as an escape', () => {
    const refused = (name: string) => {
      try {
        parseInstallLink(link({ name, command: 'x' }));
      } catch (error) {
        assert.ok(error instanceof InstallLinkError);
        return error.message;
      }
      return assert.fail(`${JSON.stringify(name)} was accepted`);
    };
    assert.equal(refused('git\u202Ebuh'), 'the server name "git\\u{202E}buh" has U+202E (a bidi control, zero-width, tag or other invisible format character); a server name holds only letters A–Z and a–z, digits, ".", "_", "-", "@", "+" and single spaces between words');
    for (const [char, named] of [
      ['\u200B', /U\+200B \(a bidi control, zero-width/], ['\u2066', /U\+2066 \(a bidi control/], ['\u{E0041}', /U\+E0041 \(a bidi control, zero-width, tag/],
      ['\uFE0F', /U\+FE0F \(a variation selector\)/], ['\u2028', /U\+2028 \(a line or paragraph separator\)/], ['\u00A0', /U\+00A0 \(a space other than the plain one\)/],
      ['\u0456', /U\+0456 \(a character outside that set\)/], ['\u0085', /U\+0085 \(a control character\)/], ['$', /"\$" \(U\+0024\)/],
    ] as const) assert.match(refused(`name${char}x`), named);
    assert.match(refused(' lead'), /a space at its start or end, or two in a row/);
    assert.match(refused('two  spaces'), /two in a row/);
    for (const name of ['memory', 'My Server 2', 'a.b_c-d', 'me@work+1']) assert.equal(parseInstallLink(link({ name, command: 'x' })).name, name);
  });

  it('reads a query VS Code already decoded, a JSON holding & and % included', () => {
    const definition = { command: 'run', args: ['a&b', '100%', 'name=x'] };
    assert.deepEqual(parseInstallLink(JSON.stringify({ name: 'x', ...definition }), { decoded: true }).entry, { type: 'stdio', ...definition });
    assert.deepEqual(parseInstallLink(`name=x&config=${JSON.stringify(definition)}`, { decoded: true }).entry, { type: 'stdio', ...definition });
    assert.equal(parseInstallLink(`config=${JSON.stringify(definition)}&name=y`, { decoded: true }).name, 'y');
  });

  it('takes a pasted link of our handler, of VS Code, or of its web redirect, and nothing else', () => {
    const query = link({ name: 'x', command: 'run' });
    for (const prefix of ['vscode://mcp-switchboard.mcp-switchboard/install?', 'vscode:mcp/install?', 'vscode-insiders:mcp/install?', 'https://vscode.dev/redirect/mcp/install?']) {
      assert.equal(installLinkQuery(` ${prefix}${query} `), query);
    }
    assert.throws(() => installLinkQuery(`https://evil.example/mcp/install?${query}`), /not an install link: expected vscode:\/\/mcp-switchboard\.mcp-switchboard\/install\?…/);
  });
});
