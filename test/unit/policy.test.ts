// The administrator's policy: the matcher (name, npm and PyPI packages, command, URL, fingerprint;
// deny wins; only allowlisted), and reading the managed file and the settings leniently.
import * as assert from 'node:assert/strict';
import type { EffectiveServer } from '../../src/core/config/types';
import { mergeLayers, parseLayer } from '../../src/core/config';
import { combinePolicies, evaluatePolicy, managedPolicyFile, parsePolicyFile, policyFromSettings, type Policy } from '../../src/core/policy';
import { scopeSpec } from './helpers/config';

function server(name: string, launch: Partial<EffectiveServer['launch']>, fingerprint = 'ab'.repeat(32)): EffectiveServer {
  return {
    name, id: name, scope: 'user', disabled: false, alwaysLoad: false, needsInput: [], needsTrust: false, fingerprint,
    launch: { type: launch.url !== undefined ? 'http' : 'stdio', args: [], env: {}, headers: {}, ...launch },
    source: { file: '/u/.mcp.json', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
  };
}

const policy = (text: string): Policy => {
  const read = parsePolicyFile('/etc/mcp-switchboard/policy.json', text);
  assert.deepEqual(read.problems, []);
  return read.policy;
};

describe('policy: matcher', () => {
  const memory = server('memory', { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory@2025.1.1'] });
  const fetch = server('fetch', { command: '/usr/local/bin/uvx', args: ['--from', 'mcp-server-fetch[extra]==1.0', 'mcp-server-fetch'] });
  const remote = server('remote', { url: 'https://mcp.evil.example/mcp' });
  const local = server('local', { command: 'C:\\tools\\node.exe', args: ['server.js'] }, 'CD'.repeat(32));

  it('denies by name, npm package, PyPI package, command, URL or fingerprint, naming the rule', () => {
    const p = policy(`{ "deniedServers": [
      { "name": "mem*" }, { "npm": "@modelcontextprotocol/*" }, { "pypi": "mcp-server-fetch" },
      { "command": "node.exe" }, { "url": "https://*.evil.example/*" }, { "fingerprint": "${'cd'.repeat(32)}" } ] }`);
    assert.deepEqual(evaluatePolicy(p, memory), { verdict: 'denied', rule: 'deniedServers[0] in /etc/mcp-switchboard/policy.json', reason: 'blocked by policy: deniedServers[0] in /etc/mcp-switchboard/policy.json (name "mem*")' });
    assert.equal(evaluatePolicy(policy('{ "deniedServers": [{ "npm": "@modelcontextprotocol/server-memory" }] }'), memory).verdict, 'denied', 'the version is ignored');
    assert.equal(evaluatePolicy(p, fetch).rule, 'deniedServers[2] in /etc/mcp-switchboard/policy.json');
    assert.equal(evaluatePolicy(p, remote).rule, 'deniedServers[4] in /etc/mcp-switchboard/policy.json');
    assert.equal(evaluatePolicy(p, local).rule, 'deniedServers[3] in /etc/mcp-switchboard/policy.json');
    assert.equal(evaluatePolicy(policy(`{ "deniedServers": [{ "fingerprint": "${'cd'.repeat(32)}" }] }`), local).verdict, 'denied');
  });

  it('every field of a rule must match; other servers are allowed', () => {
    const p = policy('{ "deniedServers": [{ "name": "memory", "npm": "other-package" }] }');
    assert.deepEqual(evaluatePolicy(p, memory), { verdict: 'allowed', reason: 'no policy rule applies' });
  });

  it('a deny rule wins over an allow rule; only allowlisted denies the rest', () => {
    const p = policy('{ "onlyAllowlisted": true, "allowedServers": [{ "npm": "@modelcontextprotocol/*" }, "fetch"], "deniedServers": ["fetch"] }');
    assert.equal(evaluatePolicy(p, memory).verdict, 'allowed');
    assert.equal(evaluatePolicy(p, memory).rule, 'allowedServers[0] in /etc/mcp-switchboard/policy.json');
    assert.equal(evaluatePolicy(p, fetch).rule, 'deniedServers[0] in /etc/mcp-switchboard/policy.json');
    assert.deepEqual(evaluatePolicy(p, remote), {
      verdict: 'denied', rule: 'onlyAllowlisted in /etc/mcp-switchboard/policy.json',
      reason: 'blocked by policy: only allowlisted servers may run (onlyAllowlisted in /etc/mcp-switchboard/policy.json) and no allowedServers rule matches it',
    });
  });

  it('a runner option\'s value is not taken for the package', () => {
    const p = policy('{ "deniedServers": [{ "npm": "evil" }] }');
    assert.equal(evaluatePolicy(p, server('a', { command: 'npx', args: ['--cache', 'evil', 'good'] })).verdict, 'allowed');
    assert.equal(evaluatePolicy(p, server('b', { command: 'pnpm', args: ['dlx', 'evil@1'] })).verdict, 'denied');
    assert.equal(evaluatePolicy(p, server('c', { command: 'npx.cmd', args: ['--package=evil', 'bin'] })).verdict, 'denied');
  });
});

describe('policy: reading', () => {
  it('a deny rule it does not understand blocks every server, naming it; an allow rule is only left out', () => {
    const read = parsePolicyFile('/p.json', '{\n  "deniedServers": [\n    { "nmae": "x" },\n    {},\n    { "name": "ok" }\n  ],\n  "allowedServers": [{ "nmae": "y" }],\n  "color": 1\n}');
    assert.deepEqual(read.policy.denied, [{ rule: { name: 'ok' }, origin: 'deniedServers[2] in /p.json' }]);
    assert.deepEqual(read.policy.allowed, []);
    assert.deepEqual(read.problems.map((p) => [p.line, p.column, p.message]), [
      [8, 3, 'Unknown field "color", ignored; known: allowedServers, deniedServers, onlyAllowlisted, approvalMode, mcpServers, servers, inputs'],
      [7, 22, 'allowedServers[0] has "nmae", which is not one of name, npm, pypi, docker, command, url, fingerprint; this rule is left out'],
      [3, 5, 'deniedServers[0] has "nmae", which is not one of name, npm, pypi, docker, command, url, fingerprint; no server runs until it is fixed'],
      [4, 5, 'deniedServers[1] has no field, so it would match nothing; no server runs until it is fixed'],
    ]);
    assert.deepEqual(evaluatePolicy(read.policy, server('any', { command: 'node' })), {
      verdict: 'denied', rule: 'deniedServers[0] in /p.json cannot be understood',
      reason: 'blocked by policy: deniedServers[0] in /p.json cannot be understood; no server runs until it is fixed',
    });
  });

  it('a broken file is a problem at its position and blocks every server, not a crash', () => {
    const read = parsePolicyFile('/p.json', '{ "deniedServers": [ ');
    assert.match(read.problems[0].message, /not valid JSON/);
    assert.equal(evaluatePolicy(read.policy, server('any', { command: 'node' })).rule, '/p.json:1:22 is not valid JSON');
    assert.deepEqual(parsePolicyFile('/p.json', '').policy, { allowed: [], denied: [] }, 'an empty file has no rules');
  });

  it('settings add their rules to the file\'s', () => {
    const settings = policyFromSettings({ deniedServers: ['fetch'], allowedServers: [3], onlyAllowlisted: true }, 'switchboard.policy');
    assert.deepEqual(settings.problems, ['switchboard.policy.allowedServers[0] is not a rule object; this rule is left out']);
    assert.equal(policyFromSettings({ deniedServers: [3] }, 'switchboard.policy').policy.unreadable, 'switchboard.policy.deniedServers[0] cannot be understood');
    const combined = combinePolicies(policy('{ "deniedServers": ["memory"] }'), settings.policy);
    assert.deepEqual(combined.denied.map((r) => r.origin), ['deniedServers[0] in /etc/mcp-switchboard/policy.json', 'switchboard.policy.deniedServers[0]']);
    assert.equal(combined.onlyAllowlisted, 'switchboard.policy.onlyAllowlisted');
  });

  it('while the policy file allows only its list, an allow rule of the settings does not widen it (and is named), a deny rule still adds', () => {
    const file = policy('{ "onlyAllowlisted": true, "allowedServers": ["docs"] }');
    const settings = policyFromSettings({ allowedServers: ['evil', { command: 'node' }], deniedServers: ['docs'] }, 'switchboard.policy').policy;
    const combined = combinePolicies(file, settings);
    assert.deepEqual(combined.allowed.map((r) => r.origin), ['allowedServers[0] in /etc/mcp-switchboard/policy.json']);
    assert.deepEqual(combined.ignoredAllowed?.origins, ['switchboard.policy.allowedServers[0]', 'switchboard.policy.allowedServers[1]']);
    assert.match(combined.ignoredAllowed?.reason ?? '', /only the policy files' allow rules count while onlyAllowlisted in \/etc\/mcp-switchboard\/policy\.json is set/);
    assert.equal(evaluatePolicy(combined, server('evil', { command: 'node' })).verdict, 'denied');
    assert.equal(evaluatePolicy(combined, server('docs', { command: 'node' })).verdict, 'denied', 'the setting\'s deny rule counts');
    assert.deepEqual(combined.denied.map((r) => r.origin), ['switchboard.policy.deniedServers[0]']);
    // Without the file's onlyAllowlisted, the settings' allow rules count as before (and nothing is ignored).
    const open = combinePolicies(policy('{ "allowedServers": ["docs"] }'), settings);
    assert.equal(open.allowed.length, 3);
    assert.equal(open.ignoredAllowed, undefined);
  });

  it('the managed file is in a folder only administrators write', () => {
    assert.equal(managedPolicyFile('linux', {}), '/etc/mcp-switchboard/policy.json');
    assert.equal(managedPolicyFile('darwin', {}), '/Library/Application Support/MCP Switchboard/policy.json');
    assert.equal(managedPolicyFile('win32', { ProgramData: 'D:\\ProgramData' }), 'D:\\ProgramData\\MCP Switchboard\\policy.json');
  });
});

describe('policy: the approval mode lock', () => {
  it('the file fixes a mode; a value that is not a mode fixes the strictest, with a problem at its position', () => {
    assert.deepEqual(parsePolicyFile('/p.json', '{ "approvalMode": "acceptEdits" }').policy.approvalMode, { mode: 'acceptEdits', origin: 'approvalMode in /p.json' });
    const typo = parsePolicyFile('/p.json', '{\n  "approvalMode": "acceptEverthing"\n}');
    assert.deepEqual(typo.policy.approvalMode, { mode: 'askBeforeEdits', origin: 'approvalMode in /p.json (not a mode, so the strictest)' });
    assert.deepEqual(typo.problems.map((p) => [p.line, p.column, p.message]), [
      [2, 19, '"approvalMode" must be one of askBeforeEdits, acceptEdits, acceptEverything, not "acceptEverthing"; the mode is fixed to askBeforeEdits until it is fixed'],
    ]);
    assert.equal(parsePolicyFile('/p.json', '{}').policy.approvalMode, undefined, 'no lock unless asked');
  });

  it('the settings fix a mode too, and of two locks the stricter holds', () => {
    const settings = policyFromSettings({ approvalMode: 'acceptEverything' }, 'switchboard.policy');
    assert.deepEqual(settings.policy.approvalMode, { mode: 'acceptEverything', origin: 'switchboard.policy.approvalMode' });
    assert.equal(policyFromSettings({ approvalMode: '' }, 'switchboard.policy').policy.approvalMode, undefined, 'an empty setting is no lock');
    const combined = combinePolicies(settings.policy, parsePolicyFile('/p.json', '{ "approvalMode": "acceptEdits" }').policy);
    assert.deepEqual(combined.approvalMode, { mode: 'acceptEdits', origin: 'approvalMode in /p.json' });
  });
});

describe('policy: the servers it provides (managed scope)', () => {
  const file = '/etc/mcp-switchboard/policy.json';
  const text = '{\n  "onlyAllowlisted": true,\n  "deniedServers": [{ "command": "npx" }],\n  "mcpServers": { "docs": { "command": "npx", "args": ["-y", "@corp/docs-mcp"] } }\n}';

  it('reads the policy file\'s mcpServers as the managed layer, above every scope, without complaint', () => {
    assert.deepEqual(parsePolicyFile(file, text).problems, [], 'mcpServers is a field of the policy file');
    const managed = parseLayer(scopeSpec('managed'), { kind: 'text', text });
    assert.deepEqual(managed.problems, []);
    const user = parseLayer(scopeSpec('user'), { kind: 'text', text: '{ "mcpServers": { "docs": { "command": "my-docs" } } }' });
    const local = parseLayer(scopeSpec('local'), { kind: 'text', text: '{ "mcpServers": { "docs": { "command": "local-docs" } } }' });
    const merged = mergeLayers([user, local, managed]);
    assert.deepEqual(merged.servers.map((s) => [s.id, s.scope, s.launch.command, s.needsTrust]), [['docs', 'managed', 'npx', false]]);
    assert.deepEqual(merged.shadowed.map((s) => [s.scope, s.shadowedBy.scope]), [['local', 'managed'], ['user', 'managed']]);
  });

  it('a server the policy provides runs whatever its lists say; the same definition elsewhere does not', () => {
    const rules = parsePolicyFile(file, text).policy;
    const provided = mergeLayers([parseLayer(scopeSpec('managed'), { kind: 'text', text })]).servers[0];
    assert.deepEqual(evaluatePolicy(rules, provided), { verdict: 'allowed', rule: file, reason: `provided by the policy (${file})` });
    assert.equal(evaluatePolicy(rules, { ...provided, scope: 'user' }).verdict, 'denied');
  });
});
