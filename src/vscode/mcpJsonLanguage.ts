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
// broken file).
import * as vscode from 'vscode';
import {
  ClientCapabilities, getLanguageService, InsertTextFormat, MarkupKind, TextDocument,
  type CompletionItem as LspCompletionItem, type Diagnostic as LspDiagnostic, type DocumentSymbol as LspDocumentSymbol,
  type Hover as LspHover, type JSONDocument, type JSONSchema, type MarkedString, type MarkupContent, type Range as LspRange,
  type TextEdit as LspTextEdit,
} from 'vscode-json-languageservice';
import schema from '../../media/mcp.schema.json';

export const MCP_JSON_LANGUAGE = 'mcp-json';
/** The source of the schema warnings in the Problems panel. */
export const SCHEMA_DIAGNOSTIC_SOURCE = 'mcp.json schema';

const SCHEMA_URI = 'switchboard://schemas/mcp.schema.json';
const VALIDATION_DELAY_MS = 300;

export function registerMcpJsonLanguage(): vscode.Disposable {
  return new McpJsonLanguage();
}

class McpJsonLanguage implements vscode.Disposable {
  private readonly service = getLanguageService({ clientCapabilities: ClientCapabilities.LATEST });
  private readonly diagnostics = vscode.languages.createDiagnosticCollection(SCHEMA_DIAGNOSTIC_SOURCE);
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The last parse, per document version: completion, hover and validation of one version share it. */
  private readonly parsed = new Map<string, { version: number; text: TextDocument; json: JSONDocument }>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.service.configure({
      validate: true,
      allowComments: true,
      schemas: [{ uri: SCHEMA_URI, fileMatch: ['*'], schema: schema as JSONSchema }],
    });
    const selector: vscode.DocumentSelector = { language: MCP_JSON_LANGUAGE };
    this.subscriptions = [
      vscode.languages.registerCompletionItemProvider(selector, { provideCompletionItems: (d, p) => this.complete(d, p) }, '"', ':'),
      vscode.languages.registerHoverProvider(selector, { provideHover: (d, p) => this.hover(d, p) }),
      vscode.languages.registerDocumentSymbolProvider(selector, { provideDocumentSymbols: (d) => this.symbols(d) }),
      vscode.languages.registerFoldingRangeProvider(selector, { provideFoldingRanges: (d) => this.folding(d) }),
      vscode.languages.registerDocumentFormattingEditProvider(selector, { provideDocumentFormattingEdits: (d, o) => this.format(d, undefined, o) }),
      vscode.languages.registerDocumentRangeFormattingEditProvider(selector, { provideDocumentRangeFormattingEdits: (d, r, o) => this.format(d, r, o) }),
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)),
    ];
    for (const document of vscode.workspace.textDocuments) this.schedule(document);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.diagnostics.dispose();
  }

  private parse(document: vscode.TextDocument): { text: TextDocument; json: JSONDocument } {
    const key = document.uri.toString();
    const cached = this.parsed.get(key);
    if (cached?.version === document.version) return cached;
    const text = TextDocument.create(key, 'jsonc', document.version, document.getText());
    const entry = { version: document.version, text, json: this.service.parseJSONDocument(text) };
    this.parsed.set(key, entry);
    return entry;
  }

  private async complete(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionList | undefined> {
    const { text, json } = this.parse(document);
    const list = await this.service.doComplete(text, position, json);
    return list ? new vscode.CompletionList(list.items.map(toCompletionItem), list.isIncomplete) : undefined;
  }

  private async hover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const { text, json } = this.parse(document);
    const hover = await this.service.doHover(text, position, json);
    return hover ? toHover(hover) : undefined;
  }

  private symbols(document: vscode.TextDocument): vscode.DocumentSymbol[] {
    const { text, json } = this.parse(document);
    return this.service.findDocumentSymbols2(text, json).map(toDocumentSymbol);
  }

  private folding(document: vscode.TextDocument): vscode.FoldingRange[] {
    return this.service.getFoldingRanges(this.parse(document).text).map((range) => new vscode.FoldingRange(range.startLine, range.endLine,
      range.kind === 'comment' ? vscode.FoldingRangeKind.Comment : range.kind === 'region' ? vscode.FoldingRangeKind.Region : undefined));
  }

  private format(document: vscode.TextDocument, range: vscode.Range | undefined, options: vscode.FormattingOptions): vscode.TextEdit[] {
    const edits: LspTextEdit[] = this.service.format(this.parse(document).text, range, { tabSize: options.tabSize, insertSpaces: options.insertSpaces });
    return edits.map((edit) => vscode.TextEdit.replace(toRange(edit.range), edit.newText));
  }

  private schedule(document: vscode.TextDocument): void {
    if (document.languageId !== MCP_JSON_LANGUAGE) {
      // A file whose language was changed away from ours keeps no warning of ours.
      if (this.parsed.has(document.uri.toString())) this.forget(document);
      return;
    }
    const key = document.uri.toString();
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
    const { text, json } = this.parse(document);
    const found = await this.service.doValidation(text, json, {
      comments: 'ignore', trailingCommas: 'ignore', schemaValidation: 'warning', schemaRequest: 'ignore',
    });
    if (document.isClosed || document.version !== version) return;
    const parses = !found.some(isSyntaxError);
    this.diagnostics.set(document.uri, parses ? found.filter(isSchemaFinding).map(toDiagnostic) : []);
  }

  private forget(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.parsed.delete(key);
    this.diagnostics.delete(document.uri);
  }
}

/** Schema findings have codes below 0x100 (or none); 0x100 and up are the parser's syntax errors and schema loading. */
function isSchemaFinding(diagnostic: LspDiagnostic): boolean {
  return diagnostic.code === undefined || (typeof diagnostic.code === 'number' && diagnostic.code < 0x100);
}

/** The JSON scanner's and parser's errors (ErrorCode 0x100–0x2ff): a missing comma, an unclosed string… */
function isSyntaxError(diagnostic: LspDiagnostic): boolean {
  return typeof diagnostic.code === 'number' && diagnostic.code >= 0x100 && diagnostic.code < 0x300;
}

function toRange(range: LspRange): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

function toDiagnostic(found: LspDiagnostic): vscode.Diagnostic {
  const severity = found.severity === 1 ? vscode.DiagnosticSeverity.Error
    : found.severity === 3 ? vscode.DiagnosticSeverity.Information
      : found.severity === 4 ? vscode.DiagnosticSeverity.Hint : vscode.DiagnosticSeverity.Warning;
  const message = typeof found.message === 'string' ? found.message : found.message.value;
  const diagnostic = new vscode.Diagnostic(toRange(found.range), message, severity);
  diagnostic.source = SCHEMA_DIAGNOSTIC_SOURCE;
  return diagnostic;
}

function toMarkdown(content: MarkupContent | MarkedString | string): vscode.MarkdownString {
  if (typeof content === 'string') return new vscode.MarkdownString(content);
  if ('kind' in content) {
    return content.kind === MarkupKind.Markdown ? new vscode.MarkdownString(content.value) : new vscode.MarkdownString().appendText(content.value);
  }
  return new vscode.MarkdownString().appendCodeblock(content.value, content.language);
}

function toHover(hover: LspHover): vscode.Hover {
  const contents = Array.isArray(hover.contents) ? hover.contents.map(toMarkdown) : [toMarkdown(hover.contents)];
  return new vscode.Hover(contents, hover.range ? toRange(hover.range) : undefined);
}

function toCompletionItem(found: LspCompletionItem): vscode.CompletionItem {
  // LSP kinds are VS Code's plus one.
  const item = new vscode.CompletionItem(found.label, found.kind !== undefined ? found.kind - 1 : undefined);
  const edit = found.textEdit;
  const text = edit?.newText ?? found.insertText ?? found.label;
  item.insertText = found.insertTextFormat === InsertTextFormat.Snippet ? new vscode.SnippetString(text) : text;
  if (edit) item.range = 'range' in edit ? toRange(edit.range) : { inserting: toRange(edit.insert), replacing: toRange(edit.replace) };
  if (found.detail !== undefined) item.detail = found.detail;
  if (found.documentation !== undefined) item.documentation = toMarkdown(found.documentation);
  if (found.filterText !== undefined) item.filterText = found.filterText;
  if (found.sortText !== undefined) item.sortText = found.sortText;
  if (found.command) item.command = { title: found.command.title, command: found.command.command, arguments: found.command.arguments };
  return item;
}

function toDocumentSymbol(symbol: LspDocumentSymbol): vscode.DocumentSymbol {
  const result = new vscode.DocumentSymbol(symbol.name, symbol.detail ?? '', symbol.kind - 1, toRange(symbol.range), toRange(symbol.selectionRange));
  result.children = (symbol.children ?? []).map(toDocumentSymbol);
  return result;
}
