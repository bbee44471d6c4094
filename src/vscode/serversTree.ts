// The "Servers" tree: one row per effective server (with the entries it shadows as children) and a
// "Problems" node while any config file has problems. Every row opens the definition it stands for.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConfigSnapshot } from '../core/config';
import type { ConfigProblem, EffectiveServer, Scope, ShadowedServer, SourceRange } from '../core/config/types';
import { isVirtualFile } from './configSources';

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
  kind: 'server' | 'shadowed' | 'problems' | 'problem';
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

const SCOPE_COLORS: Record<Scope, string> = {
  local: 'charts.purple',
  project: 'charts.orange',
  user: 'charts.blue',
  plugin: 'charts.green',
};

interface Row {
  data: ServerItemData;
  icon: vscode.ThemeIcon;
  markdown: vscode.MarkdownString;
  children: Row[];
}

export class ServersTreeProvider implements vscode.TreeDataProvider<Row>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Row | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;
  private rows: { version: number; rows: Row[] } | undefined;

  constructor(private readonly config: ConfigSource) {
    this.subscription = config.onDidChange(() => {
      this.rows = undefined;
      this.changed.fire(undefined);
    });
  }

  /** The rows as the tree shows them right now, as plain data. */
  getServerItems(): ServerItemData[] {
    const strip = (row: Row): ServerItemData => ({ ...row.data, children: row.children.map(strip) });
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
    this.subscription.dispose();
    this.changed.dispose();
  }

  private currentRows(): Row[] {
    const snapshot = this.config.current;
    if (this.rows?.version !== snapshot.version) this.rows = { version: snapshot.version, rows: buildRows(snapshot) };
    return this.rows.rows;
  }
}

function buildRows(snapshot: ConfigSnapshot): Row[] {
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
  const rows = snapshot.servers.map((server) => serverRow(server, shadowedBy.get(server.id) ?? [], labels));
  if (snapshot.problems.length > 0) rows.push(problemsRow(snapshot.problems));
  return rows;
}

function serverRow(server: EffectiveServer, shadowed: ShadowedServer[], labels: Map<string, string>): Row {
  const state = server.disabled
    ? { word: 'disabled', icon: new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground')), context: 'disabled' }
    : { word: 'not started', icon: new vscode.ThemeIcon('circle-outline', new vscode.ThemeColor(SCOPE_COLORS[server.scope])), context: 'notStarted' };
  const lines = serverTooltip(server, shadowed, labels, state.word);
  const context = ['server', `scope-${server.scope}`, `state-${state.context}`, `transport-${server.launch.type}`];
  if (server.needsTrust) context.push('needsTrust');
  if (isVirtualFile(server.source.file)) context.push('virtual');
  return {
    data: {
      id: `server:${server.id}`,
      kind: 'server',
      label: server.id,
      description: `${server.scope} · ${server.launch.type} · ${state.word}`,
      tooltip: lines.map((l) => (l.code !== undefined ? `${l.text}${l.code}` : l.text)).join('\n'),
      contextValue: context.join(' '),
      location: locationOf(server.source),
      children: [],
    },
    icon: state.icon,
    markdown: toMarkdown(lines),
    children: shadowed.map((entry) => shadowedRow(server, entry, labels)),
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

function serverTooltip(server: EffectiveServer, shadowed: ShadowedServer[], labels: Map<string, string>, state: string): TooltipLine[] {
  const launch = server.launch;
  const lines: TooltipLine[] = [{ text: server.id === server.name ? server.name : `${server.id} (${server.name})` }];
  const plugin = labels.get(server.source.file);
  lines.push({ text: `Scope: ${server.scope}${plugin && server.scope === 'plugin' ? ` (${plugin})` : ''}${server.needsTrust ? ', needs trust' : ''}` });
  lines.push({ text: `State: ${state}` });
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
