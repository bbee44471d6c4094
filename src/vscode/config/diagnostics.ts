// Config problems → the Problems panel, at their exact ranges. Files that no longer have problems are
// cleared; the virtual files of API registrations have no document and are skipped (they are logged).
import * as vscode from 'vscode';
import type { ConfigProblem } from '../../core/config/types';
import { isVirtualFile } from './configSources';

export const DIAGNOSTIC_SOURCE = 'MCP Switchboard';

export class ConfigDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private published = new Set<string>();

  /** Replaces every published diagnostic with `problems`. */
  publish(problems: readonly ConfigProblem[]): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const problem of problems) {
      if (isVirtualFile(problem.file)) continue;
      let list = byFile.get(problem.file);
      if (!list) byFile.set(problem.file, (list = []));
      list.push(toDiagnostic(problem));
    }
    for (const file of this.published) {
      if (!byFile.has(file)) this.collection.delete(vscode.Uri.file(file));
    }
    for (const [file, diagnostics] of byFile) this.collection.set(vscode.Uri.file(file), diagnostics);
    this.published = new Set(byFile.keys());
  }

  dispose(): void {
    this.collection.dispose();
  }
}

/** Core positions are 1-based with an exclusive end; VS Code's are 0-based. */
export function toRange(p: { line: number; column: number; endLine: number; endColumn: number }): vscode.Range {
  const start = new vscode.Position(Math.max(0, p.line - 1), Math.max(0, p.column - 1));
  const end = new vscode.Position(Math.max(0, p.endLine - 1), Math.max(0, p.endColumn - 1));
  return new vscode.Range(start, end.isBefore(start) ? start : end);
}

function toDiagnostic(problem: ConfigProblem): vscode.Diagnostic {
  const severity = problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
  const diagnostic = new vscode.Diagnostic(toRange(problem), problem.message, severity);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = problem.code;
  return diagnostic;
}
