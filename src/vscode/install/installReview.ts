// Review and install: where a server from the gallery or an install link ends. The person chooses the
// scope (user first and preselected; a project is only ever their explicit choice), answers a name the
// file already has (rename or replace), sees the whole definition — command line, env and header values,
// URL, the variables and inputs it reads — in a modal, and nothing is written before they click Install. Values the
// server needs are asked then as inputs (kept in secret storage, never in the file); one left blank is
// asked when the server first starts.
import * as vscode from 'vscode';
import { expandVariables } from '../../core/config';
import { serverNames } from '../../core/config/scopeWriter';
import { freeName, type ImportedEntry, type ImportedInput } from '../../core/import';
import { isExecVariable } from '../../core/trust';
import { visible } from '../../protocol/visibleText';
import type { ConfigSources } from '../config/configSources';
import type { Feedback } from '../ui/feedback';
import { readScopeFile, scopeTargets, writeEntries, type ScopeTarget } from '../config/scopeTargets';
import type { WorkspaceInputs } from '../inputs/workspaceInputs';

/** A server offered for installing, whole. */
export interface InstallCandidate {
  name: string;
  entry: ImportedEntry;
  inputs: ImportedInput[];
  /** Where it comes from, for people: `the registry https://… (io.github.x/y 1.2.0)`, `an install link`. */
  origin: string;
  needs: string[];
  /** What it could have and will not get (optional settings, fields of a link not taken). */
  leftOut: string[];
}

/** What a name the target already has becomes. */
export type NameAnswer = { kind: 'rename'; name: string } | { kind: 'replace' };

/** The questions of the install; every answer may be "cancelled" (undefined / false). */
export interface InstallUi {
  pickTarget(targets: ScopeTarget[], candidate: InstallCandidate): Promise<ScopeTarget | undefined>;
  resolveName(candidate: InstallCandidate, target: ScopeTarget, suggestion: string): Promise<NameAnswer | undefined>;
  review(title: string, detail: string): Promise<boolean>;
  askInput(input: ImportedInput, server: string): Promise<string | undefined>;
  done(outcome: InstallOutcome): Promise<void>;
}

export interface InstallDeps {
  sources: ConfigSources;
  inputs: WorkspaceInputs;
  log: vscode.LogOutputChannel;
  feedback: Feedback;
}

/** What an install wrote. */
export interface InstallOutcome {
  name: string;
  file: string;
  scope: ScopeTarget['scope'];
}

/** The whole definition, as the review shows it: every value whole, so the click is an informed one. */
export function reviewDetail(candidate: InstallCandidate, name: string, target: ScopeTarget, replace: boolean): string {
  const { entry } = candidate;
  const lines = [`"${shown(name)}"${replace ? ' (replaces the existing entry)' : ''}, from ${candidate.origin}`, `into ${target.file}`, ''];
  // Each argument on its own and quoted when it is not a plain word, so `["a b"]` never reads as `a b`
  // and a line break or a hidden character inside one cannot fake a line of this review.
  if (entry.command !== undefined) lines.push(`Runs (${entry.type}): ${[entry.command, ...(entry.args ?? [])].map(word).join(' ')}`);
  if (entry.url !== undefined) lines.push(`Connects (${entry.type}) to: ${shown(entry.url)}`);
  if (entry.cwd !== undefined) lines.push(`In folder: ${shown(entry.cwd)}`);
  for (const [key, value] of Object.entries(entry.env ?? {})) {
    lines.push(`Environment: ${shown(key)}=${word(value)}${isExecVariable(key) ? ' ⚠ this variable changes which program or code runs' : ''}`);
  }
  if (entry.envFile !== undefined) lines.push(`Environment file: ${shown(entry.envFile)} (its variables are read when the server starts)`);
  for (const [key, value] of Object.entries(entry.headers ?? {})) lines.push(`Header: ${shown(key)}: ${word(value)}`);
  const { environment, inputs } = referencesOf(entry);
  if (environment.length > 0) lines.push(`Reads from your environment: ${environment.map(shown).join(', ')} — their values are sent to the server as written above`);
  const asked = new Set(candidate.inputs.map((input) => input.id));
  const stored = inputs.filter((id) => !asked.has(id));
  if (candidate.inputs.length > 0) lines.push(`Asks for: ${candidate.inputs.map((input) => `${shown(input.id)}${input.password === true ? ' (secret)' : ''}`).join(', ')} — kept in VS Code's secret storage, not in the file`);
  if (stored.length > 0) lines.push(`Uses inputs it does not ask for: ${stored.map(shown).join(', ')} — a value already stored under that id for this file's servers is sent to this one`);
  if (candidate.needs.length > 0) lines.push(`Needs: ${candidate.needs.join('; ')}`);
  if (candidate.leftOut.length > 0) lines.push(`Not installed: ${candidate.leftOut.join('; ')}`);
  if (target.scope === 'project') lines.push('', 'Project servers are shared through the repository and need trust before they start.');
  return lines.join('\n');
}

/** Text with its hidden characters (bidi controls, zero-width, tags) spelled out. */
const shown = (text: string): string => visible(text);

/** A word of a command line or a value: as it is when plain, else quoted (line breaks and hidden characters escaped). */
function word(text: string): string {
  return /^[\w@%+=:,./~-]+$/.test(text) ? text : visible(JSON.stringify(text));
}

/** The environment variables and `${input:}` ids the entry's strings read, each once, as expansion would take them. */
function referencesOf(entry: ImportedEntry): { environment: string[]; inputs: string[] } {
  const strings = [entry.command, ...(entry.args ?? []), entry.url, entry.cwd, entry.envFile, ...Object.values(entry.env ?? {}), ...Object.values(entry.headers ?? {})]
    .filter((text): text is string => text !== undefined);
  // Every name reads as set, so the expansion names each variable it would take from the environment.
  const env = new Proxy<Record<string, string>>({}, { get: (_target, key) => (typeof key === 'string' ? '' : undefined) });
  const environment = new Set<string>();
  const inputs = new Set<string>();
  for (const text of strings) {
    const expansion = expandVariables(text, { env, userHome: '~' });
    for (const variable of Object.keys(expansion.fromEnvironment)) environment.add(variable);
    for (const id of expansion.inputs) inputs.add(id);
  }
  return { environment: [...environment].sort(), inputs: [...inputs].sort() };
}

/** The flow; undefined when the person cancelled at any step. */
export async function reviewAndInstall(deps: InstallDeps, candidate: InstallCandidate, ui: InstallUi): Promise<InstallOutcome | undefined> {
  const target = await ui.pickTarget(scopeTargets(deps.sources), candidate);
  if (target === undefined) return undefined;
  const text = await readScopeFile(target.file);
  const existing = new Set(serverNames(text));
  let name = candidate.name;
  let replace = false;
  if (existing.has(name)) {
    const answer = await ui.resolveName(candidate, target, freeName(name, existing));
    if (answer === undefined) return undefined;
    if (answer.kind === 'replace') replace = true;
    else name = answer.name;
    if (!replace && existing.has(name)) throw new Error(`"${name}" is also in ${target.file}; choose another name`);
  }
  if (!(await ui.review(`Install "${name}" into ${target.label}?`, reviewDetail(candidate, name, target, replace)))) return undefined;
  await writeEntries(target, text, [{ name, entry: candidate.entry, replace }], candidate.inputs);
  for (const input of candidate.inputs) {
    const value = await ui.askInput(input, name);
    if (value !== undefined && value !== '') await deps.inputs.remember(input.id, value, { scope: target.scope, file: target.file });
  }
  const outcome: InstallOutcome = { name, file: target.file, scope: target.scope };
  deps.feedback.show(`$(cloud-download) MCP Switchboard: installed ${name} into ${target.label}`, deps.log);
  void ui.done(outcome);
  return outcome;
}
