// The dialogs of review and install (shared by Browse Servers and install links): the scope pick with
// user servers first and preselected, the answer for a name the file has, the modal with the whole
// definition and one Install button, the inputs asked as (password) input boxes. A scripted stand-in
// answers the same questions under extension tests and keeps what each one showed.
import * as vscode from 'vscode';
import { serverNameProblem, type OwnInput, type Reuse } from '../../core/gallery';
import type { ImportedInput } from '../../core/import';
import type { InstallCandidate, InstallOutcome, InstallUi, NameAnswer } from './installReview';
import { notifyInfo } from '../ui/notify';
import type { ScopeTarget } from '../config/scopeTargets';

export class VscodeInstallUi implements InstallUi {
  async pickTarget(targets: ScopeTarget[], candidate: InstallCandidate): Promise<ScopeTarget | undefined> {
    const picked = await vscode.window.showQuickPick(targets.map((target, index) => ({
      label: target.label, description: index === 0 ? 'default' : undefined, detail: target.file, target,
    })), { title: `Install "${candidate.name}": into which scope?`, placeHolder: 'User servers are yours on every workspace; project servers are shared and need trust' });
    return picked?.target;
  }

  async resolveName(candidate: InstallCandidate, target: ScopeTarget, suggestion: string): Promise<NameAnswer | undefined> {
    const answer = await vscode.window.showQuickPick([
      { label: 'Rename', detail: `Install it under another name (${suggestion})`, answer: 'rename' as const },
      { label: 'Replace', detail: `Replace the "${candidate.name}" already in ${target.label}`, answer: 'replace' as const },
    ], { title: `"${candidate.name}" already exists in ${target.label}` });
    if (answer === undefined) return undefined;
    if (answer.answer === 'replace') return { kind: 'replace' };
    const name = await vscode.window.showInputBox({ title: `New name for "${candidate.name}"`, value: suggestion, validateInput: (value) => serverNameProblem(value.trim()) });
    return name === undefined ? undefined : { kind: 'rename', name: name.trim() };
  }

  async pickValue(own: OwnInput, choices: readonly Reuse[], server: string): Promise<Reuse | 'new' | undefined> {
    const asked = own.asked.kind === 'input' ? `\${input:${own.asked.id}}` : `your environment's ${own.asked.name}`;
    const picked = await vscode.window.showQuickPick<vscode.QuickPickItem & { answer: Reuse | 'new' }>([
      { label: 'Ask for a new value', description: 'default', detail: `Kept as \${input:${own.input.id}} for ${server} alone`, answer: 'new' },
      ...choices.map((reuse) => (reuse.kind === 'input'
        ? { label: `Use the value kept as \${input:${reuse.id}}`, detail: reuse.servers.length > 0 ? `Already used by ${reuse.servers.join(', ')}: ${server} receives the same value` : 'Declared by the file; no server uses it', answer: reuse }
        : { label: `Read ${reuse.name} from your environment`, detail: `Its value is sent to ${server} each time it starts`, answer: reuse })),
    ], { title: `${server} asks for ${asked}`, placeHolder: 'A value already kept goes to this server only if you pick it', ignoreFocusOut: true });
    return picked?.answer;
  }

  async review(title: string, detail: string): Promise<boolean> {
    return await vscode.window.showWarningMessage(title, { modal: true, detail }, 'Install') === 'Install';
  }

  async askInput(input: ImportedInput, server: string): Promise<string | undefined> {
    if (input.type === 'pickString' && input.options !== undefined) {
      return vscode.window.showQuickPick(input.options, { title: `${server}: ${input.description ?? input.id}`, placeHolder: 'Escape: ask when the server first starts', ignoreFocusOut: true });
    }
    return vscode.window.showInputBox({
      title: `${server}: ${input.description ?? input.id}`, prompt: `\${input:${input.id}} — kept in VS Code's secret storage. Escape: ask when the server first starts.`,
      password: input.password === true, value: input.default, ignoreFocusOut: true,
    });
  }

  async done(outcome: InstallOutcome): Promise<void> {
    const trust = outcome.scope === 'project' ? ' It starts once you trust it.' : '';
    const open = await notifyInfo(`MCP Switchboard: installed ${outcome.name}.${trust}`, 'Open File');
    if (open === 'Open File') await vscode.window.showTextDocument(vscode.Uri.file(outcome.file));
  }
}

/** Answers for one scripted install (extension tests). */
export interface ScriptedInstallAnswers {
  scope: ScopeTarget['scope'];
  name?: NameAnswer;
  install?: boolean;
  inputs?: Record<string, string>;
  /** For a value already kept: by what the source asked for (an input's id, a variable's name), the id to reuse or `env`. */
  reuse?: Record<string, string>;
}

/** Answers from a script and records what was shown. */
export class ScriptedInstallUi implements InstallUi {
  readonly shown: { targets: string[]; title: string; detail: string; asked: string[]; offered: { asked: string; choices: string[] }[] } = { targets: [], title: '', detail: '', asked: [], offered: [] };

  constructor(private readonly answers: ScriptedInstallAnswers) {}

  async pickTarget(targets: ScopeTarget[]): Promise<ScopeTarget | undefined> {
    this.shown.targets = targets.map((target) => target.label);
    return targets.find((target) => target.scope === this.answers.scope);
  }

  async resolveName(): Promise<NameAnswer | undefined> {
    return this.answers.name;
  }

  async pickValue(own: OwnInput, choices: readonly Reuse[]): Promise<Reuse | 'new'> {
    const asked = own.asked.kind === 'input' ? own.asked.id : own.asked.name;
    this.shown.offered.push({ asked, choices: choices.map((reuse) => (reuse.kind === 'input' ? `${reuse.id} (${reuse.servers.join(', ')})` : 'env')) });
    const answer = this.answers.reuse?.[asked];
    return choices.find((reuse) => (reuse.kind === 'input' ? reuse.id === answer : answer === 'env')) ?? 'new';
  }

  async review(title: string, detail: string): Promise<boolean> {
    this.shown.title = title;
    this.shown.detail = detail;
    return this.answers.install ?? true;
  }

  async askInput(input: ImportedInput): Promise<string | undefined> {
    this.shown.asked.push(input.id);
    return this.answers.inputs?.[input.id];
  }

  async done(): Promise<void> {}
}
