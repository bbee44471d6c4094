// The approval policy as a table: every row is one call and what must happen to it, with the reason's
// gist. The rows cover each mode, trusted and untrusted servers, every annotation, pinned changes,
// poisoning flags, deny and allow rules, shell-like tools and file edits inside and outside the roots.
import * as assert from 'node:assert/strict';
import { decide, type ApprovalMode, type DecidedBy, type PolicyInput, type ShellCommand, type Verdict } from '../../src/core/approvals/policy';
import { describeRule, parseRules, ruleMatches, ruleServerOf, type ApprovalRule } from '../../src/core/approvals/rules';
import type { ServerIdentity } from '../../src/core/approvals/serverIdentity';

/** A stand-in for the signature parser: segments split on `&&`, a segment's signature is its first two words. */
function shell(command: string): ShellCommand {
  const signatures = command.split('&&').map((part) => part.trim().split(/\s+/).slice(0, 2).join(' '));
  return {
    command,
    check: (allowed) => {
      const missing = signatures.filter((s) => !allowed.includes(s));
      return missing.length === 0
        ? { approved: true, reason: signatures.join(', ') }
        : { approved: false, reason: `"${missing[0]}" is not allowed` };
    },
  };
}

let nextId = 0;
function rule(partial: Partial<ApprovalRule> & Pick<ApprovalRule, 'server'>): ApprovalRule {
  return { id: `r${++nextId}`, effect: 'allow', tool: '*', scope: 'session', createdAt: 0, origin: 'test', ...partial };
}

/** The person's own server "fs", and a repository's server that took the same name. */
const USER_FS: ServerIdentity = { name: 'fs', scope: 'user', file: '/config/user.mcp.json' };
const PROJECT_FS: ServerIdentity = { name: 'fs', scope: 'project', file: '/repo/.mcp.json' };
const base: PolicyInput = { mode: 'askBeforeEdits', server: USER_FS, tool: 'write_file', serverTrusted: true, pinnedState: 'accepted', rules: [], args: {} };
const OPEN_WORLD = { openWorldHint: true };
const RO = { readOnlyHint: true };
const DESTRUCTIVE = { destructiveHint: true };
const SAFE_EDIT = { readOnlyHint: false, destructiveHint: false };

interface Row {
  name: string;
  input: Partial<PolicyInput>;
  expect: Verdict;
  reason: RegExp;
  by?: DecidedBy['kind'];
}

const MODES: ApprovalMode[] = ['askBeforeEdits', 'acceptEdits', 'acceptEverything'];

const rows: Row[] = [
  // Read-only hints relax only for trusted servers.
  ...MODES.map((mode): Row => ({ name: `${mode}: a trusted server's read-only tool runs`, input: { mode, tool: 'read_file', annotations: RO }, expect: 'allow', reason: mode === 'acceptEverything' ? /accept every/ : /only reads/ })),
  { name: 'askBeforeEdits: an untrusted server claiming read-only asks', input: { serverTrusted: false, tool: 'read_file', annotations: RO }, expect: 'ask', reason: /hints count only from servers you trusted/, by: 'annotations' },
  { name: 'acceptEdits: an untrusted server claiming read-only asks', input: { mode: 'acceptEdits', serverTrusted: false, annotations: RO }, expect: 'ask', reason: /only from servers you trusted/ },
  { name: 'read-only and destructive at once: the tightening hint wins', input: { annotations: { readOnlyHint: true, destructiveHint: true } }, expect: 'ask', reason: /may delete or overwrite/, by: 'annotations' },
  { name: 'a read-only claim does not cover a predicted file write', input: { annotations: RO, fileEffect: 'insideRoots' }, expect: 'ask', reason: /change files/ },
  { name: 'a read-only claim does not cover a shell command', input: { annotations: RO, shellCommand: shell('rm x') }, expect: 'ask', reason: /shell command/ },
  // Unannotated and destructive tools.
  { name: 'askBeforeEdits: an unannotated tool asks', input: {}, expect: 'ask', reason: /not marked read-only/, by: 'default' },
  { name: 'askBeforeEdits: a destructive tool asks', input: { annotations: DESTRUCTIVE }, expect: 'ask', reason: /may delete or overwrite/ },
  { name: 'askBeforeEdits: a non-destructive edit still asks', input: { annotations: SAFE_EDIT }, expect: 'ask', reason: /not marked read-only/ },
  { name: 'askBeforeEdits: a file edit inside the roots asks', input: { fileEffect: 'insideRoots' }, expect: 'ask', reason: /change files in the workspace/, by: 'mode' },
  { name: 'acceptEdits: a file edit inside the roots by a mapped tool runs', input: { mode: 'acceptEdits', fileEffect: 'insideRoots', localWriter: 'mapped', serverTrusted: false }, expect: 'allow', reason: /file edit inside the workspace/, by: 'mode' },
  { name: 'acceptEdits: server-filesystem\'s exactly predicted overwrite inside the roots runs', input: { mode: 'acceptEdits', fileEffect: 'insideRoots', localWriter: 'exact', annotations: DESTRUCTIVE }, expect: 'allow', reason: /predicted exactly/, by: 'mode' },
  // What outranks the file-edit rule in Accept edits.
  { name: 'acceptEdits: a shell command with a file effect asks (shell outranks the edit)', input: { mode: 'acceptEdits', shellCommand: shell('rm -rf'), fileEffect: 'insideRoots', localWriter: 'exact' }, expect: 'ask', reason: /runs a shell command/ },
  { name: 'acceptEdits: a destructive hint outranks a mapped tool\'s file edit', input: { mode: 'acceptEdits', fileEffect: 'insideRoots', localWriter: 'mapped', annotations: DESTRUCTIVE }, expect: 'ask', reason: /may delete or overwrite/, by: 'annotations' },
  { name: 'acceptEdits: an open-world hint outranks even an exactly predicted file edit', input: { mode: 'acceptEdits', fileEffect: 'insideRoots', localWriter: 'exact', annotations: OPEN_WORLD }, expect: 'ask', reason: /beyond this machine/, by: 'annotations' },
  { name: 'acceptEdits: an open-world hint outranks "destroys nothing" too', input: { mode: 'acceptEdits', annotations: { ...SAFE_EDIT, ...OPEN_WORLD } }, expect: 'ask', reason: /beyond this machine/ },
  { name: 'acceptEdits: a write guessed from argument names is not a file edit', input: { mode: 'acceptEdits', fileEffect: 'insideRoots' }, expect: 'ask', reason: /does not say it destroys nothing/ },
  { name: 'acceptEdits: a destructive write guessed from argument names asks', input: { mode: 'acceptEdits', fileEffect: 'insideRoots', serverTrusted: false, annotations: DESTRUCTIVE }, expect: 'ask', reason: /may delete/ },
  { name: 'acceptEdits: a trusted non-destructive local edit runs', input: { mode: 'acceptEdits', annotations: { ...SAFE_EDIT, openWorldHint: false } }, expect: 'allow', reason: /destroy nothing and stay on this machine/ },
  { name: 'acceptEdits: "destroys nothing" without openWorldHint: false is open-world by default and asks (a remote write such as create_or_update_file)', input: { mode: 'acceptEdits', annotations: SAFE_EDIT }, expect: 'ask', reason: /not that it stays on this machine/ },
  { name: 'acceptEdits: an untrusted non-destructive claim asks', input: { mode: 'acceptEdits', serverTrusted: false, annotations: SAFE_EDIT }, expect: 'ask', reason: /only from servers you trusted/ },
  { name: 'acceptEdits: a destructive tool asks', input: { mode: 'acceptEdits', annotations: DESTRUCTIVE }, expect: 'ask', reason: /may delete or overwrite/ },
  { name: 'acceptEdits: an unannotated tool asks', input: { mode: 'acceptEdits' }, expect: 'ask', reason: /does not say it destroys nothing/ },
  { name: 'acceptEdits: a shell command asks', input: { mode: 'acceptEdits', shellCommand: shell('npm test') }, expect: 'ask', reason: /file edits only/ },
  { name: 'acceptEverything: a destructive tool of an untrusted server runs', input: { mode: 'acceptEverything', serverTrusted: false, annotations: DESTRUCTIVE }, expect: 'allow', reason: /accept every/, by: 'mode' },
  { name: 'acceptEverything: a shell command runs', input: { mode: 'acceptEverything', shellCommand: shell('make') }, expect: 'allow', reason: /accept every/ },
  // What always asks.
  ...MODES.map((mode): Row => ({ name: `${mode}: a flagged tool asks`, input: { mode, flagged: true, annotations: RO }, expect: 'ask', reason: /poisoning scan/, by: 'review' })),
  { name: 'a new, unreviewed tool asks even in accept everything', input: { mode: 'acceptEverything', pinnedState: 'new' }, expect: 'ask', reason: /nobody reviewed/ },
  { name: 'a flagged tool asks despite an allow rule', input: { flagged: true, rules: [rule({ server: 'fs' })] }, expect: 'ask', reason: /poisoning/ },
  { name: 'a write outside every root asks even in accept everything', input: { mode: 'acceptEverything', fileEffect: 'outsideRoots' }, expect: 'ask', reason: /outside every workspace root/ },
  ...MODES.map((mode): Row => ({ name: `${mode}: a write the preview cannot place asks`, input: { mode, fileEffect: 'unknown', localWriter: 'exact' }, expect: 'ask', reason: /could not predict where/ })),
  { name: 'a write the preview cannot place asks despite an allow rule', input: { mode: 'acceptEverything', fileEffect: 'unknown', rules: [rule({ server: 'fs', tool: 'write_file' })] }, expect: 'ask', reason: /could not predict/ },
  { name: 'a write outside every root asks despite an allow rule', input: { fileEffect: 'outsideRoots', rules: [rule({ server: 'fs', tool: 'write_file' })] }, expect: 'ask', reason: /outside/ },
  // Deny rules.
  { name: 'a deny rule refuses without asking', input: { rules: [rule({ server: 'fs', tool: 'write_file', effect: 'deny' })] }, expect: 'deny', reason: /refused by your rule: deny tool "write_file" of server "fs"/, by: 'rule' },
  { name: 'a deny rule beats an allow rule', input: { rules: [rule({ server: 'fs', tool: 'write_file' }), rule({ server: 'fs', effect: 'deny' })] }, expect: 'deny', reason: /every tool of server "fs"/ },
  { name: 'a deny rule beats accept everything', input: { mode: 'acceptEverything', rules: [rule({ server: '*', tool: 'write_file', effect: 'deny', scope: 'global' })] }, expect: 'deny', reason: /any server \(everywhere\)/ },
  { name: 'a deny rule of another server does not apply', input: { rules: [rule({ server: 'git', effect: 'deny' })] }, expect: 'ask', reason: /not marked read-only/ },
  { name: 'a deny rule of another tool does not apply', input: { annotations: RO, rules: [rule({ server: 'fs', tool: 'delete', effect: 'deny' })] }, expect: 'allow', reason: /only reads/ },
  // Rules by the server's identity.
  { name: 'a name-only allow rule does not reach a project server of that name', input: { server: PROJECT_FS, rules: [rule({ server: 'fs', tool: 'write_file', scope: 'global' })] }, expect: 'ask', reason: /not marked read-only/ },
  { name: 'a name-only allow rule does not reach a project server in accept edits either', input: { mode: 'acceptEdits', server: PROJECT_FS, rules: [rule({ server: 'fs', scope: 'global' })] }, expect: 'ask', reason: /does not say/ },
  { name: 'the user server\'s "everywhere" rule does not reach a project server of that name', input: { server: PROJECT_FS, rules: [rule({ ...ruleServerOf(USER_FS), tool: 'write_file', scope: 'global' })] }, expect: 'ask', reason: /not marked read-only/ },
  { name: 'a rule kept for a project server applies to it', input: { server: PROJECT_FS, rules: [rule({ ...ruleServerOf(PROJECT_FS), tool: 'write_file', scope: 'global' })] }, expect: 'allow', reason: /project server "fs"/, by: 'rule' },
  { name: 'a rule kept for the user server applies to it', input: { rules: [rule({ ...ruleServerOf(USER_FS), tool: 'write_file' })] }, expect: 'allow', reason: /allow tool "write_file" of user server "fs"/, by: 'rule' },
  { name: 'a project server\'s rule does not reach the user server of that name', input: { rules: [rule({ ...ruleServerOf(PROJECT_FS), tool: 'write_file' })] }, expect: 'ask', reason: /not marked read-only/ },
  { name: 'a rule of the same name and scope from another file does not apply', input: { server: PROJECT_FS, rules: [rule({ ...ruleServerOf({ ...PROJECT_FS, file: '/other/.mcp.json' }), tool: 'write_file' })] }, expect: 'ask', reason: /not marked read-only/ },
  { name: 'a name-only deny rule refuses a project server of that name too', input: { server: PROJECT_FS, rules: [rule({ server: 'fs', effect: 'deny' })] }, expect: 'deny', reason: /refused/ },
  { name: 'a shell signature rule of the user server does not run a project server\'s command', input: { server: PROJECT_FS, tool: 'run', shellCommand: shell('npm test'), rules: [rule({ ...ruleServerOf(USER_FS), tool: 'run', signatures: ['npm test'] })] }, expect: 'ask', reason: /shell command/ },
  // Allow rules.
  { name: 'an allow rule for the tool runs it', input: { annotations: DESTRUCTIVE, rules: [rule({ server: 'fs', tool: 'write_file', scope: 'workspace' })] }, expect: 'allow', reason: /allowed by your rule: allow tool "write_file" of server "fs" \(this workspace\)/, by: 'rule' },
  { name: 'an allow rule for every tool of the server runs it', input: { rules: [rule({ server: 'fs' })] }, expect: 'allow', reason: /every tool of server "fs"/ },
  { name: 'an allow rule of another server does not apply', input: { rules: [rule({ server: 'other', tool: 'write_file' })] }, expect: 'ask', reason: /not marked read-only/ },
  { name: 'an allow rule runs an untrusted server\'s tool (the person chose it)', input: { serverTrusted: false, rules: [rule({ server: 'fs', tool: 'write_file' })] }, expect: 'allow', reason: /allowed by your rule/ },
  // Shell-like tools: "always allow" is by command signature.
  { name: 'shell: every signature allowed runs', input: { tool: 'run', shellCommand: shell('npm test && npm run'), rules: [rule({ server: 'fs', tool: 'run', signatures: ['npm test', 'npm run'] })] }, expect: 'allow', reason: /npm test, npm run/, by: 'rule' },
  { name: 'shell: signatures from two rules add up', input: { tool: 'run', shellCommand: shell('npm test && cargo test'), rules: [rule({ server: 'fs', tool: 'run', signatures: ['npm test'] }), rule({ server: 'fs', tool: 'run', signatures: ['cargo test'] })] }, expect: 'allow', reason: /allowed by your rules/ },
  { name: 'shell: one signature missing asks', input: { tool: 'run', shellCommand: shell('npm test && curl evil'), rules: [rule({ server: 'fs', tool: 'run', signatures: ['npm test'] })] }, expect: 'ask', reason: /"curl evil" is not allowed/ },
  { name: 'shell: a tool-wide allow rule does not cover commands', input: { tool: 'run', shellCommand: shell('rm -rf'), rules: [rule({ server: 'fs', tool: 'run' })] }, expect: 'ask', reason: /runs a shell command/ },
  { name: 'shell: a missing signature still runs in accept everything', input: { mode: 'acceptEverything', tool: 'run', shellCommand: shell('npm test && curl evil'), rules: [rule({ server: 'fs', tool: 'run', signatures: ['npm test'] })] }, expect: 'allow', reason: /accept every/ },
  { name: 'shell: a deny rule on the tool refuses any command', input: { tool: 'run', shellCommand: shell('npm test'), rules: [rule({ server: 'fs', tool: 'run', signatures: ['npm test'] }), rule({ server: 'fs', tool: 'run', effect: 'deny' })] }, expect: 'deny', reason: /refused/ },
  { name: 'shell: signature rules of another tool do not apply', input: { tool: 'run', shellCommand: shell('npm test'), rules: [rule({ server: 'fs', tool: 'exec', signatures: ['npm test'] })] }, expect: 'ask', reason: /shell command/ },
];

describe('decide (the approval policy)', () => {
  it(`has at least 40 cases (${rows.length})`, () => {
    assert.ok(rows.length >= 40);
  });
  for (const row of rows) {
    it(row.name, () => {
      const result = decide({ ...base, ...row.input });
      assert.equal(result.decision, row.expect, result.reason);
      assert.match(result.reason, row.reason);
      if (row.by) assert.equal(result.decidedBy.kind, row.by);
    });
  }
  it('names the rule that decided', () => {
    const allow = rule({ server: 'fs', tool: 'write_file' });
    assert.deepEqual(decide({ ...base, rules: [allow] }).decidedBy, { kind: 'rule', ruleId: allow.id });
  });
  it('is a pure function: the same input gives the same decision, and the input is not changed', () => {
    const input: PolicyInput = { ...base, rules: [rule({ server: 'fs' })], args: { path: 'a' } };
    const copy = JSON.stringify(input);
    assert.deepEqual(decide(input), decide(input));
    assert.equal(JSON.stringify(input), copy);
  });
});

describe('approval rules', () => {
  it('parses a rules file with defaults, and describes each rule', () => {
    const rules = parseRules([{ server: 'fs', tool: 'write_file' }, { id: 'x', effect: 'deny', server: '*', scope: 'global' }, { server: 'sh', tool: 'run', signatures: [' npm test '], scope: 'workspace' }]);
    assert.deepEqual(rules.map(describeRule), [
      'allow tool "write_file" of server "fs" (this session)',
      'deny every tool of any server (everywhere)',
      'allow "npm test" in tool "run" of server "sh" (this workspace)',
    ]);
    assert.equal(rules[1].id, 'x');
    assert.equal(rules[0].id, 'rule-1');
  });
  it('reads and describes a rule kept for a server\'s identity', () => {
    const [kept] = parseRules([{ server: 'fs', serverScope: 'project', serverFile: '/repo/.mcp.json', tool: 'write_file', scope: 'global' }]);
    assert.deepEqual({ scope: kept.serverScope, file: kept.serverFile }, { scope: 'project', file: '/repo/.mcp.json' });
    assert.equal(describeRule(kept), 'allow tool "write_file" of project server "fs" (everywhere)');
    assert.ok(ruleMatches(kept, PROJECT_FS, 'write_file'));
    assert.ok(!ruleMatches(kept, USER_FS, 'write_file'));
  });
  it('applies a name-only allow rule to the person\'s own servers (user and local scope) only', () => {
    const [old] = parseRules([{ server: 'fs' }]);
    const matches = (['user', 'local', 'project', 'plugin'] as const).map((scope) => ruleMatches(old, { ...USER_FS, scope }, 'x'));
    assert.deepEqual(matches, [true, true, false, false]);
  });
  for (const [bad, message] of [
    [[{ server: 'fs', serverScope: 'repo', serverFile: '/a' }], /rules\[0\]\.serverScope/],
    [[{ server: 'fs', serverScope: 'user' }], /rules\[0\]\.serverFile/],
    [[{ server: 'fs', serverFile: '/a' }], /rules\[0\]\.serverScope/],
  ] as const) {
    it(`rejects a half identity ${JSON.stringify(bad)}`, () => {
      assert.throws(() => parseRules(bad), message);
    });
  }
  it('accepts { "rules": [...] } too', () => {
    assert.equal(parseRules({ rules: [{ server: 'fs' }] }).length, 1);
  });
  for (const [bad, message] of [
    [{}, /expected a JSON array/],
    [[{ tool: 'x' }], /rules\[0\]\.server/],
    [[{ server: 'fs', effect: 'maybe' }], /rules\[0\]\.effect/],
    [[{ server: 'fs' }, { server: 'fs', scope: 'forever' }], /rules\[1\]\.scope/],
    [[{ server: 'fs', signatures: ['ok', ''] }], /signatures/],
    [['fs'], /rules\[0\]: expected an object/],
  ] as const) {
    it(`rejects ${JSON.stringify(bad)} with the place of the problem`, () => {
      assert.throws(() => parseRules(bad), message);
    });
  }
});
