// The options of the programs whose arguments are data (core/shell/programTables.ts PLAIN_PROGRAMS),
// GNU coreutils/grep and BSD/macOS spellings together: each listed option only chooses what is shown
// or compared. An option of such a program that is not listed here joins its signature verbatim, so
// `ls -la` covers `ls -l src`, and `grep --frobnicate` needs a rule of its own.
import { level, type OptionLevel } from './optionTables';

const SUMS = level('-c --check -b --binary -t --text --tag -z --zero --quiet --status -w --warn --strict --ignore-missing', '-a --algorithm -l --length');
const GREP = {
  ...level(
    `-i -y -v -n -r -R -l -L -c -w -x -o -s -q -H -h -E -F -G -P -z -Z -a -I -U -b -T --ignore-case --no-ignore-case --invert-match
     --line-number --recursive --dereference-recursive --files-with-matches --files-without-match --count --word-regexp --line-regexp
     --only-matching --no-messages --quiet --silent --with-filename --no-filename --extended-regexp --fixed-strings --basic-regexp
     --perl-regexp --null-data --null --text --byte-offset --initial-tab --line-buffered --no-group-separator`,
    `-e --regexp -f --file -m --max-count -A -B -C --after-context --before-context --context --include --exclude --exclude-dir
     --exclude-from --binary-files -d --devices -D --directories --label --group-separator`,
    '--color --colour',
  ),
  numbers: true,
};
const HEAD = { ...level('-q -v --quiet --silent --verbose -z --zero-terminated -f -F -r --retry', '-n -c --lines --bytes -s --sleep-interval --pid --max-unchanged-stats', '--follow'), numbers: true };

/** Inert options of the plain programs, by program name. */
export const PLAIN_OPTIONS: Readonly<Record<string, OptionLevel & { style?: 'pflag' }>> = {
  ls: level(
    `-a -A -l -h -t -r -S -R -1 -d -F -G -i -s -X -U -v -c -u -n -g -o -p -x -C -m -Q -k -L -H -N -B -b -Z -e -O -P -T -@ -f -q -w
     --all --almost-all --human-readable --si --reverse --recursive --directory --classify --file-type --size --inode --numeric-uid-gid
     --no-group --literal --quote-name --group-directories-first --full-time --dereference --dereference-command-line --ignore-backups
     --escape --context --author --hide-control-chars --show-control-chars --kibibytes`,
    '-I --ignore --hide --width --tabsize --block-size --sort --time --time-style --format --indicator-style --quoting-style',
    '--color --colour --hyperlink --classify',
  ),
  cat: level('-n -b -s -A -E -T -v -e -t -u -l --number --number-nonblank --squeeze-blank --show-all --show-ends --show-tabs --show-nonprinting'),
  wc: level('-l -w -c -m -L --lines --words --bytes --chars --max-line-length', '--files0-from --total'),
  head: HEAD, tail: HEAD,
  grep: GREP, egrep: GREP, fgrep: GREP,
  rg: {
    style: 'pflag',
    ...level(
      `-i -s -S -n -N -l -c -w -x -o -v -F -u -uu -uuu -. -H -I -U -P -L -a -0 -q -b -p --hidden --no-ignore --no-ignore-vcs
       --no-ignore-parent --no-ignore-dot --no-ignore-global --ignore-case --case-sensitive --smart-case --line-number --no-line-number
       --files-with-matches --files-without-match --count --count-matches --word-regexp --line-regexp --only-matching --invert-match
       --fixed-strings --files --json --vimgrep --no-heading --heading --with-filename --no-filename --multiline --multiline-dotall
       --pcre2 --follow --trim --stats --text --null --quiet --byte-offset --column --no-config --no-messages --passthru --pretty
       --unrestricted --type-list --no-unicode --crlf --one-file-system --sort-files --include-zero --glob-case-insensitive`,
      `-e --regexp -f --file -g --glob --iglob -t --type -T --type-not -m --max-count -A -B -C --after-context --before-context
       --context -M --max-columns -d --max-depth --max-filesize -j --threads --sort --sortr --color --colors --type-add --type-clear
       -r --replace --encoding -E --engine --path-separator --context-separator --field-match-separator --ignore-file --dfa-size-limit --regex-size-limit`,
    ),
  },
  sort: level(
    `-r -n -u -f -b -d -g -h -i -M -R -V -s -c -C -z -m --reverse --numeric-sort --unique --ignore-case --stable --human-numeric-sort
     --version-sort --general-numeric-sort --month-sort --random-sort --check --merge --zero-terminated --ignore-leading-blanks
     --dictionary-order --ignore-nonprinting --debug`,
    '-k --key -t --field-separator -S --buffer-size --parallel -T --temporary-directory --random-source --files0-from --sort --batch-size',
  ),
  uniq: level('-c -d -D -u -i -z --count --repeated --unique --ignore-case --zero-terminated', '-f -s -w --skip-fields --skip-chars --check-chars', '--all-repeated --group'),
  cut: level('-s -n -z -w --only-delimited --complement --zero-terminated', '-d -f -c -b --delimiter --fields --characters --bytes --output-delimiter'),
  tr: level('-d -s -c -C -t --delete --squeeze-repeats --complement --truncate-set1'),
  diff: level(
    `-u -c -r -q -N -w -b -B -i -a -y -e -n -s -d -t -p -E -Z -T --brief --recursive --new-file --unidirectional-new-file
     --ignore-all-space --ignore-space-change --ignore-blank-lines --ignore-case --text --side-by-side --report-identical-files
     --strip-trailing-cr --minimal --suppress-common-lines --expand-tabs --show-c-function --ignore-tab-expansion --ignore-trailing-space
     --initial-tab --left-column --normal --speed-large-files --ignore-file-name-case --no-ignore-file-name-case`,
    '-U -C -x --exclude -X --exclude-from -W --width -I --ignore-matching-lines --label -L --from-file --to-file -S --starting-file --tabsize --horizon-lines -F --show-function-line',
    '--color --unified --context --palette',
  ),
  cmp: level('-b -l -s --print-bytes --verbose --quiet --silent', '-i -n --ignore-initial --bytes'),
  comm: level('-1 -2 -3 -i --check-order --nocheck-order -z --zero-terminated --total', '--output-delimiter'),
  du: level('-s -h -a -c -k -m -x -L -H -P -0 -b -l --summarize --human-readable --all --total --apparent-size --bytes --one-file-system --si --dereference --count-links --null --separate-dirs -S', '-d --max-depth --exclude -t --threshold -B --block-size -X --exclude-from', '--time'),
  df: level('-h -H -k -T -a -i -l -P -m -g --human-readable --si --all --inodes --local --print-type --portability --total --sync --no-sync', '-t --type -x --exclude-type -B --block-size', '--output'),
  tree: level('-a -d -f -i -l -p -s -h -u -g -D -F -q -N -r -t -c -U -v -C -n -A -S -x -J -X -Q --noreport --dirsfirst --gitignore --du --prune --si --inodes --device --fromfile', '-L -P -I --filelimit --charset --sort --timefmt --matchdirs'),
  stat: level('-L -f -t -l -r -s -x -n -q --dereference --file-system --terse', '-c --format --printf'),
  file: level('-b -i -L -h -z -Z -k -s -N -n -r -l -I --brief --mime --mime-type --mime-encoding --dereference --no-dereference --keep-going --special-files --uncompress --no-pad --no-buffer --raw --print0 -0', '-m --magic-file -F --separator -e --exclude --exclude-quiet -f --files-from -P --parameter'),
  which: level('-a -s --all --skip-alias --skip-functions --read-alias --read-functions'),
  type: level('-a -f -P -p -t'),
  basename: level('-a -z --multiple --zero', '-s --suffix'),
  dirname: level('-z --zero'),
  realpath: level('-e -m -s -q -z -L -P --canonicalize-existing --canonicalize-missing --no-symlinks --strip --quiet --zero --logical --physical', '--relative-to --relative-base'),
  readlink: level('-f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet --silent --verbose --zero'),
  date: level('-u -R -j -n --utc --universal --rfc-email --debug', '-d --date -r --reference -f --file -v -z', '-I --iso-8601 --rfc-3339'),
  jq: level(
    '-r -c -n -s -e -j -a -S -C -M -R --raw-output --compact-output --null-input --slurp --exit-status --join-output --ascii-output --sort-keys --color-output --monochrome-output --tab --raw-input --seq --stream --stream-errors --raw-output0 --unbuffered',
    '--indent -f --from-file -L',
  ),
  seq: level('-w --equal-width', '-f -s -t --format --separator'),
  nl: level('-p --no-renumber', '-b -n -w -s -v -i -h -f -d -l --body-numbering --number-format --number-width --number-separator --starting-line-number --line-increment'),
  column: level('-t -x -n -e -J --table --fillrows --json --keep-empty-lines', '-s -c -o -N -R -l -W -H -O -E -d --separator --output-separator --table-columns --output-width --table-name'),
  paste: level('-s -z --serial --zero-terminated', '-d --delimiters'),
  fold: level('-b -s --bytes --spaces', '-w --width'),
  tac: level('-b -r --before --regex', '-s --separator'),
  rev: level(''),
  od: level('-b -c -d -o -s -x -v -i -l -f -h -D -O -X -H -e -F --output-duplicates', '-A -t -j -N -w -S --address-radix --format --skip-bytes --read-bytes --width --strings --endian'),
  xxd: level('-p -ps -postscript -plain -u -e -i -include -b -bits -C -capitalize -a -autoskip -E -EBCDIC -r -revert -d -h -help -v -version', '-c -cols -g -groupsize -l -len -s -seek -o -n -name'),
  hexdump: level('-C -c -b -d -o -x -v', '-n -s -e -f'),
  md5sum: SUMS, sha1sum: SUMS, sha256sum: SUMS, sha512sum: SUMS, cksum: SUMS,
  base64: level('-d --decode -i --ignore-garbage -D', '-w --wrap -b --break'),
  printenv: level('-0 --null'),
  nproc: level('--all', '--ignore'),
  uname: level('-a -s -n -r -v -m -p -i -o --all --kernel-name --nodename --kernel-release --kernel-version --machine --processor --hardware-platform --operating-system'),
  id: level('-u -g -G -n -r -z -a -p -P --user --group --groups --name --real --zero'),
  whoami: level(''), pwd: level('-L -P'), true: level(''), false: level(''),
  sleep: level(''), wait: level('-n -f', '-p'),
  read: level('-r -s -e', '-d -n -N -p -t -u -i -a'),
  printf: level('', '-v'),
};

/** Programs whose every word is data: echo prints its words, `-n`/`-e` included, and takes no other option. */
export const WORDS_ONLY: ReadonlySet<string> = new Set(['echo']);
