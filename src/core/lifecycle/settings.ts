// The lifecycle's tunables, with the defaults the settings UI documents.
import type { McpLogLevel } from './types';

/** Timeouts, restart policy and protocol options shared by every server. */
export interface LifecycleSettings {
  /** Spawn + initialize must finish within this, unless the server sets its own `timeout`. */
  startupTimeoutMs: number;
  /** A request fails after this long without a response or a progress notification. */
  requestTimeoutMs: number;
  /** Grace period between shutdown stages (and for a timed-out connector to report its stderr). */
  shutdownGraceMs: number;
  /** First automatic restart delay; each further try doubles it. */
  restartBaseMs: number;
  /** Automatic restarts allowed within `restartWindowMs` before the server is left failed. */
  maxRestarts: number;
  /** The sliding window the restart budget is counted in. */
  restartWindowMs: number;
  /** Protocol trace into the server's log (applies from the next start). */
  trace: boolean;
  /** Level asked of servers that declare the logging capability. */
  logLevel: McpLogLevel;
}

/** The documented defaults. */
export const DEFAULT_LIFECYCLE_SETTINGS: Readonly<LifecycleSettings> = Object.freeze({
  startupTimeoutMs: 30_000,
  requestTimeoutMs: 120_000,
  shutdownGraceMs: 2_000,
  restartBaseMs: 1_000,
  maxRestarts: 5,
  restartWindowMs: 300_000,
  trace: false,
  logLevel: 'info',
});

/** `base` with the fields of `partial` that are set (undefined fields keep the base value). */
export function mergeSettings(base: LifecycleSettings, partial: Partial<LifecycleSettings>): LifecycleSettings {
  const merged: LifecycleSettings = { ...base };
  for (const key of Object.keys(partial) as (keyof LifecycleSettings)[]) {
    const value = partial[key];
    if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
  }
  return merged;
}
