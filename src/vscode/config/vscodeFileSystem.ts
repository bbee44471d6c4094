// The config service's file system port inside VS Code. Watching uses VS Code's file watcher (shared
// with the workbench, handles atomic saves) plus editor saves; reading and the cases VS Code's watcher
// does not cover go to the plain Node adapter, because the extension always runs in a Node host
// next to the files (extensionKind "workspace").
//
// Measured in VS Code 1.139 (code-server, remote extension host):
// - vscode.workspace.fs.stat took ~64 ms per call during activation against ~0.4 ms for fs.stat, so
//   reading through it made the first configuration load ~100 ms slower;
// - a RelativePattern watcher on an existing folder outside the workspace (~/.mcp.json) reports
//   changes within ~100-200 ms, but one on a folder that does not exist yet never fires, not even
//   after the folder is created (the local files in global storage start that way).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConfigFileSystem } from '../../core/config/ports';
import type { ConfigRead } from '../../core/config/types';
import type { Disposable } from '../../core/disposable';
import { NodeConfigFileSystem } from '../../node/configFileSystem';

export class VscodeConfigFileSystem implements ConfigFileSystem {
  constructor(private readonly node: ConfigFileSystem = new NodeConfigFileSystem()) {}

  read(file: string, maxBytes: number): Promise<ConfigRead> {
    return this.node.read(file, maxBytes);
  }

  watch(file: string, onChange: () => void): Disposable {
    const disposables: Disposable[] = [
      // A save from the editor is the most common edit: react to it without waiting for a watcher.
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (doc.uri.scheme === 'file' && samePath(doc.uri.fsPath, file)) onChange();
      }),
    ];
    if (folderExists(path.dirname(file))) {
      // A RelativePattern with an absolute base also watches outside the workspace.
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)));
      disposables.push(watcher, watcher.onDidCreate(onChange), watcher.onDidChange(onChange), watcher.onDidDelete(onChange));
    } else {
      // Node's watch follows the folder chain down as it is created.
      disposables.push(this.node.watch(file, onChange));
    }
    return { dispose: () => { for (const d of disposables.splice(0).reverse()) d.dispose(); } };
  }
}

function folderExists(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

function samePath(a: string, b: string): boolean {
  return process.platform === 'win32' || process.platform === 'darwin'
    ? a.toLowerCase() === b.toLowerCase()
    : a === b;
}
