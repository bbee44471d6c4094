// Deny by default: commands that held only allowed signatures yet ran code are never auto-approved, each
// with a reason naming what was not understood; "Always allow" on an unknown program, a program given
// as a path, or a command after `cd` covers exactly what the person saw.
import * as assert from 'node:assert/strict';
import { type ShellParser } from '../../src/core/approvals';
import { alwaysAllowRules, isAutoApproved, signaturesOf, type SignatureOptions } from '../../src/core/shell';
import { loadBashParser } from '../../src/node/bashParser';

let parser: ShellParser;

before(async () => {
  parser = await loadBashParser();
});

function check(command: string, always: string[], options: SignatureOptions = {}) {
  return isAutoApproved(command, alwaysAllowRules(always, parser, options), parser, options);
}

describe('command signatures: only what is understood as inert is approved', () => {
  describe('expansions that evaluate text are never approved, named', () => {
    const cases: Array<[string, RegExp]> = [
      ["x='a[$(touch p)]'; ls $((x))", /`\$\(\(x\)\)` is an arithmetic expansion/],
      ['ls $[x]', /`\$\[x\]` is an arithmetic expansion/],
      ["x='$(touch p)'; ls ${x@P}", /`\$\{x@P\}` is a transforming expansion `\$\{…@…\}`/],
      ['ls ${!x}', /`\$\{!x\}` is an indirect expansion/],
      ['ls ${v:x}', /`\$\{v:x\}` is a substring expansion/],
      ['ls "${v:1:x}"', /is a substring expansion/],
      ['ls ${x/a/b}', /is a transforming expansion \(pattern removal or replacement/],
      ['ls ${x%.txt}', /is a transforming expansion/],
      ['ls ${a[x]}', /is an array element/],
      ['ls ${#x}', /is a length expansion/],
      ['ls ${x:-y}', /is a default-value expansion/],
      ['[[ $x -eq 0 ]] && ls', /`\[\[ \$x -eq 0 \]\]` is a test expression `\[\[ … \]\]`/],
      ['[ -f x ] && ls', /is a test expression `\[ … \]`/],
      ['(( x )) && ls', /is an arithmetic command `\(\(…\)\)`/],
      ['for ((i = 0; i < x; i++)); do ls; done', /is a C-style `for \(\(…\)\)` loop/],
      ['a[x]=1; ls', /has an array subscript/],
      ['declare -i n=x; ls', /declares variables with `declare`/],
      ['local -n r=x; ls', /declares variables with `local`/],
      ['ls() { rm -rf ~; }; ls', /defines a function/],
      ['select x in a b; do ls; done', /a `select` loop/],
      ['echo $"hello"', /a translated string/],
      ['cat <<EOF\n$x\nEOF', /a heredoc/],
      ['ls <(touch p)', /runs a command through a pipe named like a file/],
      ['x=(a b); ls', /the shell construct `array`/],
      ['unset x; ls', /the shell construct `unset_command`/],
      ["read 'a[$(touch p)]' < f; ls", /`read` assigns to an array element/],
      ["printf -v 'a[$(touch p)]' %s x; ls", /`printf` assigns to an array element/],
      ['printf -v "$v" %s x; ls', /`printf` assigns to a variable named by an expansion/],
      ["x='a[$(touch p)]'; let y=x; ls", /`let` evaluates its arguments as arithmetic/],
      ['for PATH in /tmp; do make; done', /sets PATH/],
      ['hash -p ./evil git; git status', /`hash` changes which file a later command name runs/],
    ];
    for (const [command, reason] of cases) {
      it(`${JSON.stringify(command)}`, () => {
        const result = check(command, ['ls', 'cat', 'echo', command]);
        assert.equal(result.autoApproved, false, result.reason);
        assert.match(result.reason, /^Never auto-approved: /);
        assert.match(result.reason, reason);
      });
    }
  });

  describe('plain variables and quoted text stay inert', () => {
    const cases: Array<[string, string[]]> = [
      ['ls $HOME ${HOME} "$1" "${PWD}" $@', ['ls']],
      ["x='a[$(touch p)]'; echo \"$x\"", ['echo']],
      ['for f in src/*.ts; do wc -l "$f"; done', ['wc']],
      ['export CI=1; npm test', ['npm test']],
      ['printf "%s\\n" "$x" | wc -l', ['printf', 'wc']],
      ['while IFS= read -r line; do echo "$line"; done < list.txt', ['read', 'echo']],
      ['sleep 1 & wait $!', ['sleep', 'wait']],
    ];
    for (const [command, always] of cases) {
      it(`${JSON.stringify(command)} is approved after "Always allow" on ${JSON.stringify(always)}`, () => {
        const result = check(command, always);
        assert.equal(result.autoApproved, true, result.reason);
      });
    }
  });

  describe('a program given as a path is that file, never the wrapper of the same name', () => {
    const cases: Array<[string, string]> = [
      ['./env ls', './env ls'],
      ['./bin/nohup ls', './bin/nohup ls'],
      ['../tools/sh -c ls', '../tools/sh -c ls'],
      ['/tmp/x/sudo ls', '/tmp/x/sudo ls'],
    ];
    for (const [command, signature] of cases) {
      it(`${command} is signed ${signature}, and "Always allow" on ls does not cover it`, () => {
        assert.deepEqual(signaturesOf(command, parser), { signatures: [signature] });
        const result = check(command, ['ls', 'env ls', 'nohup ls', 'sh -c ls']);
        assert.equal(result.autoApproved, false);
        assert.equal(result.reason, `\`${signature}\` is not allowed by any "Always allow" rule.`);
        assert.equal(check(command, [command]).autoApproved, true);
      });
    }
    it('refuses a path program whose words bash would expand', () => {
      assert.match(check('./run $X', ['./run $X']).reason, /`\.\/run` is a file given by its path, so it is signed by its exact words, and \$X is not a fixed word/);
    });
  });

  describe('code options in every spelling', () => {
    const cases: Array<[string, RegExp]> = [
      ["python '-cimport os' x.py", /`python -c` runs code given on its command line/],
      ['python -Bc "print(1)"', /`python -c` runs code/],
      ['python3 -I -c1', /`python3 -c` runs code/],
      ["perl '-esystem q(id)'", /`perl -e` runs code/],
      ['perl -lne 1 f', /`perl -e` runs code/],
      ["perl '-Mstrict;system q(id)' x.pl", /`perl -M` loads code named on its command line/],
      ['perl -m strict x.pl', /`perl -m` loads code/],
      ['node --test --import data:text/javascript,1', /`node --import` loads code named on its command line/],
      ['node --import=./hook.mjs app.js', /`node --import` loads code/],
      ['node --require ./hook.js app.js', /`node --require` loads code/],
      ['node --loader ./l.mjs app.js', /`node --loader` loads code/],
      ['node --experimental-loader=./l.mjs app.js', /`node --experimental-loader` loads code/],
      ['node -pe 1', /`node -p` runs code/],
      ['node --eval=1', /`node --eval` runs code/],
      ['node --env-file=.env app.js', /`node --env-file` loads code/],
      ['ruby -e 1', /`ruby -e` runs code/],
      ['ruby -rsocket x.rb', /`ruby -r` loads code/],
      ['node --frobnicate app.js', /`node --frobnicate` is an option these rules do not know/],
      ['bash --rcfile ./x -i', /`bash --rcfile` is an option these rules do not know/],
      ['tsx -e 1', /`tsx -e` runs code/],
      ['uv run python -c 1', /`python -c` runs code/],
    ];
    for (const [command, reason] of cases) {
      it(`${command}`, () => {
        const result = check(command, [command, 'python x.py', 'perl x.pl', 'node app.js', 'node --test']);
        assert.equal(result.autoApproved, false, result.reason);
        assert.match(result.reason, reason);
      });
    }
    it('keeps the ordinary spellings approved', () => {
      for (const command of ['python -m pytest -q', 'python -u scripts/build.py', 'node --test test/', 'node --enable-source-maps dist/app.js', 'perl -w x.pl', 'python3 -W error -m pytest']) {
        assert.equal(check(command, [command]).autoApproved, true, command);
      }
    });
  });

  describe('options that change which code runs or where: signed or refused', () => {
    const signed: Array<[string, string, string]> = [
      ['npx -p pkg jest', 'npx jest', 'npx -p pkg jest'],
      ['npx --package=pkg jest', 'npx jest', 'npx --package=pkg jest'],
      ['uvx --from pkg pytest', 'uvx pytest', 'uvx --from pkg pytest'],
      ['git -C dir status', 'git status', 'git -C dir status'],
      ['git --git-dir=.bare status', 'git status', 'git --git-dir=.bare status'],
      ['git --work-tree ../x status', 'git status', 'git --work-tree ../x status'],
      ['make -C sub test', 'make test', 'make -C sub test'],
      ['npm --prefix sub test', 'npm test', 'npm --prefix sub test'],
    ];
    for (const [command, allowed, signature] of signed) {
      it(`${command} is signed \`${signature}\`, not covered by \`${allowed}\``, () => {
        assert.deepEqual(signaturesOf(command, parser).signatures, [signature]);
        assert.equal(check(command, [allowed]).autoApproved, false);
        assert.equal(check(command, [command]).autoApproved, true);
      });
    }
    const refused: Array<[string, RegExp]> = [
      ['npx --registry=https://x.example jest', /`npx --registry` downloads packages from another registry/],
      ['npm install --registry https://x.example lodash', /`npm --registry` downloads packages from another registry/],
      ['npm --userconfig ./rc test', /`npm --userconfig` reads a configuration file/],
      ['pip install --index-url https://x.example pkg', /`pip --index-url` downloads packages/],
      ['pip install --extra-index-url=https://x.example pkg', /`pip --extra-index-url` downloads packages/],
      ['python -m pip install -i https://x.example pkg', /`pip -i` downloads packages/],
      ['uvx --index-url https://x.example pytest', /`uvx --index-url` downloads packages/],
      ['git -c core.fsmonitor=id status', /`git -c` sets configuration/],
      ['git --exec-path=./bin status', /`git --exec-path` chooses where git finds the programs/],
      ['kubectl --kubeconfig ./k get pods', /`kubectl --kubeconfig` reads a kubeconfig/],
      ['env -C /tmp ls', /`env -C` runs the command in another folder/],
      ['gsudo ls', /`gsudo` runs a command with elevated privileges/],
    ];
    for (const [command, reason] of refused) {
      it(`${command} is never approved`, () => {
        const result = check(command, [command]);
        assert.equal(result.autoApproved, false);
        assert.match(result.reason, reason);
      });
    }
  });

  describe('cd: the folder joins the signature; leaving the workspace ends auto-approval', () => {
    it('signs the commands after a cd with its folder, so "git status" does not cover "cd dir && git status"', () => {
      assert.deepEqual(signaturesOf('cd dir && git status', parser).signatures, ['cd', 'cd dir && git status']);
      assert.equal(check('cd dir && git status', ['git status', 'cd']).autoApproved, false);
      assert.equal(check('cd dir && git status', ['cd dir && git status']).autoApproved, true);
      assert.equal(check('cd other && git status', ['cd dir && git status']).autoApproved, false);
    });
    it('restores the folder after a subshell or a pipeline part, which cannot move their parent', () => {
      assert.deepEqual(signaturesOf('(cd web && npm ci); npm test', parser).signatures, ['cd', 'cd web && npm ci', 'npm test']);
      assert.deepEqual(signaturesOf('ls | cd /tmp; git status', parser).signatures, ['ls', 'cd', 'git status']);
    });
    it('takes an absolute path inside the workspace as the same folder', () => {
      const options = { workspace: '/home/dev/project' };
      assert.deepEqual(signaturesOf('cd /home/dev/project/web && git status', parser, options).signatures, ['cd', 'cd web && git status']);
    });
    const lost: Array<[string, RegExp]> = [
      ['cd /tmp && git status', /`cd \/tmp` goes to a folder outside the workspace/],
      ['cd .. && git status', /`cd \.\.` can leave the workspace/],
      ['cd web/../.. && git status', /can leave the workspace/],
      ['cd ~ && git status', /goes to a folder outside the workspace/],
      ['cd && git status', /`cd` does not name one folder/],
      ['cd - && git status', /goes to a folder outside the workspace/],
      ['cd "$D" && git status', /`cd "\$D"` goes to a folder named by an expansion or pattern/],
      ['cd we* && git status', /named by an expansion or pattern/],
      ['cd a || cd b; git status', /may or may not run/],
      ['while true; do cd a; break; done; git status', /may or may not run/],
      ['if true; then cd a; fi; git status', /may or may not run/],
      ['eval "cd /tmp"; git status', /a `cd` inside an `eval` script/],
    ];
    for (const [command, reason] of lost) {
      it(`${JSON.stringify(command)} is never approved`, () => {
        const result = check(command, [command, 'git status']);
        assert.equal(result.autoApproved, false);
        assert.match(result.reason, reason);
      });
    }
    it('refuses a cd through a wrapper or pushd, which it cannot follow', () => {
      assert.match(check('builtin cd /tmp; git status', ['git status']).reason, /`cd` changes the folder/);
      assert.match(check('pushd /tmp; git status', ['git status']).reason, /`pushd` changes the folder/);
    });
  });

  describe('programs not in the tables are signed by their exact words', () => {
    const cases: Array<[string, string, string]> = [
      ['xvfb-run rm -rf ~', 'xvfb-run -a npm test', 'xvfb-run rm -rf ~'],
      ['cross-env FOO=1 rm -rf .', 'cross-env FOO=1 npm test', 'cross-env FOO=1 rm -rf .'],
      ['flock /tmp/l rm -rf .', 'flock /tmp/l npm test', 'flock /tmp/l rm -rf .'],
      ['busybox rm -rf .', 'busybox ls', 'busybox rm -rf .'],
      ['curl -s https://evil.example', 'curl -s https://example.com', 'curl -s https://evil.example'],
    ];
    for (const [command, allowed, signature] of cases) {
      it(`"Always allow" on ${allowed} does not cover ${command}`, () => {
        assert.deepEqual(signaturesOf(command, parser).signatures, [signature]);
        assert.equal(check(command, [allowed]).autoApproved, false);
        assert.equal(check(allowed, [allowed]).autoApproved, true);
      });
    }
  });

  describe('variables that run commands, and file writes through flags', () => {
    const cases: Array<[string, RegExp]> = [
      ["LESSOPEN='|id %s' less f", /sets LESSOPEN/],
      ['LESS=+!id less f', /sets LESS,/],
      ['PAGER=id man ls', /sets PAGER/],
      ['GIT_PAGER=id git log', /sets GIT_PAGER/],
      ['EDITOR=id git commit', /sets EDITOR/],
      ['VISUAL=id crontab -e', /sets VISUAL/],
      ['GIT_EDITOR=id git commit', /sets GIT_EDITOR/],
      ['SSH_ASKPASS=./x ssh-add', /sets SSH_ASKPASS/],
      ['GIT_ASKPASS=./x git fetch', /sets GIT_ASKPASS/],
      ['GIT_SSH_COMMAND=./x git fetch', /sets GIT_SSH_COMMAND/],
      ['export GIT_PAGER=id; git log', /sets GIT_PAGER/],
      ['env PAGER=id git log', /`env` sets PAGER/],
      ['git diff --output=F', /`git --output` writes its output into the file/],
      ['git log -p --output F', /`git --output` writes/],
      ['git format-patch -o out HEAD~1', /`git format-patch -o` writes its patches/],
      ['sort -o F data.txt', /`sort -o` writes its output into the file/],
      ['sort -uoF data.txt', /`sort -o` writes/],
      ['sort --output=F data.txt', /`sort --output` writes/],
      ['uniq in.txt out.txt', /`uniq` writes into the file out.txt/],
      ['git diff $OPT', /`\$OPT` may expand into an option of `git`/],
    ];
    for (const [command, reason] of cases) {
      it(`${command} is never approved`, () => {
        const result = check(command, [command, 'git log', 'git diff', 'sort', 'less', 'man']);
        assert.equal(result.autoApproved, false);
        assert.match(result.reason, reason);
      });
    }
  });
});
