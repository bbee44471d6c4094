// What a server asks the person for: a form built from its requested schema (text with its format,
// numbers with their bounds, a checkbox, a choice, several choices; defaults filled in, required fields
// marked, problems shown at their field), or a page to open, its site set apart and opened only on a
// click. Accept / Decline / Cancel go back to the server as its answer.
import type { ElicitationCard, ElicitationFieldRow, FieldValueRow, FormElicitationCard, UrlElicitationCard } from '../src/protocol/elicitation';
import type { ArgumentProblemRow } from '../src/protocol/sidebarMessages';
import { html, nothing, type TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import { repeat } from 'lit-html/directives/repeat.js';
import { icon, opt, valueOf } from './dom';

export interface ElicitationDraft {
  readonly values: Readonly<Record<string, FieldValueRow>>;
  readonly problems: readonly ArgumentProblemRow[];
  readonly busy: boolean;
}

export interface ElicitationActions {
  editElicitation(id: string, field: string, value: FieldValueRow): void;
  answerElicitation(id: string, action: 'accept' | 'decline' | 'cancel'): void;
}

/** The form as it first shows: every default filled in. */
export function elicitationDraftOf(card: ElicitationCard): ElicitationDraft {
  const values: Record<string, FieldValueRow> = {};
  if (card.mode === 'form') for (const field of card.fields) values[field.name] = initialValue(field);
  return { values, problems: [], busy: false };
}

function initialValue(field: ElicitationFieldRow): FieldValueRow {
  const value = field.default;
  switch (field.kind) {
    case 'boolean': return value === true;
    case 'multiEnum': return Array.isArray(value) ? value.map(String) : [];
    case 'json': return value === undefined ? '' : JSON.stringify(value);
    default: return value === undefined || value === null ? '' : String(value);
  }
}

export function elicitationCard(card: ElicitationCard, draft: ElicitationDraft, actions: ElicitationActions): TemplateResult {
  const titleId = `elicitation-title-${card.id}`;
  return html`<article class=${`approval-card elicitation-card elicitation-${card.mode}`} data-testid="elicitation-card" data-elicitation-id=${card.id} data-mode=${card.mode} aria-labelledby=${titleId}>
    <header class="card-header"><h3 class="card-title" id=${titleId}><span class="card-server" data-testid="elicitation-server">${card.serverName}</span><span class="muted">${card.mode === 'url' ? ' asks you to open a page' : ' asks for your input'}</span></h3></header>
    <p class="card-reason" data-testid="elicitation-message">${card.message}</p>
    ${card.mode === 'form' ? formBody(card, draft, actions) : urlBody(card, draft, actions)}
  </article>`;
}

function formBody(card: FormElicitationCard, draft: ElicitationDraft, actions: ElicitationActions): TemplateResult {
  const byField = new Map<string, string[]>();
  for (const problem of draft.problems) {
    const name = (problem.path.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
    byField.set(name, [...(byField.get(name) ?? []), problem.message]);
  }
  const names = new Set(card.fields.map((f) => f.name));
  const general = [...byField.entries()].filter(([name]) => !names.has(name)).flatMap(([, messages]) => messages);
  return html`<form class="elicitation-form" data-testid="elicitation-form" novalidate @submit=${(e: Event) => e.preventDefault()}>
      ${repeat(card.fields, (field) => field.name, (field) => formField(card.id, field, draft.values[field.name], byField.get(field.name) ?? [], actions))}
      ${general.length > 0 ? html`<ul class="field-errors" role="alert">${general.map((m) => html`<li>${m}</li>`)}</ul>` : nothing}
    </form>
    <div class="card-answers">${answer(card.id, 'accept', 'Submit', draft.busy, actions, true)}${answer(card.id, 'decline', 'Decline', draft.busy, actions)}${answer(card.id, 'cancel', 'Cancel', draft.busy, actions)}</div>`;
}

function urlBody(card: UrlElicitationCard, draft: ElicitationDraft, actions: ElicitationActions): TemplateResult {
  const at = card.host === '' ? -1 : card.url.indexOf(card.host);
  return html`<p class="elicitation-site">Site: <strong class="url-host" data-testid="elicitation-host">${card.host || '(none)'}</strong></p>
    <p class="elicitation-url" data-testid="elicitation-url" title=${card.url}>${at < 0 ? card.url : html`<span class="muted">${card.url.slice(0, at)}</span><strong class="url-host">${card.host}</strong><span class="muted">${card.url.slice(at + card.host.length)}</span>`}</p>
    ${!card.openable ? html`<p class="preview-error" role="alert" data-testid="elicitation-problem">${icon('error')} Not opened: ${card.problem ?? 'not a web page'}.</p>` : nothing}
    <div class="card-answers">${card.openable ? answer(card.id, 'accept', 'Open in Browser', draft.busy, actions, true) : nothing}${answer(card.id, 'decline', 'Decline', draft.busy, actions)}${answer(card.id, 'cancel', 'Cancel', draft.busy, actions)}</div>`;
}

function answer(id: string, action: 'accept' | 'decline' | 'cancel', label: string, busy: boolean, actions: ElicitationActions, primary = false): TemplateResult {
  return html`<button class=${`answer-button${primary ? ' primary' : ''}`} type="button" data-testid=${`elicitation-${action}`} ?disabled=${busy} @click=${() => actions.answerElicitation(id, action)}>${label}</button>`;
}

const INPUT_TYPES: Readonly<Record<string, string>> = { email: 'email', uri: 'url', url: 'url', date: 'date', 'date-time': 'datetime-local', time: 'time' };

function formField(cardId: string, field: ElicitationFieldRow, value: FieldValueRow | undefined, problems: readonly string[], actions: ElicitationActions): TemplateResult {
  const id = `el-${cardId}-${field.name}`;
  const errorId = `${id}-error`;
  const invalid = problems.length > 0;
  const describedBy = invalid ? errorId : field.description !== undefined ? `${id}-help` : undefined;
  const edit = (next: FieldValueRow): void => actions.editElicitation(cardId, field.name, next);
  const required = opt(field.required ? 'true' : undefined);
  const ariaInvalid = opt(invalid ? 'true' : undefined);
  let control: TemplateResult;
  switch (field.kind) {
    case 'boolean':
      control = html`<input id=${id} type="checkbox" data-testid="elicitation-input" data-field=${field.name} aria-invalid=${ariaInvalid} aria-describedby=${opt(describedBy)} aria-required=${required}
        .checked=${live(value === true)} @change=${(e: Event) => edit((e.currentTarget as HTMLInputElement).checked)}>`;
      break;
    case 'enum': {
      const selected = typeof value === 'string' ? value : '';
      control = html`<select id=${id} data-testid="elicitation-input" data-field=${field.name} aria-invalid=${ariaInvalid} aria-describedby=${opt(describedBy)} aria-required=${required} @change=${(e: Event) => edit(valueOf(e))}>
        ${[...(field.required ? [] : [{ value: '', title: '(none)' }]), ...(field.choices ?? [])].map((choice) => html`<option value=${String(choice.value)} ?selected=${String(choice.value) === selected} .selected=${String(choice.value) === selected}>${choice.title}</option>`)}
      </select>`;
      break;
    }
    case 'multiEnum': {
      const chosen = new Set(Array.isArray(value) ? value : []);
      const changed = (e: Event): void => {
        const group = (e.currentTarget as HTMLElement).closest('.choice-group');
        edit([...group?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]') ?? []].filter((b) => b.checked).map((b) => b.value));
      };
      control = html`<div class="choice-group" id=${id} data-testid="elicitation-input" data-field=${field.name} role="group" aria-labelledby=${`${id}-label`} aria-invalid=${ariaInvalid} aria-describedby=${opt(describedBy)} aria-required=${required}>
        ${(field.choices ?? []).map((choice) => html`<label class="choice"><input type="checkbox" value=${String(choice.value)} .checked=${live(chosen.has(String(choice.value)))} @change=${changed}> ${choice.title}</label>`)}
      </div>`;
      break;
    }
    case 'json':
      control = html`<textarea class="arg-input arg-json" id=${id} rows="2" spellcheck="false" data-testid="elicitation-input" data-field=${field.name} aria-invalid=${ariaInvalid} aria-describedby=${opt(describedBy)} aria-required=${required}
        .value=${live(typeof value === 'string' ? value : '')} @input=${(e: Event) => edit(valueOf(e))}></textarea>`;
      break;
    default: {
      const numeric = field.kind === 'number' || field.kind === 'integer';
      control = html`<input class="field-input" id=${id} data-testid="elicitation-input" data-field=${field.name} aria-invalid=${ariaInvalid} aria-describedby=${opt(describedBy)} aria-required=${required}
        type=${numeric ? 'number' : INPUT_TYPES[field.format ?? ''] ?? 'text'}
        min=${opt(numeric && field.minimum !== undefined ? String(field.minimum) : undefined)} max=${opt(numeric && field.maximum !== undefined ? String(field.maximum) : undefined)}
        step=${opt(field.kind === 'integer' ? '1' : field.kind === 'number' ? 'any' : undefined)} maxlength=${opt(field.maxLength !== undefined ? String(field.maxLength) : undefined)}
        .value=${live(typeof value === 'string' ? value : '')} @input=${(e: Event) => edit(valueOf(e))}>`;
    }
  }
  const bounds = boundsText(field);
  const requiredMark = field.required ? html`<span class="muted"> (required)</span>` : nothing;
  return html`<div class=${`arg-field${invalid ? ' invalid' : ''}`} data-testid="elicitation-field" data-field=${field.name} data-kind=${field.kind}>
    ${field.kind === 'boolean'
      ? html`<label class="choice" id=${`${id}-label`} for=${id}>${control} ${field.title}${requiredMark}</label>`
      : html`<label class="arg-label" id=${`${id}-label`} for=${id}>${field.title}${requiredMark}${bounds ? html`<span class="muted"> ${bounds}</span>` : nothing}</label>${control}`}
    ${field.description !== undefined ? html`<div class="muted field-help" id=${`${id}-help`}>${field.description}</div>` : nothing}
    ${invalid ? html`<div class="field-error" id=${errorId} role="alert" data-testid="elicitation-field-error">${problems.join('; ')}</div>` : nothing}
  </div>`;
}

function boundsText(field: ElicitationFieldRow): string | undefined {
  if (field.kind === 'multiEnum' && (field.minItems !== undefined || field.maxItems !== undefined)) {
    return field.minItems !== undefined && field.maxItems !== undefined ? `(choose ${field.minItems}–${field.maxItems})`
      : field.minItems !== undefined ? `(choose at least ${field.minItems})` : `(choose at most ${field.maxItems})`;
  }
  if ((field.kind === 'number' || field.kind === 'integer') && (field.minimum !== undefined || field.maximum !== undefined)) {
    return field.minimum !== undefined && field.maximum !== undefined ? `(${field.minimum}–${field.maximum})`
      : field.minimum !== undefined ? `(at least ${field.minimum})` : `(at most ${field.maximum})`;
  }
  return undefined;
}
