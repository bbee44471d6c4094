// Asks a person for the values of a prompt's arguments or a template's variables, one at a time, in a
// quick input that offers the server's `completion/complete` suggestions as they type, the server's
// best one as the default and the typed value below it (any typed value is accepted too). Under an extension test run the answers can be scripted (see chatTestHooks.ts).
import * as vscode from 'vscode';
import { argumentChoices } from '../../core/chat/argumentChoices';

/** One value to ask for. */
export interface AskedArgument {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
  /** Suggestions for what was typed so far, given the values already filled in. */
  complete(value: string, filled: Readonly<Record<string, string>>): Promise<string[]>;
}

/** Asks for the values; undefined when the person cancelled. `filled` are the values already given. */
export type ArgumentAsker = (title: string, asked: readonly AskedArgument[], filled: Readonly<Record<string, string>>) => Promise<Record<string, string> | undefined>;

/** The quick-input asker people see. */
export const quickInputAsker: ArgumentAsker = async (title, asked, filled) => {
  const values: Record<string, string> = { ...filled };
  for (const [index, argument] of asked.entries()) {
    const value = await askOne(`${title} (${index + 1}/${asked.length}): ${argument.name}${argument.required ? '' : ' (optional)'}`, argument, values);
    if (value === undefined) return undefined;
    if (value !== '' || argument.required) values[argument.name] = value;
  }
  return values;
};

function askOne(title: string, argument: AskedArgument, filled: Readonly<Record<string, string>>): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick();
    pick.title = title;
    pick.placeholder = argument.description ?? `Value of ${argument.name}`;
    pick.ignoreFocusOut = true;
    let generation = 0;
    let settled = false;
    // The rows for the text typed last, once its suggestions arrive: what Enter takes when no row is active.
    let rows: { readonly value: string; readonly items: Promise<ValueItem[]> } = { value: '', items: Promise.resolve([]) };
    const finish = (value: string | undefined): void => {
      if (settled) return;
      settled = true;
      resolve(value);
      pick.dispose();
    };
    const refresh = async (): Promise<void> => {
      const mine = ++generation;
      pick.busy = true;
      const value = pick.value;
      rows = { value, items: argument.complete(value, filled).then((suggestions) => pickItems(value, suggestions), () => pickItems(value, [])) };
      const items = await rows.items;
      if (mine !== generation || settled) return;
      pick.busy = false;
      pick.items = items;
      // The server's best completion is the default: Enter takes it, not the half-typed text.
      pick.activeItems = items.slice(0, 1);
    };
    pick.onDidChangeValue(() => { void refresh(); });
    pick.onDidAccept(async () => {
      const typed = pick.value;
      // A row counts only when it was made for the text as it is now. Enter right after a keystroke, before
      // its rows are shown (none active, or the rows of the text before), takes the first of the rows for
      // what is typed, as they will be shown: a quick Enter never sends the half-typed or an older value.
      const item = pick.selectedItems[0] as ValueItem | undefined;
      const chosen = (item?.for === typed ? item.value : undefined) ?? (rows.value === typed ? (await rows.items)[0]?.value : undefined) ?? typed;
      if (settled) return;
      if (chosen.trim() === '' && argument.required) {
        pick.placeholder = `${argument.name} is required: type a value or pick a suggestion`;
        return;
      }
      finish(chosen);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
    void refresh();
  });
}

interface ValueItem extends vscode.QuickPickItem {
  readonly value: string;
  /** The text typed when this row was made. */
  readonly for: string;
}

/** The picker's rows (see argumentChoices): every one shown whatever the quick pick's own filter thinks of it. */
function pickItems(typed: string, suggestions: readonly string[]): ValueItem[] {
  return argumentChoices(typed, suggestions).map((choice) => ({ ...choice, for: typed, alwaysShow: true }));
}

/** Answers from a script, for extension tests: each name's answer, with the suggestions offered for it recorded. */
export class ScriptedAsker {
  readonly asked: { title: string; name: string; suggestions: string[] }[] = [];

  constructor(private readonly answers: Readonly<Record<string, string>>) {}

  readonly ask: ArgumentAsker = async (title, asked, filled) => {
    const values: Record<string, string> = { ...filled };
    for (const argument of asked) {
      const answer = this.answers[argument.name];
      // The suggestions for an empty value and for the answer's first letter, as a person would see them.
      const suggestions = await argument.complete(answer?.slice(0, 1) ?? '', values);
      this.asked.push({ title, name: argument.name, suggestions });
      if (answer === undefined) {
        if (argument.required) return undefined;
        continue;
      }
      values[argument.name] = answer;
    }
    return values;
  };
}
