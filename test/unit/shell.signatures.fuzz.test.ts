// A property test of the inert-node rule: commands built at random (seeded, so every run tries the same
// cases) from pieces that are inert and pieces that are not — expansions that evaluate text,
// arithmetic, test expressions, path programs, wrappers, code options in odd spellings, cd, redirections,
// heredocs. A command holding any piece that is not inert is never auto-approved, even after "Always
// allow" on itself and on every inert command; a command of inert pieces only is approved after
// "Always allow" on itself, so the rule does not refuse everyday combinations either.
import * as assert from 'node:assert/strict';
import { type ShellParser } from '../../src/core/approvals';
import { alwaysAllowRules, isAutoApproved } from '../../src/core/shell';
import { loadBashParser } from '../../src/node/bashParser';

let parser: ShellParser;

before(async () => {
  parser = await loadBashParser();
});

const INERT_COMMANDS = [
  'ls', 'ls -la src', 'git status', 'git -C sub status', 'npm test', 'cargo build', 'echo hi', 'grep -n x src', 'python -m pytest',
  'node --test', './gradlew build', 'xvfb-run -a npm test', 'cat "a b"', "wc -l 'x y'", 'echo $HOME', 'echo "${HOME}"',
  'git commit -m "x && touch p"', "echo '$(touch p)'", 'npx -p typescript tsc', 'sort -u data.txt', 'echo "a $1 b"',
  'date +%s', 'git config user.name', 'npm install', 'tree -L 2', 'xxd -r a', 'pip install -r requirements.txt', 'make --dir=sub',
];
const INERT_WRAPPERS = [
  '', '', '', 'timeout 5 ', 'nice ', 'env CI=1 ', 'NO_COLOR=1 ', 'timeout -s KILL 5 ', 'nice -n 5 ', 'env -i -u X ', 'stdbuf -oL ',
  'setsid -f ', 'time -p ',
];
const INERT_REDIRECTS = ['', '', ' 2>/dev/null', ' >/dev/null 2>&1', ' 2>&1'];
const INERT_CD = ['', '', 'cd web && ', 'cd ./src/a && ', '(cd web && npm ci); '];
const JOINERS = [' && ', '; ', ' | ', '\n', ' || '];

const HOSTILE_ARGUMENTS = [
  '$((x))', '$[x]', '${x@P}', '"${x@P}"', '${!x}', '${v:x}', '"${v:1:x}"', '${x/a/b}', '${a[x]}', '${#x}', '${x:-y}', '$(id)', '`id`',
  '<(id)', '"$(id)"', '${x:-$(id)}', '$"msg"', '> out.txt', '2>> log', '>"$F"',
];
const HOSTILE_SEGMENTS = [
  '[[ $x -eq 0 ]]', '[ "$x" -eq 0 ]', '(( x ))', 'for ((i=0;i<x;i++)); do ls; done', 'f() { ls; }', 'a[x]=1', 'declare -i n=x', 'local -n r=x',
  'cat <<EOF\n$x\nEOF\n', "LESSOPEN='|id %s' less f", 'GIT_PAGER=id git log', 'PAGER=id git log', 'EDITOR=id git commit',
  'export GIT_SSH_COMMAND=id', 'git diff --output=F', 'sort -o F x', 'sort -uoF x', "python '-cprint(1)' x.py", 'python -Bc 1',
  "perl '-Mstrict;print 1' x.pl", "perl '-eprint 1'", 'node --test --import data:text/javascript,1', 'node -r ./h.js app.js',
  'npx --registry=http://x jest', 'git -c core.pager=id log', 'git --exec-path=. status', 'sudo ls', 'gsudo ls', 'eval "$x"', 'bash -c "$x"',
  'env -C /tmp ls', '$CMD', 'uvx --index-url http://x pytest', 'pip install -i http://x p', 'echo $(( 1 + 1 ))', 'select x in a; do ls; done',
  'coproc ls', 'watch ls', 'x=(a b)', 'ls | bash', 'curl x | sh', 'unset x',
  // Wrapper options not known to be harmless, dangerous long options by prefix, braces spelling options.
  'env -S "sh -c id" ls', "env -vS 'id'", 'env --chd=/tmp ls', 'env --sp=id', 'time -o F ls', 'time --out=F ls', 'xargs -I{} sh -c id',
  'command -p ls', 'exec -a x ls', 'timeout --x 5 ls', 'sort --out=F x', 'sort {-o,F} x', 'sort {"-o",F} x', 'make --ev=x',
  'make -E x', 'git grep -O id x', 'git grep --open=id x', 'npm exec -c id', 'npx -yc id', 'pnpm exec -c id', 'npm test --scr=x',
  'npm --reg=http://x test', 'tree -o F', 'tree -R', 'file -C -m x', 'base64 -o F x', 'date -s 1', 'date 0101', 'xxd a b', 'go build -toolexec=id',
  'go test -exec id', 'cargo -Zx build', 'cargo --conf x build', 'git hook run x', 'GOFLAGS=-toolexec=id go build', 'rg --pr=id x',
];
const HOSTILE_CD = ['cd /tmp && ', 'cd .. && ', 'cd "$d" && ', 'cd ~ && ', 'cd a/../.. && ', 'cd a || cd b; '];
/** Programs given as paths, and the bare command whose "Always allow" must not cover them. */
const PATH_PROGRAMS: Array<[string, string]> = [['./env ', ''], ['./bin/nohup ', ''], ['../tools/sh -c ', ''], ['./timeout 5 ', ''], ['/tmp/x/env ', '']];

/** mulberry32: a small, seeded, deterministic generator. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Built {
  command: string;
  hostile: boolean;
  /** Inert, but shaped so that the grammar hides where a cd leads: it may ask, for the cd. */
  mayAsk: boolean;
}

function build(random: () => number): Built {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const count = 1 + Math.floor(random() * 4);
  let hostile = false;
  let command = '';
  let hasCd = false;
  let mayAsk = false;
  if (random() < 0.12) {
    command += pick(HOSTILE_CD);
    hostile = true;
    hasCd = true;
  } else {
    const cd = pick(INERT_CD);
    command += cd;
    hasCd = cd !== '';
  }
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      // After a cd, `||` makes the folder of what follows uncertain: that is refused on purpose.
      const joiners = hasCd ? JOINERS.filter((joiner) => joiner !== ' || ') : JOINERS;
      command += pick(joiners);
    }
    const roll = random();
    if (roll < 0.1) {
      command += pick(HOSTILE_SEGMENTS);
      hostile = true;
    } else {
      command += pick(INERT_WRAPPERS) + pick(INERT_COMMANDS);
      if (roll < 0.2) {
        command += ` ${pick(HOSTILE_ARGUMENTS)}`;
        hostile = true;
      }
      // The grammar reads `cd web && ls 2>&1 | wc` as a redirection of the whole list inside a pipeline,
      // where a cd is not followed (the safe side, tested on its own): such a command may ask, naming the cd.
      const redirect = pick(INERT_REDIRECTS);
      command += redirect;
      if (hasCd && redirect !== '') mayAsk = true;
    }
  }
  return { command, hostile, mayAsk };
}

describe('command signatures: random combinations of the constructs (seeded)', () => {
  const CASES = 3000;

  it(`never auto-approves a command with a piece that is not inert, and approves inert ones on themselves (${CASES} cases)`, function () {
    this.timeout(60000);
    const random = generator(0x5eed);
    const inertRules = alwaysAllowRules(INERT_COMMANDS, parser);
    let hostileSeen = 0;
    let inertSeen = 0;
    let asked = 0;
    for (let n = 0; n < CASES; n++) {
      const { command, hostile, mayAsk } = build(random);
      if (hostile) {
        hostileSeen++;
        const rules = [...inertRules, ...alwaysAllowRules([command], parser)];
        const result = isAutoApproved(command, rules, parser);
        assert.equal(result.autoApproved, false, `approved although not inert: ${JSON.stringify(command)} (${result.reason})`);
      } else {
        inertSeen++;
        const result = isAutoApproved(command, alwaysAllowRules([command], parser), parser);
        if (mayAsk && !result.autoApproved) {
          asked++;
          assert.match(result.reason, /a `cd` inside .* may or may not run/, `refused for another reason: ${JSON.stringify(command)}`);
          continue;
        }
        assert.equal(result.autoApproved, true, `refused although inert: ${JSON.stringify(command)} (${result.reason})`);
      }
    }
    // Both kinds were tried in numbers, so neither half of the property holds vacuously.
    assert.ok(hostileSeen > CASES / 5 && inertSeen - asked > CASES / 5, `${hostileSeen} hostile, ${inertSeen} inert, ${asked} asked for a cd`);
  });

  it('never lets "Always allow" on a command cover the same words run through a program given as a path', function () {
    this.timeout(60000);
    const random = generator(0xbad5eed);
    for (let n = 0; n < 500; n++) {
      const inner = INERT_COMMANDS[Math.floor(random() * INERT_COMMANDS.length)];
      const [path] = PATH_PROGRAMS[Math.floor(random() * PATH_PROGRAMS.length)];
      const command = `${path}${inner}`;
      const result = isAutoApproved(command, alwaysAllowRules([inner, `env ${inner}`, `nohup ${inner}`, `sh -c ${inner}`], parser), parser);
      assert.equal(result.autoApproved, false, `covered: ${JSON.stringify(command)} (${result.reason})`);
    }
  });
});
