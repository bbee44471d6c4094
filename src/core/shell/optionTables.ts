// The inert options of the programs people run every day, as each program spells them: options that
// only choose what is printed, how much, or how it is compared, and never which code runs, what is
// written or where. An option a table does not list joins the signature verbatim. Read from each
// program's manual (git 2.4x, npm 10, cargo 1.8x, go 1.2x, GNU make 4.4, pytest 8, uv 0.x, docker 2x).

/** A level of options: inert flags, inert value options, and options whose value is only attached. */
export interface OptionLevel {
  flags?: string[];
  valueOptions?: string[];
  optionalValues?: string[];
  /** Optional values that GNU make also takes from the next word when it is a number (`-j 4`). */
  numericValues?: string[];
  numbers?: boolean;
  /** Subcommand words after this level (a level of options has none). */
  depth?: number;
}

/** Options from space-separated lists: flags, then options with a value, then optional attached values. */
export function level(flags: string, values = '', optional = ''): OptionLevel {
  const split = (list: string): string[] => list.split(/\s+/).filter((option) => option !== '');
  return { flags: split(flags), valueOptions: split(values), optionalValues: split(optional) };
}

/** A level whose operands join the signature: they name what it creates, changes or reaches. */
function signing<T extends OptionLevel>(options: T): T & { signOperands: true } {
  return { ...options, signOperands: true };
}

/** `options` without `dropped` among its inert options. */
function withoutOptions(options: OptionLevel, dropped: readonly string[]): OptionLevel {
  const keep = (list: string[] | undefined) => list?.filter((option) => !dropped.includes(option));
  return { ...options, flags: keep(options.flags), valueOptions: keep(options.valueOptions), optionalValues: keep(options.optionalValues) };
}

/** A subcommand's options, after which no further subcommand word is read. */
export function leaf(flags: string, values = '', optional = ''): OptionLevel {
  return { ...level(flags, values, optional), depth: 0 };
}

// Not -p/--paginate: on a terminal it runs the pager the repository's configuration names (core.pager).
export const GIT_TOP = level('--no-pager -P --no-replace-objects --no-optional-locks --literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs --version --help --no-lazy-fetch --no-advice', '--namespace');

// log, show, diff, shortlog, whatchanged: what is shown and how it is compared. Not `--output` (a write),
// `--ext-diff` (a program), nor `--textconv`/`--show-signature` (programs the configuration names).
const REVISIONS = leaf(
  `--oneline --graph --all --branches --tags --remotes --stat --shortstat --numstat --name-only --name-status -p --patch -u -s
   --no-patch --follow --reverse --no-merges --merges --first-parent --abbrev-commit --no-abbrev-commit --no-decorate --raw --summary
   --cached --staged --no-color -w -b --ignore-all-space --ignore-space-change --ignore-blank-lines --ignore-space-at-eol --check
   --exit-code --quiet -q --no-ext-diff --no-textconv --minimal --patience --histogram --full-diff --date-order --topo-order
   --author-date-order --left-right --cherry-pick --cherry-mark --boundary --source --full-history --simplify-merges
   --ancestry-path --parents --children --no-walk --mailmap --use-mailmap --text -a --binary --no-prefix --compact-summary
   --name-only --no-renames -R --pickaxe-all --pickaxe-regex -i --regexp-ignore-case -E --extended-regexp -F --fixed-strings
   --all-match --invert-grep --no-notes --show-notes --expand-tabs --no-expand-tabs --no-relative -z -M -C -D -W --function-context`,
  `-n --max-count --skip --since --until --after --before --author --committer --grep -S -G --date --format --diff-filter
   --unified -U -L --stat-width --max-parents --min-parents --exclude --since-as-filter --encoding -O --anchored --inter-hunk-context`,
  '--decorate --pretty --abbrev --color --color-moved --color-words --word-diff --word-diff-regex --dirstat --relative --find-renames --find-copies --break-rewrites --stat --ignore-submodules --submodule --diff-algorithm --ws-error-highlight',
);

/** REVISIONS without the options that make log print or search a diff (textconv drivers) or take a format (`%G?` runs gpg.program). */
const LOG_REVISIONS = withoutOptions(REVISIONS, ['--format', '--pretty', '-S', '-G', '--pickaxe-all', '--pickaxe-regex', '-p', '--patch', '-u', '--stat', '--shortstat', '--numstat', '--dirstat', '--compact-summary', '--check', '-W', '--function-context', '--word-diff', '--color-words', '--word-diff-regex', '--color-moved', '--full-diff', '--binary', '--text', '-a', '-U', '--unified', '--patch-with-stat', '--patch-with-raw']);

/** The everyday read-only subcommands of git, with their inert options. */
export const GIT_SUBCOMMANDS = {
  status: leaf('-s --short -b --branch --long -z --show-stash --ahead-behind --no-ahead-behind --renames --no-renames --no-column', '', '-u --untracked-files --ignored --porcelain --column --find-renames --ignore-submodules'),
  // log and whatchanged show no diff unless asked: a diff runs the textconv drivers the repository's
  // configuration names, so the options that ask for one join the signature (show and diff always diff).
  log: { ...LOG_REVISIONS, numbers: true }, show: { ...withoutOptions(REVISIONS, ['--format', '--pretty']), numbers: true }, diff: REVISIONS, whatchanged: { ...LOG_REVISIONS, numbers: true },
  shortlog: { ...leaf('-s --summary -n --numbered -e --email -c --committer', '--group --format', '-w'), numbers: true },
  // An operand creates a branch or tag (and runs the reference-transaction hook); only the listing forms generalise.
  branch: signing(leaf('-a --all -r --remotes -v -vv --verbose -l --list --show-current --no-color --no-column -i --ignore-case --omit-empty', '--contains --no-contains --merged --no-merged --sort --format --points-at', '--color --column --abbrev')),
  tag: signing(leaf('-l --list --no-column -i --ignore-case', '--sort --contains --no-contains --merged --no-merged --points-at --format', '-n --column --color')),
  commit: leaf('-a --all -q --quiet --no-edit --allow-empty --allow-empty-message -s --signoff --no-signoff -n --no-verify --no-status --status --dry-run --short --porcelain --long -z', '-m --message -F --file --author --date --trailer', '--cleanup --untracked-files'),
  // The files added pass the clean filters, and the branch merged the merge drivers, the configuration names.
  add: signing(leaf('-A --all -u --update -n --dry-run -v --verbose -N --intent-to-add --no-all --ignore-removal --ignore-errors --ignore-missing --renormalize')),
  // The remote a fetch names is a host the command reaches and the refs it writes.
  fetch: signing(leaf('--all -p --prune -P --prune-tags -t --tags -n --no-tags -q --quiet -v --verbose --dry-run --unshallow --atomic --progress --no-progress --append', '--depth --deepen --shallow-since --shallow-exclude -j --jobs')),
  // The remote and branch a pull merges are the code the next command runs: they are signed.
  pull: { signOperands: true, ...leaf('--all -p --prune -t --tags --no-tags -q --quiet -v --verbose --ff --no-ff --ff-only --no-rebase --autostash --no-autostash --stat -n --no-stat --no-edit --progress', '--depth', '-r --rebase') },
  switch: leaf('-q --quiet --no-guess --guess --progress --no-progress -d --detach --no-track', '-c --create', '-t --track'),
  'rev-parse': leaf('--show-toplevel --abbrev-ref --git-dir --absolute-git-dir --git-common-dir --is-inside-work-tree --is-inside-git-dir --is-bare-repository --is-shallow-repository --verify -q --quiet --symbolic --symbolic-full-name --show-prefix --show-cdup --show-superproject-working-tree --all --branches --tags --sq --not', '--default --prefix', '--short --abbrev-ref'),
  'ls-files': leaf('-o --others --exclude-standard -c --cached -d --deleted -s --stage -z --full-name -i --ignored -t -u --unmerged -k --killed --directory --no-empty-directory --error-unmatch --eol --deduplicate', '-x --exclude -X --exclude-from --exclude-per-directory --format', '--abbrev'),
  'ls-tree': leaf('-r -d -t -l --long -z --name-only --name-status --object-only --full-name --full-tree', '--format', '--abbrev'),
  blame: leaf('-w -M -C -s -e -l -t -n -f -p --porcelain --line-porcelain --show-email --show-name --show-number --root -c --incremental --minimal', '-L --date --contents -S --ignore-rev', '--abbrev --color-lines --color-by-age'),
  grep: leaf('-n --line-number -i --ignore-case -w --word-regexp -l --files-with-matches -L --files-without-match -c --count -E --extended-regexp -F --fixed-strings -G --basic-regexp -P --perl-regexp -I --cached --untracked --no-index --recurse-submodules -h -H --heading --break -q --quiet -v --invert-match -z --null --full-name --all-match -o --only-matching --column -p --show-function -W --function-context', '-e -f -A -B -C --after-context --before-context --context --max-depth -m --max-count', '--color --threads'),
  describe: leaf('--tags --always --long --exact-match --all --first-parent --contains', '--match --exclude --candidates', '--abbrev'),
  'cat-file': leaf('-p -t -s -e --batch-all-objects --follow-symlinks', '', '--batch --batch-check'),
  'cherry-pick': leaf('-x -n --no-commit -s --signoff --ff --continue --abort --skip --quit --allow-empty --keep-redundant-commits', '-m --mainline'),
  revert: leaf('-n --no-commit --no-edit -s --signoff --continue --abort --skip --quit', '-m --mainline'),
  // Not `-s`/`-X` (a strategy is a program `git-merge-NAME`), `-i` (the sequence editor), nor `-x`/`--exec`.
  merge: signing(leaf('--no-ff --ff --ff-only --no-edit --squash --no-squash --no-commit --commit -q --quiet -v --verbose --stat -n --no-stat --abort --continue --quit --autostash --no-autostash --no-verify --signoff --log --no-log --allow-unrelated-histories', '-m --message -F --file')),
  rebase: leaf('--continue --abort --skip --quit --autostash --no-autostash -q --quiet -v --verbose --stat -n --no-stat --autosquash --no-autosquash --keep-empty --no-verify --update-refs --no-update-refs --root -f --force-rebase --no-ff --fork-point --no-fork-point', '--onto'),
  'merge-base': leaf('--is-ancestor --all --fork-point --octopus --independent'),
  'rev-list': { ...REVISIONS, ...leaf('--count --objects --all --reverse --no-merges --first-parent --left-right --max-count', '-n --max-count --since --until'), numbers: true },
  version: leaf('--build-options'),
  help: leaf('-a --all -g --guides -c --config'),
};

/** npm, pnpm and yarn read their options anywhere on the line (nopt): these only change what is printed or skipped. */
export const NPM_LEVEL = level(
  '-s --silent -q --quiet --verbose -d -dd -ddd -y --yes --no-audit --no-fund --if-present --ignore-scripts --json --foreground-scripts --no-progress --offline --prefer-offline --prefer-online --no-color --parseable -p --all -a --long -l --no-update-notifier --no-save --frozen-lockfile --immutable --prefer-frozen-lockfile -r --recursive --parallel --stream --reporter-hide-prefix --no-bail --bail --help -h --version -v',
  '--loglevel --depth --omit --include --color --reporter --workspace-concurrency',
);

/** cargo's build, test and check options (clap: no abbreviations). */
export const CARGO_LEVEL = level(
  '--release -r -q --quiet -v -vv --verbose --all --workspace --all-targets --all-features --no-default-features --lib --bins --tests --examples --benches --doc --no-run --no-fail-fast --locked --frozen --offline --keep-going --ignore-rust-version --future-incompat-report --check --no-deps --help -h --version -V --list --all-packages --fix-none',
  '-p --package --features -F --bin --test --example --bench --profile -j --jobs --exclude --message-format --color',
);

// go build, test, vet, run: `-o`, `-coverprofile` and the profiles write files, `-ldflags` and the other
// tool flags pass options to the compiler and linker (`-extld` names a program), `-overlay` and
// `-modfile` swap files: all are signed with their value.
export const GO_LEVEL: OptionLevel & { signedOptions: string[] } = {
  ...level(
    '-v -race -cover -short -x -n -a -json -failfast -trimpath -benchmem -modcacherw -msan -asan -linkshared -buildvcs',
    '-run -count -timeout -bench -benchtime -cpu -parallel -p -tags -mod -covermode -coverpkg -shuffle -skip -vet -list -fullpath -buildmode -compiler',
  ),
  signedOptions: ['-o', '-coverprofile', '-cpuprofile', '-memprofile', '-blockprofile', '-mutexprofile', '-trace', '-outputdir', '-ldflags', '-gcflags', '-asmflags', '-gccgoflags', '-overlay', '-modfile', '-pgo', '-pkgdir', '-C', '-exec', '-toolexec'],
};

/** GNU make's options that change only what is printed, kept going or assumed (`-j` takes its value attached). */
export const MAKE_LEVEL = level(
  '-s --silent --quiet -k --keep-going -n --just-print --dry-run --recon -B --always-make -i --ignore-errors -q --question -r --no-builtin-rules -R --no-builtin-variables -w --print-directory --no-print-directory -e --environment-overrides -S --no-keep-going --stop --trace -p --print-data-base -v --version -h --help --warn-undefined-variables',
  '-o --old-file --assume-old -W --what-if --new-file --assume-new',
  '-j --jobs -l --load-average --max-load -O --output-sync -d --debug',
);
MAKE_LEVEL.numericValues = ['-j', '--jobs', '-l', '--load-average', '--max-load'];

/** pytest's options that choose which tests run and what is printed (not --doctest-modules: it imports every module of the tree, which a plain run never loads). */
export const PYTEST_LEVEL = level(
  `-q --quiet -v --verbose -x --exitfirst -s -l --showlocals --no-showlocals --lf --last-failed --ff --failed-first --nf --new-first
   --sw --stepwise --sw-skip --stepwise-skip --co --collect-only --no-header --no-summary --strict-markers --strict --disable-warnings
   --disable-pytest-warnings --runxfail --setup-show --setup-only --setup-plan --version -V -h --help --fulltrace --cache-show
   --cache-clear --exitfirst --full-trace --keep-duplicates --continue-on-collection-errors --no-cov --trace-config --markers --fixtures --fixtures-per-test --debug-off`,
  '-k -m --maxfail --tb -r --durations --durations-min --color --capture --deselect --ignore --ignore-glob --log-level --log-cli-level --timeout -n --numprocesses --dist --count --reruns --lfnf --last-failed-no-failures --verbosity --code-highlight --import-mode',
);

/** docker's read-only subcommands and their inert options (cobra/pflag). */
export const DOCKER_READS = {
  ps: leaf('-a --all -q --quiet --no-trunc -s --size -l --latest', '-f --filter --format -n --last'),
  images: leaf('-a --all -q --quiet --no-trunc --digests', '-f --filter --format'),
  logs: leaf('-f --follow -t --timestamps --details', '-n --tail --since --until'),
  inspect: leaf('-s --size', '-f --format --type'),
  stats: leaf('--no-stream -a --all --no-trunc', '--format'),
  version: leaf('', '-f --format'), info: leaf('', '-f --format'), top: leaf(''), port: leaf(''), diff: leaf(''),
  history: leaf('-q --quiet --no-trunc -H --human', '--format'), events: leaf('', '-f --filter --format --since --until'),
  search: leaf('--no-trunc', '-f --filter --format --limit'),
};
