// TEST-ONLY commands. The trust prompt is a modal dialog, which an extension test cannot click (VS Code
// refuses to show one under a test run), so the extension-host tests script the answers through these
// commands instead. They are registered only when the extension runs under an extension test run
// (ExtensionMode.Test), never in a person's VS Code: another extension must not be able to answer the
// trust prompt. None is declared in package.json; the leading `_` keeps them out of the palette.
import * as vscode from 'vscode';
import type { EffectiveServer } from '../../core/config/types';
import type { TrustAnswer, TrustPrompter, TrustPromptRequest } from '../../core/trust';
import type { ManageTrust, TrustItemData } from './manageTrust';
import type { ProjectTrust } from './projectTrust';

export const TRUST_TEST_COMMANDS = {
  /** `(answer)`: answer every later prompt with 'trust' | 'refuse' | 'review' | 'later', or keep it open ('hold') until the next call; `null` restores the dialog. */
  setTrustAnswer: '_switchboard.test.setTrustAnswer',
  /** `()`: every prompt shown through the script so far: `{ ids, message, detail, answer? }`. */
  trustPrompts: '_switchboard.test.trustPrompts',
  /** `()`: forgets every remembered decision, as if a person revoked each (the servers wait for their next Start). */
  resetTrust: '_switchboard.test.resetTrust',
  /** `()`: the decisions the open Manage Trust pick lists, or undefined when it is closed. */
  manageTrustItems: '_switchboard.test.manageTrustItems',
  /**
   * `()`: resolves once no trust prompt is open or due (a changed file counts as due until it settled),
   * or as soon as a scripted prompt is held open: the moment to check that nothing was asked, without a sleep.
   */
  promptsSettled: '_switchboard.test.trustPromptsSettled',
} as const;

export type ScriptedAnswer = TrustAnswer | 'hold';

/** One prompt as a test sees it. */
export interface ShownPrompt {
  ids: string[];
  message: string;
  detail: string;
  /** Undefined while the prompt is held open. */
  answer?: TrustAnswer;
}

/** Answers prompts from a script, and records them. */
class ScriptedTrustPrompter implements TrustPrompter {
  private held: { shown: ShownPrompt; resolve: (answer: TrustAnswer) => void }[] = [];
  private onHeld: (() => void)[] = [];

  constructor(private answer: ScriptedAnswer, private readonly shown: ShownPrompt[]) {}

  ask(request: TrustPromptRequest): Promise<TrustAnswer> {
    const shown: ShownPrompt = { ids: request.entries.map((entry) => entry.server.id), message: request.text.message, detail: request.text.detail };
    this.shown.push(shown);
    const answer = this.answer;
    if (answer !== 'hold') {
      shown.answer = answer;
      return Promise.resolve(answer);
    }
    const answered = new Promise<TrustAnswer>((resolve) => this.held.push({ shown, resolve }));
    for (const listener of this.onHeld.splice(0)) listener();
    return answered;
  }

  /** Resolves when a prompt is held open (at once if one is). */
  whenHeld(): Promise<void> {
    return this.held.length > 0 ? Promise.resolve() : new Promise((resolve) => this.onHeld.push(resolve));
  }

  /** Sets the answer for later prompts and gives it to the held ones ('later' when the script ends). */
  setAnswer(answer: ScriptedAnswer): void {
    this.answer = answer;
    if (answer === 'hold') return;
    const held = this.held;
    this.held = [];
    for (const { shown, resolve } of held) {
      shown.answer = answer;
      resolve(answer);
    }
  }
}

const ANSWERS: readonly ScriptedAnswer[] = ['trust', 'refuse', 'review', 'later', 'hold'];

/** Registers the test-only commands (call only in ExtensionMode.Test). */
export function registerTrustTestHooks(trust: ProjectTrust, manage: ManageTrust, servers: () => readonly EffectiveServer[]): vscode.Disposable {
  const shown: ShownPrompt[] = [];
  let scripted: ScriptedTrustPrompter | undefined;
  return vscode.Disposable.from(
    vscode.commands.registerCommand(TRUST_TEST_COMMANDS.setTrustAnswer, (answer: unknown) => {
      if (answer === null || answer === undefined) {
        scripted?.setAnswer('later');
        scripted = undefined;
        trust.setPrompter(undefined);
        return;
      }
      if (!ANSWERS.includes(answer as ScriptedAnswer)) throw new Error(`unknown answer ${JSON.stringify(answer)}`);
      if (scripted) scripted.setAnswer(answer as ScriptedAnswer);
      else {
        scripted = new ScriptedTrustPrompter(answer as ScriptedAnswer, shown);
        trust.setPrompter(scripted);
      }
    }),
    vscode.commands.registerCommand(TRUST_TEST_COMMANDS.trustPrompts, (): ShownPrompt[] => shown.map((prompt) => ({ ...prompt, ids: [...prompt.ids] }))),
    vscode.commands.registerCommand(TRUST_TEST_COMMANDS.resetTrust, async () => {
      await trust.loaded;
      for (const workspace of trust.store.list()) {
        for (const { name } of workspace.servers) await trust.store.revoke(workspace.folder, name);
      }
      trust.prompts.postpone(servers().filter((server) => server.scope === 'project'));
    }),
    vscode.commands.registerCommand(TRUST_TEST_COMMANDS.manageTrustItems, (): TrustItemData[] | undefined => manage.openItems()),
    vscode.commands.registerCommand(TRUST_TEST_COMMANDS.promptsSettled, async (): Promise<void> => {
      await Promise.race([trust.prompts.settled(), ...(scripted ? [scripted.whenHeld()] : [])]);
    }),
  );
}
