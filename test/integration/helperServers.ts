// Real MCP servers that tests run on the side (HTTP, SSE, WebSocket), always on 127.0.0.1, each in its
// own process group so that stopping one stops everything it started. `stopAll()` in an after-hook.
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { delay, REPO_ROOT } from './support';

export const LOOPBACK_PRELOAD = path.join(REPO_ROOT, 'test', 'fixtures', 'loopback-only.cjs');
export const FIXTURE_SERVERS = path.join(REPO_ROOT, 'test', 'fixtures', 'servers');
const MCP_PACKAGES = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol');
export const EVERYTHING = path.join(MCP_PACKAGES, 'server-everything', 'dist', 'index.js');
export const FILESYSTEM = path.join(MCP_PACKAGES, 'server-filesystem', 'dist', 'index.js');
export const MEMORY = path.join(MCP_PACKAGES, 'server-memory', 'dist', 'index.js');

export interface HelperServer {
  child: ChildProcess;
  port: number;
  /** Everything the server wrote, for failure messages. */
  output(): string;
}

/** A TCP port nothing listens on right now (bound to 0 and released). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once something accepts connections on 127.0.0.1:`port`. */
export async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await delay(25);
  }
}

/** Whether a process with this id exists (zombies aside). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class HelperServers {
  private readonly running = new Set<ChildProcess>();
  private readonly started: number[] = [];

  /**
   * Runs server-everything in `mode` ('sse' | 'streamableHttp') with the loopback preload on a free
   * port and waits until it listens.
   */
  async everything(mode: 'sse' | 'streamableHttp'): Promise<HelperServer> {
    const port = await freePort();
    const server = this.spawn(['-r', LOOPBACK_PRELOAD, EVERYTHING, mode], { PORT: String(port) });
    await waitForPort(port).catch((error: Error) => { throw new Error(`${error.message}\n${server.output()}`); });
    return { ...server, port };
  }

  /** Runs a fixture from test/fixtures/servers that prints `{"port":N}` when it listens. */
  async fixture(file: string, env: Record<string, string> = {}, args: string[] = []): Promise<HelperServer> {
    const server = this.spawn([path.join(FIXTURE_SERVERS, file), ...args], env);
    const port = await new Promise<number>((resolve, reject) => {
      let buffered = '';
      const timer = setTimeout(() => reject(new Error(`${file} did not report its port\n${server.output()}`)), 10_000);
      server.child.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const line = buffered.split('\n').find((l) => l.startsWith('{"port"'));
        if (line) { clearTimeout(timer); resolve((JSON.parse(line) as { port: number }).port); }
      });
      server.child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${file} exited with ${code}\n${server.output()}`)); });
    });
    return { ...server, port };
  }

  /** Stops one server: SIGTERM to its group, SIGKILL if it is still there after a second. */
  async stop(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) { this.running.delete(child); return; }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signalGroup(child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 1000);
    await exited;
    clearTimeout(timer);
    signalGroup(child, 'SIGKILL'); // anything left in its group
    this.running.delete(child);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running].map((child) => this.stop(child)));
  }

  /** Process ids of every helper ever started (to check that none is left running). */
  get pids(): number[] {
    return [...this.started];
  }

  private spawn(args: string[], env: Record<string, string>): Omit<HelperServer, 'port'> {
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.running.add(child);
    if (child.pid !== undefined) this.started.push(child.pid);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString('utf8'); });
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString('utf8'); });
    child.once('exit', () => this.running.delete(child));
    return { child, output: () => output.slice(-4000) };
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}
