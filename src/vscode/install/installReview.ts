// Review and install: where a server from the gallery or an install link ends. The person chooses the
// scope (user first and preselected; a project is only ever their explicit choice), answers a name the
// file already has (rename or replace), sees the whole definition — command line, env and header values,
// URL, the variables and inputs it reads — in a modal, and nothing is written before they click Install.
// Every value the server needs gets an input of its own, asked then (kept in secret storage, never in the
// file; one left blank is asked when the server first starts): a value kept for another server, or the
// person's environment, is used only when they pick it, from a list naming the servers that use it.
import * as vscode from 'vscode';
import { serverNames } from '../../core/config/scopeWriter';
import {
  inputsOfScopeText, installReviewText, ownInputs, reuseChoices, withReuse,
  type InstallCandidate, type OwnedEntry, type OwnInput, type Reuse,
} from '../../core/gallery';
import { freeName, type ImportedInput } from '../../core/import';
import type { ConfigSources } from '../config/configSources';
import type { Feedback } from '../ui/feedback';
import { readScopeFile, scopeTargets, writeEntries, type ScopeTarget } from '../config/scopeTargets';
import type { WorkspaceInputs } from '../inputs/workspaceInputs';

export type { InstallCandidate };

/** What a name the target already has becomes. */
export type NameAnswer = { kind: 'rename'; name: string } | { kind: 'replace' };

/** The questions of the install; every answer may be "cancelled" (undefined / false). */
export interface InstallUi {
  pickTarget(targets: ScopeTarget[], candidate: InstallCandidate): Promise<ScopeTarget | undefined>;
  resolveName(candidate: InstallCandidate, target: ScopeTarget, suggestion: string): Promise<NameAnswer | undefined>;
  /** A value already kept the person may use instead of a new one: their pick, 'new', or undefined (cancelled). */
  pickValue(own: OwnInput, choices: readonly Reuse[], server: string): Promise<Reuse | 'new' | undefined>;
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
  const owner = { scope: target.scope, file: target.file };
  const users = inputsOfScopeText(text);
  const owned = await ownedInputs(deps, candidate, name, owner, users);
  const reused: { own: OwnInput; reuse: Reuse }[] = [];
  for (const own of owned.inputs) {
    const choices = reuseChoices(own, users);
    if (choices.length === 0) continue;
    const answer = await ui.pickValue(own, choices, name);
    if (answer === undefined) return undefined;
    if (answer !== 'new') reused.push({ own, reuse: answer });
  }
  const { entry, inputs } = withReuse(owned, new Map(reused.map(({ own, reuse }) => [own.input.id, reuse])));
  const detail = installReviewText({ candidate, name, target, replace, entry, inputs, reused });
  if (!(await ui.review(`Install "${name}" into ${target.label}?`, detail))) return undefined;
  await writeEntries(target, text, [{ name, entry, replace }], inputs.map((own) => own.input));
  for (const { input } of inputs) {
    const value = await ui.askInput(input, name);
    if (value !== undefined && value !== '') await deps.inputs.remember(input.id, value, owner);
  }
  const outcome: InstallOutcome = { name, file: target.file, scope: target.scope };
  deps.feedback.show(`$(cloud-download) MCP Switchboard: installed ${name} into ${target.label}`, deps.log);
  void ui.done(outcome);
  return outcome;
}

/**
 * The candidate with inputs of its own: ids no entry of the file declares or uses, and under which no
 * answer is stored for the file (an answer can outlive the entry that asked for it).
 */
async function ownedInputs(deps: InstallDeps, candidate: InstallCandidate, name: string, owner: { scope: ScopeTarget['scope']; file: string }, users: ReadonlyMap<string, readonly string[]>): Promise<OwnedEntry> {
  const stored = new Set<string>();
  for (;;) {
    const owned = ownInputs(name, candidate.entry, candidate.inputs, candidate.name, (id) => users.has(id) || stored.has(id));
    const answered = (await Promise.all(owned.inputs.map(async ({ input }) => ((await deps.inputs.has(input.id, owner)) ? input.id : undefined))))
      .filter((id): id is string => id !== undefined);
    if (answered.length === 0) return owned;
    for (const id of answered) stored.add(id);
  }
}
