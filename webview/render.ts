// Renders the whole view from (snapshot, ui state, drafts) with lit-html. Every list is keyed
// (`repeat`), so a new snapshot updates the rows and cards in place: focus, caret and what the
// person typed stay where they are, with nothing put back by hand.
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { html, nothing, render as renderTemplate, type TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import {
  baseName, type ProblemRow, type Scope, type ServerRow, type ServerStateKind, type ShadowedRow, type SidebarSnapshot, type SourceLocation,
} from '../src/protocol/sidebar';
import type { OpenSourceParams, ServerAction, SidebarCommand } from '../src/protocol/sidebarMessages';
import { counted } from '../src/protocol/counts';
import { approvalCards, modePicker, type ApprovalActions } from './approvals';
import { icon, opt, type IconName } from './dom';
import { draftOf, type CardDraft } from './drafts';
import { samplingCard, type SamplingActions } from './sampling';
import { elicitationCard, elicitationDraftOf, type ElicitationActions, type ElicitationDraft } from './elicitations';
import { historyList, NO_FILTER, rulesList, type HistoryActions, type HistoryFilterState } from './history';
import { heldOutputCard, type HeldOutputActions } from './outputReview';
import type { SectionId, UiState } from './state';
import { tasksList, type TaskActions } from './tasks';
import { trustCard, type TrustCardActions } from './trustCards';

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
  /** Cards that arrived while the person typed in another one: how many, and which way they are. */
  readonly newRequests?: { readonly count: number; readonly where: 'above' | 'below' };
}

export interface Actions extends ApprovalActions, HistoryActions, ElicitationActions, SamplingActions, HeldOutputActions, TaskActions, TrustCardActions {
  openSource(params: OpenSourceParams): void;
  runCommand(command: SidebarCommand): void;
  serverAction(serverId: string, action: ServerAction): void;
  toggleSection(id: SectionId): void;
  dismissNotice(): void;
  /** Scrolls to the cards the marker counts, and drops the marker. */
  showNewRequests(): void;
}

export function render(root: HTMLElement, model: ViewModel, actions: Actions): void {
  root.setAttribute('aria-busy', model.snapshot ? 'false' : 'true');
  renderTemplate(view(model, actions), root);
}

function view(model: ViewModel, actions: Actions): TemplateResult {
  const { snapshot } = model;
  if (!snapshot) return html`<p class="loading">Loading servers…</p>`;
  const pending = snapshot.approvals.pending;
  const requests = snapshot.elicitations.length + snapshot.sampling.length;
  // What waits for the person is never hidden behind a collapsed section.
  const opened = (id: SectionId): UiState => ({ ...model.ui, collapsed: model.ui.collapsed.filter((s) => s !== id) });
  return html`
    ${model.newRequests !== undefined && model.newRequests.count > 0 ? newRequestsMarker(model.newRequests, actions) : nothing}
    ${model.notice !== undefined ? renderNotice(model.notice, actions) : nothing}
    ${trustCardsSection(snapshot, opened, actions)}
    ${requests > 0 ? section('requests', 'Server requests', requests, opened('requests'), actions, () => html`<div class="approvals" aria-live="polite">
      ${repeat(snapshot.sampling, (card) => card.id, (card) => samplingCard(card, model.samplingBusy?.has(card.id) ?? false, actions))}
      ${repeat(snapshot.elicitations, (card) => card.id, (card) => elicitationCard(card, model.elicitationDrafts?.get(card.id) ?? elicitationDraftOf(card), actions))}
    </div>`) : nothing}
    ${heldOutputsSection(snapshot, opened, actions)}
    ${section('approvals', 'Approvals', pending.length, pending.length > 0 ? opened('approvals') : model.ui, actions, () => html`<div class="approvals">
      ${pending.length > 0
        // Waiting cards come first, before the mode picker: the first thing the view shows.
        ? html`${approvalCards(pending, (card) => model.drafts?.get(card.id) ?? draftOf(card), actions)}${modePicker(snapshot.approvals.mode, actions, snapshot.approvals.modeLockedBy)}`
        : html`${modePicker(snapshot.approvals.mode, actions, snapshot.approvals.modeLockedBy)}<p class="muted empty-list" data-testid="no-approvals">No tool calls wait for you.</p>`}
    </div>`)}
    ${tasksSection(snapshot, model.ui, opened, actions)}
    ${section('servers', 'Servers', snapshot.servers.length, model.ui, actions, () => (snapshot.servers.length > 0
      ? html`<ul class="list" aria-label="Servers">${repeat(snapshot.servers, (s) => s.id, (s) => serverRow(s, actions))}</ul>`
      : emptyState(snapshot, actions)))}
    ${snapshot.shadowed.length > 0 ? section('shadowed', 'Shadowed', snapshot.shadowed.length, model.ui, actions, () =>
      html`<ul class="list" aria-label="Shadowed servers">${repeat(snapshot.shadowed, (s) => location(s.source), (s) => shadowedRow(s, actions))}</ul>`) : nothing}
    ${snapshot.problems.length > 0 ? section('problems', 'Problems', snapshot.problems.length, model.ui, actions, () =>
      html`<ul class="list" aria-label="Problems">${repeat(snapshot.problems, (p, i) => `${i}:${location(p)}`, (p) => problemRow(p, actions))}</ul>`) : nothing}
    ${section('rules', 'Rules', snapshot.approvals.rules.length, model.ui, actions, () => rulesList(snapshot.approvals.rules, actions))}
    ${section('history', 'History', snapshot.approvals.history.length, model.ui, actions, () => historyList(snapshot.approvals.history, model.historyFilter ?? NO_FILTER, actions))}`;
}

/** Tool calls running as tasks (open while one runs), and the last ones that ended. */
function tasksSection(snapshot: SidebarSnapshot, ui: UiState, opened: (id: SectionId) => UiState, actions: Actions): TemplateResult | typeof nothing {
  const tasks = snapshot.tasks ?? [];
  if (tasks.length === 0) return nothing;
  // A running task is never hidden behind a collapsed section: its Cancel must be one click away.
  const running = tasks.some((task) => task.running);
  return section('tasks', 'Tasks', tasks.length, running ? opened('tasks') : ui, actions, () => tasksList(tasks, actions));
}

/** "1 new request above": stays at the edge of the view until clicked (then it scrolls there). */
function newRequestsMarker({ count, where }: { count: number; where: 'above' | 'below' }, actions: Actions): TemplateResult {
  return html`<button class=${`new-requests new-requests-${where}`} type="button" data-testid="new-requests" @click=${() => actions.showNewRequests()}>${counted(count, 'new request')} ${where}</button>`;
}

/** Definitions being edited that ask for trust: never hidden behind a collapsed section. */
function trustCardsSection(snapshot: SidebarSnapshot, opened: (id: SectionId) => UiState, actions: Actions): TemplateResult | typeof nothing {
  const cards = snapshot.trustCards ?? [];
  if (cards.length === 0) return nothing;
  return section('trust', 'Review to trust', cards.length, opened('trust'), actions, () =>
    html`<div class="approvals" aria-live="polite">${repeat(cards, (card) => card.serverId, (card) => trustCard(card, actions))}</div>`);
}

/** Flagged tool results held for review: never hidden behind a collapsed section. */
function heldOutputsSection(snapshot: SidebarSnapshot, opened: (id: SectionId) => UiState, actions: Actions): TemplateResult | typeof nothing {
  const held = snapshot.heldOutputs ?? [];
  if (held.length === 0) return nothing;
  return section('heldOutputs', 'Tool results to review', held.length, opened('heldOutputs'), actions, () =>
    html`<div class="approvals" aria-live="polite">${repeat(held, (card) => card.id, (card) => heldOutputCard(card, actions))}</div>`);
}

function section(id: SectionId, title: string, count: number, ui: UiState, actions: Actions, body: () => TemplateResult): TemplateResult {
  const open = !ui.collapsed.includes(id);
  const bodyId = `section-${id}`;
  return html`<section class=${`section${open ? ' open' : ''}`} data-section=${id}>
    <h2 class="section-header"><button class="section-toggle" type="button" aria-expanded=${String(open)} aria-controls=${bodyId} @click=${() => actions.toggleSection(id)}>${icon('chevron', 'chevron')}<span class="section-title">${title}</span>${badge(String(count), 'counter', 'section-count', { 'aria-hidden': 'true' })}<span class="visually-hidden">(${counted(count, 'item')})</span></button></h2>
    ${open ? html`<div class="section-body" id=${bodyId}>${body()}</div>` : html`<div id=${bodyId} hidden></div>`}
  </section>`;
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

/**
 * What a row offers to do in each state, in this order: a running server can be stopped and restarted,
 * failures get a way forward, a stopped server a way back. Restart shows only where the row says it
 * applies (the lifecycle's canRestart), so this table only places and names it.
 */
const STATE_ACTIONS: { readonly [K in ServerStateKind]: readonly { action: ServerAction; label: string }[] } = {
  notStarted: [],
  stopped: [{ action: 'start', label: 'Start' }],
  starting: [{ action: 'stop', label: 'Stop' }, { action: 'restart', label: 'Restart' }],
  restarting: [{ action: 'stop', label: 'Stop' }, { action: 'restart', label: 'Restart' }, { action: 'showLogs', label: 'Show logs' }],
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

function serverRow(row: ServerRow, actions: Actions): TemplateResult {
  const where = location(row.source);
  const folder = row.folder !== undefined && row.id !== row.name ? baseName(row.folder) : undefined;
  // Before the lifecycle knows a server, the config's flags say what to expect; after, the state says it.
  const known = row.state !== 'notStarted';
  const failure = row.state === 'failed' || row.state === 'crashed';
  const stateIcon = STATE_ICON[row.state];
  const rowActions = STATE_ACTIONS[row.state].filter(({ action }) => action !== 'restart' || row.canRestart);
  const counts = row.counts;
  const stateTitle = row.state === 'needsTrust' ? row.stateReason ?? 'Defined by the repository: it starts once you trust it' : row.stateReason;
  return html`<li class=${`server-row state-${row.state}${row.disabled ? ' is-disabled' : ''}`} data-testid="server-row" data-server-id=${row.id} data-state=${row.state}>
    <div class="row-line">
      <button class="server-name link-button" type="button" data-testid="server-name" title=${`Open definition (${where})`} @click=${() => actions.openSource({ target: 'server', serverId: row.id })}>${row.name}</button>
      ${folder !== undefined ? html`<span class="server-folder" title=${opt(row.folder)}>${folder}</span>` : nothing}
      ${badge(row.scope, 'default', `scope-badge scope-${row.scope}`, { 'data-testid': 'server-scope', title: SCOPE_TITLE[row.scope] })}
      ${!known && row.needsTrust ? html`<span class="marker marker-trust" data-testid="server-needs-trust" title="Defined by the repository: it will not start until you trust it">${icon('shield')}needs trust</span>` : nothing}
      ${!known && row.disabled ? html`<span class="marker marker-disabled" data-testid="server-disabled">disabled</span>` : nothing}
      <span class="row-status">${warningsMarker(row)}${toolReviewMarkers(row)}${refusedToolsMarker(row)}${counts ? html`<span class="server-tools" data-testid="server-tools" data-count=${String(counts.tools)}
        title=${[counted(counts.tools, 'tool'), counted(counts.resources, 'resource'), counted(counts.resourceTemplates, 'resource template'), counted(counts.prompts, 'prompt')].join(', ')}>${counted(counts.tools, 'tool')}</span>` : nothing}<span class=${`server-state state-${row.state}`} title=${opt(stateTitle)}>${stateIcon !== undefined ? icon(stateIcon, 'state-icon') : nothing}<span data-testid="server-state">${row.stateLabel}</span></span></span>
    </div>
    <div class="row-detail">
      <span class="server-transport" data-testid="server-transport">${row.transport}</span>
      <span class="server-launch" data-testid="server-launch" title=${row.launchSummary}>${wrappable(row.launchSummary)}</span>
    </div>
    ${row.dangerFlags !== undefined && row.dangerFlags.length > 0 ? html`<ul class="danger-flags" aria-label="Danger flags">${row.dangerFlags.map((flag) => html`<li class="danger-flag" data-testid="server-danger" data-flag=${flag.id} title=${flag.detail !== undefined ? `${flag.reason}: ${flag.detail}` : flag.reason}>${icon('warning', 'danger-icon')}<span class="danger-id">${flag.id}</span> ${flag.reason}</li>`)}</ul>` : nothing}
    ${row.stateReason !== undefined ? html`<div class=${failure ? 'row-error' : 'row-reason'} data-testid=${failure ? 'server-error' : 'server-reason'} title=${row.stateReason}>${row.stateReason}</div>` : nothing}
    ${row.stateHint !== undefined ? html`<div class="row-reason" data-testid="server-hint" title=${row.stateHint}>${row.stateHint}</div>` : nothing}
    ${rowActions.length > 0 ? html`<div class="row-actions">${rowActions.map(({ action, label }) => html`<button class="link-button row-action" type="button" data-testid=${`server-action-${action}`} @click=${() => actions.serverAction(row.id, action)}>${label}</button>`)}</div>` : nothing}
  </li>`;
}

/** A ready server's changed/new tools and flagged tools, each with what the tooltip lists. */
function toolReviewMarkers(row: ServerRow): TemplateResult | typeof nothing {
  const review = row.toolReview;
  if (!review) return nothing;
  const changes = [review.changed > 0 && `${review.changed} changed`, review.new > 0 && `${review.new} new`].filter((t): t is string => !!t);
  const flaggedTitle = [
    `${review.flagged} ${review.flagged === 1 ? 'tool looks' : 'tools look'} like instructions aimed at the model${review.blocked > 0 ? ` (${review.blocked} blocked)` : ''}:`,
    ...review.flaggedTools.map((tool) => `${tool.name}: ${tool.reasons.join('; ')}`),
  ].join('\n');
  return html`${changes.length > 0 ? html`<span class="marker marker-tools-changed" data-testid="server-tools-changed" data-changed=${String(review.changed)} data-new=${String(review.new)}
      title="Tool definitions changed since you last accepted them, or tools that appeared later: review them in the Servers view">${icon('warning')}${changes.join(' · ')}</span>` : nothing}${review.flagged > 0 ? html`<span class="marker marker-poisoning" data-testid="server-poisoning" data-count=${String(review.flagged)} data-blocked=${String(review.blocked)} title=${flaggedTitle}>${icon('warning')}${review.flagged} flagged</span>` : nothing}`;
}

/** A ready server's warnings (a listing that failed): the marker names the first, the tooltip all. */
function warningsMarker(row: ServerRow): TemplateResult | typeof nothing {
  const warnings = row.warnings ?? [];
  if (warnings.length === 0) return nothing;
  const [first] = warnings;
  const label = first.split(':', 1)[0];
  return html`<span class="marker marker-warning" data-testid="server-warning" data-count=${String(warnings.length)} title=${warnings.join('\n')}>${icon('warning')}${label}${warnings.length > 1 ? ` (+${warnings.length - 1})` : ''}</span>`;
}

/** The tools the host refused from a ready server's listing, each with its reason in the tooltip. */
function refusedToolsMarker(row: ServerRow): TemplateResult | typeof nothing {
  const refused = row.refusedTools ?? [];
  if (refused.length === 0) return nothing;
  const title = [
    `${counted(refused.length, 'tool')} refused, left out of the catalog:`,
    ...refused.map((tool) => `${tool.name}: ${tool.reason}`),
  ].join('\n');
  return html`<span class="marker marker-poisoning" data-testid="server-tools-refused" data-count=${String(refused.length)} title=${title}>${icon('warning')}${refused.length} refused</span>`;
}

function shadowedRow(row: ShadowedRow, actions: Actions): TemplateResult {
  return html`<li><button class="row-button shadowed-row" type="button" data-testid="shadowed-row"
    title=${`Open the shadowed definition (${location(row.source)})\nShadowed by ${row.shadowedBy.file}`}
    @click=${() => actions.openSource({ target: 'location', ...pick(row.source) })}><span class="shadowed-name">${row.name}</span><span class="muted"> (${row.scope}) — shadowed by ${row.shadowedBy.scope} (${baseName(row.shadowedBy.file)})</span></button></li>`;
}

const SCOPE_TITLE = {
  managed: 'Managed: provided by your administrator\'s policy; it cannot be changed here',
  local: 'Local: your private servers for this workspace',
  project: 'Project: the workspace’s .mcp.json, shared through the repository',
  user: 'User: your servers for every workspace',
  plugin: 'Plugin: contributed by an installed extension',
} as const satisfies Record<Scope, string>;

const SEVERITY_LABEL = { error: 'Error', warning: 'Warning' } as const satisfies Record<ProblemRow['severity'], string>;

function problemRow(row: ProblemRow, actions: Actions): TemplateResult {
  return html`<li><button class=${`row-button problem severity-${row.severity}`} type="button" data-testid="problem" data-severity=${row.severity}
    title=${`${location(row)} (${row.code})`} @click=${() => actions.openSource({ target: 'location', ...pick(row) })}>${icon(row.severity, 'severity-icon')}<span class="problem-text"><span class="visually-hidden">${SEVERITY_LABEL[row.severity]}: </span><span class="problem-message">${row.message}</span> <span class="problem-location muted">${baseName(row.file)}:${row.line}:${row.column}</span></span></button></li>`;
}

const EMPTY_ACTIONS: readonly { command: SidebarCommand; label: string; testId: string }[] = [
  { command: 'openProjectServers', label: 'Open Project Servers', testId: 'open-project-servers' },
  { command: 'openUserServers', label: 'Open User Servers', testId: 'open-user-servers' },
  { command: 'openLocalServers', label: 'Open Local Servers', testId: 'open-local-servers' },
];

function emptyState(snapshot: SidebarSnapshot, actions: Actions): TemplateResult {
  const where = snapshot.workspaceName !== undefined ? ` for ${snapshot.workspaceName}` : '';
  return html`<div class="empty" data-testid="empty-state">
    <p>${snapshot.problems.some((p) => p.severity === 'error') ? `No MCP servers could be read${where}. The problems below say why.` : `No MCP servers are configured${where}.`}</p>
    <p class="muted">Add servers to the project’s .mcp.json, to your user file, or to a private local file for this workspace.</p>
    ${EMPTY_ACTIONS.map(({ command, label, testId }, i) => html`<vscode-button class="empty-action" block ?secondary=${i !== 0} tabindex="0" data-testid=${testId} @click=${() => actions.runCommand(command)}>${label}</vscode-button>`)}
    <button class="link-button reload" type="button" data-testid="reload" @click=${() => actions.runCommand('refresh')}>Reload configuration</button>
  </div>`;
}

function renderNotice(text: string, actions: Actions): TemplateResult {
  return html`<div class="notice" role="alert" data-testid="notice"><span class="notice-text">${text}</span><button class="notice-dismiss" type="button" aria-label="Dismiss" title="Dismiss" @click=${actions.dismissNotice}>×</button></div>`;
}

function badge(text: string, variant: 'default' | 'counter', className: string, attrs: { readonly 'data-testid'?: string; readonly title?: string; readonly 'aria-hidden'?: string }): TemplateResult {
  return html`<vscode-badge class=${className} .variant=${variant} data-testid=${opt(attrs['data-testid'])} title=${opt(attrs.title)} aria-hidden=${opt(attrs['aria-hidden'])}>${text}</vscode-badge>`;
}

/** Characters a long word of a command line or url may end a line after: path, query and list separators. */
const WORD_SEPARATORS = /(?<=[/\\?&=,])(?=[^\s/\\?&=,])/;

/**
 * A command line or url, whole, as pieces the browser wraps between words and, inside a long word, only
 * after a separator (`/`, `\\`, `?`, `&`, `=`, `,`): never in the middle of a name, not even at a
 * hyphen. Each piece is an unbreakable span; spaces and `<wbr>` between them are where a line may end.
 * The text content stays exactly `text`.
 */
export function wrappable(text: string): (TemplateResult | string)[] {
  const parts: (TemplateResult | string)[] = [];
  for (const token of text.split(/(\s+)/)) {
    if (token === '') continue;
    if (/^\s+$/.test(token)) {
      parts.push(token);
      continue;
    }
    token.split(WORD_SEPARATORS).forEach((piece, i) => {
      parts.push(i > 0 ? html`<wbr><span class="nowrap">${piece}</span>` : html`<span class="nowrap">${piece}</span>`);
    });
  }
  return parts;
}

const location = (at: SourceLocation): string => `${at.file}:${at.line}:${at.column}`;
const pick = (at: SourceLocation): SourceLocation => ({ file: at.file, line: at.line, column: at.column });
