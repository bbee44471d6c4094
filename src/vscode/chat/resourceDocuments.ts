// MCP resources as read-only documents (`switchboard-resource:/<server>/<uri>`): what a chat reference
// to an attached resource opens. Reading goes through the registry, so it is always the live content;
// `onDidChange` (a watched resource the server says changed) makes VS Code read it again.
import * as vscode from 'vscode';
import type { ReadResourceResult } from '../../core/lifecycle';

export const RESOURCE_SCHEME = 'switchboard-resource';

/** The document URI of a server's resource. */
export function resourceDocumentUri(server: string, uri: string): vscode.Uri {
  // The resource's URI is one path segment (encoded), so any scheme and any characters survive.
  return vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: `/${encodeURIComponent(server)}/${encodeURIComponent(uri)}` });
}

/** The server and resource URI of a document URI made by resourceDocumentUri. */
export function parseResourceDocumentUri(document: vscode.Uri): { server: string; uri: string } | undefined {
  const match = /^\/([^/]+)\/(.+)$/.exec(document.path);
  if (document.scheme !== RESOURCE_SCHEME || !match) return undefined;
  try {
    return { server: decodeURIComponent(match[1]), uri: decodeURIComponent(match[2]) };
  } catch {
    return undefined;
  }
}

/** Shows resources read through `read`, read again when `onDidChange` names one. */
export function registerResourceDocuments(read: (server: string, uri: string) => Promise<ReadResourceResult>, onDidChange?: vscode.Event<vscode.Uri>): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(RESOURCE_SCHEME, {
    onDidChange,
    async provideTextDocumentContent(document) {
      const ref = parseResourceDocumentUri(document);
      if (!ref) return '// Not an MCP resource address.';
      try {
        const { contents } = await read(ref.server, ref.uri);
        return contents.map((item) => (typeof item.text === 'string'
          ? item.text
          : `[binary ${typeof item.mimeType === 'string' ? item.mimeType : 'content'} of ${item.uri}, not shown]`)).join('\n\n');
      } catch (error) {
        return `// ${ref.server} could not read ${ref.uri}: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
  });
}
