// Ways in that an independent review found with real bash, after the option, script and variable
// rules: a descriptor opened on a network connection, lines joined by a trailing backslash, a pytest
// option that imports every module, and a read-only verb whose operand names what is read.
import * as assert from 'node:assert/strict';
import { check } from './helpers/approvalCheck';


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
  for (const [command, always, reason] of asks) {
    it(`${JSON.stringify(command)} asks under ${JSON.stringify(always)}`, () => {
      const result = check(command, always);
      assert.equal(result.autoApproved, false, result.reason);
      assert.match(result.reason, reason);
    });
  }

  const approved: Array<[string, string[]]> = [
    ['cat README.md < notes.txt', ['cat README.md']],
    ['git status 2>&1', ['git status']],
    ['git status 2>/dev/null >&2', ['git status']],
    ['wc -l < /dev/null', ['wc']],
    ['kubectl get pods -n web', ['kubectl get pods']],
  ];
  for (const [command, always] of approved) {
    it(`${JSON.stringify(command)} stays approved under ${JSON.stringify(always)}`, () => {
      const result = check(command, always);
      assert.equal(result.autoApproved, true, result.reason);
    });
  }
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
