// One log line format for every runner: "[tag +12.3s] message".
const t0 = Date.now();

export function elapsed(since = t0) {
  return `${((Date.now() - since) / 1000).toFixed(1)}s`;
}

export function makeLogger(tag) {
  return (...args) => console.log(`[${tag} +${elapsed()}]`, ...args);
}
