// Words that arrive from input — what xargs adds, the file names `find -exec` puts at `{}`, the lines a
// `while read` loop reads — are words nobody saw: a committed file named `--pre=sh` becomes an option of
// rg. Such a command is approved only when its program reads them as plain operands (after a literal
// `--` that ends its options); otherwise it asks, naming why.
import * as assert from 'node:assert/strict';
import { check } from './helpers/approvalCheck';


const ALLOWED = ['git ls-files', 'xargs', 'rg', 'grep', 'wc', 'ls', 'cat', 'echo', 'git add', 'npm run lint', 'find', 'read', 'sort', 'tee', 'uniq', 'jq', 'timeout', 'git log', 'rm'];

describe('command signatures: words that arrive from input', () => {
  describe('they ask where the program may read them as options, or run them', () => {
    const cases: Array<[string, RegExp]> = [
      ['git ls-files | xargs rg -n foo', /`xargs` gives `rg` words nobody saw, and they stand where `rg` reads options/],
      ['git ls-files | xargs grep -n foo', /they stand where `grep` reads options/],
      ['git ls-files -z | xargs -0 git add', /`xargs` gives `git` words nobody saw, and `git` is not known to read them only as plain operands/],
      ['ls | xargs npm run lint', /`xargs` gives `npm` words nobody saw/],
      ['ls | xargs sort', /`xargs` gives `sort`/],
      ['ls | xargs tee', /`xargs` gives `tee`/],
      ['ls | xargs uniq --', /`xargs` gives `uniq`/],
      ['ls | xargs ./tool --', /`xargs` gives `\.\/tool`/],
      ['ls | xargs timeout', /`xargs` gives `timeout` the command it runs/],
      ['ls | xargs env', /`xargs` gives `env` the command it runs/],
      ['ls | xargs timeout 5 rg foo', /`xargs` gives `rg` words nobody saw/],
      ['ls | xargs rg -e --', /they stand where `rg` reads options/],
      ['ls | xargs rg --regexp --', /they stand where `rg` reads options/],
      ['ls | xargs grep -A --', /they stand where `grep` reads options/],
      ['ls | xargs rm -rf', /`xargs` gives `rm`/],
      ['find . -name "*.ts" -exec rg foo {} +', /`find -exec` gives `rg` words nobody saw/],
      ['find . -execdir rg foo {} \\;', /`find -execdir` gives `rg`/],
      ['find . -exec rg --pre={} foo \\;', /inside the word --pre=\{\}/],
      ['while read -r f; do rg foo "$f"; done < list.txt', /`read f` gives `rg` words nobody saw, and they stand where `rg` reads options/],
      ['git ls-files | while read f; do wc -l $f; done', /`read f` gives `wc`/],
      ['while read -r a b; do git log "$b"; done < list', /`read b` gives `git`/],
      ['read line < list; cat "$line"', /`read line` gives `cat`/],
      ['while read -r f; do rg "--pre=$f" x; done < list', /inside the word "--pre=\$f"/],
      ['while read; do rg x "$REPLY"; done < list', /`read REPLY` gives `rg`/],
      ['ls | parallel rg foo', /`parallel` builds commands from its arguments and input and runs them through a shell/],
    ];
    for (const [command, reason] of cases) {
      it(`${command} asks`, () => {
        const result = check(command, ALLOWED);
        assert.equal(result.autoApproved, false, result.reason);
        assert.match(result.reason, reason);
      });
    }
  });

  describe('they are approved after a literal `--` that ends the options of a program that only reads its operands', () => {
    for (const command of [
      'git ls-files | xargs rg -n foo --', 'git ls-files -z | xargs -0 grep -n foo --', 'ls | xargs wc -l --', 'ls | xargs -n 1 cat --',
      'ls | xargs rg -- foo', 'ls | xargs grep -e foo --', 'ls | xargs grep -rn --include=*.ts foo --', 'ls | xargs echo', 'ls | xargs',
      'ls | xargs timeout 5 rg foo --', "find . -name '*.ts' -exec rg -n foo -- {} +", 'find . -exec wc -l -- {} \\;', 'find . -exec echo {} \\;',
      'while read -r f; do rg foo -- "$f"; done < list.txt', 'while read -r line; do echo "$line"; done < list.txt',
      'git ls-files | while read -r f; do wc -l -- "$f"; done', 'find . -exec ls -la -- {} +',
    ]) {
      it(`${command} is approved`, () => {
        const result = check(command, ALLOWED);
        assert.equal(result.autoApproved, true, result.reason);
      });
    }
  });
});
