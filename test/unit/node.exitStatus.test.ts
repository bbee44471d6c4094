// How a process's end is put into words: a signal is named whether Node reports it or a launcher in
// between (npx, sh -c) reports it as exit code 128 + N.
import * as assert from 'node:assert/strict';
import { describeExit, exitReason } from '../../src/node/process/exitStatus';

const TABLE: readonly [code: number | null, signal: NodeJS.Signals | null, platform: NodeJS.Platform, crash: string, stop: string, reported: NodeJS.Signals | null][] = [
  [null, 'SIGTERM', 'linux', 'process was killed by SIGTERM', 'stopped (process was killed by SIGTERM)', 'SIGTERM'],
  [null, 'SIGKILL', 'linux', 'process was killed by SIGKILL', 'stopped (process was killed by SIGKILL)', 'SIGKILL'],
  [143, null, 'linux', 'process was killed by SIGTERM (exit code 143)', 'stopped (process was killed by SIGTERM, exit code 143)', 'SIGTERM'],
  [137, null, 'linux', 'process was killed by SIGKILL (exit code 137)', 'stopped (process was killed by SIGKILL, exit code 137)', 'SIGKILL'],
  [130, null, 'darwin', 'process was killed by SIGINT (exit code 130)', 'stopped (process was killed by SIGINT, exit code 130)', 'SIGINT'],
  [0, null, 'linux', 'process exited with code 0', 'stopped (process exited with code 0)', null],
  [7, null, 'linux', 'process exited with code 7', 'stopped (process exited with code 7)', null],
  [128, null, 'linux', 'process exited with code 128', 'stopped (process exited with code 128)', null],
  [200, null, 'linux', 'process exited with code 200', 'stopped (process exited with code 200)', null],
  // Windows has no signals: 143 is just a number there.
  [143, null, 'win32', 'process exited with code 143', 'stopped (process exited with code 143)', null],
];

describe('describeExit', () => {
  for (const [code, signal, platform, crash, stop, reported] of TABLE) {
    it(`${signal ?? `code ${code}`} on ${platform}: "${crash}"`, () => {
      const exit = describeExit(code, signal, platform);
      assert.equal(exitReason(exit, false), crash);
      assert.equal(exitReason(exit, true), stop);
      assert.equal(exit.signal, reported);
    });
  }
});
