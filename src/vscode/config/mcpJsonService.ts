// The JSON language service behind the editing help of `.mcp.json` files (mcpJsonLanguage.ts), with
// the extension's schema, and the conversions between its LSP shapes and VS Code's. Imported with the
// first such file opened, not at activation.
import * as vscode from 'vscode';
import {
  ClientCapabilities, getLanguageService, InsertTextFormat, MarkupKind, TextDocument,
  type CompletionItem as LspCompletionItem, type Diagnostic as LspDiagnostic, type DocumentSymbol as LspDocumentSymbol,
  type Hover as LspHover, type JSONDocument, type JSONSchema, type MarkedString, type MarkupContent, type Range as LspRange,
  type TextEdit as LspTextEdit,
} from 'vscode-json-languageservice';
import schema from '../../../media/mcp.schema.json';

const SCHEMA_URI = 'switchboard://schemas/mcp.schema.json';

export class McpJsonService {
  private readonly service = getLanguageService({ clientCapabilities: ClientCapabilities.LATEST });
  /** The last parse, per document version: completion, hover and validation of one version share it. */
  private readonly parsed = new Map<string, { version: number; text: TextDocument; json: JSONDocument }>();

  constructor() {
    this.service.configure({
      validate: true,
      allowComments: true,
      schemas: [{ uri: SCHEMA_URI, fileMatch: ['*'], schema: schema as JSONSchema }],
    });
  }

  async complete(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionList | undefined> {
    const { text, json } = this.parse(document);
    const list = await this.service.doComplete(text, position, json);
    return list ? new vscode.CompletionList(list.items.map(toCompletionItem), list.isIncomplete) : undefined;
  }

  async hover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const { text, json } = this.parse(document);
    const hover = await this.service.doHover(text, position, json);
    return hover ? toHover(hover) : undefined;
  }

  symbols(document: vscode.TextDocument): vscode.DocumentSymbol[] {
    const { text, json } = this.parse(document);
    return this.service.findDocumentSymbols2(text, json).map(toDocumentSymbol);
  }

  folding(document: vscode.TextDocument): vscode.FoldingRange[] {
    return this.service.getFoldingRanges(this.parse(document).text).map((range) => new vscode.FoldingRange(range.startLine, range.endLine,
      range.kind === 'comment' ? vscode.FoldingRangeKind.Comment : range.kind === 'region' ? vscode.FoldingRangeKind.Region : undefined));
  }

  format(document: vscode.TextDocument, range: vscode.Range | undefined, options: vscode.FormattingOptions): vscode.TextEdit[] {
    const edits: LspTextEdit[] = this.service.format(this.parse(document).text, range, { tabSize: options.tabSize, insertSpaces: options.insertSpaces });
    return edits.map((edit) => vscode.TextEdit.replace(toRange(edit.range), edit.newText));
  }

  /** The schema's warnings about a document that parses (none for one that does not: syntax errors are the config parser's). */
  async schemaWarnings(document: vscode.TextDocument): Promise<vscode.Diagnostic[]> {
    const { text, json } = this.parse(document);
    const found = await this.service.doValidation(text, json, {
      comments: 'ignore', trailingCommas: 'ignore', schemaValidation: 'warning', schemaRequest: 'ignore',
    });
    const parses = !found.some(isSyntaxError);
    return parses ? found.filter(isSchemaFinding).map(toDiagnostic) : [];
  }

  forget(uri: vscode.Uri): void {
    this.parsed.delete(uri.toString());
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
  return new vscode.Diagnostic(toRange(found.range), message, severity);
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
