// The roots a server gets: by default the workspace folders (the core's current list, asked again on
// every roots/list), or what its entry's `roots` says — `false`: no roots capability at all, so a
// server such as server-filesystem keeps the folders its arguments name instead of shrinking to the
// open workspace; a list: those folders, whatever the workspace.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LaunchDefinition } from '../core/config/types';
import type { Root } from '../core/lifecycle/types';

/** Whether the client declares the roots capability to this server. */
export function declaresRoots(launch: Pick<LaunchDefinition, 'roots'>): boolean {
  return launch.roots !== false;
}

/** Whether the server's roots follow the workspace folders (so a change of them is worth telling it). */
export function followsWorkspace(launch: Pick<LaunchDefinition, 'roots'>): boolean {
  return launch.roots === undefined;
}

/** The answer to roots/list: the entry's folders as file URIs, or the workspace's roots. */
export function rootsFor(launch: Pick<LaunchDefinition, 'roots'>, workspace: () => readonly Root[]): Root[] {
  const folders = launch.roots;
  if (folders === undefined) return workspace().map((root) => ({ ...root }));
  if (folders === false) return [];
  return folders.map((folder) => ({ uri: pathToFileURL(folder).href, name: path.basename(folder) || folder }));
}
