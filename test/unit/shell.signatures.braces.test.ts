// Brace expansions, here-strings and heredocs ask, like every other node that is not inert, with a
// reason naming the construct: braces spell words the command never showed (`{-i,x}` is `-i x`), and
// here-strings and heredocs feed a program text it may run (`sh <<< id`, `sqlite3 db <<< .shell`).
import * as assert from 'node:assert/strict';
import { check } from './helpers/approvalCheck';


describe('command signatures: brace expansions, here-strings and heredocs ask', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ["sed {-i,x} 's/a/b/' f", ['sed'], /`\{-i,x\}` is a brace expansion/],
    ['grep x {--pre=sh,f}', ['grep'], /is a brace expansion/],
    ['ls a{b,c}d', ['ls'], /`a\{b,c\}d` is a brace expansion/],
    ['echo {1..3}', ['echo'], /`\{1\.\.3\}` is a brace expansion/],
    ['cat {a..c}.txt', ['cat'], /is a brace expansion/],
    ['rg -n x {"-",-}-pre=sh', ['rg'], /is a brace expansion/],
    ['for f in {a,b}; do wc -l "$f"; done', ['wc'], /is a brace expansion/],
    ['cat <<< "hello" | wc -c', ['cat', 'wc'], /a here-string \(`<<<`\)/],
    ["sqlite3 db.sqlite <<< '.shell id'", ['sqlite3'], /a here-string/],
    ['jq . <<< "$x"', ['jq'], /a here-string/],
    ['cat <<EOF\nhello\nEOF', ['cat'], /a heredoc \(`<<EOF`\)/],
    ["cat <<-'EOF'\n\thello\n\tEOF", ['cat'], /a heredoc/],
  ];
  for (const [command, always, reason] of cases) {
    it(`${JSON.stringify(command)} asks, naming the construct`, () => {
      const result = check(command, always);
      assert.equal(result.autoApproved, false, result.reason);
      assert.match(result.reason, reason);
    });
  }

  it('keeps braces that expand to nothing else, and quoted braces, approvable', () => {
    for (const [command, always] of [['git log @{u}', ['git log']], ["awk '{print $1}' f", ['awk']], ['echo "{a,b}"', ['echo']], ["echo '{1..3}'", ['echo']], ['echo \\{a,b\\}', ['echo']]] as const) {
      const result = check(command, [...always]);
      assert.equal(result.autoApproved, true, `${command}: ${result.reason}`);
    }
  });
});
