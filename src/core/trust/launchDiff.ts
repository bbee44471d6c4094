// What changed between the launch definition a person trusted and the one a repository now asks for,
// field by field, so the trust prompt can show old against new. Both sides are compared in the form
// the trust store keeps (storedLaunch): env, header and env file values as salted digests, arguments
// and URL as a person saw them after redaction, so a store on disk holds no secret and a change shows a
// name with `***` on both sides, never a value.
import type { LaunchDefinition, RunnerConfigFile } from '../config/types';
import { REDACTED, argSecrets, isRedactable, redactArgs, redactText, redactUrl, secretsOf } from '../lifecycle/redact';
import { sameSecret, type SecretDigest } from './secretDigest';

/** The fields of a launch definition, in the order a diff lists them. */
export type LaunchField = 'type' | 'command' | 'args' | 'env' | 'envFile' | 'envFileVars' | 'cwd' | 'url' | 'headers' | 'runnerConfig' | 'roots';

/**
 * A launch definition as the trust store keeps it. `maskedArgs` is the salted digest of the argument
 * values the redaction masked (and of the values `${VAR}` brought into any shown field), so that a
 * changed secret still shows as a change. `expandedVars` is never kept.
 */
export interface StoredLaunch extends LaunchDefinition {
  maskedArgs?: string;
}

/** One difference between two launch definitions. */
export interface LaunchChange {
  field: LaunchField;
  kind: 'added' | 'removed' | 'changed';
  /** The env variable or header name (fields `env`, `envFileVars` and `headers`), the file (`runnerConfig`). */
  key?: string;
  /** For `args`: the 0-based position in the new list (added, changed) or in the old list (removed). */
  index?: number;
  /** The old value, absent when added; `***` for env and header values. */
  old?: string;
  /** The new value, absent when removed; `***` for env and header values. */
  new?: string;
}

/**
 * The launch as the trust store keeps it: every env, header and env file value as a salted digest,
 * the arguments, command, cwd and URL as a person sees them after redaction (`--api-key=***`), and a
 * digest of what the redaction masked in the arguments. Idempotent: a stored launch stays as it is.
 */
export function storedLaunch(launch: LaunchDefinition | StoredLaunch, digest: SecretDigest): StoredLaunch {
  const secrets = secretsOf(launch);
  const masked = [...argSecrets(launch.args), ...expandedShown(launch)];
  const stored: StoredLaunch = {
    // In the order of the LaunchDefinition fields, so a stored document reads like the config.
    type: launch.type,
    ...(launch.command !== undefined ? { command: redactText(launch.command, secrets) } : {}),
    args: redactArgs(launch.args, secrets),
    env: mapValues(launch.env, digest.digest),
    ...(launch.envFile !== undefined ? { envFile: redactText(launch.envFile, secrets) } : {}),
    ...(launch.envFileVars !== undefined ? { envFileVars: mapValues(launch.envFileVars, digest.digest) } : {}),
    ...(launch.cwd !== undefined ? { cwd: redactText(launch.cwd, secrets) } : {}),
    ...(launch.url !== undefined ? { url: redactUrl(launch.url, secrets) } : {}),
    headers: mapValues(launch.headers, digest.digest),
    ...(launch.runnerConfig !== undefined && launch.runnerConfig.length > 0 ? { runnerConfig: launch.runnerConfig.map((entry) => ({ ...entry, settings: [...entry.settings] })) } : {}),
    // Folders, not secrets: kept as written.
    ...(launch.roots !== undefined ? { roots: launch.roots === false ? false : [...launch.roots] } : {}),
  };
  const kept = 'maskedArgs' in launch ? launch.maskedArgs : undefined;
  if (kept !== undefined) stored.maskedArgs = kept;
  else if (masked.length > 0) stored.maskedArgs = digest.digest(JSON.stringify(masked));
  return stored;
}

/**
 * Every difference from `old` (usually a stored launch) to `next`, field by field, both compared in
 * stored form; `[]` when they launch the same thing.
 */
export function launchDiff(old: LaunchDefinition | StoredLaunch, next: LaunchDefinition | StoredLaunch, digest: SecretDigest): LaunchChange[] {
  const before = storedLaunch(old, digest);
  const after = storedLaunch(next, digest);
  const args = argsChanges(before.args, after.args);
  // The same redacted arguments, but another secret behind a `***`.
  if (args.length === 0 && before.maskedArgs !== after.maskedArgs) args.push({ field: 'args', kind: 'changed', old: REDACTED, new: REDACTED });
  return [
    ...scalarChange('type', before.type, after.type),
    ...scalarChange('command', before.command, after.command),
    ...args,
    ...secretMapChanges('env', old.env, next.env, digest),
    ...scalarChange('envFile', before.envFile, after.envFile),
    ...secretMapChanges('envFileVars', old.envFileVars, next.envFileVars, digest),
    ...scalarChange('cwd', before.cwd, after.cwd),
    ...scalarChange('url', before.url, after.url),
    ...secretMapChanges('headers', old.headers, next.headers, digest),
    ...runnerConfigChanges(before.runnerConfig, after.runnerConfig),
    ...scalarChange('roots', rootsShown(before.roots), rootsShown(after.roots)),
  ];
}

/** An entry's `roots` in a diff: `false`, or the folders (absent: the workspace folders). */
function rootsShown(roots: false | readonly string[] | undefined): string | undefined {
  return roots === undefined ? undefined : roots === false ? 'false' : roots.join(', ');
}

/** Package runner files found, gone or edited; shown by the settings they make (digests tell an edit). */
function runnerConfigChanges(old: readonly RunnerConfigFile[] = [], next: readonly RunnerConfigFile[] = []): LaunchChange[] {
  const changes: LaunchChange[] = [];
  const shown = (entry: RunnerConfigFile): string => runnerConfigSummary(entry);
  for (const entry of next) {
    const before = old.find((candidate) => candidate.file === entry.file);
    if (before === undefined) changes.push({ field: 'runnerConfig', kind: 'added', key: entry.file, new: shown(entry) });
    else if (before.digest !== entry.digest) changes.push({ field: 'runnerConfig', kind: 'changed', key: entry.file, old: shown(before), new: shown(entry) });
  }
  for (const entry of old) {
    if (!next.some((candidate) => candidate.file === entry.file)) changes.push({ field: 'runnerConfig', kind: 'removed', key: entry.file, old: shown(entry) });
  }
  return changes;
}

/** What a package runner file says, in a few words: `sets node-options, registry`, `sets nothing`, `unreadable`. */
export function runnerConfigSummary(entry: RunnerConfigFile): string {
  if (entry.unreadable) return 'could not be read';
  return entry.settings.length === 0 ? 'sets nothing' : `sets ${entry.settings.join(', ')}`;
}

/** One change as a line of text: `args[2] changed: "a" → "b"`, `env API_KEY changed: *** → ***`, `envFile variable NODE_OPTIONS added: ***`. */
export function formatLaunchChange(change: LaunchChange): string {
  const field = change.field === 'envFileVars' ? 'envFile variable' : change.field === 'runnerConfig' ? 'package runner config' : change.field;
  if (change.field === 'args' && change.index === undefined) return 'args: a masked value changed (*** → ***)';
  const where = change.key !== undefined ? `${field} ${change.key}` : change.index !== undefined ? `${field}[${change.index}]` : field;
  const show = (value: string | undefined): string => (value === REDACTED || change.field === 'runnerConfig' ? value ?? '' : JSON.stringify(value));
  switch (change.kind) {
    case 'added': return `${where} added: ${show(change.new)}`;
    case 'removed': return `${where} removed: ${show(change.old)}`;
    case 'changed': return `${where} changed: ${show(change.old)} → ${show(change.new)}`;
  }
}

function scalarChange(field: LaunchField, old: string | undefined, next: string | undefined): LaunchChange[] {
  if (old === next) return [];
  if (old === undefined) return [{ field, kind: 'added', new: next }];
  if (next === undefined) return [{ field, kind: 'removed', old }];
  return [{ field, kind: 'changed', old, new: next }];
}

/** Names added, removed, or whose value changed; values are compared by digest and shown as `***`. */
function secretMapChanges(field: 'env' | 'envFileVars' | 'headers', old: Record<string, string> = {}, next: Record<string, string> = {}, digest: SecretDigest): LaunchChange[] {
  const changes: LaunchChange[] = [];
  const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])].sort(compareText);
  for (const key of keys) {
    const before = Object.prototype.hasOwnProperty.call(old, key) ? old[key] : undefined;
    const after = Object.prototype.hasOwnProperty.call(next, key) ? next[key] : undefined;
    if (before === undefined) changes.push({ field, kind: 'added', key, new: REDACTED });
    else if (after === undefined) changes.push({ field, kind: 'removed', key, old: REDACTED });
    else if (!sameSecret(before, after, digest)) changes.push({ field, kind: 'changed', key, old: REDACTED, new: REDACTED });
  }
  return changes;
}

/**
 * Positional changes of the argument list: a longest common subsequence keeps the arguments both lists
 * share, so inserting one argument shows one `added`, not every later position as `changed`. A removed
 * run directly followed by an added run pairs up as `changed` positions.
 */
function argsChanges(old: readonly string[], next: readonly string[]): LaunchChange[] {
  const edits = editScript(old, next);
  const changes: LaunchChange[] = [];
  let i = 0;
  while (i < edits.length) {
    if (edits[i].op === 'keep') { i++; continue; }
    const removed: Edit[] = [];
    const added: Edit[] = [];
    while (i < edits.length && edits[i].op === 'remove') removed.push(edits[i++]);
    while (i < edits.length && edits[i].op === 'add') added.push(edits[i++]);
    const paired = Math.min(removed.length, added.length);
    for (let k = 0; k < paired; k++) {
      changes.push({ field: 'args', kind: 'changed', index: added[k].newIndex, old: old[removed[k].oldIndex], new: next[added[k].newIndex] });
    }
    for (const edit of removed.slice(paired)) changes.push({ field: 'args', kind: 'removed', index: edit.oldIndex, old: old[edit.oldIndex] });
    for (const edit of added.slice(paired)) changes.push({ field: 'args', kind: 'added', index: edit.newIndex, new: next[edit.newIndex] });
  }
  return changes;
}

interface Edit {
  op: 'keep' | 'remove' | 'add';
  oldIndex: number;
  newIndex: number;
}

/** The classic LCS table walk; argument lists are short, so O(n·m) is nothing. */
function editScript(old: readonly string[], next: readonly string[]): Edit[] {
  const n = old.length;
  const m = next.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = old[i] === next[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && old[i] === next[j]) edits.push({ op: 'keep', oldIndex: i++, newIndex: j++ });
    else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) edits.push({ op: 'add', oldIndex: i, newIndex: j++ });
    else edits.push({ op: 'remove', oldIndex: i++, newIndex: j });
  }
  // Removals first within a run of edits, so a replaced argument pairs with its replacement.
  return normalizeRuns(edits);
}

function normalizeRuns(edits: Edit[]): Edit[] {
  const result: Edit[] = [];
  let run: Edit[] = [];
  const flush = (): void => {
    result.push(...run.filter((edit) => edit.op === 'remove'), ...run.filter((edit) => edit.op === 'add'));
    run = [];
  };
  for (const edit of edits) {
    if (edit.op === 'keep') { flush(); result.push(edit); } else run.push(edit);
  }
  flush();
  return result;
}

/** The values `${VAR}` / `${env:VAR}` brought into a shown field (command, args, cwd, envFile, url), in a stable order. */
function expandedShown(launch: LaunchDefinition): string[] {
  const shown = [launch.command ?? '', ...launch.args, launch.cwd ?? '', launch.envFile ?? '', launch.url ?? ''];
  return Object.keys(launch.expandedVars ?? {}).sort(compareText).map((name) => launch.expandedVars![name])
    .filter((value) => isRedactable(value) && shown.some((text) => text.includes(value)));
}

/** Object.fromEntries defines own properties, so even a variable named "__proto__" is kept. */
function mapValues(record: Record<string, string>, fn: (value: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));
}

/** Code-unit order: the same on every machine. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
