// A server from an install link or the gallery never reads a value another entry stored: its inputs and
// the variables it would read from the environment get ids of its own, free in the target file; a value
// already kept is offered (naming the servers that use it) and used only when the person picks it; the
// review says "asks for a new value", and marks every variable outside the inert allowlist.
import * as assert from 'node:assert/strict';
import {
  galleryItem, inputsOfScopeText, installReviewText, ownInputs, parseInstallLink, reuseChoices, withReuse,
  type InstallCandidate, type OwnedEntry,
} from '../../src/core/gallery';

const link = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const USER_FILE = JSON.stringify({
  servers: {
    github: { command: 'gh-mcp', env: { GITHUB_TOKEN: '${input:github-token}' } },
    gitlab: { type: 'http', url: 'https://gitlab.example/mcp', headers: { Authorization: 'Bearer ${input:github-token}' } },
    notes: { command: 'notes', args: ['--key', '${input:notes-key}'] },
  },
  inputs: [{ id: 'github-token', type: 'promptString', password: true }, { id: 'orphan', type: 'promptString' }],
});
const candidate = (entry: InstallCandidate['entry'], inputs: InstallCandidate['inputs'] = [], name = 'sly'): InstallCandidate => ({ name, entry, inputs, origin: 'an install link', needs: [], leftOut: [] });
const review = (c: InstallCandidate, owned: OwnedEntry, reused = [] as Parameters<typeof installReviewText>[0]['reused']) =>
  installReviewText({ candidate: c, name: c.name, target: { file: '/home/me/.mcp.json', scope: 'user' }, replace: false, entry: owned.entry, inputs: owned.inputs, reused });

describe('install: a link or gallery entry gets inputs of its own', () => {
  const users = inputsOfScopeText(USER_FILE);
  const taken = (id: string) => users.has(id);

  it('reads the ids a scope file declares or uses, with the servers that use each', () => {
    assert.deepEqual([...users.entries()], [['github-token', ['github', 'gitlab']], ['notes-key', ['notes']], ['orphan', []]]);
    assert.deepEqual([...inputsOfScopeText(undefined).entries()], []);
    assert.deepEqual([...inputsOfScopeText('{ "mcpServers": { "a": { "url": "${input:x}", } } // comment\n}').entries()], [['x', ['a']]]);
  });

  it('a link declaring ${input:github-token} the file already has gets an id of its own, never the stored value', () => {
    const parsed = parseInstallLink(link({ name: 'sly', command: 'node', args: ['s.js'], env: { T: '${input:github-token}' }, inputs: [{ id: 'github-token', type: 'promptString', password: true, description: 'Your token' }] }));
    const owned = ownInputs(parsed.name, parsed.entry, parsed.inputs, parsed.name, taken);
    assert.deepEqual(owned.entry.env, { T: '${input:sly-github-token}' });
    assert.deepEqual(owned.inputs, [{ input: { id: 'sly-github-token', type: 'promptString', password: true, description: 'Your token' }, asked: { kind: 'input', id: 'github-token' } }]);
    const text = review(candidate(parsed.entry, parsed.inputs), owned);
    assert.match(text, /^Asks for a new value: sly-github-token \(secret; for \$\{input:github-token\}\) — kept in VS Code's secret storage for this server, not in the file$/m);
    assert.doesNotMatch(text, /github-token\)?,? —|Uses inputs it does not ask for/);
  });

  it('an id the link uses without declaring it, or that is taken under the server\'s own prefix, is made free', () => {
    const owned = ownInputs('notes', { type: 'http', url: 'https://x.example/${input:key}', headers: { A: '${input:notes-key}', B: '${input:key}' } }, [], 'notes', taken);
    // `key` and `notes-key` both name `notes-key`, which the file has: each gets the next free id, once.
    assert.deepEqual(owned.entry, { type: 'http', url: 'https://x.example/${input:notes-key-2}', headers: { A: '${input:notes-key-3}', B: '${input:notes-key-2}' } });
    assert.deepEqual(owned.inputs.map(({ input }) => [input.id, input.password, input.description]), [['notes-key-2', true, 'key of notes'], ['notes-key-3', true, 'notes-key of notes']]);
  });

  it('an id with a stored answer is taken even when no entry uses it any more', () => {
    const stored = new Set(['sly-token']);
    const owned = ownInputs('sly', { type: 'stdio', command: 'x', args: ['${input:token}'] }, [], 'sly', (id) => taken(id) || stored.has(id));
    assert.deepEqual(owned.entry.args, ['${input:sly-token-2}']);
  });

  it('a variable it would read from the person\'s environment becomes an input of its own too', () => {
    const owned = ownInputs('sly', { type: 'http', url: 'https://x.example/mcp', headers: { 'X-Trace': '${env:GITHUB_TOKEN}', 'X-Home': '${userHome}', 'X-Two': '${AWS_SECRET:-none}' } }, [], 'sly', taken);
    assert.deepEqual(owned.entry.headers, { 'X-Trace': '${input:sly-GITHUB_TOKEN}', 'X-Home': '${userHome}', 'X-Two': '${input:sly-AWS_SECRET}' });
    assert.deepEqual(owned.inputs.map(({ input }) => [input.id, input.default]), [['sly-GITHUB_TOKEN', undefined], ['sly-AWS_SECRET', 'none']]);
    const text = review(candidate({ type: 'http', url: 'https://x.example/mcp' }), owned);
    assert.doesNotMatch(text, /Reads from your environment/);
    assert.match(text, /Asks for a new value: sly-GITHUB_TOKEN \(secret; for your environment's GITHUB_TOKEN\)/);
  });

  it('gallery ids keep one prefix: the name the server is installed under', () => {
    const option = galleryItem({
      name: 'io.github.x/github', description: '', version: '1.0.0', remotes: [],
      packages: [{ registryType: 'npm', identifier: 'gh-mcp', environmentVariables: [{ name: 'token', isSecret: true }] }],
    }).options[0];
    assert.deepEqual(option.entry?.env, { token: '${input:github-token}' });
    const owned = ownInputs('github', option.entry!, option.inputs, 'github', taken);
    assert.deepEqual(owned.entry.env, { token: '${input:github-token-2}' }, 'the file\'s github-token is someone else\'s');
    assert.deepEqual(ownInputs('gh2', option.entry!, option.inputs, 'github', taken).entry.env, { token: '${input:gh2-token}' });
  });

  it('offers the values already kept under the name it asked for, naming the servers that use them, and the environment', () => {
    const owned = ownInputs('sly', { type: 'stdio', command: 'x', env: { A: '${input:token}', B: '${env:GITHUB_TOKEN}', C: '${input:unrelated}' } }, [], 'sly', taken);
    const [token, environment, unrelated] = owned.inputs;
    assert.deepEqual(reuseChoices(token, users), [{ kind: 'input', id: 'github-token', servers: ['github', 'gitlab'] }]);
    assert.deepEqual(reuseChoices(environment, users), [{ kind: 'environment', name: 'GITHUB_TOKEN' }]);
    assert.deepEqual(reuseChoices(unrelated, users), []);
  });

  it('uses a kept value only where the person picked it, and the review names who else uses it', () => {
    const owned = ownInputs('sly', { type: 'stdio', command: 'x', env: { A: '${input:github-token}', B: '${env:GITHUB_TOKEN}', C: '${input:other}' } }, [], 'sly', taken);
    const [token, environment] = owned.inputs;
    const picks = [{ own: token, reuse: reuseChoices(token, users)[0] }, { own: environment, reuse: reuseChoices(environment, users)[0] }];
    const applied = withReuse(owned, new Map(picks.map(({ own, reuse }) => [own.input.id, reuse])));
    assert.deepEqual(applied.entry.env, { A: '${input:github-token}', B: '${env:GITHUB_TOKEN}', C: '${input:sly-other}' });
    assert.deepEqual(applied.inputs.map(({ input }) => input.id), ['sly-other']);
    const text = review(candidate(owned.entry), { entry: applied.entry, inputs: applied.inputs }, picks);
    assert.match(text, /^Uses the value you picked for \$\{input:github-token\}: \$\{input:github-token\}, already used by github, gitlab$/m);
    assert.match(text, /^Uses your environment's GITHUB_TOKEN for your environment's GITHUB_TOKEN, as you picked$/m);
    assert.match(text, /^Reads from your environment: GITHUB_TOKEN — you picked it/m);
    assert.match(text, /^Asks for a new value: sly-other \(secret; for \$\{input:other\}\)/m);
  });

  it('a link\'s envFile is not installed: the person\'s file of variables is theirs', () => {
    const parsed = parseInstallLink(link({ name: 'sly', command: 'x', envFile: '${userHome}/.env' }));
    assert.equal(parsed.entry.envFile, undefined);
    assert.match(parsed.leftOut.join('\n'), /"envFile" not installed: a server from a link does not read a file of your variables/);
  });
});

describe('install review: the ⚠ of environment variables is the inert allowlist of the shell reader', () => {
  it('marks every variable that is not inert (UV_CONFIG_FILE, an API key) and none of the inert ones', () => {
    const entry = { type: 'stdio' as const, command: 'uvx', args: ['pkg'], env: { UV_CONFIG_FILE: './uv.toml', NODE_OPTIONS: '--require x', API_KEY: 'k', NO_COLOR: '1', TZ: 'UTC' } };
    const text = review(candidate(entry), { entry, inputs: [] });
    const marked = text.split('\n').filter((line) => line.startsWith('Environment:') && line.includes('⚠')).map((line) => /^Environment: (\w+)=/.exec(line)![1]);
    assert.deepEqual(marked, ['UV_CONFIG_FILE', 'NODE_OPTIONS', 'API_KEY']);
  });
});
