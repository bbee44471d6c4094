// `switchboard decide` as another tool runs it: the built dist/cli.js in a child process, on real rule
// and tool files. The exact JSON it prints is a contract (key order included).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { requireBuiltCli, runCli, TempDirs, writeJson } from './support';

describe('switchboard decide (built CLI)', function () {
  this.timeout(20000);
  const temp = new TempDirs();
  before(requireBuiltCli);
  afterEach(() => temp.cleanup());

  const writeFileTool = { server: 'fs', name: 'write_file', annotations: { readOnlyHint: false, destructiveHint: true }, inputSchema: { type: 'object' }, serverTrusted: true };

  function files(rules: unknown, tool: unknown): { rules: string; tool: string } {
    const dir = temp.make();
    return { rules: writeJson(path.join(dir, 'rules.json'), rules), tool: writeJson(path.join(dir, 'tool.json'), tool) };
  }

  function decideJson(mode: string, rules: unknown, tool: unknown, args = '{"path":"a.txt"}'): { decision: string; reason: string; decidedBy: { kind: string; ruleId?: string } } {
    const f = files(rules, tool);
    const result = runCli(['decide', '--mode', mode, '--rules', f.rules, '--tool-json', f.tool, '--args', args]);
    assert.equal(result.status, 0, result.stderr);
    const parsed = JSON.parse(result.stdout) as { decision: string; reason: string; decidedBy: { kind: string } };
    assert.deepEqual(Object.keys(parsed), ['decision', 'reason', 'decidedBy']);
    assert.equal(result.stdout.trim().split('\n').length, 1, 'one JSON object on one line');
    return parsed;
  }

  it('asks before a destructive edit by default, and says why', () => {
    const out = decideJson('askBeforeEdits', [], writeFileTool);
    assert.equal(out.decision, 'ask');
    assert.match(out.reason, /may delete or overwrite/);
  });

  it('allows by a workspace rule, naming it', () => {
    const out = decideJson('askBeforeEdits', [{ id: 'ws-1', server: 'fs', tool: 'write_file', scope: 'workspace' }], writeFileTool);
    assert.deepEqual(out.decidedBy, { kind: 'rule', ruleId: 'ws-1' });
    assert.equal(out.decision, 'allow');
  });

  it('denies by a deny rule even in accept everything', () => {
    const out = decideJson('acceptEverything', { rules: [{ effect: 'deny', server: '*', tool: 'write_file' }] }, writeFileTool);
    assert.equal(out.decision, 'deny');
  });

  it('asks for a changed definition even with an allow rule', () => {
    const out = decideJson('acceptEverything', [{ server: 'fs' }], { ...writeFileTool, pinnedState: 'changed' });
    assert.equal(out.decision, 'ask');
    assert.match(out.reason, /changed since you last approved/);
  });

  it('trusts read-only hints only from a trusted server', () => {
    const readFile = { server: 'fs', name: 'read_file', annotations: { readOnlyHint: true } };
    assert.equal(decideJson('askBeforeEdits', [], { ...readFile, serverTrusted: true }).decision, 'allow');
    assert.equal(decideJson('askBeforeEdits', [], readFile).decision, 'ask');
  });

  for (const [name, argv, message] of [
    ['an unknown mode', ['--mode', 'yolo'], /--mode yolo: expected askBeforeEdits, acceptEdits, acceptEverything/],
    ['a missing --rules', ['--mode', 'acceptEdits', '--tool-json', 'x.json', '--args', '{}'], /missing --rules/],
    ['arguments that are not an object', ['--mode', 'acceptEdits', '--rules', 'RULES', '--tool-json', 'TOOL', '--args', '[1]'], /--args: expected a JSON object/],
    ['a bad rule', ['--mode', 'acceptEdits', '--rules', 'BADRULES', '--tool-json', 'TOOL', '--args', '{}'], /rules\[0\]\.server/],
  ] as const) {
    it(`exits 2 on ${name}, with the reason`, () => {
      const f = files([], writeFileTool);
      const bad = writeJson(path.join(path.dirname(f.rules), 'bad.json'), [{ tool: 'x' }]);
      const result = runCli(['decide', ...argv.map((a) => (a === 'RULES' ? f.rules : a === 'TOOL' ? f.tool : a === 'BADRULES' ? bad : a))]);
      assert.equal(result.status, 2);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
    });
  }
});
