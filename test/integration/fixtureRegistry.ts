// The local MCP registry of the tests (test/fixtures/registry/serve.mjs) as a child process on
// 127.0.0.1, and the built CLI run without blocking this process (so a server of the test can answer it).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { CLI_PATH, REPO_ROOT, type CliResult } from './support';

export const REGISTRY_FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'registry');

/** Starts the fixture registry; resolves to its URL and a stop function. */
export function startFixtureRegistry(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [path.join(REGISTRY_FIXTURE, 'serve.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the fixture registry exited (${code}) before it listened`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n')[0];
      if (!output.includes('\n')) return;
      child.removeAllListeners('exit');
      resolve({
        url: line.trim(),
        stop: () => new Promise<void>((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        }),
      });
    });
  });
}

/** Runs the built CLI asynchronously. */
export function runCliAsync(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_PATH, ...args], { encoding: 'utf8', timeout: 15000 }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : null;
      resolve({ status, stdout, stderr });
    });
  });
}
