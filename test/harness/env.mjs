// The environment a test-started VS Code gets: the caller's, minus what ties it to the process that
// started the tests (an outer VS Code's IPC hooks, npm's lifecycle variables under `npm test`), so the
// extension host and the servers it spawns see what they would see on a user's machine.
import path from 'node:path';

const KEEP_NPM = new Set([
  'npm_config_registry', 'npm_config_cache', 'npm_config_cafile', 'npm_config_ca', 'npm_config_strict_ssl',
  'npm_config_proxy', 'npm_config_https_proxy', 'npm_config_noproxy', 'npm_config_userconfig',
]);

export function userLikeEnv(source = process.env) {
  const env = {};
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue;
    const lower = key.toLowerCase();
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') continue;
    if (lower.startsWith('npm_') && !KEEP_NPM.has(lower)) continue;
    if (key === 'INIT_CWD' || key === 'NODE') continue;
    env[key] = value;
  }
  // npm run puts the project's node_modules/.bin and its node-gyp shim first on PATH: not a user's PATH
  const pathKey = Object.keys(env).find((k) => k.toUpperCase() === 'PATH');
  if (pathKey) {
    env[pathKey] = env[pathKey]
      .split(path.delimiter)
      .filter((dir) => dir && !dir.includes(`node_modules${path.sep}.bin`) && !dir.includes('node-gyp-bin'))
      .join(path.delimiter);
  }
  return env;
}
