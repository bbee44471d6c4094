import * as assert from 'node:assert/strict';
import { matchesTrustedRepository, normalizeGitRemote, parseGitConfigOrigin } from '../../src/core/trust/gitRemote';

describe('git remotes', () => {
  describe('normalizeGitRemote', () => {
    const cases: [string, string][] = [
      ['https://github.com/Org/Repo.git', 'github.com/Org/Repo'],
      ['https://GitHub.com/org/repo/', 'github.com/org/repo'],
      ['http://github.com/org/repo', 'github.com/org/repo'],
      ['ssh://git@github.com:22/org/repo.git', 'github.com/org/repo'],
      ['ssh://git@github.com/org/repo', 'github.com/org/repo'],
      ['git+ssh://git@github.com/org/repo.git', 'github.com/org/repo'],
      ['git@github.com:org/repo.git', 'github.com/org/repo'],
      ['github.com:org/repo', 'github.com/org/repo'],
      ['git://github.com/org/repo.git', 'github.com/org/repo'],
      ['https://user:ghp_token123@github.com/org/repo', 'github.com/org/repo'],
      ['https://x-access-token:abc@github.com/org/repo.git', 'github.com/org/repo'],
      ['https://gitlab.com/group/subgroup/project.git', 'gitlab.com/group/subgroup/project'],
      ['https://gitlab.example.com:8443/a/b/c', 'gitlab.example.com/a/b/c'],
      ['ssh://git@gitlab.example.com:2222/a/b.git', 'gitlab.example.com/a/b'],
      ['https://dev.azure.com/org/project/_git/repo', 'dev.azure.com/org/project/_git/repo'],
      ['https://org@dev.azure.com/org/project/_git/repo', 'dev.azure.com/org/project/_git/repo'],
      ['git@ssh.dev.azure.com:v3/org/project/repo', 'dev.azure.com/org/project/_git/repo'],
      ['  https://github.com/org/repo.git  ', 'github.com/org/repo'],
      ['https://github.com./org/repo', 'github.com/org/repo'],
      ['https://github.com/org/my%20repo', 'github.com/org/my repo'],
    ];
    for (const [url, expected] of cases) it(`${url} → ${expected}`, () => assert.equal(normalizeGitRemote(url), expected));

    const rejected = [
      '/home/dev/repos/project',
      './relative/repo',
      '../sibling',
      'C:\\repos\\project',
      'C:/repos/project',
      '\\\\server\\share\\repo',
      'file:///home/dev/repo.git',
      'FILE:///c:/repo',
      '',
      'https://github.com',
      'https://github.com/',
      'https://github.com/org/../evil/repo',
      'https://github.com/org/%2e%2e/evil',
      'https://github.com/org%2Frepo/x',
      'https://github.com/org/repo?x=1',
      'https://github.com/org/repo#main',
      'https://github.com/org//repo',
      'ssh://git@github.com/~user/repo',
      'https://exa_mple.com/org/repo',
      'https://github.com/org/repo name',
      'foo://github.com/org/repo',
    ];
    for (const url of rejected) it(`rejects ${JSON.stringify(url)}`, () => assert.equal(normalizeGitRemote(url), undefined));

    it('reads the host after the last @, as URL parsers do', () => {
      assert.equal(normalizeGitRemote('https://github.com@evil.example/org/repo'), 'evil.example/org/repo');
      assert.equal(normalizeGitRemote('https://a@b@evil.example/org/repo'), 'evil.example/org/repo');
    });
  });

  describe('matchesTrustedRepository', () => {
    const yes: [string, string][] = [
      ['github.com/my-org/repo', 'github.com/my-org/*'],
      ['github.com/My-Org/Repo', 'github.com/my-org/repo'],
      ['github.com/my-org/repo', 'GitHub.com/MY-ORG/*'],
      ['gitlab.com/group/sub/project', 'gitlab.com/group/**'],
      ['gitlab.com/group/project', 'gitlab.com/group/**'],
      ['gitlab.com/group/sub/project', 'gitlab.com/**/project'],
      ['github.com/my-org/mcp-tools', 'github.com/my-org/mcp-*'],
      ['git.corp.example/team/repo', '*.corp.example/team/*'],
      ['github.com/my-org/repo', 'https://github.com/my-org/*'],
      ['github.com/my-org/repo', 'git@github.com:my-org/*'],
      ['github.com/my-org/repo', 'github.com/my-org/repo.git'],
      ['github.com/my-org/repo', 'github.com/my-org/*/'],
    ];
    for (const [remote, glob] of yes) it(`${remote} matches ${glob}`, () => assert.equal(matchesTrustedRepository(remote, [glob]), true));

    const no: [string, string][] = [
      ['github.com/my-org-evil/repo', 'github.com/my-org/*'],
      ['github.com/my-org/sub/repo', 'github.com/my-org/*'],
      ['github.com/other/repo', 'github.com/my-org/*'],
      ['github.com.evil.example/my-org/repo', 'github.com/my-org/*'],
      ['evilgithub.com/my-org/repo', 'github.com/my-org/*'],
      ['github.com/my-org', 'github.com/my-org/*'],
      ['github.com/my-org/tools', 'github.com/my-org/mcp-*'],
      ['gitlab.com/group2/project', 'gitlab.com/group/**'],
      ['github.com/my-org/repo', ''],
      ['github.com/my-org/repo', '   '],
    ];
    for (const [remote, glob] of no) it(`${remote} does not match ${JSON.stringify(glob)}`, () => assert.equal(matchesTrustedRepository(remote, [glob]), false));

    it('matches when any glob does, and never with no globs', () => {
      assert.equal(matchesTrustedRepository('github.com/b/r', ['github.com/a/*', 'github.com/b/*']), true);
      assert.equal(matchesTrustedRepository('github.com/b/r', []), false);
    });

    it('treats regular-expression characters in globs literally', () => {
      assert.equal(matchesTrustedRepository('github.com/org/a.b', ['github.com/org/a.b']), true);
      assert.equal(matchesTrustedRepository('github.com/org/axb', ['github.com/org/a.b']), false);
    });
  });

  describe('parseGitConfigOrigin', () => {
    it('reads the url of [remote "origin"]', () => {
      const config = [
        '[core]',
        '\trepositoryformatversion = 0',
        '\tbare = false',
        '[remote "upstream"]',
        '\turl = https://github.com/upstream/repo.git',
        '[remote "origin"]',
        '\turl = git@github.com:my-org/repo.git',
        '\tfetch = +refs/heads/*:refs/remotes/origin/*',
        '[branch "main"]',
        '\tremote = origin',
      ].join('\n');
      assert.equal(parseGitConfigOrigin(config), 'git@github.com:my-org/repo.git');
    });

    it('handles case, quotes, comments, CRLF, continuations and the old [remote.origin] form', () => {
      assert.equal(parseGitConfigOrigin('[Remote "origin"]\r\n  URL = "https://github.com/a/b.git" ; comment\r\n'), 'https://github.com/a/b.git');
      assert.equal(parseGitConfigOrigin('[remote "origin"]\n  url = https://github.com/a/b # comment\n'), 'https://github.com/a/b');
      assert.equal(parseGitConfigOrigin('[remote "origin"]\n  url = https://github.com/\\\na/b\n'), 'https://github.com/a/b');
      assert.equal(parseGitConfigOrigin('[remote.origin]\n  url = https://github.com/a/b\n'), 'https://github.com/a/b');
      assert.equal(parseGitConfigOrigin('[remote "origin"] url = https://github.com/a/b\n'), 'https://github.com/a/b');
    });

    it('takes the first url when there are several, and ignores other remotes', () => {
      assert.equal(parseGitConfigOrigin('[remote "origin"]\nurl = https://github.com/a/first\nurl = https://github.com/a/second\n'), 'https://github.com/a/first');
      assert.equal(parseGitConfigOrigin('[remote "Origin"]\nurl = https://github.com/a/b\n'), undefined);
      assert.equal(parseGitConfigOrigin('[remote "fork"]\nurl = https://github.com/a/b\n'), undefined);
      assert.equal(parseGitConfigOrigin(''), undefined);
    });

    it('applies the longest matching insteadOf rewrite', () => {
      const config = ['[url "https://github.com/"]', '\tinsteadOf = gh:', '[url "https://github.com/my-org/"]', '\tinsteadOf = gh:my-org/', '[remote "origin"]', '\turl = gh:my-org/repo'].join('\n');
      assert.equal(parseGitConfigOrigin(config), 'https://github.com/my-org/repo');
      assert.equal(normalizeGitRemote(parseGitConfigOrigin(config) ?? ''), 'github.com/my-org/repo');
    });

    it('does not mistake a url in another section for the origin', () => {
      assert.equal(parseGitConfigOrigin('[submodule "x"]\n\turl = https://github.com/other/x\n'), undefined);
    });
  });
});
