// The "Servers" tree: one row per effective server with its lifecycle state (its catalog and the
// entries it shadows as children) and a "Problems" node while any config file has problems. Every
// server row opens the definition it stands for; its actions come from its contextValue.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConfigSnapshot } from '../core/config';
import type { ConfigProblem, EffectiveServer, ShadowedServer, SourceRange } from '../core/config/types';
import type { Event as CoreEvent } from '../core/event';
import { CATALOG_KINDS, ServerState, type Catalog, type CatalogKind, type ServerView } from '../core/lifecycle';
import { HELD_REASON, revealHiddenCharacters } from '../core/sidebarSnapshot';
import type { ToolStatus } from '../core/trust/toolReview';
import { trustDisplay, type DangerFlag, type TrustDecision } from '../core/trust';
import { isVirtualFile } from './configSources';
import { shortReason, stateIcon } from './stateIcons';

export const SERVERS_VIEW_ID = 'switchboard.servers';
export const REVEAL_SOURCE_COMMAND = 'switchboard.revealServerSource';

/** What `switchboard.revealServerSource` accepts from a row: a position in a file. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
}

/** One row of the tree as plain data (what tests and the reveal command look at). */
export interface ServerItemData {
  id: string;
  kind: 'server' | 'shadowed' | 'catalog' | 'catalogItem' | 'problems' | 'problem';
  /** The server a server, catalog or catalog item row belongs to. */
  serverId?: string;
  /** Tool rows: the tool's exact name (the label shows hidden characters as escapes). */
  toolName?: string;
  /** Server rows: the lifecycle state kind (`notStarted` while the lifecycle does not know the server). */
  state?: ServerState['kind'] | 'notStarted';
  /** The row's codicon id, e.g. `pass`, `loading~spin`. */
  icon: string;
  label: string;
  description: string;
  tooltip: string;
  contextValue: string;
  /** Where a click on the row goes. */
  location?: SourceLocation;
  children: ServerItemData[];
}

/** What the tree reads the configuration from. */
export interface ConfigSource {
  readonly current: ConfigSnapshot;
  readonly onDidChange: vscode.Event<ConfigSnapshot>;
}

/** What the tree reads the servers' lifecycle from (the ServerRegistry). */
export interface LifecycleSource {
  get(id: string): ServerView | undefined;
  readonly onDidChangeState: CoreEvent<unknown>;
  readonly onDidChangeCatalog: CoreEvent<unknown>;
  readonly onDidChangeServers: CoreEvent<void>;
}

/** What the tree reads about each tool: changed, new, flagged, blocked (the ToolReview). */
export interface ToolStatusSource {
  status(serverId: string, toolName: string): ToolStatus | undefined;
  readonly onDidChange: CoreEvent<void>;
}

/** What the tree reads about trust: each project server's decision and the danger flags of its definition. */
export interface TrustSource {
  decide(server: EffectiveServer): TrustDecision;
  flags(server: EffectiveServer): readonly DangerFlag[];
  readonly onDidChange: CoreEvent<void>;
}

interface Row {
  data: Omit<ServerItemData, 'icon'>;
  icon: vscode.ThemeIcon;
  markdown: vscode.MarkdownString;
  children: Row[];
}

export class ServersTreeProvider implements vscode.TreeDataProvider<Row>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Row | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** The rows as last built; dropped on every config, state or catalog change. */
  private rows: Row[] | undefined;

  constructor(private readonly config: ConfigSource, private readonly lifecycle: LifecycleSource, private readonly tools?: ToolStatusSource, private readonly trust?: TrustSource) {
    const invalidate = (): void => {
      this.rows = undefined;
      this.changed.fire(undefined);
    };
    this.subscriptions = [
      config.onDidChange(invalidate),
      lifecycle.onDidChangeState(invalidate),
      lifecycle.onDidChangeCatalog(invalidate),
      lifecycle.onDidChangeServers(invalidate),
      ...(tools ? [tools.onDidChange(invalidate)] : []),
      ...(trust ? [trust.onDidChange(invalidate)] : []),
    ];
  }

  /** The rows as the tree shows them right now, as plain data. */
  getServerItems(): ServerItemData[] {
    const strip = (row: Row): ServerItemData => ({ ...row.data, icon: row.icon.id, children: row.children.map(strip) });
    return this.currentRows().map(strip);
  }

  getChildren(element?: Row): Row[] {
    return element ? element.children : this.currentRows();
  }

  getTreeItem(row: Row): vscode.TreeItem {
    const collapsible = row.children.length === 0
      ? vscode.TreeItemCollapsibleState.None
      : row.data.kind === 'problems' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(row.data.label, collapsible);
    item.id = row.data.id;
    item.description = row.data.description;
    item.tooltip = row.markdown;
    item.iconPath = row.icon;
    item.contextValue = row.data.contextValue;
    if (row.data.location) {
      item.command = { command: REVEAL_SOURCE_COMMAND, title: 'Open Server Definition', arguments: [row.data.location] };
    }
    return item;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }

  private currentRows(): Row[] {
    this.rows ??= buildRows(this.config.current, this.lifecycle, this.tools, this.trust);
    return this.rows;
  }
}

function buildRows(snapshot: ConfigSnapshot, lifecycle: LifecycleSource, tools: ToolStatusSource | undefined, trust: TrustSource | undefined): Row[] {
  // Plugin files are all called package.json: name them by their extension (or API source) instead.
  const labels = new Map<string, string>();
  for (const layer of snapshot.layers) {
    if (layer.spec.scope === 'plugin' && layer.spec.label) labels.set(layer.spec.file, layer.spec.label);
  }
  const shadowedBy = new Map<string, ShadowedServer[]>();
  for (const entry of snapshot.shadowed) {
    const list = shadowedBy.get(entry.shadowedBy.id) ?? [];
    list.push(entry);
    shadowedBy.set(entry.shadowedBy.id, list);
  }
  // The core's order: by scope precedence, then id; stable across reloads.
  const rows = snapshot.servers.map((server) => serverRow(server, lifecycle.get(server.id), shadowedBy.get(server.id) ?? [], labels, tools, trust));
  if (snapshot.problems.length > 0) rows.push(problemsRow(snapshot.problems));
  return rows;
}

function serverRow(server: EffectiveServer, view: ServerView | undefined, shadowed: ShadowedServer[], labels: Map<string, string>, tools: ToolStatusSource | undefined, trust: TrustSource | undefined): Row {
  const state = view?.state;
  const decision = server.scope === 'project' ? trust?.decide(server) : undefined;
  // Parked for trust: "not trusted" when refused; a change or Restricted Mode says why ("never trusted" needs no words).
  const parked = state?.kind === 'needsTrust' && decision ? trustDisplay(decision) : undefined;
  const label = parked?.label ?? (state ? ServerState.label(state) : 'not started');
  const held = state && ServerState.isActive(state) && decision?.state === 'needsTrust' ? HELD_REASON : undefined;
  const reason = (state && ServerState.reason(state)) ?? (parked && (decision?.state !== 'needsTrust' || parked.changed) ? parked.reason : held);
  const lines = serverTooltip(server, shadowed, labels, view, decision, server.scope === 'project' ? trust?.flags(server) ?? [] : []);
  const context = ['server', `scope-${server.scope}`, `state-${state?.kind ?? 'notStarted'}`, `transport-${server.launch.type}`];
  if (server.needsTrust) context.push('needsTrust');
  if (isVirtualFile(server.source.file)) context.push('virtual');
  if (state) context.push(...actionsOf(state));
  const catalog = view?.state.kind === 'ready' ? catalogRows(server.id, view.catalog, tools) : [];
  return {
    data: {
      id: `server:${server.id}`,
      kind: 'server',
      serverId: server.id,
      state: state?.kind ?? 'notStarted',
      label: server.id,
      description: `${server.scope} · ${server.launch.type} · ${label}${reason ? `: ${shortReason(reason)}` : ''}`,
      tooltip: lines.map((l) => (l.code !== undefined ? `${l.text}${l.code}` : l.text)).join('\n'),
      contextValue: context.join(' '),
      location: locationOf(server.source),
      children: [],
    },
    icon: stateIcon(state),
    markdown: toMarkdown(lines),
    children: [...catalog, ...shadowed.map((entry) => shadowedRow(server, entry, labels))],
  };
}

/** The lifecycle actions a row offers (menus match these words in its contextValue). */
function actionsOf(state: ServerState): string[] {
  const actions: string[] = [];
  // A disabled server is started by removing "disabled" from its entry, not from a menu.
  if (ServerState.canStart(state) && state.kind !== 'disabled') actions.push('canStart');
  if (ServerState.isActive(state)) actions.push('canStop');
  if (state.kind === 'ready' || state.kind === 'failed' || state.kind === 'crashed' || state.kind === 'restarting') actions.push('canRestart');
  return actions;
}

const CATALOG_GROUPS: { readonly [K in CatalogKind]: { title: string; icon: string; itemIcon: string } } = {
  tools: { title: 'Tools', icon: 'tools', itemIcon: 'symbol-method' },
  resources: { title: 'Resources', icon: 'files', itemIcon: 'file' },
  resourceTemplates: { title: 'Resource templates', icon: 'file-symlink-file', itemIcon: 'symbol-file' },
  prompts: { title: 'Prompts', icon: 'comment-discussion', itemIcon: 'comment' },
};

/** "Tools (N)", "Resources (N)", … for the kinds a ready server has items of, each with its items. */
function catalogRows(serverId: string, catalog: Catalog, tools: ToolStatusSource | undefined): Row[] {
  return CATALOG_KINDS.filter((kind) => catalog[kind].length > 0).map((kind): Row => {
    const group = CATALOG_GROUPS[kind];
    const items = catalog[kind].map((item, index): Row => {
      const name = revealHiddenCharacters(item.name);
      const detail = 'uriTemplate' in item ? item.uriTemplate : 'uri' in item ? item.uri : undefined;
      const title = item.title && item.title !== item.name ? revealHiddenCharacters(item.title) : undefined;
      const description = item.description ? revealHiddenCharacters(item.description).trim() : '';
      const tooltip = [title ?? name, detail, description].filter((t): t is string => !!t).join('\n');
      const status = kind === 'tools' ? tools?.status(serverId, item.name) : undefined;
      if (status && isMarked(status)) return toolRow(serverId, index, item.name, tooltip, status);
      return {
        data: {
          // The index keeps ids unique even when a server lists a name twice.
          id: `catalog:${serverId}:${kind}:${index}:${detail ?? item.name}`,
          kind: 'catalogItem',
          serverId,
          label: name,
          description: detail !== undefined ? revealHiddenCharacters(detail) : shortReason(title ?? description, 60),
          tooltip,
          contextValue: `catalogItem catalog-${kind}`,
          children: [],
        },
        icon: new vscode.ThemeIcon(group.itemIcon),
        markdown: plainMarkdown(tooltip),
        children: [],
      };
    });
    const label = `${group.title} (${items.length})`;
    return {
      data: {
        id: `catalog:${serverId}:${kind}`,
        kind: 'catalog',
        serverId,
        label,
        description: '',
        tooltip: `${label} offered by ${serverId}`,
        contextValue: `catalog catalog-${kind}`,
        children: [],
      },
      icon: new vscode.ThemeIcon(group.icon),
      markdown: plainMarkdown(`${label} offered by ${serverId}`),
      children: items,
    };
  });
}

function isMarked(status: ToolStatus): boolean {
  return status.changed || status.new || status.findings.length > 0;
}

/** A tool row with a warning: changed, new, flagged or blocked, and why, in its tooltip. */
function toolRow(serverId: string, index: number, toolName: string, about: string, status: ToolStatus): Row {
  const words = [status.blocked && 'blocked', status.changed && 'changed', status.new && 'new', status.findings.length > 0 && !status.blocked && 'flagged']
    .filter((word): word is string => !!word);
  const lines = [about, ''];
  if (status.changed) lines.push('Changed: its definition differs from the one you accepted. Automatic approvals of it are suspended until you review and accept the new one (Review Tool Change).');
  if (status.new) lines.push('New: it appeared after this server\'s tools were first seen.');
  for (const finding of status.findings) {
    const where = finding.path ? `${finding.field} ${finding.path}` : finding.field;
    lines.push(`Flagged (${revealHiddenCharacters(where)}): ${revealHiddenCharacters(finding.reason)} — matched: ${revealHiddenCharacters(finding.match)}`);
  }
  if (status.blocked) lines.push('Blocked: calls to it are refused while the setting switchboard.blockFlaggedTools is on.');
  const context = ['catalogItem', 'catalog-tools', 'tool'];
  if (status.changed) context.push('toolChanged');
  if (status.new) context.push('toolNew');
  if (status.findings.length > 0) context.push('toolFlagged');
  if (status.blocked) context.push('toolBlocked');
  const tooltip = lines.join('\n');
  return {
    data: {
      id: `catalog:${serverId}:tools:${index}:${toolName}`,
      kind: 'catalogItem',
      serverId,
      toolName,
      label: revealHiddenCharacters(toolName),
      description: words.join(' · '),
      tooltip,
      contextValue: context.join(' '),
      children: [],
    },
    icon: status.blocked
      ? new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'))
      : new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
    markdown: plainMarkdown(tooltip),
    children: [],
  };
}

function shadowedRow(winner: EffectiveServer, entry: ShadowedServer, labels: Map<string, string>): Row {
  const from = fileLabel(entry.source.file, labels);
  const by = fileLabel(entry.shadowedBy.file, labels);
  const lines: TooltipLine[] = [
    { text: `${entry.name} (${entry.scope} scope), not in effect` },
    { text: `Defined at ${location(entry.source)}` },
    { text: `Shadowed by ${winner.id} in the ${entry.shadowedBy.scope} scope (${entry.shadowedBy.file})` },
  ];
  return {
    data: {
      id: `shadowed:${winner.id}:${entry.scope}:${entry.source.file}`,
      kind: 'shadowed',
      label: `${entry.scope} · ${from}`,
      description: `shadowed by ${entry.shadowedBy.scope} (${by})`,
      tooltip: lines.map((l) => l.text).join('\n'),
      contextValue: `shadowed scope-${entry.scope}`,
      location: locationOf(entry.source),
      children: [],
    },
    icon: new vscode.ThemeIcon('debug-step-over', new vscode.ThemeColor('disabledForeground')),
    markdown: toMarkdown(lines),
    children: [],
  };
}

function problemsRow(problems: readonly ConfigProblem[]): Row {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const children = problems.map((problem, index): Row => {
    const where = `${path.basename(problem.file)}:${problem.line}:${problem.column}`;
    const lines: TooltipLine[] = [
      { text: problem.message },
      { text: `${problem.severity} ${problem.code} at ${problem.file}:${problem.line}:${problem.column}` },
    ];
    return {
      data: {
        id: `problem:${index}:${problem.file}:${problem.line}:${problem.column}:${problem.code}`,
        kind: 'problem',
        label: problem.message,
        description: where,
        tooltip: lines.map((l) => l.text).join('\n'),
        contextValue: `problem severity-${problem.severity}`,
        location: isVirtualFile(problem.file) ? undefined : locationOf(problem),
        children: [],
      },
      icon: new vscode.ThemeIcon(problem.severity === 'error' ? 'error' : 'warning',
        new vscode.ThemeColor(problem.severity === 'error' ? 'problemsErrorIcon.foreground' : 'problemsWarningIcon.foreground')),
      markdown: toMarkdown(lines),
      children: [],
    };
  });
  const label = `Problems (${problems.length})`;
  return {
    data: {
      id: 'problems',
      kind: 'problems',
      label,
      description: errors > 0 ? `${errors} error${errors === 1 ? '' : 's'}` : '',
      tooltip: 'Problems in MCP server configuration files (also in the Problems panel)',
      contextValue: 'problems',
      children: [],
    },
    icon: new vscode.ThemeIcon(errors > 0 ? 'error' : 'warning',
      new vscode.ThemeColor(errors > 0 ? 'problemsErrorIcon.foreground' : 'problemsWarningIcon.foreground')),
    markdown: new vscode.MarkdownString('Problems in MCP server configuration files (also in the Problems panel)'),
    children,
  };
}

/** A tooltip line: plain text, optionally followed by code (a command line, a url) shown verbatim. */
interface TooltipLine {
  text: string;
  code?: string;
}

/** Lines of stderr shown in a failed server's tooltip (the log has all of them). */
const TOOLTIP_STDERR_LINES = 5;

function serverTooltip(
  server: EffectiveServer, shadowed: ShadowedServer[], labels: Map<string, string>, view: ServerView | undefined,
  decision: TrustDecision | undefined, flags: readonly DangerFlag[],
): TooltipLine[] {
  const launch = server.launch;
  const state = view?.state;
  const lines: TooltipLine[] = [{ text: server.id === server.name ? server.name : `${server.id} (${server.name})` }];
  const plugin = labels.get(server.source.file);
  lines.push({ text: `Scope: ${server.scope}${plugin && server.scope === 'plugin' ? ` (${plugin})` : ''}` });
  if (decision) lines.push({ text: `Trust: ${trustDisplay(decision)?.label ?? 'trusted'} (${decision.reason})` });
  lines.push(...stateLines(state, view?.catalog));
  for (const flag of flags) lines.push({ text: `⚠ ${flag.id}: ${flag.reason}${flag.detail !== undefined ? ` (${revealHiddenCharacters(flag.detail)})` : ''}` });
  lines.push({ text: `Transport: ${launch.type}` });
  if (launch.type === 'stdio') {
    lines.push({ text: 'Command: ', code: commandLine(launch.command ?? '', launch.args) });
    if (launch.cwd) lines.push({ text: 'Working directory: ', code: launch.cwd });
    const env = Object.keys(launch.env);
    if (env.length > 0) lines.push({ text: `Environment: ${env.join(', ')}` });
  } else {
    lines.push({ text: 'URL: ', code: launch.url ?? '' });
    const headers = Object.keys(launch.headers);
    if (headers.length > 0) lines.push({ text: `Headers: ${headers.join(', ')}` });
  }
  if (server.needsInput.length > 0) lines.push({ text: `Asks for: ${server.needsInput.join(', ')}` });
  lines.push({ text: `Defined at ${location(server.source)}` });
  lines.push({ text: `Fingerprint: ${server.fingerprint.slice(0, 12)}` });
  for (const entry of shadowed) lines.push({ text: `Shadows the ${entry.scope} entry in ${entry.source.file}` });
  return lines;
}

/** "State: …" and what goes with it: the reason and last stderr lines of a failure, the catalog of a ready server. */
function stateLines(state: ServerState | undefined, catalog: Catalog | undefined): TooltipLine[] {
  if (!state) return [{ text: 'State: not started' }];
  const lines: TooltipLine[] = [{ text: `State: ${ServerState.label(state)}` }];
  switch (state.kind) {
    case 'ready': {
      const info = catalog?.serverInfo;
      if (info) lines.push({ text: `Server: ${revealHiddenCharacters(`${info.title ?? info.name} ${info.version}`.trim())}` });
      lines.push({ text: `Started in ${state.startMs} ms` });
      if (catalog) {
        const counts = CATALOG_KINDS.map((kind) => `${catalog[kind].length} ${CATALOG_GROUPS[kind].title.toLowerCase()}`);
        lines.push({ text: `Offers ${counts.join(', ')}` });
      }
      break;
    }
    case 'failed': case 'crashed': {
      lines.push({ text: `Reason: ${revealHiddenCharacters(state.error)}` });
      const tail = state.stderrTail.filter((line) => line.trim() !== '').slice(-TOOLTIP_STDERR_LINES);
      for (const line of tail) lines.push({ text: 'stderr: ', code: revealHiddenCharacters(line) });
      break;
    }
    case 'restarting':
      lines.push({ text: `Reason: ${revealHiddenCharacters(state.reason)}` });
      break;
    case 'needsTrust':
      lines.push({ text: 'Defined by the repository: Start asks whether you trust it.' });
      break;
    case 'starting': case 'stopped': case 'disabled':
      break;
  }
  return lines;
}

/** Plain text as markdown, line breaks kept. */
function plainMarkdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  text.split('\n').forEach((line, index) => {
    if (index > 0) md.appendMarkdown('  \n');
    md.appendText(line);
  });
  return md;
}

function toMarkdown(lines: TooltipLine[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  lines.forEach((line, index) => {
    if (index === 0) {
      md.appendMarkdown('**');
      md.appendText(line.text);
      md.appendMarkdown('**');
    } else {
      md.appendText(line.text);
    }
    if (line.code !== undefined) md.appendMarkdown(inlineCode(line.code));
    md.appendMarkdown(index === 0 ? '\n\n' : '  \n');
  });
  return md;
}

/** Markdown inline code that shows `text` exactly, whatever backticks it contains. */
function inlineCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${text.replace(/\r?\n/g, ' ')} ${fence}`;
}

/** A command line as a shell would read it: arguments with spaces or quotes are quoted. */
export function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(quoteArg).join(' ');
}

function quoteArg(arg: string): string {
  if (arg === '') return "''";
  if (/^[\w@%+=:,./~-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

function fileLabel(file: string, labels: Map<string, string>): string {
  return labels.get(file) ?? path.basename(file);
}

function location(range: { file: string; line: number; column: number }): string {
  return isVirtualFile(range.file) ? range.file : `${range.file}:${range.line}`;
}

function locationOf(range: SourceRange | ConfigProblem): SourceLocation {
  return { file: range.file, line: range.line, column: range.column, endLine: range.endLine, endColumn: range.endColumn };
}
