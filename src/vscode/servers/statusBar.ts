// The status bar item: how many servers are ready, starting, failed… ("MCP: 5 ready · 1 failed"), a
// tooltip with every server and its state, and a click that opens the Servers view.
import * as vscode from 'vscode';
import type { Event as CoreEvent } from '../../core/event';
import { ServerState, serverWarnings, type ServerView } from '../../core/lifecycle';
import { counted } from '../../protocol/counts';
import { shortReason, stateIconParts, WARNING_ICON_PARTS } from '../tree/stateIcons';

export const STATUS_BAR_ID = 'switchboard.status';
/** Internal (the leading `_` keeps it out of the palette): the item's text, for tests. */
export const STATUS_TEXT_COMMAND = '_switchboard.statusBarText';

/** What the item reads: every server (the ServerRegistry) and when it changed. */
export interface StatusSource {
  list(): ServerView[];
  readonly onDidChangeState: CoreEvent<unknown>;
  readonly onDidChangeCatalog: CoreEvent<unknown>;
  readonly onDidChangeServers: CoreEvent<void>;
}

/** The parts of the text, in display order; only non-zero ones are shown. */
const GROUPS: readonly { label: (n: number) => string; has: (s: ServerState) => boolean }[] = [
  { label: (n) => `${n} ready`, has: (s) => s.kind === 'ready' },
  { label: (n) => `${n} starting`, has: (s) => s.kind === 'starting' || s.kind === 'restarting' },
  { label: (n) => `${n} stopping`, has: (s) => s.kind === 'stopping' },
  { label: (n) => `${n} failed`, has: (s) => s.kind === 'failed' || s.kind === 'crashed' },
  { label: (n) => `${n} ${n === 1 ? 'needs' : 'need'} trust`, has: (s) => s.kind === 'needsTrust' },
  { label: (n) => `${n} ${n === 1 ? 'needs' : 'need'} sign-in`, has: (s) => s.kind === 'needsSignIn' },
  { label: (n) => `${n} stopped`, has: (s) => s.kind === 'stopped' },
  { label: (n) => `${n} disabled`, has: (s) => s.kind === 'disabled' },
];

/**
 * "MCP: 5 ready · 1 failed", "MCP: 3 ready (1 with a warning)" (`warned`: ready servers a listing of
 * which failed), or "MCP: no servers". Pure, for the item and for tests.
 */
export function statusText(states: readonly ServerState[], warned = 0): string {
  if (states.length === 0) return 'MCP: no servers';
  const parts = GROUPS.map((group) => ({ group, count: states.filter(group.has).length }))
    .filter(({ count }) => count > 0)
    .map(({ group, count }) => `${group.label(count)}${group === GROUPS[0] && warned > 0 ? ` (${warned} with a warning)` : ''}`);
  return `MCP: ${parts.join(' · ')}`;
}

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscriptions: { dispose(): void }[];
  private disposed = false;

  constructor(private readonly source: StatusSource, focusCommand: string) {
    // Left, after everything else of higher priority: it is context, not an alarm.
    this.item = vscode.window.createStatusBarItem(STATUS_BAR_ID, vscode.StatusBarAlignment.Left, -100);
    this.item.name = 'MCP Switchboard';
    this.item.command = { command: focusCommand, title: 'Show MCP Servers' };
    const update = (): void => this.update();
    // The catalog only changes the tooltip's tool counts, but a stale count is a wrong count.
    this.subscriptions = [
      source.onDidChangeState(update), source.onDidChangeCatalog(update), source.onDidChangeServers(update),
      vscode.commands.registerCommand(STATUS_TEXT_COMMAND, () => this.item.text),
    ];
    // Painted once activation has returned (a microtask later): until the configuration is read there is
    // nothing to count, and building the text and tooltip is no work for activation.
    void Promise.resolve().then(() => {
      if (this.disposed) return;
      this.update();
      this.item.show();
    });
  }

  dispose(): void {
    this.disposed = true;
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }

  private update(): void {
    const views = this.source.list();
    const states = views.map((view) => view.state);
    const warned = views.filter((view) => serverWarnings(view).length > 0).length;
    const icon = states.some((s) => s.kind === 'failed' || s.kind === 'crashed') ? '$(error)'
      : states.some((s) => s.kind === 'starting' || s.kind === 'restarting' || s.kind === 'stopping') ? '$(loading~spin)'
        : warned > 0 ? `$(${WARNING_ICON_PARTS.id})` : '$(plug)';
    const text = statusText(states, warned);
    this.item.text = `${icon} ${text}`;
    this.item.tooltip = tooltip(views);
    this.item.accessibilityInformation = { label: `MCP Switchboard: ${text.replace(/^MCP: /, '')}` };
  }
}

function tooltip(views: readonly ServerView[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = false;
  md.appendMarkdown('**MCP servers**\n\n');
  if (views.length === 0) md.appendText('None configured.');
  for (const view of views) {
    const [warning] = serverWarnings(view);
    const { id } = warning !== undefined ? WARNING_ICON_PARTS : stateIconParts(view.state);
    const reason = ServerState.reason(view.state) ?? warning;
    const tools = view.state.kind === 'ready' ? ` (${counted(view.catalog.tools.length, 'tool')})` : '';
    md.appendMarkdown(`$(${id.replace('~spin', '')}) `);
    md.appendText(`${view.id} — ${ServerState.label(view.state)}${tools}${reason ? `: ${shortReason(reason, 100)}` : ''}`);
    md.appendMarkdown('  \n');
  }
  md.appendMarkdown('\n\n');
  md.appendText('Click to open the Servers view.');
  return md;
}
