// "Open Diff" of an approval card: VS Code's diff editor between the file as it is and a read-only
// virtual document holding what the call would make it. The proposals live in memory, a bounded few.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FileChange } from '../../core/approvals/preview';

export const PROPOSAL_SCHEME = 'switchboard-proposal';
/** Proposals kept for documents that are (or were) open; the oldest go first. */
const KEPT = 50;

export class ProposalDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private next = 1;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this);

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Opens the diff of one change: the file now (nothing, for a new file) against the proposal. */
  async openDiff(change: FileChange, tool: string): Promise<void> {
    if (change.after === null) throw new Error(`${change.path} is a folder: the call moves it to ${change.to ?? 'another place'} and changes no text`);
    const target = change.kind === 'move' && change.to !== undefined ? change.to : change.path;
    const left = change.before === null ? this.put(change.path, '', 'nothing') : vscode.Uri.file(change.path);
    const right = this.put(target, change.after, 'proposed');
    const what = change.kind === 'create' ? 'new file' : change.kind === 'move' ? `moved to ${path.basename(target)}` : 'current';
    await vscode.commands.executeCommand('vscode.diff', left, right, `${path.basename(change.path)} (${what} ↔ proposed by ${tool})`, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }

  /** A virtual document at the file's own path (so its language is the file's) holding `text`. */
  private put(filePath: string, text: string, label: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: vscode.Uri.file(filePath).path, query: `${label}-${this.next++}` });
    this.texts.set(uri.toString(), text);
    while (this.texts.size > KEPT) this.texts.delete(this.texts.keys().next().value as string);
    return uri;
  }
}
