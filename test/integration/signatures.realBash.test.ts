// The claims of the command signatures, checked against the real bash: commands the analyser refuses
// (each once held only allowed signatures) really do run code or write files — they create a marker —
// and commands it approves, full of text that looks like code, run only the programs their signatures
// name (stubs on PATH record every call) and create no marker.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ShellParser } from '../../src/core/approvals';
import { alwaysAllowRules, isAutoApproved } from '../../src/core/shell';
import { loadBashParser } from '../../src/node/bashParser';
import { TempDirs, write } from './support';

const BASH = '/bin/bash';

describe('command signatures against the real bash', function () {
  this.timeout(60000);
  const temp = new TempDirs();
  let parser: ShellParser;
  let dir: string;

  before(async () => {
    parser = await loadBashParser();
  });
  beforeEach(() => {
    dir = temp.make('switchboard-bash-');
  });
  after(() => temp.cleanup());

  function bash(command: string, extraPath?: string): void {
    const PATH = extraPath === undefined ? process.env.PATH : `${extraPath}${path.delimiter}${process.env.PATH ?? ''}`;
    const result = spawnSync(BASH, ['-c', command], { cwd: dir, env: { PATH, HOME: dir, LOG: path.join(dir, 'calls.log') }, encoding: 'utf8', timeout: 20000 });
    assert.equal(result.error, undefined, `bash could not run: ${String(result.error)}`);
  }

  function approved(command: string, always: string[]): { autoApproved: boolean; reason: string } {
    return isAutoApproved(command, alwaysAllowRules(always, parser), parser);
  }

  function gitRepo(at: string): void {
    fs.mkdirSync(at, { recursive: true });
    for (const args of [['init', '-q'], ['-c', 'user.email=a@b.c', '-c', 'user.name=a', 'commit', '-q', '--allow-empty', '-m', 'x']]) {
      const result = spawnSync('git', args, { cwd: at, encoding: 'utf8' });
      assert.equal(result.status, 0, result.stderr);
    }
  }

  describe('refused commands really run code', () => {
    const cases: Array<{ command: string; always: string[]; setup?: () => void; reason: RegExp }> = [
      { command: "x='a[$(touch marker)]'; ls $((x))", always: ['ls'], reason: /arithmetic expansion/ },
      { command: "x='$(touch marker)'; ls ${x@P}", always: ['ls'], reason: /transforming expansion/ },
      { command: "x='a[$(touch marker)]'; ls ${!x}", always: ['ls'], reason: /indirect expansion/ },
      { command: "x='a[$(touch marker)]'; v=abc; ls ${v:x}", always: ['ls'], reason: /substring expansion/ },
      { command: "x='a[$(touch marker)]'; [[ $x -eq 0 ]]; ls", always: ['ls'], reason: /test expression/ },
      { command: "perl '-Mstrict;system q(touch marker)' x.pl", always: ['perl x.pl'], setup: () => write(path.join(dir, 'x.pl'), ''), reason: /`perl -M` loads code/ },
      { command: "perl '-esystem q(touch marker)'", always: ['perl x.pl'], reason: /`perl -e` runs code/ },
      {
        command: `node --test --import 'data:text/javascript,import{writeFileSync}from"node:fs";writeFileSync("marker","")' a.test.js`,
        always: ['node --test'],
        setup: () => write(path.join(dir, 'a.test.js'), ''),
        reason: /`node --import` loads code/,
      },
      { command: "LESSOPEN='|touch marker; cat %s' less f", always: ['less f'], setup: () => write(path.join(dir, 'f'), 'text\n'), reason: /sets LESSOPEN/ },
      { command: 'sort -o marker data.txt', always: ['sort data.txt'], setup: () => write(path.join(dir, 'data.txt'), 'b\na\n'), reason: /`sort -o` writes/ },
      { command: 'git diff --output=marker', always: ['git diff'], setup: () => gitRepo(dir), reason: /`git --output` writes/ },
      // Options read deny by default, dangerous long options by their prefixes, braces spelling options.
      { command: "env --sp='sh -c \"touch marker\"' ls", always: ['ls', 'sh -c "touch marker"'], reason: /`env --split-string` splits/ },
      { command: "env -S 'touch marker'", always: ['ls', 'touch marker'], reason: /`env -S` splits/ },
      { command: "echo a | xargs -I{} sh -c 'touch marker'", always: ['echo a', "sh -c 'touch marker'"], reason: /`xargs -I` puts its input/ },
      { command: 'sort {-o,marker} data.txt', always: ['sort data.txt'], setup: () => write(path.join(dir, 'data.txt'), 'b\na\n'), reason: /is a brace expansion, which bash turns into several words/ },
      { command: 'sort --out=marker data.txt', always: ['sort data.txt'], setup: () => write(path.join(dir, 'data.txt'), 'b\na\n'), reason: /`sort --output` writes/ },
      { command: "make --ev='all:;@touch marker' -f /dev/null", always: ['make'], reason: /`make --eval` evaluates/ },
      { command: "echo x | sed 's/x/touch marker/ge'", always: ['echo x', 'sed'], reason: /its sed script has an `s` command with the flag `e`, which runs the result as a command/ },
      { command: "echo x | sed 's/x/y/gw marker'", always: ['echo x', 'sed'], reason: /its sed script has an `s` command with the flag `w`, which writes into a file/ },
      { command: "x='5 touch marker'; nice -n $x ls", always: ['ls'], reason: /`nice -n` is given a value that comes from an expansion/ },
      { command: "d='5 touch marker'; timeout $d ls", always: ['ls'], reason: /the operand \$d of `timeout`/ },
      {
        command: "make all SHELL=./sh2",
        always: ['make all'],
        setup: () => {
          write(path.join(dir, 'Makefile'), 'all:\n\t@true\n');
          write(path.join(dir, 'sh2'), '#!/bin/sh\ntouch marker\n');
          fs.chmodSync(path.join(dir, 'sh2'), 0o755);
        },
        reason: /is told which shell or program to run/,
      },
      {
        command: 'npm run build --scri=./sh2',
        always: ['npm run build'],
        setup: () => {
          write(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0', scripts: { build: 'true' } }));
          write(path.join(dir, 'sh2'), '#!/bin/sh\ntouch marker\n');
          fs.chmodSync(path.join(dir, 'sh2'), 0o755);
        },
        reason: /`npm --script-shell` chooses the shell/,
      },
      {
        command: "git config core.fsmonitor 'touch marker; false' && git status",
        always: ['git config user.name', 'git status'],
        setup: () => gitRepo(dir),
        reason: /`git config core.fsmonitor 'touch marker; false'` is not allowed/,
      },
    ];
    for (const { command, always, setup, reason } of cases) {
      it(`${JSON.stringify(command)} is refused, and bash runs what it hides`, () => {
        setup?.();
        const result = approved(command, always);
        assert.equal(result.autoApproved, false, result.reason);
        assert.match(result.reason, reason);
        bash(command);
        assert.ok(fs.existsSync(path.join(dir, 'marker')), 'bash did not create the marker');
      });
    }

    it('a program given as a path is the repository\'s file, not the wrapper: ./env ls and ./bin/nohup ls', () => {
      for (const program of ['env', 'bin/nohup']) {
        write(path.join(dir, program), '#!/bin/sh\ntouch marker\n');
        fs.chmodSync(path.join(dir, program), 0o755);
        const command = `./${program} ls`;
        assert.equal(approved(command, ['ls']).autoApproved, false);
        bash(command);
        assert.ok(fs.existsSync(path.join(dir, 'marker')), `${command} did not run the file`);
        fs.rmSync(path.join(dir, 'marker'));
      }
    });

    it('cd into a committed git folder: its core.fsmonitor runs on `git status`, so `cd dir && git status` is signed with dir', () => {
      // A folder with a repository's layout (HEAD, config, objects, refs) is ordinary files a commit can carry.
      gitRepo(path.join(dir, 'seed'));
      const vendor = path.join(dir, 'ws', 'vendor');
      fs.cpSync(path.join(dir, 'seed', '.git'), vendor, { recursive: true });
      const marker = path.join(dir, 'ws', 'marker');
      for (const [key, value] of [['core.bare', 'false'], ['core.worktree', '..'], ['core.fsmonitor', `touch ${marker}; false`]]) {
        assert.equal(spawnSync('git', ['config', '-f', path.join(vendor, 'config'), key, value]).status, 0);
      }
      const command = 'cd vendor && git status';
      const result = approved(command, ['git status', 'cd']);
      assert.equal(result.autoApproved, false, result.reason);
      assert.equal(result.reason, '`cd vendor && git status` is not allowed by any "Always allow" rule.');
      dir = path.join(dir, 'ws');
      bash(command);
      assert.ok(fs.existsSync(marker), 'git did not run the folder\'s fsmonitor');
    });
  });

  describe('approved commands run only what their signatures name', () => {
    const PROGRAMS = ['git', 'npm', 'ls', 'grep', 'wc', 'cargo', 'cat', 'python'];
    const cases: Array<{ command: string; calls: string[] }> = [
      { command: "echo '$(touch marker)' \"\\$(touch marker)\" '`touch marker`'", calls: [] },
      { command: 'git commit -m "x && touch marker; \\$(touch marker)"', calls: ['git commit -m x && touch marker; $(touch marker)'] },
      { command: 'grep "a; touch marker" f | wc -l', calls: ['grep a; touch marker f', 'wc -l'] },
      { command: 'ls -la src 2>/dev/null && npm test', calls: ['ls -la src', 'npm test'] },
      { command: 'cargo build && cargo test', calls: ['cargo build', 'cargo test'] },
      { command: "x='a[$(touch marker)]'; cat \"$x\" $x", calls: ['cat a[$(touch marker)] a[$(touch marker)]'] },
      { command: 'cd web && git status', calls: ['git status'] },
      { command: 'timeout 5 env CI=1 npm test', calls: ['npm test'] },
      { command: "sh -c 'git status; npm test'", calls: ['git status', 'npm test'] },
      { command: 'python -m pytest -q', calls: ['python -m pytest -q'] },
    ];
    for (const { command, calls } of cases) {
      it(`${JSON.stringify(command)} is approved on itself, and runs only ${JSON.stringify(calls)}`, () => {
        const stubs = path.join(dir, '.stubs');
        for (const program of PROGRAMS) {
          write(path.join(stubs, program), `#!/bin/sh\necho "\${0##*/} $*" >> "$LOG"\n`);
          fs.chmodSync(path.join(stubs, program), 0o755);
        }
        fs.mkdirSync(path.join(dir, 'web'));
        const result = approved(command, [command]);
        assert.equal(result.autoApproved, true, result.reason);
        bash(command, stubs);
        const log = path.join(dir, 'calls.log');
        const ran = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter((line) => line !== '') : [];
        // The parts of a pipeline run at once, so their calls are logged in either order.
        assert.deepEqual([...ran].sort(), [...calls].sort());
        assert.equal(fs.existsSync(path.join(dir, 'marker')), false, 'the marker was created');
      });
    }
  });
});
