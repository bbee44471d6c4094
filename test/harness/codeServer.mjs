// code-server (the real VS Code server and web workbench) for tests: bound to 127.0.0.1 on a free port,
// no auth, every directory it writes to isolated under a state folder, quiet settings, started in its
// own process group and always stopped as a group (plus a sweep for anything that escaped the group).
import cp from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { codeServerDir, codeServerEntry, node24Bin } from './paths.mjs';
import { killGroup, onExit } from './cleanup.mjs';
import { markedProcesses, stopLeaderFirst } from './shutdown.mjs';
import { freePort, httpStatus, sleep } from './net.mjs';
import { quietSettings } from './settings.mjs';
import { userLikeEnv } from './env.mjs';

export { quietSettings };

/** Directories code-server and VS Code write to, all below `stateDir`. */
export function isolatedDirs(stateDir) {
  const dirs = {
    home: path.join(stateDir, 'home'),
    userData: path.join(stateDir, 'user-data'),
    extensions: path.join(stateDir, 'extensions'),
    config: path.join(stateDir, 'xdg-config'),
    data: path.join(stateDir, 'xdg-data'),
    cache: path.join(stateDir, 'xdg-cache'),
  };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  const configFile = path.join(dirs.config, 'code-server', 'config.yaml');
  fs.mkdirSync(path.dirname(configFile), { recursive: true });
  fs.writeFileSync(configFile, 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
  return { ...dirs, configFile };
}

/** The environment code-server runs in: a user-like one (see env.mjs) with the isolated dirs. */
function isolatedEnv(dirs, home, extra) {
  const env = userLikeEnv();
  return {
    ...env,
    HOME: home ?? dirs.home,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    // the extension host and the processes it starts find Node 24 first
    PATH: `${path.dirname(node24Bin)}${path.delimiter}${env.PATH ?? ''}`,
    ...extra,
  };
}

function commonArgs(dirs) {
  return ['--config', dirs.configFile, '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];
}

/** Runs code-server's command line (e.g. --install-extension) against the isolated dirs of `stateDir`. */
export function codeServerCli(stateDir, args, { home } = {}) {
  const dirs = isolatedDirs(stateDir);
  const result = cp.spawnSync(node24Bin, [codeServerEntry, ...commonArgs(dirs), ...args], {
    encoding: 'utf8',
    env: isolatedEnv(dirs, home, {}),
    timeout: 120_000,
  });
  if (result.status !== 0) {
    throw new Error(`code-server ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout.trim();
}

/** { codeServer: '4.139.1', vscode: '1.139.1', line } from `code-server --version`. */
export function codeServerVersion(stateDir) {
  const out = codeServerCli(stateDir, ['--version']);
  const line = out.split('\n').find((l) => /^\d+\.\d+\.\d+ /.test(l)) ?? out;
  const codeServer = line.split(' ')[0];
  const vscode = /with Code (\S+)/.exec(line)?.[1] ?? 'unknown';
  return { codeServer, vscode, line };
}

function killMarked(marker) {
  const survivors = markedProcesses(marker);
  for (const { pid } of survivors) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return survivors;
}

/**
 * Starts code-server. Options:
 *  stateDir   folder for every isolated directory (required)
 *  folder     workspace folder to open by default
 *  home       HOME for the server and the extension host (default: <stateDir>/home)
 *  env        extra environment (reaches the extension host and what it spawns)
 *  settings   extra user settings, merged over quietSettings
 *  args       extra command-line arguments
 *  logFile    where stdout/stderr go (default: <stateDir>/code-server.log)
 *  port       port on 127.0.0.1 (default: a free one)
 *  workspaceTrust  true: leave VS Code's workspace trust on (no --disable-workspace-trust), so a folder
 *             nobody trusted opens in Restricted Mode; the settings must enable it too
 *  portProxy  true: keep code-server's /proxy/PORT/ path (no --disable-proxy). VS Code for the Web opens a
 *             loopback URL through it (env.openExternal forwards localhost ports), so a flow that opens a
 *             page served on 127.0.0.1 in the browser needs it; it is a path on code-server's own port
 * Returns { url, port, pid, logFile, dirs, stop(), stopInOrder() }. stop() ends the process group at
 * once (SIGTERM, then SIGKILL; for test runs) and resolves to the processes that had to be killed after
 * the group was gone (they escaped the group: a leak worth reporting). stopInOrder({ graceMs }) stops code-server the way a person would, so that the extensions deactivate and the
 * servers they started are shut down by them, then sweeps (see shutdown.mjs); it resolves to its
 * report { waitedMs, stopped, killed }.
 */
export async function startCodeServer({ stateDir, folder, home, env = {}, settings = {}, args = [], logFile, port, workspaceTrust = false, portProxy = false, timeoutMs = 90_000 }) {
  const dirs = isolatedDirs(stateDir);
  const settingsFile = path.join(dirs.userData, 'User', 'settings.json');
  fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
  fs.writeFileSync(settingsFile, JSON.stringify({ ...quietSettings, ...settings }, null, 2));

  port ??= await freePort();
  logFile ??= path.join(stateDir, 'code-server.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, 'w');
  // Every process started below inherits this variable: how the sweep finds escapees.
  const marker = `SWITCHBOARD_HARNESS_RUN=${crypto.randomBytes(8).toString('hex')}`;
  const [markerKey, markerValue] = marker.split('=');
  const argv = [
    codeServerEntry,
    ...commonArgs(dirs),
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    ...(portProxy ? [] : ['--disable-proxy']),
    ...args,
    ...(folder ? [folder] : []),
  ];
  const child = cp.spawn(node24Bin, argv, {
    cwd: stateDir,
    stdio: ['ignore', out, out],
    env: isolatedEnv(dirs, home, { ...env, [markerKey]: markerValue }),
    detached: true, // its own process group: server, extension host, pty host, their children
  });
  fs.closeSync(out);
  const pid = child.pid;
  const forget = onExit(() => {
    killGroup(pid, 'SIGKILL');
    killMarked(marker);
  });

  let stopped;
  const stop = () => {
    stopped ??= (async () => {
      if (killGroup(pid, 'SIGTERM')) {
        const t0 = Date.now();
        while (Date.now() - t0 < 3000 && killGroup(pid, 0)) await sleep(100);
        killGroup(pid, 'SIGKILL');
      }
      await sleep(100);
      const escaped = killMarked(marker);
      forget();
      return escaped;
    })();
    return stopped;
  };

  let inOrder;
  const stopInOrder = ({ graceMs } = {}) => {
    inOrder ??= (async () => {
      const report = await stopLeaderFirst({ leaderPid: pid, marker, graceMs });
      forget();
      stopped ??= Promise.resolve(report.killed.filter((proc) => proc.pgid !== pid));
      return report;
    })();
    return inOrder;
  };

  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`code-server exited early (${child.exitCode ?? child.signalCode}); log: ${logFile}\n${tail(logFile)}`);
    }
    if ((await httpStatus(`${url}/healthz`)) === 200) {
      return { url, port, pid, logFile, dirs, authority: `127.0.0.1:${port}`, startupMs: Date.now() - t0, stop, stopInOrder };
    }
    await sleep(200);
  }
  await stop();
  throw new Error(`code-server not healthy after ${timeoutMs} ms; log: ${logFile}\n${tail(logFile)}`);
}

function tail(file, lines = 20) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** The workbench URL for `folder`, with an optional test `payload` ([[key, value], …]). */
export function workbenchUrl(server, { folder, payload } = {}) {
  const query = [];
  if (folder) query.push(`folder=${encodeURIComponent(folder)}`);
  if (payload) query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return `${server.url}/${query.length ? `?${query.join('&')}` : ''}`;
}

/** A path on the server as the workbench addresses it (vscode-remote://host:port/abs/path). */
export function remoteUri(server, absPath) {
  return `vscode-remote://${server.authority}${absPath.split(path.sep).join('/')}`;
}

/** Versions of the installed code-server and of the VS Code inside it, read from their manifests. */
export function installedVersions() {
  const read = (p) => JSON.parse(fs.readFileSync(p, 'utf8')).version;
  return {
    codeServer: read(path.join(codeServerDir, 'package.json')),
    vscode: read(path.join(codeServerDir, 'lib', 'vscode', 'package.json')),
  };
}
