// A multi-line field for Call Tool…: VS Code's input box holds one line, so a string argument that may
// hold text (a file's content, a message) is written in an editor of its own instead. "Use This Text"
// (the editor's title bar, or Ctrl+Enter) takes what the editor holds, line breaks as typed; closing
// the editor cancels. The editor is an untitled document: nothing is saved anywhere, and autosave never
// takes a half-typed value for an answer.
import * as vscode from 'vscode';
import { plainText } from '../ui/plainText';
import { notifyWarning } from '../ui/notify';

export const USE_FIELD_TEXT_COMMAND = 'switchboard.useFieldText';
/** Context key: the active editor is a Call Tool… text field (for the title button and Ctrl+Enter). */
export const FIELD_EDITOR_CONTEXT = 'switchboard.fieldEditorActive';

interface Asking {
  readonly uri: vscode.Uri;
  /** The problem of a text (undefined when it will do). */
  readonly check: (text: string) => string | undefined;
  readonly settle: (text: string | undefined) => void;
}

export class TextFieldEditor implements vscode.Disposable {
  private asking: Asking | undefined;
  private counter = 0;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.commands.registerCommand(USE_FIELD_TEXT_COMMAND, () => this.useText()),
      vscode.window.onDidChangeActiveTextEditor((editor) => this.updateContext(editor)),
      // Closing the field's editor (however it is closed) cancels the question.
      vscode.window.tabGroups.onDidChangeTabs((event) => {
        const asking = this.asking;
        if (!asking) return;
        const closed = event.closed.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === asking.uri.toString());
        if (closed) this.finish(undefined);
      }),
    ];
  }

  /**
   * Opens an editor holding `initial` for the value `name` and resolves with its text once the person
   * uses it, or undefined when they close the editor. `check` keeps a text that does not fit in the editor.
   */
  async ask(name: string, initial: string, check: (text: string) => string | undefined): Promise<string | undefined> {
    this.finish(undefined);
    const uri = vscode.Uri.from({ scheme: 'untitled', path: `${name.replace(/[\\/:*?"<>|]/g, '_')} (${++this.counter})` });
    const answer = new Promise<string | undefined>((settle) => { this.asking = { uri, check, settle }; });
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    // An untitled document of that name may come back from an earlier window's backup: it starts over.
    const whole = new vscode.Range(new vscode.Position(0, 0), document.lineAt(document.lineCount - 1).range.end);
    if (initial !== '' || document.getText() !== '') await editor.edit((edit) => edit.replace(whole, initial));
    this.updateContext(editor);
    vscode.window.setStatusBarMessage(plainText(`${name}: several lines. Ctrl+Enter uses the text, closing cancels`), answer);
    return answer;
  }

  private async useText(): Promise<void> {
    const asking = this.asking;
    const editor = vscode.window.activeTextEditor;
    if (!asking || editor?.document.uri.toString() !== asking.uri.toString()) return;
    const text = editor.document.getText();
    const problem = asking.check(text);
    if (problem !== undefined) {
      void notifyWarning(problem);
      return;
    }
    this.finish(text);
    // The untitled text was only the answer: closed without asking to save it.
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }

  private finish(text: string | undefined): void {
    const asking = this.asking;
    this.asking = undefined;
    asking?.settle(text);
    void vscode.commands.executeCommand('setContext', FIELD_EDITOR_CONTEXT, false);
  }

  private updateContext(editor: vscode.TextEditor | undefined): void {
    const active = this.asking !== undefined && editor?.document.uri.toString() === this.asking.uri.toString();
    void vscode.commands.executeCommand('setContext', FIELD_EDITOR_CONTEXT, active);
  }

  dispose(): void {
    this.finish(undefined);
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
