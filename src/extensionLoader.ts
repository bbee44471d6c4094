// What VS Code loads (package.json `main`): it requires an extension's main, and the extension is an ES
// module split into chunks (esbuild.mjs), so this CommonJS file imports dist/extension.mjs when VS Code
// activates it. Its own require costs nothing worth measuring; the API reports the import's time as moduleLoadMs.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as vscode from 'vscode';
import type { SwitchboardApi } from './extension';

type ExtensionModule = typeof import('./extension');

let loading: Promise<ExtensionModule> | undefined;
/** The module once loaded, so that deactivate can reach it without waiting a turn. */
let loaded: ExtensionModule | undefined;

function load(): Promise<ExtensionModule> {
  // A URL, not a path: import() takes URLs, and a path would not survive Windows drive letters.
  loading ??= (import(pathToFileURL(path.join(__dirname, 'extension.mjs')).href) as Promise<ExtensionModule>).then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

export async function activate(context: vscode.ExtensionContext): Promise<SwitchboardApi> {
  const started = performance.now();
  const extension = await load();
  return extension.activate(context, started);
}

/**
 * Not async: VS Code disposes the context's subscriptions (the registry among them) right after
 * calling deactivate, without waiting for its promise, so the servers' stop must begin within this call.
 */
export function deactivate(): Promise<void> | undefined {
  if (loaded) return loaded.deactivate();
  return loading?.then((module) => module.deactivate());
}
