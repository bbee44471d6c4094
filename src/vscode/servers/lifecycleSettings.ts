// The `switchboard.*` settings that tune the lifecycle, read as typed values. A value that is not
// usable (wrong type, below its minimum) falls back to the documented default and says so in the log,
// rather than becoming a zero timeout.
import * as vscode from 'vscode';
import { DEFAULT_LIFECYCLE_SETTINGS, LOG_LEVELS, type LifecycleSettings, type McpLogLevel } from '../../core/lifecycle';

const SECTION = 'switchboard';

/** Each setting (without the section) with the lifecycle field it sets and its smallest sensible value. */
const NUMBERS = [
  { key: 'startupTimeout', field: 'startupTimeoutMs', min: 1000 },
  { key: 'requestTimeout', field: 'requestTimeoutMs', min: 1000 },
  { key: 'shutdownGracePeriod', field: 'shutdownGraceMs', min: 100 },
] as const;

/** Every setting this module reads, as `switchboard.<key>`. */
export const LIFECYCLE_SETTING_KEYS = [...NUMBERS.map((n) => `${SECTION}.${n.key}`), `${SECTION}.logLevel`, `${SECTION}.trace`];

/** The lifecycle settings as configured now. */
export function readLifecycleSettings(warn: (message: string) => void = () => undefined): Partial<LifecycleSettings> {
  const configuration = vscode.workspace.getConfiguration(SECTION);
  const settings: Partial<LifecycleSettings> = {};
  for (const { key, field, min } of NUMBERS) {
    const value = configuration.get<unknown>(key);
    if (typeof value === 'number' && Number.isFinite(value) && value >= min) {
      settings[field] = Math.round(value);
    } else {
      if (value !== undefined) warn(`${SECTION}.${key} must be a number of milliseconds ≥ ${min}; using ${DEFAULT_LIFECYCLE_SETTINGS[field]}`);
      settings[field] = DEFAULT_LIFECYCLE_SETTINGS[field];
    }
  }
  const level = configuration.get<unknown>('logLevel');
  if (isLogLevel(level)) {
    settings.logLevel = level;
  } else {
    if (level !== undefined) warn(`${SECTION}.logLevel must be one of ${LOG_LEVELS.join(', ')}; using ${DEFAULT_LIFECYCLE_SETTINGS.logLevel}`);
    settings.logLevel = DEFAULT_LIFECYCLE_SETTINGS.logLevel;
  }
  settings.trace = configuration.get<unknown>('trace') === true;
  return settings;
}

/** Calls `listener` with the new values whenever one of the lifecycle settings changed. */
export function onDidChangeLifecycleSettings(listener: (settings: Partial<LifecycleSettings>) => void, warn?: (message: string) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (LIFECYCLE_SETTING_KEYS.some((key) => event.affectsConfiguration(key))) listener(readLifecycleSettings(warn));
  });
}

function isLogLevel(value: unknown): value is McpLogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}
