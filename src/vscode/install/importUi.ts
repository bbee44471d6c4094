// The dialogs of Import Servers…: quick picks for the host, the target scope and the servers (each
// shown whole: transport, command line or URL, env and header names, origin), the answer for a name the
// target has, the offer to move secrets, and a last modal that lists exactly what will be written. A
// scripted stand-in answers the same questions in extension tests and records what was shown.
import * as vscode from 'vscode';
import { counted, nounFor } from '../../protocol/counts';
import { notifyInfo, notifyWarning } from '../ui/notify';
import type { ScopeTarget } from '../config/scopeTargets';
import type { Conflict, HostId, HostImport, ImportedEntry, ImportedServer, ImportPlan, LiteralSecret } from '../../core/import';
import type { TrustAnswer, TrustPromptRequest } from '../../core/trust';
import { ModalTrustPrompter } from '../trust/trustPrompt';

/** A scope file the servers can go into. */
export type ImportTarget = ScopeTarget;

/** A host in the first pick, with the default files of it that exist. */
export interface HostChoice {
  host: HostId;
  name: string;
  found: string[];
}

/** The questions the import flow asks; every answer may be "cancelled" (undefined). */
export interface ImportUi {
  pickHost(hosts: HostChoice[]): Promise<{ host: HostId; file?: string } | undefined>;
  nothingToImport(hostName: string, result: HostImport): Promise<void>;
  pickTarget(targets: ImportTarget[]): Promise<ImportTarget | undefined>;
  pickServers(result: HostImport, existing: ReadonlySet<string>, target: ImportTarget): Promise<ImportedServer[] | undefined>;
  resolveConflict(server: ImportedServer, target: ImportTarget, suggestion: string): Promise<Conflict | undefined>;
  askMoveSecrets(secrets: (LiteralSecret & { server: string })[]): Promise<boolean | undefined>;
  /** The trust prompt of a project server, for servers read from a repository's file: only 'trust' writes them. */
  trust(request: TrustPromptRequest): Promise<TrustAnswer>;
  confirm(plan: ImportPlan, target: ImportTarget): Promise<boolean>;
  done(outcome: { file: string; written: string[]; scope: ImportTarget['scope'] }): Promise<void>;
}

/** One server as a line for people: transport, the whole command line or URL, env and header names. */
export function describeEntry(entry: ImportedEntry): string {
  const parts = [entry.command !== undefined ? `${entry.type}: ${[entry.command, ...(entry.args ?? [])].join(' ')}` : `${entry.type}: ${entry.url ?? ''}`];
  if (entry.env !== undefined) parts.push(`env: ${Object.keys(entry.env).join(', ')}`);
  if (entry.headers !== undefined) parts.push(`headers: ${Object.keys(entry.headers).join(', ')}`);
  if (entry.cwd !== undefined) parts.push(`cwd: ${entry.cwd}`);
  if (entry.disabled === true) parts.push('disabled');
  return parts.join(' · ');
}

/** Where a server came from, for people. */
export function originOf(server: ImportedServer): string {
  const where = server.section === undefined ? server.file : `${server.file} (${server.section})`;
  return server.fromWorkspace === true ? `${where}, a repository's file: you are asked to trust it before it is written` : where;
}

/** Each server item of the pick, as shown. */
export function serverItems(result: HostImport, existing: ReadonlySet<string>, target: ImportTarget): (vscode.QuickPickItem & { server?: ImportedServer })[] {
  const notes = (name: string) => result.skipped.filter((item) => item.name === name && !item.reason.startsWith('not imported')).length;
  const items: (vscode.QuickPickItem & { server?: ImportedServer })[] = result.servers.map((server) => ({
    label: server.name,
    description: [
      existing.has(server.name) ? `already in ${target.label}: you choose rename, replace or skip` : undefined,
      notes(server.name) > 0 ? `${counted(notes(server.name), 'field')} left out (see the MCP Switchboard output)` : undefined,
    ].filter((part) => part !== undefined).join(' — ') || `from ${originOf(server)}`,
    detail: existing.has(server.name) ? `${describeEntry(server.entry)} · from ${originOf(server)}` : describeEntry(server.entry),
    picked: !existing.has(server.name),
    server,
  }));
  const untranslatable = result.skipped.filter((item) => item.reason.startsWith('not imported'));
  if (untranslatable.length > 0) {
    items.push({ label: 'Cannot be imported', kind: vscode.QuickPickItemKind.Separator });
    for (const item of untranslatable) items.push({ label: `$(circle-slash) ${item.name}`, description: 'cannot be imported', detail: item.reason.replace(/^not imported: /, '') });
  }
  return items;
}

/** The modal's list: every server whole, and what the file gets besides. */
export function confirmDetail(plan: ImportPlan, target: ImportTarget): string {
  const lines = plan.servers.map((server) => `${server.name}${server.replace ? ' (replaces the existing entry)' : ''}\n  ${describeEntry(server.entry)}`);
  if (plan.inputs.length > 0) lines.push(`inputs: ${plan.inputs.map((input) => input.id).join(', ')}`);
  if (plan.secrets.length > 0) lines.push(`${counted(plan.secrets.length, 'secret value')} ${nounFor(plan.secrets.length, 'goes', 'go')} to VS Code's secret storage, not into the file.`);
  if (target.scope === 'project') lines.push('Project servers need trust before they start.');
  return lines.join('\n');
}

/** The dialogs of VS Code. */
export class VscodeImportUi implements ImportUi {
  async pickHost(hosts: HostChoice[]): Promise<{ host: HostId; file?: string } | undefined> {
    const picked = await vscode.window.showQuickPick(hosts.map((choice) => ({
      label: choice.name,
      description: choice.found.length > 0 ? `${counted(choice.found.length, 'file')} found` : 'no file found: choose one',
      detail: choice.found.join(' · ') || undefined,
      choice,
    })), { title: 'Import Servers: from which host?', matchOnDescription: true });
    if (picked === undefined) return undefined;
    if (picked.choice.found.length > 0) return { host: picked.choice.host };
    const file = await vscode.window.showOpenDialog({ title: `Choose ${picked.choice.name}'s configuration file`, canSelectMany: false });
    return file?.[0] === undefined ? undefined : { host: picked.choice.host, file: file[0].fsPath };
  }

  async nothingToImport(hostName: string, result: HostImport): Promise<void> {
    const why = result.problems[0] !== undefined ? ` ${result.problems[0].file}:${result.problems[0].line}:${result.problems[0].column} ${result.problems[0].message}` : '';
    await notifyWarning(`MCP Switchboard: no server of ${hostName} can be imported (${result.skipped.length} skipped, ${counted(result.problems.length, 'problem')}).${why}`);
  }

  async pickTarget(targets: ImportTarget[]): Promise<ImportTarget | undefined> {
    const picked = await vscode.window.showQuickPick(targets.map((target) => ({ label: target.label, detail: target.file, target })), { title: 'Import Servers: into which scope?' });
    return picked?.target;
  }

  async pickServers(result: HostImport, existing: ReadonlySet<string>, target: ImportTarget): Promise<ImportedServer[] | undefined> {
    const items = serverItems(result, existing, target);
    const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: `Import Servers into ${target.label}: tick the servers to import`, matchOnDetail: true });
    return picked?.flatMap((item) => (item.server === undefined ? [] : [item.server]));
  }

  async resolveConflict(server: ImportedServer, target: ImportTarget, suggestion: string): Promise<Conflict | undefined> {
    const answer = await vscode.window.showQuickPick([
      { label: 'Rename', detail: `Import it under another name (${suggestion})`, answer: 'rename' as const },
      { label: 'Replace', detail: `Replace the "${server.name}" already in ${target.label}`, answer: 'replace' as const },
      { label: 'Skip', detail: `Keep ${target.label} as it is`, answer: 'skip' as const },
    ], { title: `"${server.name}" already exists in ${target.label}` });
    if (answer === undefined) return undefined;
    if (answer.answer !== 'rename') return { kind: answer.answer };
    const name = await vscode.window.showInputBox({ title: `New name for "${server.name}"`, value: suggestion, validateInput: (value) => (value.trim() === '' ? 'A name is needed' : undefined) });
    return name === undefined ? undefined : { kind: 'rename', name: name.trim() };
  }

  async askMoveSecrets(secrets: (LiteralSecret & { server: string })[]): Promise<boolean | undefined> {
    const list = secrets.map((secret) => `${secret.server}: ${secret.field} ${secret.key}`).join('\n');
    const answer = await vscode.window.showInformationMessage('These values look like secrets written in the file. Move them into VS Code\'s secret storage (as ${input:…})?',
      { modal: true, detail: list }, 'Move to Secret Storage', 'Keep in the File');
    return answer === undefined ? undefined : answer === 'Move to Secret Storage';
  }

  async trust(request: TrustPromptRequest): Promise<TrustAnswer> {
    const answer = await new ModalTrustPrompter().ask(request);
    if (answer === 'review') {
      for (const file of new Set(request.entries.map((entry) => entry.server.source.file))) await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
      void notifyInfo('MCP Switchboard: nothing was imported. Run Import Servers… again once you have read the definitions.');
    }
    return answer;
  }

  async confirm(plan: ImportPlan, target: ImportTarget): Promise<boolean> {
    const answer = await vscode.window.showWarningMessage(`Write ${counted(plan.servers.length, 'server')} to ${target.file}?`, { modal: true, detail: confirmDetail(plan, target) }, 'Import');
    return answer === 'Import';
  }

  async done(outcome: { file: string; written: string[]; scope: ImportTarget['scope'] }): Promise<void> {
    const trust = outcome.scope === 'project' ? ' They start once you trust them.' : '';
    const open = await notifyInfo(`MCP Switchboard: imported ${outcome.written.join(', ')}.${trust}`, 'Open File');
    if (open === 'Open File') await vscode.window.showTextDocument(vscode.Uri.file(outcome.file));
  }
}

/** Answers for one scripted run (extension tests). */
export interface ScriptedAnswers {
  host: HostId;
  file?: string;
  scope: ImportTarget['scope'];
  tick: string[];
  conflicts?: Record<string, Conflict>;
  moveSecrets?: boolean;
  /** The answer to the trust prompt of a repository's servers (none: decide later, so nothing is written). */
  trust?: TrustAnswer;
  confirm?: boolean;
}

/** Answers from a script and records what each dialog showed. */
export class ScriptedImportUi implements ImportUi {
  readonly shown: { hosts: HostChoice[]; servers: { label: string; description?: string; detail?: string; picked?: boolean }[]; trust: { message: string; detail: string } | undefined; confirm: string } = { hosts: [], servers: [], trust: undefined, confirm: '' };

  constructor(private readonly answers: ScriptedAnswers) {}

  async pickHost(hosts: HostChoice[]): Promise<{ host: HostId; file?: string }> {
    this.shown.hosts = hosts;
    return { host: this.answers.host, ...(this.answers.file !== undefined ? { file: this.answers.file } : {}) };
  }

  async nothingToImport(): Promise<void> {}

  async pickTarget(targets: ImportTarget[]): Promise<ImportTarget | undefined> {
    return targets.find((target) => target.scope === this.answers.scope);
  }

  async pickServers(result: HostImport, existing: ReadonlySet<string>, target: ImportTarget): Promise<ImportedServer[]> {
    this.shown.servers = serverItems(result, existing, target).map(({ label, description, detail, picked }) => ({ label, description, detail, picked }));
    return result.servers.filter((server) => this.answers.tick.includes(server.name));
  }

  async resolveConflict(server: ImportedServer): Promise<Conflict> {
    return this.answers.conflicts?.[server.name] ?? { kind: 'skip' };
  }

  async askMoveSecrets(): Promise<boolean> {
    return this.answers.moveSecrets ?? false;
  }

  async trust(request: TrustPromptRequest): Promise<TrustAnswer> {
    this.shown.trust = { ...request.text };
    return this.answers.trust ?? 'later';
  }

  async confirm(plan: ImportPlan, target: ImportTarget): Promise<boolean> {
    this.shown.confirm = confirmDetail(plan, target);
    return this.answers.confirm ?? true;
  }

  async done(): Promise<void> {}
}
