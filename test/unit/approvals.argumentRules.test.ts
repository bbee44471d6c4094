// Rules about a call's arguments: how a path argument is read (lexically, deny by default), how globs
// match it, how exact values compare, how stored rules parse, and how the policy uses them.
import * as assert from 'node:assert/strict';
import {
  checkArguments, describeConstraint, displayPath, exactGlob, narrowConstraints, parseConstraints, underGlob, type ArgumentConstraint,
} from '../../src/core/approvals/argumentRules';
import { decide, type PolicyInput } from '../../src/core/approvals/policy';
import { isUnder, lexicalPath, parentOf } from '../../src/core/approvals/rulePaths';
import { describeRule, parseRules, ruleAppliesTo, type ApprovalRule } from '../../src/core/approvals/rules';
import type { ServerIdentity } from '../../src/core/approvals/serverIdentity';

const ROOTS = ['/ws/proj'];
const WIN_ROOTS = ['c:\\Users\\me\\proj'];
const under = (folder: string, argument = 'path'): ArgumentConstraint => ({ kind: 'path', argument, glob: underGlob(folder) });
const file = (path: string, argument = 'path'): ArgumentConstraint => ({ kind: 'path', argument, glob: exactGlob(path) });
const check = (constraints: ArgumentConstraint[], args: Record<string, unknown>, roots = ROOTS): string => checkArguments(constraints, args, roots).kind;

describe('rule paths (lexical)', () => {
  const posix = (text: string, roots = ROOTS): string => {
    const read = lexicalPath(text, 'posix', roots);
    return read.ok ? read.path : `refused: ${read.why}`;
  };
  const win = (text: string, roots = WIN_ROOTS): string => {
    const read = lexicalPath(text, 'win32', roots);
    return read.ok ? read.path : `refused: ${read.why}`;
  };

  it('reads absolute and workspace-relative POSIX paths, resolving . and .. and doubled slashes', () => {
    assert.equal(posix('/ws/proj/notes/a.md'), '/ws/proj/notes/a.md');
    assert.equal(posix('notes/a.md'), '/ws/proj/notes/a.md');
    assert.equal(posix('./notes//./a.md'), '/ws/proj/notes/a.md');
    assert.equal(posix('notes/../../other/a.md'), '/ws/other/a.md');
    assert.equal(posix('/../../etc/passwd'), '/etc/passwd');
    assert.equal(posix('/ws/proj/notes/'), '/ws/proj/notes');
  });

  it('reads Windows paths with either separator, drive letters in one case', () => {
    assert.equal(win('C:\\Users\\me\\proj\\notes\\a.md'), 'C:/Users/me/proj/notes/a.md');
    assert.equal(win('c:/Users/me/proj/notes/a.md'), 'C:/Users/me/proj/notes/a.md');
    assert.equal(win('notes\\sub\\..\\a.md'), 'C:/Users/me/proj/notes/a.md');
    assert.equal(win('..\\..\\..\\Windows\\System32'), 'C:/Windows/System32');
  });

  it('refuses what it does not understand, naming it', () => {
    for (const text of ['', ' notes/a.md', 'notes/a.md ', '"notes/a.md"', '~/a.md', 'file:///ws/proj/a.md', 'notes/\u0000a', 'notes\\a.md']) {
      assert.match(posix(text), /^refused: /, text);
    }
    assert.match(posix('a.md', []), /no workspace folder/);
    for (const text of ['\\\\server\\share\\a.md', '//server/share/a.md', '\\Windows\\a', 'C:a.md', 'notes\\..  \\x', 'notes\\a.md.', 'notes\\a.md:stream', '\\\\?\\C:\\a']) {
      assert.match(win(text), /^refused: /, text);
    }
    assert.match(posix('a.md', ['C:\\ws']), /not a POSIX path/);
  });

  it('knows what lies under a folder and the folder of a path', () => {
    assert.ok(isUnder('/ws/proj/a', '/ws/proj', 'posix'));
    assert.ok(!isUnder('/ws/project/a', '/ws/proj', 'posix'));
    assert.ok(isUnder('C:/Ws/A', 'c:/ws', 'win32'));
    assert.equal(parentOf('/ws/proj/a.md'), '/ws/proj');
    assert.equal(parentOf('/a.md'), '/');
    assert.equal(parentOf('C:/a.md'), 'C:/');
  });
});

describe('argument constraints', () => {
  it('a folder glob (**) matches files at any depth under it and nothing beside it', () => {
    const rule = [under('/ws/proj/notes')];
    assert.equal(check(rule, { path: 'notes/a.md' }), 'satisfied');
    assert.equal(check(rule, { path: '/ws/proj/notes/deep/er/b.txt' }), 'satisfied');
    assert.equal(check(rule, { path: 'notes/.hidden' }), 'satisfied');
    assert.equal(check(rule, { path: 'notes-old/a.md' }), 'unsatisfied');
    assert.equal(check(rule, { path: 'a.md' }), 'unsatisfied');
  });

  it('a path that escapes the folder with .. does not match', () => {
    const rule = [under('/ws/proj/notes')];
    assert.equal(check(rule, { path: 'notes/../secrets.env' }), 'unsatisfied');
    assert.equal(check(rule, { path: 'notes/../../proj2/notes/a.md' }), 'unsatisfied');
    assert.equal(check(rule, { path: '/ws/proj/notes/../../../etc/passwd' }), 'unsatisfied');
  });

  it('* stays within one folder; an exact file matches itself only', () => {
    const star: ArgumentConstraint[] = [{ kind: 'path', argument: 'path', glob: '/ws/proj/notes/*.md' }];
    assert.equal(check(star, { path: 'notes/a.md' }), 'satisfied');
    assert.equal(check(star, { path: 'notes/sub/a.md' }), 'unsatisfied');
    const one = [file('/ws/proj/notes/a.md')];
    assert.equal(check(one, { path: 'notes/a.md' }), 'satisfied');
    assert.equal(check(one, { path: 'notes/./a.md' }), 'satisfied');
    assert.equal(check(one, { path: 'notes/a.mdx' }), 'unsatisfied');
  });

  it('names with glob characters are matched literally in built rules', () => {
    const odd = '/ws/proj/[draft] notes {x}*';
    assert.equal(check([under(odd)], { path: `${odd}/a.md` }), 'satisfied');
    assert.equal(check([under(odd)], { path: '/ws/proj/d notes {x}y/a.md' }), 'unsatisfied');
    assert.equal(check([file(`${odd}/a?.md`)], { path: `${odd}/ab.md` }), 'unsatisfied');
  });

  it('Windows rules match either separator and any case, and refuse what Windows reads differently', () => {
    const rule = [under('C:/Users/me/proj/notes')];
    assert.equal(check(rule, { path: 'C:\\Users\\me\\proj\\notes\\a.md' }, WIN_ROOTS), 'satisfied');
    assert.equal(check(rule, { path: 'notes\\a.md' }, WIN_ROOTS), 'satisfied');
    assert.equal(check(rule, { path: 'c:/users/ME/proj/Notes/a.md' }, WIN_ROOTS), 'satisfied');
    assert.equal(check(rule, { path: 'notes\\..\\a.md' }, WIN_ROOTS), 'unsatisfied');
    assert.equal(check(rule, { path: 'notes\\..  \\..\\a.md' }, WIN_ROOTS), 'notUnderstood');
    assert.equal(check(rule, { path: '\\\\host\\share\\notes\\a.md' }, WIN_ROOTS), 'notUnderstood');
  });

  it('a path argument that is absent is unmet; one that is not a string or not understood is not understood', () => {
    const rule = [under('/ws/proj')];
    assert.equal(check(rule, {}), 'unsatisfied');
    assert.equal(check(rule, { path: 42 }), 'notUnderstood');
    assert.equal(check(rule, { path: ['a'] }), 'notUnderstood');
    assert.equal(check(rule, { path: '~/proj/a' }), 'notUnderstood');
    assert.equal(check(rule, { path: 'a.md' }, []), 'notUnderstood');
  });

  it('an exact value compares JSON type and value', () => {
    const rule: ArgumentConstraint[] = [{ kind: 'equals', argument: 'mode', value: 'fast' }];
    assert.equal(check(rule, { mode: 'fast', other: 1 }), 'satisfied');
    assert.equal(check(rule, { mode: 'Fast' }), 'unsatisfied');
    assert.equal(check([{ kind: 'equals', argument: 'n', value: 1 }], { n: '1' }), 'unsatisfied');
    assert.equal(check([{ kind: 'equals', argument: 'n', value: null }], { n: null }), 'satisfied');
    assert.equal(check(rule, { mode: { fast: true } }), 'notUnderstood');
  });

  it('every constraint must hold; an unknown one is never understood', () => {
    const both: ArgumentConstraint[] = [under('/ws/proj/src', 'source'), under('/ws/proj/dst', 'destination')];
    assert.equal(check(both, { source: 'src/a', destination: 'dst/a' }), 'satisfied');
    assert.equal(check(both, { source: 'src/a', destination: 'elsewhere/a' }), 'unsatisfied');
    assert.equal(check([under('/ws/proj'), { kind: 'unknown', text: '{"kind":"regex"}' }], { path: 'a' }), 'notUnderstood');
    assert.equal(check([], { path: 'a' }), 'satisfied');
  });

  it('describes constraints with their pattern', () => {
    assert.equal(describeConstraint(under('/ws/proj/notes')), 'path is under /ws/proj/notes/ (/ws/proj/notes/**)');
    assert.equal(describeConstraint(file('/ws/proj/[a].md')), 'path is /ws/proj/[a].md');
    assert.equal(describeConstraint({ kind: 'path', argument: 'path', glob: '/ws/**/*.md' }), 'path matches /ws/**/*.md');
    assert.equal(describeConstraint({ kind: 'equals', argument: 'mode', value: 'fast' }), 'mode is "fast"');
  });

  it('shows paths relative to the workspace folder they lie in', () => {
    assert.equal(displayPath('/ws/proj/notes/a.md', 'posix', ROOTS), 'notes/a.md');
    assert.equal(displayPath('/ws/proj', 'posix', ROOTS), 'the workspace folder');
    assert.equal(displayPath('/ws/b/x', 'posix', ['/ws/a', '/ws/b']), 'b/x');
    assert.equal(displayPath('/elsewhere/x', 'posix', ROOTS), '/elsewhere/x');
  });
});

describe('narrowed rules from a card', () => {
  it('this file, under this folder, this value', () => {
    assert.deepEqual(narrowConstraints({ kind: 'file' }, { path: 'notes/a.md', content: 'x' }, ['path'], ROOTS, 'posix'),
      [{ kind: 'path', argument: 'path', glob: '/ws/proj/notes/a.md' }]);
    assert.deepEqual(narrowConstraints({ kind: 'folder' }, { path: 'notes/a.md' }, ['path'], ROOTS, 'posix'),
      [{ kind: 'path', argument: 'path', glob: '/ws/proj/notes/**' }]);
    assert.deepEqual(narrowConstraints({ kind: 'folder' }, { path: 'a.md' }, ['path'], ROOTS, 'posix'),
      [{ kind: 'path', argument: 'path', glob: '/ws/proj/**' }]);
    assert.deepEqual(narrowConstraints({ kind: 'value', argument: 'mode' }, { mode: 'fast' }, [], ROOTS, 'posix'),
      [{ kind: 'equals', argument: 'mode', value: 'fast' }]);
    assert.deepEqual(narrowConstraints({ kind: 'folder' }, { path: 'C:\\Users\\me\\proj\\n\\a.md' }, ['path'], WIN_ROOTS, 'win32'),
      [{ kind: 'path', argument: 'path', glob: 'C:/Users/me/proj/n/**' }]);
  });

  it('constrains every path argument of a move', () => {
    const built = narrowConstraints({ kind: 'folder' }, { source: 'a/x', destination: 'b/x' }, ['source', 'destination'], ROOTS, 'posix');
    assert.deepEqual(built.map((c) => c.kind === 'path' && c.glob), ['/ws/proj/a/**', '/ws/proj/b/**']);
  });

  it('refuses to build what it could not match later', () => {
    assert.throws(() => narrowConstraints({ kind: 'file' }, { path: '~/a.md' }, ['path'], ROOTS, 'posix'), /starts with ~/);
    assert.throws(() => narrowConstraints({ kind: 'file' }, { path: 3 }, ['path'], ROOTS, 'posix'), /not a path/);
    assert.throws(() => narrowConstraints({ kind: 'file' }, {}, [], ROOTS, 'posix'), /no path argument/);
    assert.throws(() => narrowConstraints({ kind: 'value', argument: 'o' }, { o: { a: 1 } }, [], ROOTS, 'posix'), /not a string, number/);
  });
});

describe('stored rules with argument conditions', () => {
  it('parses path and value conditions, keeps unknown kinds as unknown', () => {
    const [rule] = parseRules([{ server: 'fs', tool: 'write_file', arguments: [
      { kind: 'path', argument: 'path', glob: '/ws/proj/notes/**' },
      { kind: 'equals', argument: 'mode', value: 2 },
      { kind: 'regex', argument: 'path', pattern: '.*' },
    ] }]);
    assert.deepEqual(rule?.arguments?.map((c) => c.kind), ['path', 'equals', 'unknown']);
  });

  it('refuses malformed conditions with the field named', () => {
    assert.throws(() => parseConstraints({}, 'rules[0]'), /rules\[0\]\.arguments: expected an array/);
    assert.throws(() => parseConstraints([{ kind: 'path', argument: 'path', glob: 'notes/**' }], 'r'), /r\.arguments\[0\]\.glob: expected an absolute/);
    assert.throws(() => parseConstraints([{ kind: 'path', argument: 'path', glob: '/ws/../**' }], 'r'), /no \. or \.\. segments/);
    assert.throws(() => parseConstraints([{ kind: 'path', argument: 'path', glob: 'C:\\ws\\**' }], 'r'), /with \/ separators/);
    assert.throws(() => parseConstraints([{ kind: 'path', argument: '', glob: '/ws/**' }], 'r'), /argument: expected a non-empty/);
    assert.throws(() => parseConstraints([{ kind: 'equals', argument: 'a', value: [1] }], 'r'), /value: expected a string/);
  });

  it('a rule stored before conditions existed still covers every call of the tool', () => {
    const [old] = parseRules([{ server: 'fs', serverScope: 'user', serverFile: '/c/user.json', tool: 'write_file', scope: 'workspace' }]);
    assert.equal(old?.arguments, undefined);
    assert.ok(old && ruleAppliesTo(old, USER_FS, 'write_file', { path: '/anywhere/x' }, ROOTS));
  });

  it('describes a rule with its conditions', () => {
    const [rule] = parseRules([{ server: 'fs', tool: 'write_file', scope: 'workspace', arguments: [{ kind: 'path', argument: 'path', glob: '/ws/proj/notes/**' }] }]);
    assert.ok(rule);
    assert.equal(describeRule(rule), 'allow tool "write_file" of server "fs" when path is under /ws/proj/notes/ (/ws/proj/notes/**) (this workspace)');
  });
});

const USER_FS: ServerIdentity = { name: 'fs', scope: 'user', file: '/c/user.json' };

describe('the policy with argument rules', () => {
  const rule = (partial: Partial<ApprovalRule>): ApprovalRule => ({
    id: 'r1', effect: 'allow', server: 'fs', serverScope: 'user', serverFile: '/c/user.json', tool: 'write_file', scope: 'workspace', createdAt: 0, origin: 'test', ...partial,
  });
  const input = (rules: ApprovalRule[], args: Record<string, unknown>, extra: Partial<PolicyInput> = {}): PolicyInput => ({
    mode: 'askBeforeEdits', server: USER_FS, tool: 'write_file', serverTrusted: true, pinnedState: 'accepted', rules, args, roots: ROOTS, fileEffect: 'insideRoots', ...extra,
  });
  const notes = rule({ arguments: [under('/ws/proj/notes')] });

  it('an allow rule for a folder lets writes under it through and asks for the rest', () => {
    const inside = decide(input([notes], { path: 'notes/b.md' }));
    assert.equal(inside.decision, 'allow');
    assert.match(inside.reason, /when path is under \/ws\/proj\/notes\//);
    assert.equal(decide(input([notes], { path: 'src/b.md' })).decision, 'ask');
    assert.equal(decide(input([notes], { path: 'notes/../b.md' })).decision, 'ask');
    assert.equal(decide(input([notes], { path: '~/notes/b.md' })).decision, 'ask');
  });

  it('a folder rule never outranks a write outside the roots or a tool nobody reviewed', () => {
    assert.equal(decide(input([notes], { path: 'notes/b.md' }, { fileEffect: 'outsideRoots' })).decision, 'ask');
    assert.equal(decide(input([notes], { path: 'notes/b.md' }, { pinnedState: 'new' })).decision, 'ask');
  });

  it('a deny rule with a condition refuses what it cannot read, not what it reads as outside', () => {
    const deny = rule({ effect: 'deny', arguments: [under('/ws/proj/secrets')] });
    assert.equal(decide(input([deny], { path: 'secrets/k' })).decision, 'deny');
    assert.equal(decide(input([deny], { path: '~/x' })).decision, 'deny');
    assert.equal(decide(input([deny], { path: 'notes/k' })).decision, 'ask');
  });

  it('an unknown condition never allows', () => {
    const odd = rule({ arguments: [{ kind: 'unknown', text: 'x' }] });
    assert.equal(decide(input([odd], { path: 'notes/b.md' })).decision, 'ask');
  });
});
