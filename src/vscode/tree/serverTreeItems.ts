// The rows of the "Servers" tree: a server row (with its tooltip text), the entries it shadows and the
// "Problems" node. The catalog and tool rows under a ready server are built in toolTreeItems.ts.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConfigSnapshot } from '../../core/config';
import type { ConfigProblem, EffectiveServer, ShadowedServer, SourceRange } from '../../core/config/types';
import {
  CATALOG_KINDS, ServerState, listingWarnings, redactCommandLine, redactText, redactUrl, secretsOf, serverWarnings, stderrExcerpt, type Catalog,
  type ServerView,
} from '../../core/lifecycle';
import { HELD_REASON, revealHiddenCharacters } from '../../core/sidebarSnapshot';
import { needsTrustDecision, trustDisplay, type DangerFlag, type TrustDecision } from '../../core/trust';
import { counted, nounFor } from '../../protocol/counts';
import { isVirtualFile } from '../config/configSources';
import { shortReason, stateIcon } from './stateIcons';
import { CATALOG_GROUPS, catalogRows } from './toolTreeItems';
import type { LifecycleSource, Row, SourceLocation, ToolStatusSource, TrustSource } from './treeModel';
import { toMarkdown, type TooltipLine } from './treeTooltips';

export function buildRows(
  snapshot: ConfigSnapshot, lifecycle: LifecycleSource, tools: ToolStatusSource | undefined, trust: TrustSource | undefined,
  signedIn?: (server: EffectiveServer) => boolean,
): Row[] {
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
  const rows = snapshot.servers.map((server) => {
    const row = serverRow(server, lifecycle.get(server.id), shadowedBy.get(server.id) ?? [], labels, tools, trust);
    if (signedIn?.(server)) row.data.contextValue += ' canSignOut';
    return row;
  });
  if (snapshot.problems.length > 0) rows.push(problemsRow(snapshot.problems));
  return rows;
}

function serverRow(server: EffectiveServer, view: ServerView | undefined, shadowed: ShadowedServer[], labels: Map<string, string>, tools: ToolStatusSource | undefined, trust: TrustSource | undefined): Row {
  const state = view?.state;
  const decision = needsTrustDecision(server) ? trust?.decide(server) : undefined;
  // Parked for trust: "not trusted" when refused; a change or Restricted Mode says why ("never trusted" needs no words).
  // A file being edited: "changed — waiting for trust" (no prompt yet), also while the trusted definition runs.
  const hold = decision ? trust?.waiting?.(server) : undefined;
  const waiting = decision && hold !== undefined ? trustDisplay(decision, hold) : undefined;
  const parked = waiting ?? (state?.kind === 'needsTrust' && decision ? trustDisplay(decision) : undefined);
  const label = parked?.label ?? (state ? ServerState.label(state) : 'not started');
  const held = state && ServerState.isActive(state) && decision?.state === 'needsTrust' ? HELD_REASON : undefined;
  const reason = waiting !== undefined && held !== undefined
    ? `${waiting.reason}; ${HELD_REASON}`
    : (state && ServerState.reason(state)) ?? (parked && (decision?.state !== 'needsTrust' || parked.changed) ? parked.reason : held);
  const lines = serverTooltip(server, shadowed, labels, view, decision, needsTrustDecision(server) ? trust?.flags(server) ?? [] : []);
  const context = ['server', `scope-${server.scope}`, `state-${state?.kind ?? 'notStarted'}`, `transport-${server.launch.type}`];
  if (server.needsTrust) context.push('needsTrust');
  if (isVirtualFile(server.source.file)) context.push('virtual');
  if (state) context.push(...actionsOf(state));
  const catalog = view?.state.kind === 'ready' ? catalogRows(server.id, view.catalog, tools) : [];
  // Ready, but a listing failed: said in the description, not only the tooltip, or it reads as "no tools".
  const warnings = view ? serverWarnings(view) : [];
  const warning = !reason && warnings.length > 0 ? ` ⚠ ${shortReason(warnings[0])}${warnings.length > 1 ? ` (+${warnings.length - 1})` : ''}` : '';
  return {
    data: {
      id: `server:${server.id}`,
      kind: 'server',
      serverId: server.id,
      state: state?.kind ?? 'notStarted',
      label: server.id,
      description: `${server.scope} · ${server.launch.type} · ${label}${reason ? `: ${shortReason(reason)}` : warning}`,
      tooltip: lines.map((l) => (l.code !== undefined ? `${l.text}${l.code}` : l.text)).join('\n'),
      contextValue: context.join(' '),
      location: locationOf(server.source),
      children: [],
    },
    icon: stateIcon(state, warnings.length > 0),
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
  if (ServerState.canRestart(state)) actions.push('canRestart');
  if (state.kind === 'needsSignIn') actions.push('canSignIn');
  return actions;
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
      description: errors > 0 ? counted(errors, 'error') : '',
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

function serverTooltip(
  server: EffectiveServer, shadowed: ShadowedServer[], labels: Map<string, string>, view: ServerView | undefined,
  decision: TrustDecision | undefined, flags: readonly DangerFlag[],
): TooltipLine[] {
  const launch = server.launch;
  // Variables are expanded here (`--api-key=${env:TOK}`), and tooltips get screen-shared.
  const secrets = secretsOf(launch);
  const state = view?.state;
  const lines: TooltipLine[] = [{ text: server.id === server.name ? server.name : `${server.id} (${server.name})` }];
  const plugin = labels.get(server.source.file);
  lines.push({ text: `Scope: ${server.scope}${plugin && server.scope === 'plugin' ? ` (${plugin})` : ''}${server.scope === 'managed' ? ' (provided by your administrator\'s policy; it cannot be changed here)' : ''}` });
  if (decision) lines.push({ text: `Trust: ${trustDisplay(decision)?.label ?? 'trusted'} (${decision.reason})` });
  lines.push(...stateLines(state, view?.catalog));
  const dropped = view?.droppedLogLines ?? 0;
  if (dropped > 0) lines.push({ text: `⚠ ${counted(dropped, 'log line')} dropped: the server logged faster than its log takes` });
  for (const flag of flags) lines.push({ text: `⚠ ${flag.id}: ${flag.reason}${flag.detail !== undefined ? ` (${revealHiddenCharacters(redactText(flag.detail, secrets))})` : ''}` });
  lines.push({ text: `Transport: ${launch.type}` });
  if (launch.type === 'stdio') {
    lines.push({ text: 'Command: ', code: redactCommandLine(launch.command ?? '', launch.args, secrets) });
    if (launch.cwd) lines.push({ text: 'Working directory: ', code: redactText(launch.cwd, secrets) });
    const env = Object.keys(launch.env);
    if (env.length > 0) lines.push({ text: `Environment: ${env.join(', ')}` });
    if (launch.envFile !== undefined) lines.push({ text: envFileText(launch.envFile, launch.envFileVars, secrets) });
  } else {
    lines.push({ text: 'URL: ', code: redactUrl(launch.url ?? '', secrets) });
    const headers = Object.keys(launch.headers);
    if (headers.length > 0) lines.push({ text: `Headers: ${headers.join(', ')}` });
  }
  lines.push({ text: rootsText(launch.roots) });
  if (server.needsInput.length > 0) lines.push({ text: `Asks for: ${server.needsInput.join(', ')}` });
  lines.push({ text: `Defined at ${location(server.source)}` });
  lines.push({ text: `Fingerprint: ${server.fingerprint.slice(0, 12)}` });
  for (const entry of shadowed) lines.push({ text: `Shadows the ${entry.scope} entry in ${entry.source.file}` });
  return lines;
}

/** "State: …" and what goes with it: the reason, hint and stderr excerpt of a failure, the catalog of a ready server. */
function stateLines(state: ServerState | undefined, catalog: Catalog | undefined): TooltipLine[] {
  if (!state) return [{ text: 'State: not started' }];
  const lines: TooltipLine[] = [{ text: `State: ${ServerState.label(state)}` }];
  switch (state.kind) {
    case 'ready': {
      const info = catalog?.serverInfo;
      if (info) lines.push({ text: `Server: ${revealHiddenCharacters(`${info.title ?? info.name} ${info.version}`.trim())}` });
      if (catalog?.protocolVersion) lines.push({ text: `Protocol: MCP ${revealHiddenCharacters(catalog.protocolVersion)}` });
      lines.push({ text: `Started in ${state.startMs} ms` });
      if (catalog) {
        const counts = CATALOG_KINDS.map((kind) => counted(catalog[kind].length, CATALOG_GROUPS[kind].noun));
        lines.push({ text: `Offers ${counts.join(', ')}` });
        const hidden = catalog.hiddenTools ?? 0;
        if (hidden > 0) lines.push({ text: `${counted(hidden, 'more tool', 'more tools')} ${nounFor(hidden, 'is', 'are')} hidden by allowedTools/disabledTools` });
        for (const refused of catalog.refusedTools ?? []) lines.push({ text: `⚠ Tool ${revealHiddenCharacters(refused.name)} refused: ${refused.reason}` });
        for (const warning of listingWarnings(catalog)) lines.push({ text: `⚠ ${revealHiddenCharacters(warning)}` });
      }
      break;
    }
    case 'failed': case 'crashed': {
      lines.push({ text: `Reason: ${revealHiddenCharacters(state.error)}` });
      if (state.kind === 'failed' && state.hint !== undefined) lines.push({ text: `Hint: ${revealHiddenCharacters(state.hint)}` });
      // The lines stating the error first, then the tail (the log has every line).
      for (const line of stderrExcerpt(state.stderrTail)) lines.push({ text: 'stderr: ', code: revealHiddenCharacters(line) });
      break;
    }
    case 'restarting':
      lines.push({ text: `Reason: ${revealHiddenCharacters(state.reason)}` });
      break;
    case 'needsTrust':
      lines.push({ text: 'Defined by the repository: Start asks whether you trust it.' });
      break;
    case 'stopping':
      lines.push({ text: 'Stop again to end the process at once.' });
      break;
    case 'starting': case 'stopped': case 'disabled':
      break;
  }
  return lines;
}

/** Which MCP roots the server gets: the entry's `roots`, or the workspace folders it follows. */
function rootsText(roots: false | readonly string[] | undefined): string {
  if (roots === false) return 'Roots: none ("roots": false: the server keeps the folders its arguments name)';
  if (roots !== undefined) return `Roots: ${roots.length > 0 ? roots.map(revealHiddenCharacters).join(', ') : 'none'} (its "roots")`;
  const folders = vscode.workspace.workspaceFolders ?? [];
  return `Roots: ${folders.length > 0 ? folders.map((folder) => revealHiddenCharacters(folder.uri.fsPath)).join(', ') : 'none'} (the workspace folders)`;
}

/** The env file and the names it defines (never a value). */
function envFileText(file: string, vars: Readonly<Record<string, string>> | undefined, secrets: readonly string[]): string {
  const names = vars === undefined ? '' : ` (defines ${Object.keys(vars).join(', ') || 'nothing'})`;
  return `Env file: ${revealHiddenCharacters(redactText(file, secrets))}${names}`;
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
