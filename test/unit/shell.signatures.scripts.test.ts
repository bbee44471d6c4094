// A script given to a program is code: sed, awk and find are read by readers of their own grammars
// (options as the program reads them, then every command of the script), deny by default. Each case
// below was tried in bash: the commands asked for here really ran a command, wrote or read a file.
import * as assert from 'node:assert/strict';
import { check } from './helpers/approvalCheck';


function asks(cases: Array<[string, RegExp]>, always: string[]): void {
  for (const [command, reason] of cases) {
    it(`${command} asks`, () => {
      const result = check(command, always);
      assert.equal(result.autoApproved, false, result.reason);
      assert.match(result.reason, reason);
    });
  }
}

function approved(commands: string[], always: string[]): void {
  for (const command of commands) {
    it(`${command} is approved under ${JSON.stringify(always)}`, () => {
      const result = check(command, always);
      assert.equal(result.autoApproved, true, result.reason);
    });
  }
}

describe('command signatures: scripts given to programs are read by their grammar', () => {
  describe('sed: commands and options that run, write or read files ask', () => {
    asks([
      ["sed -n '1e touch p' f", /has the command `e`, which runs a command/],
      ["sed '1!G;h;$e id' f", /has the command `e`/],
      ["sed -e p -e 'w out' f", /has the command `w`, which writes into a file/],
      ["sed 'W out' f", /has the command `W`/],
      ["sed '$r /etc/passwd' f", /has the command `r`, which reads a file/],
      ["sed 'R ~/.ssh/id_rsa' f", /has the command `R`/],
      ["sed '/x/{p;e id\n}' f", /has the command `e`/],
      ["sed 's/a/id/e' f", /the flag `e`/],
      ["sed 's/a/b/2pw out' f", /the flag `w`/],
      ["sed 's,a,b,gw out' f", /the flag `w`/],
      ["sed 's/a\\/b/c/;1e id' f", /has the command `e`/],
      ["sed 'y/ab/cd/;e id' f", /has the command `e`/],
      ["sed -nf script.sed f", /`sed -f` reads its script from a file/],
      ["sed -n -fscript.sed f", /`sed -f`/],
      ["sed -n \"/$x/p\" f", /its sed script comes from an expansion/],
      ["sed --fi=script.sed f", /`sed --file` reads its script/],
      ["sed 's/a/b/' -i f", /`sed -i` edits files in place/],
      ["sed 's/a/b/' f --in=.bak", /`sed --in-place` edits files in place/],
      ["sed -ni 's/a/b/' f", /`sed -i`/],
      ["sed -E -i.bak 's/a/b/' f", /`sed -i`/],
      ["sed --expr='1e id' f", /has the command `e`/],
      ["sed -e'1e id' f", /has the command `e`/],
      ["sed -ne '1e id' f", /has the command `e`/],
      ["sed --bogus 's/a/b/' f", /`sed --bogus` is an option these rules do not know/],
      ["sed -X p f", /`sed -X` is an option these rules do not know/],
      ["sed 's/a/b/' $FILES", /`\$FILES` may expand into an option of `sed`/],
      ["sed \"$SCRIPT\" f", /may expand into an option of `sed`|comes from an expansion/],
      ["sed 's/a/b/' *.txt", /`\*\.txt` may expand into an option of `sed`/],
      ["sed 'L' f", /has the command `L`, which these rules do not know/],
      ["sed 's/a/b' f", /without its end/],
    ], ['sed']);
    approved([
      'sed -n 1,20p f', "sed 's/a/b/g' f", "sed -n '/start/,/end/p' f", "sed -E 's/(a|b)+/x/2g' f", "sed -e 's/a/b/' -e '/^$/d' f",
      "sed '1~3d;$!N;P;D' f", "sed ':a;N;$!ba;s/\\n/ /g' f", "sed '/x/{s/a/b/;p}' f", "sed -n '$=' f", "sed '1i\\\nheader' f",
      "sed 's|/usr|/opt|g' f", "sed --quiet --expression='2q' f", "sed -- 's/a/b/' -i", "sed 's/e/w/' f", "sed 'y/abc/xyz/' f",
    ], ['sed']);
  });

  describe('awk: pipes, getline, output redirection, system and loaded code ask', () => {
    asks([
      ["awk 'BEGIN { system(\"id\") }'", /calls `system`/],
      ["awk 'BEGIN { system (\"id\") }'", /calls `system`/],
      ["awk '{ print | \"sh\" }' f", /has a pipe `\|`, which runs a command/],
      ["awk 'BEGIN { \"id\" | getline x; print x }'", /has a pipe `\|`/],
      ["awk 'BEGIN { print \"id\" |& \"sh\" }'", /has a pipe `\|&`/],
      ["awk '{ getline line < \"/etc/shadow\"; print line }' f", /has `getline`/],
      ["awk '{ print > \"out\" }' f", /has `print … >`, which writes into a file/],
      ["awk '{ printf(\"%s\", $0) >> \"out\" }' f", /has `print … >>`/],
      ["awk '{ print $1, $2 > $3 }' f", /has `print … >`/],
      ["awk '@include \"x.awk\"; {print}' f", /has `@include`/],
      ["awk 'function f(){} BEGIN { x = \"f\"; @x() }'", /has `@x`/],
      ["awk -f prog.awk f", /`awk -f` loads awk source/],
      ["awk --fil=prog.awk f", /`awk --file` loads/],
      ["awk -e 'BEGIN { system(\"id\") }'", /calls `system`/],
      ["awk --source='BEGIN{system(\"id\")}'", /calls `system`/],
      ["awk -E prog.awk f", /`awk -E` loads/],
      ["awk --lo=./x.so '{print}' f", /`awk --load` loads/],
      ["awk -p '{print}' f", /`awk -p` writes a report into a file/],
      ["awk --dump-variables=out '{print}' f", /`awk --dump-variables` writes/],
      ["awk -W exec '{print}' f", /`awk -W` is an option these rules do not know/],
      ["awk \"$PROG\" f", /may expand into an option of `awk`|comes from an expansion/],
      ["awk 'BEGIN { close(\"x\"); exec(\"id\") }'", /calls `exec`/],
      ["awk '{ a[$1] += $2 } END { for (k in a) print k, a[k] | \"sort\" }' f", /has a pipe `\|`/],
    ], ['awk']);
    approved([
      "awk '{print $1}' f", "awk -F: '{print $1, $NF}' /etc/passwd", "awk 'NR > 1 && $3 > 10 { n++ } END { print n }' f",
      "awk '{ if ($1 > 5) print $2 }' f", "awk '{ print ($1 > 5) }' f", "awk '/^#/ { next } { sum += $2 } END { printf \"%d\\n\", sum }' f",
      "awk -v OFS=, '{ $1 = $1; print }' f", "awk 'function add(a, b) { return a + b } { print add($1, $2) }' f",
      "awk '{ gsub(/a|b/, \"x\"); print length($0), toupper($1) }' f", "awk 'BEGIN { print ENVIRON[\"HOME\"] }'",
      "awk '{ print > \"/dev/stderr\" }' f",
    ], ['awk']);
  });

  describe('find: primaries the reader does not list, writes and deletes ask', () => {
    asks([
      ['find . -delete', /`find -delete` deletes the files it finds/],
      ['find . -name x -fprint out', /`find -fprint` writes its list into a file/],
      ['find . -fls out', /`find -fls` writes/],
      ["find . -fprintf out '%p'", /`find -fprintf` writes/],
      ['find . -exec {} \\;', /runs the files it finds as programs/],
      ['find . -exec sh -c \'cat {}\' \\;', /`find -exec` gives `sh` words nobody saw inside the word/],
      ['find . -newer x -frobnicate', /`find -frobnicate` is a primary these rules do not know/],
      ['find $DIR -name x', /may expand into a primary of `find`/],
      ['find . "$EXPR"', /may expand into a primary of `find`/],
      ['find * -name x', /may expand into a primary of `find`/],
      ['find . -name x -exec rm -rf {} +', /`find -exec` gives `rm` words nobody saw/],
      ['find . -name x -exec grep -l foo {} +', /they stand where `grep` reads options/],
      ['find . -exec grep -e -- {} +', /they stand where `grep` reads options/],
      ['find . -exec grep --file={} x \\;', /inside the word --file=\{\}/],
      ['find . -exec cat -- {} \\; -delete', /`find -delete`/],
      ['find . -exec ls', /has no `;` or `\{\} \+` ending its command/],
    ], ['find', 'grep', 'rm', 'sh', 'cat', 'ls']);
    approved([
      "find . -name '*.ts'", "find src -type f -name '*.py' -mtime -2 -print", "find . -maxdepth 2 -not -path './node_modules/*' -print0",
      "find . \\( -name '*.js' -o -name '*.ts' \\) -size +1k", "find . -type d -empty -printf '%p\\n'", 'find . -newermt 2024-01-01 -ls',
      "find . -name '*.ts' -exec grep -n TODO -- {} +", 'find . -type f -exec wc -l -- {} \\;', 'find . -name x -exec echo {} \\;',
      "find -L . -name '*.md' -prune -o -print",
    ], ['find', 'grep', 'wc', 'echo']);
  });
});

describe('command signatures: jq, sqlite3 and editors', () => {
  describe('jq: module options, module directives and functions it does not list ask', () => {
    asks([
      ['jq -L lib . x.json', /`jq -L` loads jq modules/],
      ['jq --library-path=lib . x.json', /`jq --library-path` loads jq modules/],
      ['jq . x.json -Llib', /`jq -L`/],
      ['jq -f prog.jq x.json', /`jq -f` reads its filter from a file/],
      ['jq --from-f prog.jq x.json', /`jq --from-file`/],
      ['jq \'import "m" as m; m::f\' x.json', /has `import`, which loads a jq module/],
      ['jq \'include "m"; .\' x.json', /has `include`/],
      ['jq \'"x" | modulemeta\' x.json', /calls `modulemeta`/],
      ['jq \'"\\(get_search_list)"\' x.json', /calls `get_search_list`/],
      ['jq "$F" x.json', /may expand into an option of `jq`|comes from an expansion/],
      ['jq . $FILES', /`\$FILES` may expand into an option of `jq`/],
    ], ['jq']);
    approved([
      'jq .name package.json', 'jq -r \'.dependencies | keys[]\' package.json', 'jq \'.[] | select(.age > 3) | {name, id: .id}\' x.json',
      'jq --arg v 1 \'.x == $v\' x.json', 'jq --rawfile t notes.txt \'. + {t: $t}\' x.json', 'jq \'def inc(f): f + 1; .n | inc(.)\' x.json',
      'jq -n \'[range(3)] | map(. * 2) | @csv\'', 'jq \'"name: \\(.name | ascii_upcase)"\' x.json', 'jq -cS . -- x.json',
    ], ['jq']);
  });

  describe('sqlite3: dot-commands, writes, extensions and options that run asks', () => {
    asks([
      ["sqlite3 db.sqlite '.shell id'", /the dot-command `\.shell`/],
      ["sqlite3 db.sqlite '.system id'", /the dot-command `\.system`/],
      ["sqlite3 db.sqlite '.output x' 'select 1'", /`\.output`/],
      ["sqlite3 db.sqlite '.once x'", /`\.once`/],
      ["sqlite3 db.sqlite '.load ./x'", /`\.load`/],
      ["sqlite3 db.sqlite '.import f t'", /`\.import`/],
      ["sqlite3 db.sqlite \"ATTACH 'x.db' AS x\"", /has a `ATTACH` statement/],
      ["sqlite3 db.sqlite 'DELETE FROM t'", /has a `DELETE` statement/],
      ["sqlite3 db.sqlite 'select 1; drop table t'", /has a `DROP` statement/],
      ["sqlite3 db.sqlite \"select writefile('x', 'y')\"", /calls `writefile`/],
      ["sqlite3 db.sqlite \"select load_extension('./x')\"", /calls `load_extension`/],
      ["sqlite3 db.sqlite \"select edit('x')\"", /calls `edit`/],
      ["sqlite3 db.sqlite \"select * from fsdir('.')\"", /calls `fsdir`/],
      ["sqlite3 -cmd '.shell id' db.sqlite 'select 1'", /`sqlite3 -cmd` is an option these rules do not know/],
      ["sqlite3 -init x.sql db.sqlite 'select 1'", /`sqlite3 -init`/],
      ['sqlite3 db.sqlite', /reads its SQL from standard input/],
      ["echo '.shell id' | sqlite3 db.sqlite 'select 1'", /fed standard input/],
      ['sqlite3 db.sqlite "$Q"', /may expand into an option of `sqlite3`/],
    ], ['sqlite3', 'echo']);
    approved([
      "sqlite3 db.sqlite 'select count(*) from users'", "sqlite3 -readonly -header -column db.sqlite 'SELECT name FROM t WHERE id IN (1, 2)'",
      "sqlite3 db.sqlite .tables", "sqlite3 db.sqlite '.schema users'", "sqlite3 -json db.sqlite \"select 'x;y' as a -- drop\"",
    ], ['sqlite3']);
  });

  describe('editors run commands from their scripts, configuration or input: they ask', () => {
    asks([
      ["printf '!id\\nq\\n' | ed f", /`ed` runs editor commands/],
      ['ed -s f', /`ed` runs editor commands/],
      ["ex -sc '!id' -c q f", /`ex` runs editor commands/],
      ["vim -es -c '!id' -c q f", /`vim` runs editor commands/],
      ["nvim --headless +'!id' +q", /`nvim` runs editor commands/],
      ["emacs --batch --eval '(shell-command \"id\")'", /`emacs` runs editor commands/],
    ], ['ed', 'ed -s f', 'ex', 'vim', 'nvim', 'printf', "vim -es -c '!id' -c q f", "ex -sc '!id' -c q f"]);
  });
});
