// Last-resort cleanup: whatever a runner started (code-server process groups, browsers) is killed when
// the runner exits, however it exits: normal end, exception, Ctrl-C, SIGTERM from CI.
const tasks = new Set();
let installed = false;

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
      console.error(`\n[cleanup] ${signal}: stopping everything this runner started`);
      runAll();
      process.exit(128 + number);
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

/** Sends `signal` to a whole process group; false when the group no longer exists. */
export function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}
