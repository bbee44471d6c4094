// The trust prompt as VS Code shows it: one modal warning with the full account of every server in its
// detail, and three choices. VS Code focuses a modal's first button, so that one is "Review…" (a stray
// Enter or Space opens the definitions, it never trusts). Closing it (Escape, Cancel) means "decide
// later". "Review…" opens each definition; the Sidebar's card then offers to trust it once read.
import * as vscode from 'vscode';
import { TRUST_PROMPT_CHOICES, type TrustAnswer, type TrustPromptEntry, type TrustPrompter, type TrustPromptRequest } from '../../core/trust';
import { toRange } from '../config/diagnostics';
import { notifyInfo } from '../ui/notify';

/** The modal dialog. Rejects when VS Code will not show one (under an extension test run, for instance). */
export class ModalTrustPrompter implements TrustPrompter {
  async ask(request: TrustPromptRequest): Promise<TrustAnswer> {
    const picked = await vscode.window.showWarningMessage(
      request.text.message,
      { modal: true, detail: request.text.detail },
      ...TRUST_PROMPT_CHOICES.map((choice) => ({ ...choice })),
    );
    return picked?.answer ?? 'later';
  }
}

/**
 * Opens every file that defines one of the entries, with the first entry of each file selected, and
 * offers (without waiting) to ask about them again.
 */
export async function reviewDefinitions(entries: readonly TrustPromptEntry[], askAgain: (ids: string[]) => void): Promise<void> {
  const firstPerFile = new Map<string, TrustPromptEntry>();
  for (const entry of entries) if (!firstPerFile.has(entry.server.source.file)) firstPerFile.set(entry.server.source.file, entry);
  for (const { server } of firstPerFile.values()) {
    const range = toRange(server.source);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(server.source.file), { selection: range, preview: false });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
  const ids = entries.map((entry) => entry.server.id);
  const which = ids.length === 1 ? `"${ids[0]}"` : `${ids.length} MCP servers`;
  void notifyInfo(
    `${which} wait${ids.length === 1 ? 's' : ''} for your trust. Start ${ids.length === 1 ? 'it' : 'them'} once you have read the definition.`,
    'Trust…',
  ).then((choice) => { if (choice === 'Trust…') askAgain(ids); });
}
