// Renders the whole view from (snapshot, ui state). Lists are short, so every snapshot rebuilds the
// DOM; focus is carried across by `data-focus-key` so keyboard users keep their place.
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import {
  baseName, type ProblemRow, type Scope, type ServerRow, type ServerStateKind, type ShadowedRow, type SidebarSnapshot, type SourceLocation,
} from '../src/protocol/sidebar';
import type { OpenSourceParams, ServerAction, SidebarCommand } from '../src/protocol/sidebarMessages';
import { counted } from '../src/protocol/counts';
import { approvalCard, modePicker, type ApprovalActions } from './approvals';
import { h, icon, type IconName, type Props } from './dom';
import { draftOf, type CardDraft } from './drafts';
import { samplingCard, type SamplingActions } from './sampling';
import { elicitationCard, elicitationDraftOf, type ElicitationActions, type ElicitationDraft } from './elicitations';
import { heldOutputCard, type HeldOutputActions } from './outputReview';
import { historyList, NO_FILTER, rulesList, type HistoryActions, type HistoryFilterState } from './history';
import type { SectionId, UiState } from './state';

export interface ViewModel {
  /** Undefined until the first snapshot arrives. */
  readonly snapshot: SidebarSnapshot | undefined;
  readonly ui: UiState;
  /** A failed request, shown until dismissed or the next request. */
  readonly notice: string | undefined;
  /** What the person did with each pending card so far (a card without one shows as the caller sent it). */
  readonly drafts?: ReadonlyMap<string, CardDraft>;
  readonly historyFilter?: HistoryFilterState;
  /** What the person filled into each pending form so far. */
  readonly elicitationDrafts?: ReadonlyMap<string, ElicitationDraft>;
  /** Sampling requests whose answer is on its way. */
  readonly samplingBusy?: ReadonlySet<string>;
}

export interface Actions extends ApprovalActions, HistoryActions, ElicitationActions, SamplingActions, HeldOutputActions {
  openSource(params: OpenSourceParams): void;
  runCommand(command: SidebarCommand): void;
  serverAction(serverId: string, action: ServerAction): void;
  toggleSection(id: SectionId): void;
  dismissNotice(): void;
}

export function render(root: HTMLElement, model: ViewModel, actions: Actions): void {
  const focusKey = focusedKey(root);
  const { snapshot } = model;
  root.setAttribute('aria-busy', snapshot ? 'false' : 'true');
  const pending = snapshot?.approvals.pending ?? [];
  root.replaceChildren(...(snapshot ? [
    model.notice !== undefined ? renderNotice(model.notice, actions) : null,
    // What a server asks for comes first, and is never hidden behind a collapsed section.
    snapshot.elicitations.length + snapshot.sampling.length > 0 && section('requests', 'Server requests', snapshot.elicitations.length + snapshot.sampling.length, { ...model.ui, collapsed: model.ui.collapsed.filter((id) => id !== 'requests') }, actions, () =>
      h('div', { className: 'approvals', attrs: { 'aria-live': 'polite' } },
        ...snapshot.sampling.map((card) => samplingCard(card, model.samplingBusy?.has(card.id) ?? false, actions)),
        ...snapshot.elicitations.map((card) => elicitationCard(card, model.elicitationDrafts?.get(card.id) ?? elicitationDraftOf(card), actions)))),
    heldOutputsSection(snapshot, model, actions),
    // A waiting call is never hidden behind a collapsed section.
    section('approvals', 'Approvals', pending.length, pending.length > 0 ? { ...model.ui, collapsed: model.ui.collapsed.filter((id) => id !== 'approvals') } : model.ui, actions, () =>
      h('div', { className: 'approvals' },
        modePicker(snapshot.approvals.mode, actions, snapshot.approvals.modeLockedBy),
        pending.length > 0
          ? h('div', { className: 'approval-cards', attrs: { 'aria-live': 'polite' } },
            ...pending.map((card) => approvalCard(card, model.drafts?.get(card.id) ?? draftOf(card), actions)))
          : h('p', { className: 'muted empty-list', attrs: { 'data-testid': 'no-approvals' } }, 'No tool calls wait for you.'))),
    section('servers', 'Servers', snapshot.servers.length, model.ui, actions, () =>
      snapshot.servers.length > 0
        ? h('ul', { className: 'list', attrs: { 'aria-label': 'Servers' } }, ...snapshot.servers.map((s) => serverRow(s, actions)))
        : emptyState(snapshot, actions)),
    snapshot.shadowed.length > 0 && section('shadowed', 'Shadowed', snapshot.shadowed.length, model.ui, actions, () =>
      h('ul', { className: 'list', attrs: { 'aria-label': 'Shadowed servers' } }, ...snapshot.shadowed.map((s) => shadowedRow(s, actions)))),
    snapshot.problems.length > 0 && section('problems', 'Problems', snapshot.problems.length, model.ui, actions, () =>
      h('ul', { className: 'list', attrs: { 'aria-label': 'Problems' } }, ...snapshot.problems.map((p, i) => problemRow(p, i, actions)))),
    section('rules', 'Rules', snapshot.approvals.rules.length, model.ui, actions, () => rulesList(snapshot.approvals.rules, actions)),
    section('history', 'History', snapshot.approvals.history.length, model.ui, actions, () =>
      historyList(snapshot.approvals.history, model.historyFilter ?? NO_FILTER, actions)),
  ].filter((n): n is HTMLElement => n instanceof HTMLElement) : [
    h('p', { className: 'loading' }, 'Loading servers…'),
  ]));
  if (focusKey !== undefined) restoreFocus(root, focusKey);
}

/** Flagged tool results held for review: never hidden behind a collapsed section. */
function heldOutputsSection(snapshot: SidebarSnapshot, model: ViewModel, actions: Actions): HTMLElement | false {
  const held = snapshot.heldOutputs ?? [];
  if (held.length === 0) return false;
  return section('heldOutputs', 'Tool results to review', held.length, { ...model.ui, collapsed: model.ui.collapsed.filter((id) => id !== 'heldOutputs') }, actions, () =>
    h('div', { className: 'approvals', attrs: { 'aria-live': 'polite' } }, ...held.map((card) => heldOutputCard(card, actions))));
}

function section(id: SectionId, title: string, count: number, ui: UiState, actions: Actions, body: () => HTMLElement): HTMLElement {
  const open = !ui.collapsed.includes(id);
  const bodyId = `section-${id}`;
  return h('section', { className: `section${open ? ' open' : ''}`, attrs: { 'data-section': id } },
    h('h2', { className: 'section-header' },
      h('button', {
        className: 'section-toggle',
        attrs: { type: 'button', 'aria-expanded': String(open), 'aria-controls': bodyId, 'data-focus-key': `section:${id}` },
        onClick: () => actions.toggleSection(id),
      },
      icon('chevron', 'chevron'),
      h('span', { className: 'section-title' }, title),
      badge(String(count), 'counter', 'section-count', { 'aria-hidden': 'true' }),
      h('span', { className: 'visually-hidden' }, `(${counted(count, 'item')})`))),
    open ? h('div', { className: 'section-body', attrs: { id: bodyId } }, body()) : h('div', { attrs: { id: bodyId, hidden: '' } }));
}

/** The icon beside each state's label (none for states that need no emphasis). */
const STATE_ICON: { readonly [K in ServerStateKind]: IconName | undefined } = {
  notStarted: undefined,
  stopped: undefined,
  starting: 'spinner',
  restarting: 'spinner',
  stopping: 'spinner',
  ready: 'pass',
  failed: 'error',
  crashed: 'error',
  needsTrust: 'shield',
  needsSignIn: 'warning',
  disabled: undefined,
};

/** What a row offers to do in each state: a running server can be stopped and restarted, failures get a way forward, a stopped server a way back. */
const STATE_ACTIONS: { readonly [K in ServerStateKind]: readonly { action: ServerAction; label: string }[] } = {
  notStarted: [],
  stopped: [{ action: 'start', label: 'Start' }],
  starting: [{ action: 'stop', label: 'Stop' }],
  restarting: [{ action: 'stop', label: 'Stop' }, { action: 'showLogs', label: 'Show logs' }],
  // The process is going (stdin closed, then SIGTERM): a second Stop ends it at once.
  stopping: [{ action: 'stop', label: 'Stop now' }],
  ready: [{ action: 'stop', label: 'Stop' }, { action: 'restart', label: 'Restart' }, { action: 'showLogs', label: 'Show logs' }],
  failed: [{ action: 'showLogs', label: 'Show logs' }, { action: 'restart', label: 'Retry' }],
  crashed: [{ action: 'showLogs', label: 'Show logs' }, { action: 'restart', label: 'Restart' }],
  // Opens the trust prompt for this server (the same as Start in the Servers view).
  needsTrust: [{ action: 'start', label: 'Trust…' }],
  // Opens the authorization page in the browser (after naming the site), then starts the server.
  needsSignIn: [{ action: 'signIn', label: 'Sign in' }, { action: 'showLogs', label: 'Show logs' }],
  disabled: [],
};

function serverRow(row: ServerRow, actions: Actions): HTMLElement {
  const where = location(row.source);
  const folder = row.folder !== undefined && row.id !== row.name ? baseName(row.folder) : undefined;
  // Before the lifecycle knows a server, the config's flags say what to expect; after, the state says it.
  const known = row.state !== 'notStarted';
  const failure = row.state === 'failed' || row.state === 'crashed';
  const stateIcon = STATE_ICON[row.state];
  const counts = row.counts;
  return h('li', {
    className: `server-row state-${row.state}${row.disabled ? ' is-disabled' : ''}`,
    attrs: { 'data-testid': 'server-row', 'data-server-id': row.id, 'data-state': row.state },
  },
  h('div', { className: 'row-line' },
    h('button', {
      className: 'server-name link-button',
      attrs: { type: 'button', 'data-testid': 'server-name', title: `Open definition (${where})`, 'data-focus-key': `server:${row.id}` },
      onClick: () => actions.openSource({ target: 'server', serverId: row.id }),
    }, row.name),
    folder !== undefined && h('span', { className: 'server-folder', attrs: { title: row.folder } }, folder),
    badge(row.scope, 'default', `scope-badge scope-${row.scope}`, { 'data-testid': 'server-scope', title: SCOPE_TITLE[row.scope] }),
    !known && row.needsTrust && h('span', {
      className: 'marker marker-trust',
      attrs: { 'data-testid': 'server-needs-trust', title: 'Defined by the repository: it will not start until you trust it' },
    }, icon('shield'), 'needs trust'),
    !known && row.disabled && h('span', { className: 'marker marker-disabled', attrs: { 'data-testid': 'server-disabled' } }, 'disabled'),
    h('span', { className: 'row-status' },
      ...toolReviewMarkers(row),
      refusedToolsMarker(row),
      counts && h('span', {
        className: 'server-tools',
        attrs: {
          'data-testid': 'server-tools',
          'data-count': String(counts.tools),
          title: [counted(counts.tools, 'tool'), counted(counts.resources, 'resource'), counted(counts.resourceTemplates, 'resource template'), counted(counts.prompts, 'prompt')].join(', '),
        },
      }, counted(counts.tools, 'tool')),
      h('span', {
        className: `server-state state-${row.state}`,
        attrs: {
          title: row.state === 'needsTrust' ? row.stateReason ?? 'Defined by the repository: it starts once you trust it' : row.stateReason,
        },
      },
      stateIcon !== undefined && icon(stateIcon, 'state-icon'),
      // The label alone carries the test id, so its text is exactly the state label.
      h('span', { attrs: { 'data-testid': 'server-state' } }, row.stateLabel)))),
  h('div', { className: 'row-detail' },
    h('span', { className: 'server-transport', attrs: { 'data-testid': 'server-transport' } }, row.transport),
    h('span', { className: 'server-launch', attrs: { 'data-testid': 'server-launch', title: row.launchSummary } }, ...wrappable(row.launchSummary))),
  row.dangerFlags !== undefined && row.dangerFlags.length > 0 && h('ul', { className: 'danger-flags', attrs: { 'aria-label': 'Danger flags' } },
    ...row.dangerFlags.map((flag) => h('li', {
      className: 'danger-flag',
      attrs: { 'data-testid': 'server-danger', 'data-flag': flag.id, title: flag.detail !== undefined ? `${flag.reason}: ${flag.detail}` : flag.reason },
    }, icon('warning', 'danger-icon'), h('span', { className: 'danger-id' }, flag.id), ` ${flag.reason}`))),
  row.stateReason !== undefined && h('div', {
    className: failure ? 'row-error' : 'row-reason',
    attrs: { 'data-testid': failure ? 'server-error' : 'server-reason', title: row.stateReason },
  }, row.stateReason),
  STATE_ACTIONS[row.state].length > 0 && h('div', { className: 'row-actions' },
    ...STATE_ACTIONS[row.state].map(({ action, label }) => h('button', {
      className: 'link-button row-action',
      attrs: { type: 'button', 'data-testid': `server-action-${action}`, 'data-focus-key': `action:${row.id}:${action}` },
      onClick: () => actions.serverAction(row.id, action),
    }, label))));
}

/** A ready server's changed/new tools and flagged tools, each with what the tooltip lists. */
function toolReviewMarkers(row: ServerRow): (HTMLElement | false)[] {
  const review = row.toolReview;
  if (!review) return [];
  const changes = [review.changed > 0 && `${review.changed} changed`, review.new > 0 && `${review.new} new`].filter((t): t is string => !!t);
  const flaggedTitle = [
    `${review.flagged} ${review.flagged === 1 ? 'tool looks' : 'tools look'} like instructions aimed at the model${review.blocked > 0 ? ` (${review.blocked} blocked)` : ''}:`,
    ...review.flaggedTools.map((tool) => `${tool.name}: ${tool.reasons.join('; ')}`),
  ].join('\n');
  return [
    changes.length > 0 && h('span', {
      className: 'marker marker-tools-changed',
      attrs: {
        'data-testid': 'server-tools-changed',
        'data-changed': String(review.changed),
        'data-new': String(review.new),
        title: 'Tool definitions changed since you last accepted them, or tools that appeared later: review them in the Servers view',
      },
    }, icon('warning'), changes.join(' · ')),
    review.flagged > 0 && h('span', {
      className: 'marker marker-poisoning',
      attrs: { 'data-testid': 'server-poisoning', 'data-count': String(review.flagged), 'data-blocked': String(review.blocked), title: flaggedTitle },
    }, icon('warning'), `${review.flagged} flagged`),
  ];
}

/** The tools the host refused from a ready server's listing, each with its reason in the tooltip. */
function refusedToolsMarker(row: ServerRow): HTMLElement | false {
  const refused = row.refusedTools ?? [];
  if (refused.length === 0) return false;
  const title = [
    `${counted(refused.length, 'tool')} refused, left out of the catalog:`,
    ...refused.map((tool) => `${tool.name}: ${tool.reason}`),
  ].join('\n');
  return h('span', {
    className: 'marker marker-poisoning',
    attrs: { 'data-testid': 'server-tools-refused', 'data-count': String(refused.length), title },
  }, icon('warning'), `${refused.length} refused`);
}

function shadowedRow(row: ShadowedRow, actions: Actions): HTMLElement {
  return h('li', {},
    h('button', {
      className: 'row-button shadowed-row',
      attrs: {
        type: 'button',
        'data-testid': 'shadowed-row',
        title: `Open the shadowed definition (${location(row.source)})\nShadowed by ${row.shadowedBy.file}`,
        'data-focus-key': `shadowed:${row.source.file}:${row.source.line}:${row.source.column}`,
      },
      onClick: () => actions.openSource({ target: 'location', ...pick(row.source) }),
    },
    h('span', { className: 'shadowed-name' }, row.name),
    h('span', { className: 'muted' }, ` (${row.scope}) — shadowed by ${row.shadowedBy.scope} (${baseName(row.shadowedBy.file)})`)));
}

const SCOPE_TITLE = {
  managed: 'Managed: provided by your administrator\'s policy; it cannot be changed here',
  local: 'Local: your private servers for this workspace',
  project: 'Project: the workspace’s .mcp.json, shared through the repository',
  user: 'User: your servers for every workspace',
  plugin: 'Plugin: contributed by an installed extension',
} as const satisfies Record<Scope, string>;

const SEVERITY_LABEL = { error: 'Error', warning: 'Warning' } as const satisfies Record<ProblemRow['severity'], string>;

function problemRow(row: ProblemRow, index: number, actions: Actions): HTMLElement {
  return h('li', {},
    h('button', {
      className: `row-button problem severity-${row.severity}`,
      attrs: {
        type: 'button',
        'data-testid': 'problem',
        'data-severity': row.severity,
        title: `${location(row)} (${row.code})`,
        'data-focus-key': `problem:${index}:${location(row)}`,
      },
      onClick: () => actions.openSource({ target: 'location', ...pick(row) }),
    },
    icon(row.severity, 'severity-icon'),
    h('span', { className: 'problem-text' },
      h('span', { className: 'visually-hidden' }, `${SEVERITY_LABEL[row.severity]}: `),
      h('span', { className: 'problem-message' }, row.message),
      ' ',
      h('span', { className: 'problem-location muted' }, `${baseName(row.file)}:${row.line}:${row.column}`))));
}

const EMPTY_ACTIONS: readonly { command: SidebarCommand; label: string; testId: string }[] = [
  { command: 'openProjectServers', label: 'Open Project Servers', testId: 'open-project-servers' },
  { command: 'openUserServers', label: 'Open User Servers', testId: 'open-user-servers' },
  { command: 'openLocalServers', label: 'Open Local Servers', testId: 'open-local-servers' },
];

function emptyState(snapshot: SidebarSnapshot, actions: Actions): HTMLElement {
  const where = snapshot.workspaceName !== undefined ? ` for ${snapshot.workspaceName}` : '';
  return h('div', { className: 'empty', attrs: { 'data-testid': 'empty-state' } },
    h('p', {}, snapshot.problems.some((p) => p.severity === 'error')
      ? `No MCP servers could be read${where}. The problems below say why.`
      : `No MCP servers are configured${where}.`),
    h('p', { className: 'muted' }, 'Add servers to the project’s .mcp.json, to your user file, or to a private local file for this workspace.'),
    ...EMPTY_ACTIONS.map(({ command, label, testId }, i) =>
      h('vscode-button', {
        className: 'empty-action',
        // tabindex as an attribute: the element's own tabIndex only reflects after its first async
        // update, too late for restoreFocus right after a render.
        attrs: { block: '', secondary: i === 0 ? undefined : '', tabindex: '0', 'data-testid': testId, 'data-focus-key': `command:${command}` },
        onClick: () => actions.runCommand(command),
      }, label)),
    h('button', {
      className: 'link-button reload',
      attrs: { type: 'button', 'data-testid': 'reload', 'data-focus-key': 'command:refresh' },
      onClick: () => actions.runCommand('refresh'),
    }, 'Reload configuration'));
}

function renderNotice(text: string, actions: Actions): HTMLElement {
  return h('div', { className: 'notice', attrs: { role: 'alert', 'data-testid': 'notice' } },
    h('span', { className: 'notice-text' }, text),
    h('button', {
      className: 'notice-dismiss',
      attrs: { type: 'button', 'aria-label': 'Dismiss', title: 'Dismiss', 'data-focus-key': 'notice' },
      onClick: actions.dismissNotice,
    }, '×'));
}

function badge(text: string, variant: 'default' | 'counter', className: string, attrs: Props['attrs']): HTMLElement {
  const element = h('vscode-badge', { className, attrs }, text);
  element.variant = variant;
  return element;
}

/** Characters a long word of a command line or url may end a line after: path, query and list separators. */
const WORD_SEPARATORS = /(?<=[/\\?&=,])(?=[^\s/\\?&=,])/;

/**
 * A command line or url, whole, as nodes the browser wraps between words and, inside a long word, only
 * after a separator (`/`, `\\`, `?`, `&`, `=`, `,`): never in the middle of a name, not even at a
 * hyphen. Each piece is an unbreakable span; spaces and `<wbr>` between them are where a line may end.
 * The text content stays exactly `text`.
 */
export function wrappable(text: string): (Node | string)[] {
  const nodes: (Node | string)[] = [];
  for (const token of text.split(/(\s+)/)) {
    if (token === '') continue;
    if (/^\s+$/.test(token)) {
      nodes.push(token);
      continue;
    }
    token.split(WORD_SEPARATORS).forEach((piece, i) => {
      if (i > 0) nodes.push(document.createElement('wbr'));
      nodes.push(h('span', { className: 'nowrap' }, piece));
    });
  }
  return nodes;
}

const location = (at: SourceLocation): string => `${at.file}:${at.line}:${at.column}`;
const pick = (at: SourceLocation): SourceLocation => ({ file: at.file, line: at.line, column: at.column });

/** The focused element's key and, for a text field, where the caret and the scroll were. */
interface FocusState {
  readonly key: string;
  readonly selection?: { readonly start: number; readonly end: number; readonly scrollTop: number };
}

function focusedKey(root: HTMLElement): FocusState | undefined {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return undefined;
  const key = active.closest<HTMLElement>('[data-focus-key]')?.dataset.focusKey;
  if (key === undefined) return undefined;
  if ((active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) && active.selectionStart !== null && active.selectionEnd !== null) {
    return { key, selection: { start: active.selectionStart, end: active.selectionEnd, scrollTop: active.scrollTop } };
  }
  return { key };
}

function restoreFocus(root: HTMLElement, state: FocusState): void {
  const target = [...root.querySelectorAll<HTMLElement>('[data-focus-key]')].find((el) => el.dataset.focusKey === state.key);
  target?.focus();
  // Someone typing in a field keeps their place when a snapshot or a check redraws the card.
  if (state.selection && (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement)) {
    try {
      target.setSelectionRange(state.selection.start, state.selection.end);
    } catch {
      // Inputs of some types (search, number) have no selection to restore.
    }
    target.scrollTop = state.selection.scrollTop;
  }
}
