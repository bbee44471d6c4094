// Danger flags for the package runner configuration a launch reads from the workspace (see
// config/runnerConfig.ts). What is safe is enumerated: a setting not known to be harmless is flagged
// by name, because npm, pnpm, yarn, bun and uv settings decide which code runs (`node-options`,
// `script-shell`, `yarnPath`, `preload`, hooks) or where packages come from (`registry`, indexes).
// Every such setting is what the runner would also take from an environment variable
// (`npm_config_node_options`, `YARN_YARN_PATH`, `UV_INDEX_URL` …), so it is reported as that flag,
// `env-override`, naming the file and the settings.
import { runnerFileKind } from '../config/runnerConfig';
import type { LaunchDefinition, RunnerConfigFile } from '../config/types';
import { DANGER_FLAG_IDS, INJECTION_ENV_VARS, dangerFlags, type DangerFlag, type DangerFlagContext, type DangerFlagSubject } from './dangerFlags';

/** The reason shown when the flag comes only from runner configuration. */
export const RUNNER_CONFIG_REASON = 'package runner configuration in the workspace changes which code runs or where packages come from';

/** npm / pnpm / yarn 1 ini settings that change neither what runs nor where it comes from. */
const SAFE_INI = new Set([
  'save-exact', 'save-prefix', 'save', 'engine-strict', 'fund', 'audit', 'audit-level', 'loglevel', 'progress', 'color',
  'package-lock', 'lockfile', 'legacy-peer-deps', 'strict-peer-deps', 'auto-install-peers', 'strict-peer-dependencies',
  'shamefully-hoist', 'update-notifier', 'prefer-offline', 'offline', 'fetch-retries', 'fetch-timeout', 'resolution-mode',
  'link-workspace-packages', 'prefer-workspace-packages', 'dedupe-peer-dependents', 'node-linker', 'lockfile-version',
  'save-workspace-protocol', 'frozen-lockfile', 'ignore-engines', 'network-timeout', 'unicode',
]);
/** Top-level keys of .yarnrc.yml and pnpm-workspace.yaml that are inert. */
const SAFE_YAML = new Set([
  'nodeLinker', 'enableTelemetry', 'enableGlobalCache', 'compressionLevel', 'enableImmutableInstalls', 'pnpMode',
  'defaultSemverRangePrefix', 'enableProgressBars', 'enableColors', 'enableInlineBuilds', 'enableHardenedMode',
  'packages', 'catalog', 'catalogs', 'ignoredBuiltDependencies', 'neverBuiltDependencies', 'linkWorkspacePackages',
  'sharedWorkspaceLockfile', 'autoInstallPeers', 'strictPeerDependencies', 'saveExact', 'savePrefix', 'shamefullyHoist',
]);
/** bunfig.toml, uv.toml and pyproject.toml keys that are inert; tables are judged by their keys. */
const SAFE_TOML = new Set([
  'telemetry', 'logLevel', 'install.exact', 'install.frozenLockfile', 'install.saveTextLockfile', 'install.production',
  'install.optional', 'install.dev', 'install.peer',
  'managed', 'package', 'dev-dependencies', 'default-groups', 'required-version', 'native-tls', 'offline', 'no-cache',
  'cache-keys', 'workspace.members', 'workspace.exclude', 'sources', 'conflicts',
]);
const PLAIN_PYTHON_REQUEST = /^(?:cpython-?|pypy|python)?\d+(?:\.\d+){0,2}[a-z0-9.+-]*$/i;
const PLAIN_PACKAGE_MANAGER = /^"(?:npm|pnpm|yarn)@\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+sha(?:1|224|256|384|512)\.[0-9a-f]+)?"$/;

/** The settings of one recorded file that are not known to be harmless (or why the whole file counts). */
export function riskySettings(entry: RunnerConfigFile): string[] {
  if (entry.unreadable) return ['(could not be read)'];
  const kind = runnerFileKind(entry.file);
  switch (kind?.format) {
    case 'ini': return entry.settings.filter((name) => !SAFE_INI.has(name));
    case 'yaml': return entry.settings.filter((name) => !SAFE_YAML.has(name));
    case 'toml': return entry.settings.filter((name) => !name.startsWith('[') && !isSafeToml(kind.name, name));
    case 'dotenv': return entry.settings.filter(isInjectionName);
    case 'code': return ['(runs as code)'];
    case 'version': return entry.settings.filter((request) => !PLAIN_PYTHON_REQUEST.test(request));
    case 'packageManager': return entry.settings.filter((setting) => !PLAIN_PACKAGE_MANAGER.test(setting.slice('packageManager='.length)));
    // A file name no runner table knows: nothing about it is understood.
    case undefined: return ['(unknown file)'];
  }
}

function isSafeToml(file: string, name: string): boolean {
  if (file !== 'pyproject.toml') return SAFE_TOML.has(name);
  // Only pyproject's [tool.uv] tables are uv settings; the rest is the project's own metadata and build input.
  if (!name.startsWith('tool.uv.')) return true;
  return SAFE_TOML.has(name.slice('tool.uv.'.length));
}

function isInjectionName(name: string): boolean {
  const upper = name.toUpperCase();
  return INJECTION_ENV_VARS.some((pattern) => (pattern.endsWith('*') ? upper.startsWith(pattern.slice(0, -1).toUpperCase()) : upper === pattern.toUpperCase()));
}

/** The flags of a launch's package runner configuration: one `env-override` naming each file and its risky settings. */
export function runnerConfigFlags(launch: Pick<LaunchDefinition, 'runnerConfig'>): DangerFlag[] {
  const details = (launch.runnerConfig ?? []).flatMap((entry) => {
    const risky = riskySettings(entry);
    return risky.length === 0 ? [] : [`${risky.join(', ')} in ${entry.file}`];
  });
  return details.length === 0 ? [] : [{ id: 'env-override', reason: RUNNER_CONFIG_REASON, detail: details.join('; ') }];
}

/**
 * Every danger flag of a definition the trust prompt shows: those of the command line, env and URLs,
 * and those of the package runner configuration it reads (merged into a flag of the same id).
 */
export function launchDangerFlags(server: DangerFlagSubject, context: DangerFlagContext): DangerFlag[] {
  const flags = dangerFlags(server, context);
  for (const extra of runnerConfigFlags(server.launch)) {
    const index = flags.findIndex((flag) => flag.id === extra.id);
    if (index < 0) flags.push(extra);
    else flags[index] = { ...flags[index], detail: [flags[index].detail, extra.detail].filter((text) => text !== undefined).join('; ') };
  }
  return flags.sort((a, b) => DANGER_FLAG_IDS.indexOf(a.id) - DANGER_FLAG_IDS.indexOf(b.id));
}
