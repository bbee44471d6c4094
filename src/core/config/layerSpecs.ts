// The standard set of layers for a workspace, shared by the extension and the command line so both read
// exactly the same files with the same variables.
import * as path from 'node:path';
import type { LayerSpec } from './types';
import { expandHome } from './variables';

/** Options for standardLayerSpecs. */
export interface StandardLayerOptions {
  /** Workspace folders, in workspace order; `localFile` is that folder's private servers file. */
  folders: { path: string; localFile?: string }[];
  /** User-scope file; empty or absent means `~/.mcp.json`. `~` and `${userHome}` are expanded. */
  userFile?: string;
  userHome: string;
  env: Record<string, string | undefined>;
  /** The administrator's policy files: their `mcpServers` are the managed scope, above every other. */
  managedFiles?: string[];
  /** Other extensions' contributions and servers registered through the API. */
  plugins?: { file: string; root?: string[]; label: string; extensionPath?: string; inline?: string }[];
}

/** The layers of a workspace in precedence order: managed, local and project per folder, then user, then plugins. */
export function standardLayerSpecs(opts: StandardLayerOptions): LayerSpec[] {
  const { env, userHome } = opts;
  const specs: LayerSpec[] = [];
  for (const file of opts.managedFiles ?? []) specs.push({ scope: 'managed', file, label: 'policy', vars: { env, userHome } });
  for (const folder of opts.folders) {
    if (folder.localFile === undefined) continue;
    specs.push({ scope: 'local', file: folder.localFile, folder: folder.path, vars: { env, userHome, workspaceFolder: folder.path } });
  }
  for (const folder of opts.folders) {
    specs.push({ scope: 'project', file: path.join(folder.path, '.mcp.json'), folder: folder.path, vars: { env, userHome, workspaceFolder: folder.path } });
  }
  specs.push({ scope: 'user', file: userFilePath(opts.userFile, userHome), vars: { env, userHome } });
  for (const plugin of opts.plugins ?? []) {
    const spec: LayerSpec = { scope: 'plugin', file: plugin.file, label: plugin.label, vars: { env, userHome } };
    if (plugin.root !== undefined) spec.root = plugin.root;
    if (plugin.inline !== undefined) spec.inline = plugin.inline;
    if (plugin.extensionPath !== undefined) spec.vars = { ...spec.vars, extensionPath: plugin.extensionPath };
    specs.push(spec);
  }
  return specs;
}

function userFilePath(setting: string | undefined, userHome: string): string {
  const trimmed = setting?.trim() ?? '';
  if (trimmed === '') return path.join(userHome, '.mcp.json');
  return expandHome(trimmed.split('${userHome}').join(userHome), userHome);
}
