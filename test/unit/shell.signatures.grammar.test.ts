// Options are read by the program's own grammar: getopt clusters and attached values, long options
// with `=` or the next word, abbreviations where the program accepts them, Go's single-dash long
// options, `--`, and GNU make's `-j` that takes the next word only when it is a number.
import * as assert from 'node:assert/strict';
import { readOptionWord, type OptionGrammar, type OptionWord } from '../../src/core/shell/optionWords';
import { check } from './helpers/approvalCheck';


function read(words: string[], grammar: OptionGrammar): OptionWord {
  return readOptionWord(words.map((value) => ({ text: value, value, pattern: false })), 0, grammar);
}

// GNU sed's table, complete: every option it has.
const SED: OptionGrammar = {
  complete: true,
  flags: ['-n', '--quiet', '--silent', '-E', '-r', '--regexp-extended', '-s', '--separate', '-u', '--unbuffered', '-z', '--null-data', '--posix', '--debug', '--sandbox', '--follow-symlinks'],
  values: ['-e', '--expression', '-f', '--file', '-l', '--line-length'],
  optionalValues: ['-i', '--in-place'],
};

describe('command signatures: options are read by the program\'s own grammar', () => {
  describe('getopt: clusters, attached values, abbreviations', () => {
    it('`-nf F` is -n then -f with the next word as its value', () => {
      assert.deepEqual(read(['-nf', 'F'], SED), { kind: 'known', option: '-f', role: 'value', value: 'F', words: 2, exact: true });
    });
    it('`-eCMD` is -e with CMD attached', () => {
      assert.deepEqual(read(['-eCMD', 'file'], SED), { kind: 'known', option: '-e', role: 'value', value: 'CMD', words: 1, exact: true });
    });
    it('`--expr=X` is --expression=X, an abbreviation of a complete table', () => {
      assert.deepEqual(read(['--expr=X'], SED), { kind: 'known', option: '--expression', role: 'value', value: 'X', words: 1, exact: false });
    });
    it('`--in` is --in-place, whose value is only ever attached', () => {
      assert.deepEqual(read(['--in', 'file'], SED), { kind: 'known', option: '--in-place', role: 'value', words: 1, exact: false });
      assert.deepEqual(read(['-i.bak', 'file'], SED), { kind: 'known', option: '-i', role: 'value', value: '.bak', words: 1, exact: true });
      assert.deepEqual(read(['-ni', 'file'], SED), { kind: 'known', option: '-i', role: 'value', words: 1, exact: true });
    });
    it('`--e` is ambiguous in a complete table without a code option, so it is not known', () => {
      assert.equal(read(['--e'], { ...SED, values: ['--expression', '--exec'] }).kind, 'unknown');
    });
    it('an abbreviation of an inert option in a table that is not complete is not trusted', () => {
      assert.equal(read(['--expr=X'], { ...SED, complete: false }).kind, 'unknown');
    });
    it('an abbreviation of a code-loading option is that option, whatever else it could be', () => {
      const grammar: OptionGrammar = { style: 'pflag', flags: ['--init'], never: { '--init-script': 'runs it' } };
      assert.equal(read(['--init-s', 'x'], grammar).kind, 'known');
      assert.equal((read(['--init-s', 'x'], grammar) as { role: string }).role, 'never');
    });
    it('an unknown letter before a code-loading letter in a cluster counts as that letter', () => {
      const grammar: OptionGrammar = { flags: ['-y'], never: { '-c': 'runs it' } };
      assert.deepEqual(read(['-Zc', 'x'], grammar), { kind: 'known', option: '-c', role: 'never', words: 1, exact: false });
    });
    it('a flag given `=value` is not the flag (getopt refuses it)', () => {
      assert.equal(read(['--quiet=1'], SED).kind, 'unknown');
    });
    it('`--` ends the options, `-` is an operand', () => {
      assert.equal(read(['--'], SED).kind, 'end');
      assert.equal(read(['-'], SED).kind, 'operand');
    });
    it('`-NUMBER` is an option only where the program has it', () => {
      assert.equal(read(['-20'], { numbers: true }).kind, 'known');
      assert.equal(read(['-20'], {}).kind, 'unknown');
    });
  });

  describe('Go: one dash or two, no clusters, `=` or the next word', () => {
    const GO: OptionGrammar = { style: 'go', flags: ['-race', '-v'], values: ['-run'], signed: ['-o'] };
    it('reads `-race` as one flag, not a cluster', () => {
      assert.deepEqual(read(['-race'], GO), { kind: 'known', option: '-race', role: 'flag', value: undefined, words: 1, exact: true });
    });
    it('reads `--o x`, `-o=x` and `-o x` as the same option', () => {
      for (const words of [['--o', 'x'], ['-o', 'x']]) assert.deepEqual(read(words, GO), { kind: 'known', option: '-o', role: 'signed', value: 'x', words: 2, exact: true });
      assert.deepEqual(read(['-o=x'], GO), { kind: 'known', option: '-o', role: 'signed', value: 'x', words: 1, exact: true });
    });
    it('accepts `-v=true` for a flag', () => {
      assert.equal(read(['-v=true'], GO).kind, 'known');
    });
    it('does not abbreviate', () => {
      assert.equal(read(['-ra'], GO).kind, 'unknown');
    });
  });

  describe('through the signatures', () => {
    it('make -j takes the next word only when it is a number, so the target is still signed', () => {
      assert.deepEqual(check('make -j install', ['make']).signatures, ['make install']);
      assert.deepEqual(check('make -j 4 test', ['make test']).signatures, ['make test']);
      assert.deepEqual(check('make -j4 test', ['make test']).signatures, ['make test']);
    });
    it('npm reads options anywhere (nopt): one after the script name is npm\'s, not the script\'s', () => {
      assert.deepEqual(check('npm run build --prefix ../x', ['npm run build']).signatures, ['npm run build --prefix ../x']);
      // After `--` the words go to the script, as they are: they join the signature too.
      assert.deepEqual(check('npm run build -- --prefix ../x', ['npm run build']).signatures, ['npm run build -- --prefix ../x']);
    });
    it('git reads its global options before the subcommand only: `-p` after `log` is --patch, which log signs (a diff runs the textconv drivers)', () => {
      assert.deepEqual(check('git log -p', ['git log']).signatures, ['git log -p']);
      assert.deepEqual(check('git log -C x', ['git log']).signatures, ['git log']);
    });
    it('an expansion where a tool reads options asks', () => {
      const result = check('docker ps $OPTS', ['docker ps']);
      assert.equal(result.autoApproved, false);
      assert.match(result.reason, /may expand into an option that is not in its table/);
    });
  });
});
