// The danger flags of project server definitions, for the trust gate. Reading a command line needs the
// bash parser (tree-sitter's grammar compiled to WebAssembly), which is loaded the first time a
// definition is analysed, not at activation: a workspace without project servers never loads it.
import * as os from 'node:os';
import type * as vscode from 'vscode';
import type { EffectiveServer } from '../../core/config/types';
import type { ShellParser } from '../../core/shell/syntax';
import { launchDangerFlags, type DangerFlag, type DangerFlagContext } from '../../core/trust';
import { dangerFlagContext } from '../../node/dangerFlagContext';

export interface DefinitionAnalysisOptions {
  /** The workspace folders on disk (absolute paths). */
  folders(): readonly string[];
  log: vscode.LogOutputChannel;
  /** Called once the parser is loaded: the flags of every definition can be known now. */
  onDidLoad(): void;
}

export class DefinitionAnalysis {
  private parser: ShellParser | undefined;
  private loading: Promise<void> | undefined;
  private context: DangerFlagContext | undefined;

  constructor(private readonly options: DefinitionAnalysisOptions) {}

  /** The definition's danger flags; undefined while the parser loads (its loading starts here). */
  flagsOf(server: EffectiveServer): DangerFlag[] | undefined {
    const parser = this.parser;
    if (parser === undefined) {
      this.load().catch(() => undefined); // logged there; the gate keeps waiting
      return undefined;
    }
    this.context ??= dangerFlagContext({ workspaceFolders: [...this.options.folders()], userHome: os.homedir(), env: process.env, shellParser: parser });
    return launchDangerFlags(server, this.context);
  }

  /** Resolves once no load is under way (at once when none was asked for); rejects when the load failed. */
  async idle(): Promise<void> {
    await this.loading;
  }

  /** Forgets what the flags were computed against (the workspace folders changed). */
  reset(): void {
    this.context = undefined;
  }

  private load(): Promise<void> {
    this.loading ??= import('../../node/bashParser').then((m) => m.loadBashParser()).then((parser) => {
      this.parser = parser;
      this.options.onDidLoad();
    }, (error: unknown) => {
      this.loading = undefined; // the next analysis tries again
      this.options.log.error('trust: the bash parser could not be loaded, so project server definitions cannot be checked:', error instanceof Error ? error : String(error));
      throw error;
    });
    return this.loading;
  }
}
