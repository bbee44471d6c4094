// Last-resort cleanup: whatever a runner started (code-server process groups, browsers) is killed when
// the runner exits, however it exits: normal end, exception, Ctrl-C, SIGTERM from CI.
//
// A runner that can stop things in order first (`npm start` stops VS Code so that the extension shuts
// its servers down) registers that with onSignal(): on Ctrl-C/SIGTERM/SIGHUP those handlers run to the
// end before the sweep. A second signal meanwhile sweeps at once.
const tasks = new Set();
const orderly = new Set();
let installed = false;
/** When the first signal arrived (Date.now()), once one did. */
let signalledAt;
/**
 * A signal this soon after the first is the same Ctrl-C again, not a second one: under `npm start` a
 * terminal's Ctrl-C reaches this process twice, from the terminal and forwarded by npm.
 */
const SAME_SIGNAL_MS = 1000;

function runAll() {
  for (const task of [...tasks]) {
    tasks.delete(task);
    try {
      task();
    } catch {
      // keep going: the other tasks still need to run
    }
  }
}

function install() {
  if (installed) return;
  installed = true;
  process.on('exit', runAll);
  const signals = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 };
  for (const [signal, number] of Object.entries(signals)) {
    process.on(signal, () => {
      if (signalledAt !== undefined && Date.now() - signalledAt < SAME_SIGNAL_MS) return;
      if (signalledAt !== undefined || orderly.size === 0) {
        console.error(`\n[cleanup] ${signal}: stopping everything this runner started${signalledAt !== undefined ? ' (signalled again: not waiting any longer)' : ''}`);
        runAll();
        process.exit(128 + number);
      }
      signalledAt = Date.now();
      const handlers = [...orderly];
      void Promise.allSettled(handlers.map((handler) => handler(signal))).then((results) => {
        for (const result of results) if (result.status === 'rejected') console.error(`[cleanup] stopping in order failed: ${result.reason?.stack ?? result.reason}`);
        const codes = results.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
        runAll();
        process.exit(codes.find((code) => typeof code === 'number') ?? 128 + number);
      });
    });
  }
}

/**
 * Registers a synchronous task (e.g. SIGKILL of a process group) to run at exit. Returns a function that
 * unregisters it (call it once the resource was released the orderly way).
 */
export function onExit(task) {
  install();
  tasks.add(task);
  return () => tasks.delete(task);
}

/**
 * Registers an async handler that runs first when the runner gets SIGINT, SIGTERM or SIGHUP (before
 * the onExit tasks sweep). It receives the signal's name; a number it resolves to is the exit code
 * (else 128 + the signal's number). Returns a function that unregisters it.
 */
export function onSignal(handler) {
  install();
  orderly.add(handler);
  return () => orderly.delete(handler);
}

/** Sends `signal` to a whole process group; false when the group no longer exists. */
export function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}
