// **Browse Servers**: a quick pick searching the MCP registry (switchboard.registry.url) as the person
// types. Each server shows its description, version, publisher, transports, what it needs and its
// repository (a button opens it); accepting one picks the way to install it (package or remote, each
// with its whole command line or URL) and goes to review and install. Keyboard only works throughout.
import * as vscode from 'vscode';
import { DEFAULT_REGISTRY_URL, galleryItem, SEARCH_LIMIT, type GalleryItem, type InstallOption } from '../../core/gallery';
import { searchRegistry } from '../../node/registryClient';
import { reviewAndInstall, type InstallCandidate, type InstallDeps, type InstallOutcome } from './installReview';
import { ScriptedInstallUi, VscodeInstallUi, type ScriptedInstallAnswers } from './installUi';
import { notifyError, notifyWarning } from '../ui/notify';

export const BROWSE_SERVERS_COMMAND = 'switchboard.browseServers';
/** Test-only: search and install with scripted answers (extension test runs only). */
const SCRIPT_COMMAND = '_switchboard.test.installFromGallery';
const DEBOUNCE_MS = 300;

type ServerPick = vscode.QuickPickItem & { item?: GalleryItem; more?: string };

/** The registry people set (user settings; a workspace cannot point it elsewhere). */
export function registryUrl(): string {
  const value = vscode.workspace.getConfiguration('switchboard.registry').inspect<string>('url')?.globalValue;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : DEFAULT_REGISTRY_URL;
}

/** One server as a line of the pick. */
export function serverPick(item: GalleryItem): ServerPick {
  const needs = [...new Set(item.options.flatMap((option) => option.needs))];
  return {
    label: `$(package) ${item.title ?? item.registryName}`,
    description: [item.version, item.publisher ? `by ${item.publisher}` : undefined, item.status !== undefined && item.status !== 'active' ? item.status : undefined].filter(Boolean).join(' · '),
    detail: [item.description, item.transports.join(', '), needs.length > 0 ? `needs ${needs.join(', ')}` : undefined, item.repository].filter(Boolean).join(' · '),
    alwaysShow: true,
    buttons: item.repository !== undefined || item.websiteUrl !== undefined ? [{ iconPath: new vscode.ThemeIcon('link-external'), tooltip: 'Open the repository' }] : [],
    item,
  };
}

/** The candidate one way of installing gives. */
export function candidateOf(item: GalleryItem, option: InstallOption, registry: string): InstallCandidate {
  return {
    name: item.name, entry: option.entry!, inputs: option.inputs,
    origin: `the registry ${registry} (${item.registryName} ${item.version}, ${option.label})`,
    needs: option.needs, leftOut: option.leftOut,
  };
}

/** Registers Browse Servers (and, under tests, its script hook). */
export function registerGallery(deps: InstallDeps & { testing: boolean }): vscode.Disposable {
  const disposables = [vscode.commands.registerCommand(BROWSE_SERVERS_COMMAND, async () => {
    try {
      const picked = await browse(deps);
      if (picked === undefined) return undefined;
      const option = await pickOption(picked);
      if (option === undefined) return undefined;
      return await reviewAndInstall(deps, candidateOf(picked, option, registryUrl()), new VscodeInstallUi());
    } catch (error) {
      deps.log.error('Browse Servers failed:', error instanceof Error ? error : String(error));
      void notifyError(`MCP Switchboard: installing failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  })];
  if (deps.testing) {
    disposables.push(vscode.commands.registerCommand(SCRIPT_COMMAND, async (request: { query: string; pick: string; option?: number; answers: ScriptedInstallAnswers }) => {
      const page = await searchRegistry(registryUrl(), { search: request.query, limit: SEARCH_LIMIT });
      const items = page.servers.map(galleryItem);
      const item = items.find((candidate) => candidate.registryName === request.pick);
      if (item === undefined) throw new Error(`${request.pick} is not among ${items.map((candidate) => candidate.registryName).join(', ')}`);
      const ui = new ScriptedInstallUi(request.answers);
      const outcome: InstallOutcome | undefined = await reviewAndInstall(deps, candidateOf(item, item.options[request.option ?? 0], registryUrl()), ui);
      return { outcome, shown: ui.shown, picks: items.map((candidate) => { const { label, description, detail } = serverPick(candidate); return { label, description, detail }; }) };
    }));
  }
  return vscode.Disposable.from(...disposables);
}

/** The live search; the server accepted, or undefined. */
function browse(deps: InstallDeps): Promise<GalleryItem | undefined> {
  const registry = registryUrl();
  const pick = vscode.window.createQuickPick<ServerPick>();
  pick.title = `Browse Servers — ${registry}`;
  pick.placeholder = 'Search the MCP registry by server name';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let timer: NodeJS.Timeout | undefined;
  let request: AbortController | undefined;
  let shown: ServerPick[] = [];
  const search = (query: string, cursor?: string): void => {
    request?.abort();
    const controller = new AbortController();
    request = controller;
    pick.busy = true;
    searchRegistry(registry, { search: query, limit: SEARCH_LIMIT, ...(cursor !== undefined ? { cursor } : {}) }, controller.signal).then((page) => {
      if (controller.signal.aborted) return;
      for (const problem of page.problems) deps.log.warn(`registry ${registry}: ${problem}`);
      const servers = page.servers.map(galleryItem).map(serverPick);
      shown = [...(cursor === undefined ? [] : shown.filter((item) => item.more === undefined)), ...servers];
      if (shown.length === 0) shown = [{ label: `No server of the registry has "${query}" in its name`, alwaysShow: true }];
      if (page.nextCursor !== undefined) shown.push({ label: '$(ellipsis) More servers…', alwaysShow: true, more: page.nextCursor });
      pick.items = shown;
    }, (error: unknown) => {
      if (controller.signal.aborted) return;
      deps.log.warn(`Browse Servers: ${error instanceof Error ? error.message : String(error)}`);
      pick.items = [{ label: `$(error) ${error instanceof Error ? error.message : String(error)}`, detail: 'Check the setting switchboard.registry.url and your connection', alwaysShow: true }];
    }).finally(() => { if (request === controller) pick.busy = false; });
  };
  return new Promise((resolve) => {
    let result: GalleryItem | undefined;
    pick.onDidChangeValue((value) => {
      clearTimeout(timer);
      timer = setTimeout(() => search(value), DEBOUNCE_MS);
    });
    pick.onDidTriggerItemButton((event) => {
      const link = event.item.item?.repository?.split(' ')[0] ?? event.item.item?.websiteUrl;
      if (link !== undefined && /^https?:\/\//.test(link)) void vscode.env.openExternal(vscode.Uri.parse(link));
    });
    pick.onDidAccept(() => {
      const [selected] = pick.selectedItems;
      if (selected?.more !== undefined) { search(pick.value, selected.more); return; }
      if (selected?.item === undefined) return;
      result = selected.item;
      pick.hide();
    });
    pick.onDidHide(() => {
      clearTimeout(timer);
      request?.abort();
      pick.dispose();
      resolve(result);
    });
    pick.show();
    search('');
  });
}

/** The way to install it: the only one, or the person's pick among packages and remotes. */
async function pickOption(item: GalleryItem): Promise<InstallOption | undefined> {
  const usable = item.options.filter((option) => option.entry !== undefined);
  if (usable.length === 0) {
    const reasons = item.options.map((option) => `${option.label}: ${option.reason}`).join('; ');
    void notifyWarning(`MCP Switchboard: ${item.registryName} cannot be installed from the gallery (${reasons || 'it lists no package and no remote'})`);
    return undefined;
  }
  if (usable.length === 1 && item.options.length === 1) return usable[0];
  const picked = await vscode.window.showQuickPick(item.options.map((option) => ({
    label: option.entry === undefined ? `$(circle-slash) ${option.label}` : option.label,
    description: option.entry === undefined ? 'cannot be installed' : option.kind === 'remote' ? 'runs on the publisher\'s server' : 'runs on this machine',
    detail: option.entry === undefined ? option.reason : option.entry.command !== undefined ? [option.entry.command, ...(option.entry.args ?? [])].join(' ') : option.entry.url,
    option,
  })), { title: `Install ${item.title ?? item.registryName}: which way?` });
  if (picked === undefined) return undefined;
  if (picked.option.entry === undefined) {
    void notifyWarning(`MCP Switchboard: ${picked.option.label} cannot be installed: ${picked.option.reason}`);
    return undefined;
  }
  return picked.option;
}
