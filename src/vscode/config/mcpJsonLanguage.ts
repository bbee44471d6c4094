// The editing help of `.mcp.json` files: completion, hover, outline, folding, formatting and schema
// warnings from the extension's JSON schema, through Microsoft's JSON language service (the library
// behind VS Code's own JSON support).
//
// Why a language of our own ("mcp-json") instead of `jsonc` + `jsonValidation`: VS Code's JSON
// language server reports every syntax error of a json/jsonc document, and so does our config parser
// (with the scope and "the last valid servers are kept" note), so a missing comma showed twice in
// Problems. The JSON server only serves json, jsonc and declared participants, and for those it
// always reports syntax errors, so the file gets its own language id (VS Code's jsonc grammar and
// brackets) and this module gives it what the JSON server gave: everything except the syntax errors,
// which are ours alone. Schema warnings are published only while the file parses (ours explain a
// broken file). Only the document listeners are registered at activation: the providers and the
// diagnostics collection come with the first such document, and the language service itself
// (mcpJsonService.ts) is imported when that document is first validated or asked about.
import * as vscode from 'vscode';
import type { McpJsonService } from './mcpJsonService';

export const MCP_JSON_LANGUAGE = 'mcp-json';
/** The source of the schema warnings in the Problems panel. */
export const SCHEMA_DIAGNOSTIC_SOURCE = 'mcp.json schema';

const VALIDATION_DELAY_MS = 300;

export function registerMcpJsonLanguage(): vscode.Disposable {
  return new McpJsonLanguage();
}

class McpJsonLanguage implements vscode.Disposable {
  private loading: Promise<McpJsonService> | undefined;
  /** The providers and the schema warnings' collection, from the first document of ours on. */
  private features: { readonly diagnostics: vscode.DiagnosticCollection; readonly providers: vscode.Disposable } | undefined;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The documents of ours seen (their schema warnings and parses are forgotten when they go). */
  private readonly known = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];
  private disposed = false;

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)),
    ];
    // The documents open already are looked at once activation has returned (a microtask later).
    void Promise.resolve().then(() => {
      if (this.disposed) return;
      for (const document of vscode.workspace.textDocuments) this.schedule(document);
    });
  }

  dispose(): void {
    this.disposed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.features?.providers.dispose();
    this.features?.diagnostics.dispose();
  }

  /** Registers the providers with the first document of ours (VS Code asks them again once they are there). */
  private ensureFeatures(): { readonly diagnostics: vscode.DiagnosticCollection } {
    if (this.features) return this.features;
    const selector: vscode.DocumentSelector = { language: MCP_JSON_LANGUAGE };
    this.features = {
      diagnostics: vscode.languages.createDiagnosticCollection(SCHEMA_DIAGNOSTIC_SOURCE),
      providers: vscode.Disposable.from(
        vscode.languages.registerCompletionItemProvider(selector, { provideCompletionItems: async (d, p) => (await this.service()).complete(d, p) }, '"', ':'),
        vscode.languages.registerHoverProvider(selector, { provideHover: async (d, p) => (await this.service()).hover(d, p) }),
        vscode.languages.registerDocumentSymbolProvider(selector, { provideDocumentSymbols: async (d) => (await this.service()).symbols(d) }),
        vscode.languages.registerFoldingRangeProvider(selector, { provideFoldingRanges: async (d) => (await this.service()).folding(d) }),
        vscode.languages.registerDocumentFormattingEditProvider(selector, { provideDocumentFormattingEdits: async (d, o) => (await this.service()).format(d, undefined, o) }),
        vscode.languages.registerDocumentRangeFormattingEditProvider(selector, { provideDocumentRangeFormattingEdits: async (d, r, o) => (await this.service()).format(d, r, o) }),
      ),
    };
    return this.features;
  }

  /** The language service, imported and configured on first use. */
  private service(): Promise<McpJsonService> {
    this.loading ??= import('./mcpJsonService').then((m) => new m.McpJsonService(), (error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  private schedule(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    if (document.languageId !== MCP_JSON_LANGUAGE) {
      // A file whose language was changed away from ours keeps no warning of ours.
      if (this.known.has(key)) this.forget(document);
      return;
    }
    this.ensureFeatures();
    this.known.add(key);
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      void this.validate(document);
    }, VALIDATION_DELAY_MS));
  }

  /** Publishes the schema's warnings about a document that parses; syntax errors are the config parser's to report. */
  private async validate(document: vscode.TextDocument): Promise<void> {
    if (document.isClosed) return;
    const version = document.version;
    const warnings = await (await this.service()).schemaWarnings(document);
    if (document.isClosed || document.version !== version) return;
    for (const warning of warnings) warning.source = SCHEMA_DIAGNOSTIC_SOURCE;
    if (!this.disposed) this.ensureFeatures().diagnostics.set(document.uri, warnings);
  }

  private forget(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.known.delete(key);
    void this.loading?.then((service) => service.forget(document.uri), () => undefined);
    this.features?.diagnostics.delete(document.uri);
  }
}
