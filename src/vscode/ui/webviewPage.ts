// The page every webview of the extension loads: its policy, one stylesheet and one script from the
// extension's own folders (the script under a fresh nonce), and the element the script renders into.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPage {
  /** The page's Content-Security-Policy, given the nonce its script carries. */
  csp(nonce: string): string;
  /** Files of the extension: the bundled script (under dist/) and the stylesheet (under media/). */
  script: string;
  style: string;
  title: string;
  /** The root element's extra attributes (e.g. `aria-busy="true"` while the first state is on its way). */
  rootAttributes?: string;
}

export function webviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const nonce = crypto.randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', page.script));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', page.style));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${page.csp(nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${escapeHtml(page.title)}</title>
</head>
<body>
<main id="app"${page.rootAttributes ? ` ${page.rootAttributes}` : ''}></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
