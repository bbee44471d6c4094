// Options read deny by default: a wrapper's option that is not known to be harmless refuses, named;
// dangerous long options are found by their unique prefixes (GNU getopt_long, git, npm and make accept
// them); settings and installs are signed by their exact words; plain programs' write options refuse.
import * as assert from 'node:assert/strict';
import { check } from './helpers/approvalCheck';


function refused(cases: Array<[string, string[], RegExp]>): void {
  for (const [command, always, reason] of cases) {
    it(`${command} is not approved under ${JSON.stringify(always)}`, () => {
      const result = check(command, always);
      assert.equal(result.autoApproved, false, result.reason);
      assert.match(result.reason, reason);
    });
  }
}

describe('command signatures: options read deny by default', () => {
  describe('a wrapper option not known to be harmless refuses, naming it', () => {
    refused([
      ["env -S 'sh -c id' ls", ['ls'], /`env -S` splits its argument/],
      ["env -vS 'sh -c id'", ['sh -c id', 'ls'], /`env -S` splits/],
      ["env -iS 'sh -c id'", ['sh -c id', 'ls'], /`env -S` splits/],
      ["env --split='sh -c id'", ['env', 'ls'], /`env --split-string` splits/],
      ['env --chd=/tmp ls', ['ls'], /`env --chdir` runs the command in another folder/],
      ['env -C /tmp ls', ['ls'], /`env -C`/],
      ['env -P /tmp ls', ['ls'], /`env -P` looks the command up/],
      ['env --frobnicate ls', ['ls'], /`env --frobnicate` is an option these rules do not know/],
      ['timeout --foo 5 ls', ['ls'], /`timeout --foo` is an option these rules do not know/],
      ['time -o F ls', ['ls'], /`time -o` writes its report into a file/],
      ['time --out=F ls', ['ls'], /`time --output` writes its report/],
      ['time -ao F ls', ['ls', 'F ls'], /`time -a` writes its report/],
      ['command -p ls', ['ls'], /`command -p` looks the command up in a default search path/],
      ['exec -a x ls', ['ls'], /`exec -a` runs the command under another name/],
      ['exec -l bash', ['bash'], /`exec -l` runs the command as a login shell/],
      ['nohup --foo ls', ['ls'], /`nohup --foo ls` is not allowed/],
      ['setsid --bogus ls', ['ls'], /`setsid --bogus`/],
      ['xargs -I{} sh -c id', ['sh -c id'], /`xargs -I` puts its input into the words of the command/],
      ['xargs -i ls', ['ls'], /`xargs -i` puts its input/],
      ['xargs --repl={} ls', ['ls'], /`xargs --replace` puts its input/],
      ['xargs --process-slot-var=PATH ls', ['ls'], /`xargs --process-slot-var` sets a variable/],
      ['nice -n 5 -x ls', ['ls'], /`nice -x` is an option these rules do not know/],
      ['stdbuf --bogus ls', ['ls'], /`stdbuf --bogus`/],
      ['ionice -p 1 ls', ['ls'], /`ionice -p` is an option these rules do not know/],
      ['env $OPTS ls', ['ls'], /comes from an expansion \(\$OPTS\)/],
      ['env -{S,x} ls', ['ls'], /`-\{S,x\}` is a brace expansion/],
    ]);
  });

  describe('the harmless options of wrappers are read and approved', () => {
    const cases: Array<[string, string]> = [
      ['timeout -s KILL 5 ls', 'ls'], ['timeout --signal=TERM -k 2 5 ls', 'ls'], ['timeout --preserve-status 5 ls', 'ls'],
      ['nice -n 5 ls', 'ls'], ['nice -5 ls', 'ls'], ['nice --adj=5 ls', 'ls'], ['stdbuf -oL -eL ls', 'ls'], ['env -i -u X ls', 'ls'],
      ['env -uX NO_COLOR=1 ls', 'ls'], ['env -- ls', 'ls'], ['setsid -f ls', 'ls'], ['xargs -0 -n 1 ls --', 'ls'], ['xargs -a F -r ls --', 'ls'],
      ['time -p ls', 'ls'], ['exec -c ls', 'ls'], ['ionice -c 3 ls', 'ls'], ['command ls', 'ls'], ['command -v ls', 'command'],
    ];
    for (const [command, always] of cases) {
      it(`${command} is approved under ${always}`, () => assert.equal(check(command, [always]).autoApproved, true, check(command, [always]).reason));
    }
  });

  describe('dangerous long options are found by their unique prefixes', () => {
    refused([
      ['git diff --outp=F', ['git diff'], /`git --output` writes/],
      ['git log --out F', ['git log'], /`git --output` writes/],
      ['sort --out=F x', ['sort'], /`sort --output` writes/],
      ['sort --compress=x -S1 x', ['sort'], /`sort --compress-program` runs/],
      ["make --ev='x:;id'", ['make'], /`make --eval` evaluates its value as makefile text/],
      ["make -E 'x:;id'", ['make'], /`make -E` evaluates/],
      ['make --fi=Other', ['make'], /`make --file` runs the recipes/],
      ['npm --reg=http://x test', ['npm test'], /`npm --registry` downloads/],
      ['npm test --scr=x', ['npm test'], /`npm --script-shell` chooses the shell/],
      ['npm test --node-opt=--require=x', ['npm test'], /`npm --node-options` passes options/],
      ['cargo --conf x build', ['cargo build'], /`cargo --config` sets configuration/],
      ['rg --pr=x y', ['rg'], /`rg --pre` runs the command/],
      ['pnpm --config.script-shell=x test', ['pnpm test'], /`pnpm --config\.` sets configuration/],
      ['npm test --git=./x', ['npm test'], /`npm --git` chooses the git program/],
      ['npm test --onload=./x', ['npm test'], /`npm --onload-script` runs a script/],
      ['git --bare status', ['git status'], /`git --bare` treats the current folder as the repository/],
    ]);
    it('an abbreviated folder option joins the signature like its full spelling', () => {
      assert.deepEqual(check('make --dir=sub', ['make']).signatures, ['make --dir=sub']);
      assert.equal(check('make --dir=sub', ['make']).autoApproved, false);
    });
  });

  describe('subcommands that set values, install or run code', () => {
    refused([
      ['git grep -O id x', ['git grep x'], /`git grep -O` opens the files it finds in the program/],
      ['git grep -Oid x', ['git grep x'], /`git grep -O`/],
      ['git grep --open=id x', ['git grep x'], /`git grep --open-files-in-pager`/],
      ['git config core.fsmonitor id', ['git config user.name'], /`git config core.fsmonitor id` is not allowed/],
      ['git config --local core.pager id', ['git config --list'], /is not allowed/],
      ['git hook run pre-commit', ['git status'], /`git hook run` runs a hook script/],
      ["git filter-branch --tree-filter 'id' HEAD", ['git filter-branch'], /runs the shell commands given as its filters/],
      ['git clone --template=t https://example.invalid/r', ['git clone https://example.invalid/r'], /is not allowed/],
      ['git send-email --sendmail-cmd=id x.patch', ['git send-email x.patch'], /`git send-email --sendmail-cmd` runs/],
      ['npm config set script-shell ./x', ['npm config list'], /is not allowed/],
      ['npm set script-shell ./x', ['npm set color false'], /is not allowed/],
      ['npm pkg set scripts.test=id', ['npm pkg get name'], /is not allowed/],
      ['npm set-script test id', ['npm set-script build tsc'], /is not allowed/],
      ['npm install evil', ['npm install'], /`npm install evil` is not allowed/],
      ['npm i evil', ['npm i'], /is not allowed/],
      ['npm exec -c id', ['npm exec jest'], /`npm exec -c` runs the shell command/],
      ['npm exec --call=id', ['npm exec jest'], /`npm exec --call` runs/],
      ['npx -yc id', ['npx jest'], /`npx -c` runs the shell command/],
      ['npx --call id', ['npx jest'], /`npx --call`/],
      ['pnpm exec -c id', ['pnpm exec jest'], /`pnpm exec -c` runs its command through a shell/],
      ['pnpm -c exec id', ['pnpm exec id'], /`pnpm -c` runs its command through a shell/],
      ['cargo -Zunstable-options build', ['cargo build'], /`cargo -Z` turns on unstable features/],
      ['cargo install evil', ['cargo install ripgrep'], /is not allowed/],
      ['go build -toolexec=id', ['go build'], /`go -toolexec` runs the command/],
      ['go test -exec id ./...', ['go test'], /`go -exec` runs/],
      ['go generate ./...', ['go build'], /runs the commands named in \/\/go:generate lines/],
      ['GOFLAGS=-toolexec=id go build', ['go build'], /sets GOFLAGS/],
      ['python -m pip install evil', ['python -m pip install requests'], /`python -m pip install evil` is not allowed/],
      ['pip install evil', ['pip install requests'], /is not allowed/],
      ['pip3 download evil', ['pip3 download requests'], /is not allowed/],
      ['uv pip install evil', ['uv pip install requests'], /is not allowed/],
      ['uv run --with=evil pytest', ['uv run pytest'], /`uv run --with=evil pytest` is not allowed/],
      ['uv tool run evil', ['uv tool run ruff'], /is not allowed/],
    ]);
    const approved: Array<[string, string]> = [
      ['git config user.name', 'git config user.name'], ['npm install', 'npm install'], ['pip install -r requirements.txt', 'pip install -r requirements.txt'],
      ['npm exec jest', 'npm exec jest'], ['npx -y jest', 'npx jest'], ['pnpm exec jest', 'pnpm exec jest'], ['uv run pytest', 'uv run pytest'],
      ['go build ./...', 'go build'], ['cargo build && cargo test', 'cargo build && cargo test'], ['git grep -n TODO', 'git grep x'],
    ];
    for (const [command, always] of approved) {
      it(`${command} is approved under ${always}`, () => assert.equal(check(command, [always]).autoApproved, true, check(command, [always]).reason));
    }
  });

  describe('an option value or operand from an expansion can split into a command', () => {
    refused([
      ['nice -n $x ls', ['ls'], /`nice -n` is given a value that comes from an expansion/],
      ['nice -n$x ls', ['ls'], /may expand into any option/],
      ['timeout $d ls', ['ls'], /the operand \$d of `timeout` comes from an expansion/],
      ['xargs -n $x ls', ['ls'], /`xargs -n` is given a value that comes from an expansion/],
      ['docker --context $x ps', ['docker ps'], /`docker --context` is given a value that comes from an expansion/],
    ]);
  });

  describe('make and cargo read options and variables after the target or subcommand too', () => {
    refused([
      ['make all SHELL=/x', ['make all'], /is told which shell or program to run/],
      ['make SHELL:=/x', ['make'], /is told which shell or program to run \(SHELL:=\/x\)/],
      ['make all MAKEFLAGS=x', ['make all'], /is told which shell or program to run/],
      ['make all CC=./evil', ['make all'], /is given the variable CC=.\/evil after its target/],
      ['make CC=./evil', ['make'], /`make CC=.\/evil` is not allowed/],
      ['make all --eval=x', ['make all'], /`make all --eval` evaluates/],
      ['make all -f x', ['make all'], /`make all -f` runs the recipes/],
      ['make all -C elsewhere', ['make all'], /`make all -C elsewhere` is not allowed/],
      ['cargo build --config x', ['cargo build'], /`cargo build --config` sets configuration/],
      ['cargo build -Zx', ['cargo build'], /`cargo build -Z` turns on unstable features/],
      ['cargo build --manifest-path x/Cargo.toml', ['cargo build'], /`cargo build --manifest-path x\/Cargo.toml` is not allowed/],
      ['cargo build $x', ['cargo build'], /`cargo build '\$x'` may expand into an option that is not in its table/],
    ]);
    it('make CC=clang is signed with its override, and cargo test -- --nocapture with the words after its --', () => {
      assert.deepEqual(check('make CC=clang', ['make']).signatures, ['make CC=clang']);
      assert.equal(check('cargo test --release -- --nocapture', ['cargo test -- --nocapture']).autoApproved, true);
      assert.equal(check('cargo test -- --logfile victim.txt', ['cargo test']).autoApproved, false);
    });
  });

  describe('sed s-command flags and awk options that run, write or load code', () => {
    refused([
      ["sed 's/x/touch m/ge' f", ['sed'], /with the flag `e`, which runs the result as a command/],
      ["sed 's|x|touch m|ge' f", ['sed'], /with the flag `e`/],
      ["sed -e 's/x/y/Ie' f", ['sed'], /with the flag `e`/],
      ["sed 's/x/y/gw out' f", ['sed'], /with the flag `w`, which writes into a file/],
      ["awk -l ./x '{print}' f", ['awk'], /`awk -l` loads awk source or an extension library/],
      ["awk -i x.awk '{print}' f", ['awk'], /`awk -i`/],
      ['awk -E x.awk f', ['awk'], /`awk -E`/],
      ['awk --include=x.awk 1 f', ['awk'], /`awk --include`/],
      ['awk \'@load "./x"\' f', ['awk'], /has `@load`, which loads code/],
      ["awk -v $x '{print}' f", ['awk'], /`awk -v` is given a value that comes from an expansion/],
    ]);
    for (const command of ["sed 's/hello/world/g' f", "sed -n 's/a\\/b/c/p' f", "awk -F: '{print $1}' f", "awk -v x=1 -F , '{print x}' f", 'awk -vx=1 1 f']) {
      it(`${command} is approved under its program`, () => {
        const always = [command.split(' ')[0]];
        assert.equal(check(command, always).autoApproved, true, check(command, always).reason);
      });
    }
  });

  describe('a cd the grammar files inside a redirected pipeline part is not followed: it asks', () => {
    // The grammar reads `cd web && ls 2>&1 | wc` as `(cd web && ls 2>&1) | wc`, while bash runs
    // `cd web && (ls 2>&1 | wc)`: following the tree would sign wc outside web, so nothing after it is approved.
    for (const command of ['cd web && ls 2>&1 | wc', 'cd web && git status 2>/dev/null | wc -l', 'cd web && ls >/dev/null 2>&1 | cat']) {
      it(`${command} is never approved, even on itself`, () => {
        const result = check(command, [command, 'ls', 'wc', 'git status', 'cat']);
        assert.equal(result.autoApproved, false, result.reason);
        assert.match(result.reason, /a `cd` inside .* may or may not run/);
      });
    }
  });

  describe('plain programs: options and operands that write or set', () => {
    refused([
      ['tree -o F', ['tree'], /`tree -o` writes its output into the file/],
      ['tree -L 2 -R', ['tree'], /`tree -R` writes an HTML listing/],
      ['file -C -m x', ['file x'], /`file -C` compiles a magic file/],
      ['file --comp -m x', ['file x'], /`file --compile`/],
      ['base64 -o F x', ['base64 x'], /`base64 -o` writes/],
      ['base64 --out=F x', ['base64 x'], /`base64 --output` writes/],
      ['date -s 2020-01-01', ['date'], /`date -s` sets the system clock/],
      ['date --se=2020-01-01', ['date'], /`date --set` sets the system clock/],
      ['date 0101', ['date'], /`date` is given 0101, which may set the system clock/],
      ['date -I 0101', ['date'], /`date` is given 0101/],
      ['date $x', ['date'], /`\$x` may expand into an option of `date`/],
      ['xxd a b', ['xxd a'], /`xxd` writes into the file b/],
      ['xxd -r a b', ['xxd a'], /`xxd` writes into the file b/],
      ['xxd *', ['xxd a'], /`xxd` may be given two operands by \*, and writes into the second/],
      ['xxd $f', ['xxd a'], /may be given two operands by \$f/],
      ['uniq {a,b}', ['uniq'], /is a brace expansion/],
      ['sort {-o,F} x', ['sort'], /`\{-o,F\}` is a brace expansion/],
      ['sort {"-o",F} x', ['sort'], /is a brace expansion/],
      ['sort * x', ['sort'], /`\*` may expand into an option of `sort`/],
    ]);
    const approved = ['date +%s', 'date -d yesterday +%F', 'xxd a', 'xxd -r a', 'xxd "$f"', 'tree -L 2', 'file x', 'base64 -d x', 'du -sh .', 'df -h'];
    for (const command of approved) {
      it(`${command} is approved under its program`, () => {
        const always = [command.split(' ')[0]];
        assert.equal(check(command, always).autoApproved, true, check(command, always).reason);
      });
    }
  });
});
