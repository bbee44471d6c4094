// Verified repositories: a folder's git origin read from the files git keeps (a `.git` folder, or a
// `.git` file pointing at a worktree's or a submodule's git dir), matched against the person's globs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { matchesTrustedRepository, normalizeGitRemote, parseGitConfigOrigin } from '../../src/core/trust/gitRemote';
import { parseGitDirFile, readGitOrigin } from '../../src/node/gitOrigin';

/** test/fixtures/git/config: a clone's .git/config with an upstream, an origin with a comment, a branch. */
const FIXTURE = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'git', 'config'), 'utf8');

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

describe('verified repositories: reading a folder\'s git origin', () => {
  let root: string;
  beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-git-')); });
  afterEach(() => { fs.rmSync(root, { recursive: true, force: true }); });

  it('reads origin (not upstream) from the fixture .git/config and matches the trusted glob', () => {
    const origin = parseGitConfigOrigin(FIXTURE);
    assert.equal(origin, 'git@github.com:My-Org/tool.git');
    const normalized = normalizeGitRemote(origin!);
    assert.equal(normalized, 'github.com/My-Org/tool');
    assert.equal(matchesTrustedRepository(normalized!, ['github.com/my-org/*']), true);
    assert.equal(matchesTrustedRepository(normalized!, ['github.com/someone-else/*']), false, 'upstream does not count');
    assert.equal(matchesTrustedRepository(normalized!, ['github.com/my-org']), false, 'the org alone is not a repository');
  });

  it('a plain clone: <folder>/.git/config', async () => {
    const folder = path.join(root, 'clone');
    write(path.join(folder, '.git', 'config'), FIXTURE);
    assert.equal(await readGitOrigin(folder), 'git@github.com:My-Org/tool.git');
  });

  it('a linked worktree: .git is a file, and the config lives in the common dir', async () => {
    const main = path.join(root, 'main');
    write(path.join(main, '.git', 'config'), FIXTURE);
    write(path.join(main, '.git', 'worktrees', 'feature', 'commondir'), '../..\n');
    const worktree = path.join(root, 'feature');
    write(path.join(worktree, '.git'), `gitdir: ${path.join(main, '.git', 'worktrees', 'feature')}\n`);
    assert.equal(await readGitOrigin(worktree), 'git@github.com:My-Org/tool.git');
  });

  it('a submodule: .git is a file with a relative gitdir that has its own config', async () => {
    const parent = path.join(root, 'parent');
    write(path.join(parent, '.git', 'config'), '[remote "origin"]\n\turl = https://github.com/other/parent.git\n');
    write(path.join(parent, '.git', 'modules', 'lib', 'config'), '[remote "origin"]\n\turl = https://github.com/my-org/lib.git\n');
    write(path.join(parent, 'lib', '.git'), 'gitdir: ../.git/modules/lib\n');
    assert.equal(await readGitOrigin(path.join(parent, 'lib')), 'https://github.com/my-org/lib.git');
  });

  it('no origin when there is no .git, no origin remote, or an unreadable gitdir pointer', async () => {
    const bare = path.join(root, 'plain');
    fs.mkdirSync(bare);
    assert.equal(await readGitOrigin(bare), undefined);
    const noOrigin = path.join(root, 'no-origin');
    write(path.join(noOrigin, '.git', 'config'), '[remote "upstream"]\n\turl = https://github.com/my-org/x.git\n');
    assert.equal(await readGitOrigin(noOrigin), undefined);
    const dangling = path.join(root, 'dangling');
    write(path.join(dangling, '.git'), 'gitdir: ../nowhere\n');
    assert.equal(await readGitOrigin(dangling), undefined);
    const garbage = path.join(root, 'garbage');
    write(path.join(garbage, '.git'), 'not a pointer\n');
    assert.equal(await readGitOrigin(garbage), undefined);
  });

  it('only the folder\'s own .git counts, not an enclosing clone\'s', async () => {
    const outer = path.join(root, 'outer');
    write(path.join(outer, '.git', 'config'), FIXTURE);
    const inner = path.join(outer, 'vendor', 'thing');
    fs.mkdirSync(inner, { recursive: true });
    assert.equal(await readGitOrigin(inner), undefined);
  });

  it('parseGitDirFile reads the pointer as written', () => {
    assert.equal(parseGitDirFile('gitdir: ../.git/modules/x\n'), '../.git/modules/x');
    assert.equal(parseGitDirFile('gitdir:/abs/path  \r\n'), '/abs/path');
    assert.equal(parseGitDirFile('ref: refs/heads/main\n'), undefined);
  });
});
