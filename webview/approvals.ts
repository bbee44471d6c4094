// The cards of calls that wait for the person: who calls what and why it asks, the tool's hints, the
// arguments as editable fields checked against the tool's schema, what the call would change (a
// unified diff folded to its changes, Show all, and Open Diff for VS Code's diff editor), and the
// answers. Each card is a lit-html template keyed by its id, so a new snapshot updates the fields in
// place: what the person types, the caret and the focus stay where they are.
import { html, nothing, type TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import { repeat } from 'lit-html/directives/repeat.js';
import { hasHiddenCharacters, visible } from '../src/protocol/visibleText';
import type { AnnotationHints, ApprovalCard, ApprovalMode, PreviewView, RuleScope } from '../src/protocol/approvals';
import { diffLines, foldDiff, hiddenLines, type DiffRow } from './diffFold';
import { argumentsOf, problemsByField, type CardDraft, type FieldDraft } from './drafts';
import { icon, opt, valueOf } from './dom';
import { ruleChoicePicker } from './ruleChoices';

/** The answers a card offers. */
export type CardAnswer = 'approve' | 'approveForSession' | 'alwaysWorkspace' | 'alwaysGlobal' | 'reject';

export const ANSWER_REMEMBER: { readonly [A in Exclude<CardAnswer, 'reject'>]: RuleScope | undefined } = {
  approve: undefined,
  approveForSession: 'session',
  alwaysWorkspace: 'workspace',
  alwaysGlobal: 'global',
};

export interface ApprovalActions {
  editArgument(cardId: string, field: string, value: string): void;
  editReason(cardId: string, value: string): void;
  /** Picks what "Approve for session" and "Always allow" cover on a card (a key of its "covers" menu). */
  chooseRule(cardId: string, key: string): void;
  answer(cardId: string, answer: CardAnswer): void;
  openDiff(cardId: string, change: number): void;
  /** Unfolds a card's diff: every line of it. */
  showWholeDiff(cardId: string): void;
  setMode(mode: ApprovalMode): void;
}

const MODE_LABELS: { readonly [M in ApprovalMode]: string } = {
  askBeforeEdits: 'Ask before edits',
  acceptEdits: 'Accept edits',
  acceptEverything: 'Accept everything',
};

/** The mode picker: which calls run without a card. */
export function modePicker(mode: ApprovalMode, actions: ApprovalActions, lockedBy?: string): TemplateResult {
  // The administrator's policy fixes the mode: shown, not changeable, and said why.
  const locked = lockedBy !== undefined;
  return html`<div class="mode-picker">
    <label for="approval-mode">Approval mode</label>
    <select class="mode-select" id="approval-mode" data-testid="approval-mode" ?disabled=${locked} aria-describedby=${opt(locked ? 'approval-mode-lock' : undefined)} @change=${(e: Event) => actions.setMode(valueOf(e) as ApprovalMode)}>
      ${(Object.keys(MODE_LABELS) as ApprovalMode[]).map((value) => html`<option value=${value} ?selected=${value === mode} .selected=${value === mode}>${MODE_LABELS[value]}</option>`)}
    </select>
    ${locked ? html`<span class="muted" id="approval-mode-lock" data-testid="approval-mode-lock">Fixed by your administrator's policy (${lockedBy})</span>` : nothing}
  </div>`;
}

/** The waiting cards, oldest first, each kept by its id across snapshots. */
export function approvalCards(cards: readonly ApprovalCard[], draftFor: (card: ApprovalCard) => CardDraft, actions: ApprovalActions): TemplateResult {
  return html`<div class="approval-cards" aria-live="polite">
    ${repeat(cards, (card) => card.id, (card) => approvalCard(card, draftFor(card), actions))}
  </div>`;
}

export function approvalCard(card: ApprovalCard, draft: CardDraft, actions: ApprovalActions): TemplateResult {
  const local = argumentsOf(draft);
  const jsonErrors = local.ok ? new Map<string, string>() : local.errors;
  const problems = problemsByField(draft.problems);
  const fieldNames = new Set(draft.fields.map((f) => f.name));
  const general = [...problems.entries()].filter(([field]) => !fieldNames.has(field)).flatMap(([field, messages]) =>
    messages.map((message) => (field === '' ? message : `${field}: ${message}`)));
  const blocked = !local.ok || draft.problems.length > 0 || draft.busy;
  const titleId = `card-title-${card.id}`;
  return html`<article class="approval-card" data-testid="approval-card" data-approval-id=${card.id} aria-labelledby=${titleId}>
    <header class="card-header">
      <h3 class="card-title" id=${titleId}><span class="card-tool" data-testid="approval-tool">${card.tool}</span><span class="muted"> on </span><span class="card-server" data-testid="approval-server">${card.serverName}</span></h3>
      <div class="card-qualified muted" data-testid="approval-qualified" title="The name the model knows this tool by">${card.qualifiedName}</div>
      ${hintBadges(card.annotations, card.serverTrusted)}
    </header>
    <p class="card-reason" data-testid="approval-reason"><strong>Why it asks: </strong>${card.reason}.</p>
    <p class="card-caller muted">Asked by ${callerWords(card.caller)}.</p>
    ${card.signatures !== undefined && card.signatures.length > 0 ? html`<p class="card-signatures" data-testid="approval-signatures">“Always allow” applies to the commands ${card.signatures.map((signature, i) => html`${i > 0 ? ', ' : ''}<code>${signature}</code>`)}, not to the whole tool.</p>` : nothing}
    <fieldset class="card-arguments">
      <legend>${draft.edited ? 'Arguments (edited)' : 'Arguments'}</legend>
      ${repeat(draft.fields, (field) => field.name, (field) => argumentField(card.id, field, jsonErrors.get(field.name), problems.get(field.name) ?? [], actions))}
      ${draft.fields.length === 0 ? html`<p class="muted">This tool takes no arguments.</p>` : nothing}
      ${general.length > 0 ? html`<ul class="field-errors" data-testid="approval-problems" role="alert">${general.map((message) => html`<li>${message}</li>`)}</ul>` : nothing}
    </fieldset>
    ${draft.preview !== undefined ? previewBlock(card, draft.preview, draft, actions) : nothing}
    ${cardActions(card, draft, blocked, actions)}
  </article>`;
}

/**
 * What the person can answer: the approvals (once, for the session, always) and Reject with its
 * reason. Kept apart from the card's body so the choices can grow without touching the rest.
 */
export function cardActions(card: ApprovalCard, draft: CardDraft, blocked: boolean, actions: ApprovalActions): TemplateResult {
  const local = argumentsOf(draft);
  return html`${ruleChoicePicker(card, local.ok ? local.args : card.args, draft.ruleChoice, (key) => actions.chooseRule(card.id, key))}
    <div class="card-answers">
      ${answerButton(card, 'approve', 'Approve', blocked, actions, true)}
      ${answerButton(card, 'approveForSession', 'Approve for session', blocked, actions)}
      ${answerButton(card, 'alwaysWorkspace', 'Always allow (this workspace)', blocked, actions)}
      ${answerButton(card, 'alwaysGlobal', 'Always allow (everywhere)', blocked, actions)}
    </div>
    <div class="card-reject">
      <label for=${`reason-${card.id}`}>Reason (optional; the caller sees it)</label>
      <input class="reason-input" id=${`reason-${card.id}`} type="text" data-testid="approval-reason-input" maxlength="2000"
        .value=${live(draft.reason)} @input=${(e: Event) => actions.editReason(card.id, valueOf(e))}>
      <button class="answer-button reject-button" type="button" data-testid="approval-reject" ?disabled=${draft.busy} @click=${() => actions.answer(card.id, 'reject')}>Reject</button>
    </div>`;
}

function answerButton(card: ApprovalCard, answer: CardAnswer, label: string, disabled: boolean, actions: ApprovalActions, primary = false): TemplateResult {
  return html`<button class=${`answer-button${primary ? ' primary' : ''}`} type="button" data-testid=${`approval-${answer}`}
    ?disabled=${disabled} title=${opt(disabled ? 'Fix the arguments first' : undefined)} @click=${() => actions.answer(card.id, answer)}>${label}</button>`;
}

/** What a multi-line field shows as itself: its line breaks and tabs are visible there. */
const FIELD_KEEPS = '\n\t';

function argumentField(cardId: string, field: FieldDraft, jsonError: string | undefined, problems: readonly string[], actions: ApprovalActions): TemplateResult {
  const id = `arg-${cardId}-${field.name}`;
  const errorId = `${id}-error`;
  const hiddenId = `${id}-hidden`;
  const errors = [...(jsonError !== undefined ? [jsonError] : []), ...problems];
  // The field keeps the real value (what is sent); the escaped form beside it is what a person can read.
  const hidden = hasHiddenCharacters(field.value, FIELD_KEEPS);
  const describedBy = [hidden ? hiddenId : undefined, errors.length > 0 ? errorId : undefined].filter(Boolean).join(' ');
  const lines = Math.min(12, Math.max(field.kind === 'json' ? 2 : 1, field.value.split('\n').length));
  return html`<div class=${`arg-field${errors.length > 0 ? ' invalid' : ''}`} data-testid="approval-field" data-arg=${field.name}>
    <label class="arg-label" for=${id} title=${opt(field.description)}><code>${field.name}</code>${field.required ? html`<span class="muted"> (required)</span>` : nothing}${field.kind === 'json' ? html`<span class="muted"> JSON</span>` : nothing}</label>
    <textarea class=${`arg-input arg-${field.kind}`} id=${id} rows=${lines} spellcheck="false" data-testid="approval-arg" data-arg=${field.name}
      aria-invalid=${opt(errors.length > 0 ? 'true' : undefined)} aria-describedby=${opt(describedBy === '' ? undefined : describedBy)}
      .value=${live(field.value)} @input=${(e: Event) => actions.editArgument(cardId, field.name, valueOf(e))}></textarea>
    ${hidden ? html`<p class="hidden-characters" id=${hiddenId} data-testid="approval-hidden-characters">Holds invisible or direction-changing characters, shown escaped: <code>${visible(field.value, FIELD_KEEPS)}</code></p>` : nothing}
    ${errors.length > 0 ? html`<div class="field-error" id=${errorId} data-testid="approval-field-error" role="alert">${errors.join('; ')}</div>` : nothing}
  </div>`;
}

const CHANGE_WORDS = { create: 'new file', move: 'move', modify: 'modify' } as const;

function previewBlock(card: ApprovalCard, preview: PreviewView, draft: CardDraft, actions: ApprovalActions): TemplateResult {
  return html`<section class="card-preview" data-testid="approval-preview" aria-label="What the call would change">
    <h4>${draft.edited ? 'What the edited call would change' : 'What the call would change'}</h4>
    ${preview.error !== undefined ? html`<p class="preview-error" data-testid="approval-preview-error" role="alert">${icon('error')} The server would refuse this call: ${preview.error}</p>` : nothing}
    ${preview.outsideRoots !== undefined && preview.outsideRoots.length > 0 ? html`<p class="preview-outside" data-testid="approval-outside-roots">${icon('warning')} Outside every workspace folder: ${preview.outsideRoots.join(', ')}</p>` : nothing}
    ${preview.dryRun === true ? html`<p class="muted">A dry run: the server only answers with its diff and changes nothing.</p>` : nothing}
    ${preview.changes.length > 0 ? html`<ul class="preview-changes">${preview.changes.map((change, index) => html`<li class="preview-change" data-testid="approval-change" data-kind=${change.kind}>
        <span class=${`change-kind change-${change.kind}`}>${CHANGE_WORDS[change.kind]}</span>
        <span class="change-path" title=${change.path}>${change.path}</span>${change.to !== undefined ? html`<span> → <span class="change-path" title=${change.to}>${change.to}</span></span>` : nothing}
        <button class="link-button open-diff" type="button" data-testid="approval-open-diff" @click=${() => actions.openDiff(card.id, index)}>Open Diff</button>
      </li>`)}</ul>` : nothing}
    ${preview.diff !== '' ? diffView(card.id, preview.diff, draft.wholeDiff, actions) : nothing}
    ${preview.diffTruncated === true ? html`<p class="muted">The diff is longer than a card shows: Open Diff shows all of it.</p>` : nothing}
  </section>`;
}

/** A unified diff, one line per row, added and removed lines marked by more than colour; a long one folded. */
function diffView(cardId: string, diff: string, whole: boolean, actions: ApprovalActions): TemplateResult {
  const lines = diffLines(diff);
  const rows: DiffRow[] = whole ? lines.map((line, index) => ({ row: 'line', index, ...line })) : foldDiff(lines);
  const folded = hiddenLines(rows);
  return html`<pre class="diff" data-testid="approval-diff" tabindex="0" aria-label="Unified diff">${rows.map((row) => (row.row === 'fold'
    ? html`<span class="diff-fold" data-testid="approval-diff-fold">⋯ ${row.hidden} ${row.hidden === 1 ? 'line' : 'lines'} folded</span>`
    : html`<span class=${`diff-line diff-${row.kind}`}>${visible(row.text, '\t')}\n</span>`))}</pre>
    ${folded > 0 ? html`<div class="diff-tools"><span class="muted">Folded to the changes: ${folded} ${folded === 1 ? 'line' : 'lines'} not shown.</span>
      <button class="link-button" type="button" data-testid="approval-diff-show-all" @click=${() => actions.showWholeDiff(cardId)}>Show all</button></div>` : nothing}`;
}

const HINTS: readonly [keyof AnnotationHints, boolean, string, string][] = [
  ['readOnlyHint', true, 'read-only', 'The server says this tool only reads'],
  ['destructiveHint', true, 'destructive', 'The server says this tool may delete or overwrite'],
  ['destructiveHint', false, 'non-destructive', 'The server says this tool destroys nothing'],
  ['idempotentHint', true, 'idempotent', 'The server says calling it again has no further effect'],
  ['openWorldHint', true, 'open world', 'The server says this tool reaches outside systems'],
];

/** The tool's hints as badges; from a server the person did not trust they only ever tighten. */
function hintBadges(hints: AnnotationHints | undefined, trusted: boolean): TemplateResult | typeof nothing {
  if (hints === undefined) return nothing;
  const badges = HINTS.filter(([key, value]) => hints[key] === value);
  if (badges.length === 0) return nothing;
  return html`<div class="hint-badges" data-testid="approval-hints">
    ${badges.map(([, , label, title]) => html`<span class=${`hint-badge hint-${label.replace(/ /g, '-')}`} title=${title}>${label}</span>`)}
    ${!trusted ? html`<span class="muted hint-note">hints of a server you have not trusted</span>` : nothing}
  </div>`;
}

function callerWords(caller: string): string {
  switch (caller) {
    case 'chat': return 'the @mcp chat';
    case 'lm-tool': return 'a chat agent (language-model tool)';
    case 'command': return 'you (Call Tool…)';
    case 'api': return 'another extension';
    case 'app': return 'an MCP App (in its panel)';
    default: return caller;
  }
}
