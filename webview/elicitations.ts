// What a server asks the person for: a form built from its requested schema (text with its format,
// numbers with their bounds, a checkbox, a choice, several choices; defaults filled in, required fields
// marked, problems shown at their field), or a page to open, its site set apart and opened only on a
// click. Accept / Decline / Cancel go back to the server as its answer.
import type { ElicitationCard, ElicitationFieldRow, FieldValueRow, FormElicitationCard, UrlElicitationCard } from '../src/protocol/elicitation';
import type { ArgumentProblemRow } from '../src/protocol/sidebarMessages';
import { h, icon } from './dom';

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

export function elicitationCard(card: ElicitationCard, draft: ElicitationDraft, actions: ElicitationActions): HTMLElement {
  const titleId = `elicitation-title-${card.id}`;
  return h('article', {
    className: `approval-card elicitation-card elicitation-${card.mode}`,
    attrs: { 'data-testid': 'elicitation-card', 'data-elicitation-id': card.id, 'data-mode': card.mode, 'aria-labelledby': titleId },
  },
  h('header', { className: 'card-header' },
    h('h3', { className: 'card-title', attrs: { id: titleId } },
      h('span', { className: 'card-server', attrs: { 'data-testid': 'elicitation-server' } }, card.serverName),
      h('span', { className: 'muted' }, card.mode === 'url' ? ' asks you to open a page' : ' asks for your input'))),
  h('p', { className: 'card-reason', attrs: { 'data-testid': 'elicitation-message' } }, card.message),
  ...(card.mode === 'form' ? formBody(card, draft, actions) : urlBody(card, draft, actions)));
}

function formBody(card: FormElicitationCard, draft: ElicitationDraft, actions: ElicitationActions): (HTMLElement | false)[] {
  const byField = new Map<string, string[]>();
  for (const problem of draft.problems) {
    const name = (problem.path.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
    byField.set(name, [...(byField.get(name) ?? []), problem.message]);
  }
  const names = new Set(card.fields.map((f) => f.name));
  const general = [...byField.entries()].filter(([name]) => !names.has(name)).flatMap(([, messages]) => messages);
  return [
    h('form', { className: 'elicitation-form', attrs: { 'data-testid': 'elicitation-form', novalidate: '' } },
      ...card.fields.map((field) => formField(card.id, field, draft.values[field.name], byField.get(field.name) ?? [], actions)),
      general.length > 0 && h('ul', { className: 'field-errors', attrs: { role: 'alert' } }, ...general.map((m) => h('li', {}, m)))),
    h('div', { className: 'card-answers' },
      answer(card.id, 'accept', 'Submit', draft.busy, actions, true),
      answer(card.id, 'decline', 'Decline', draft.busy, actions),
      answer(card.id, 'cancel', 'Cancel', draft.busy, actions)),
  ];
}

function urlBody(card: UrlElicitationCard, draft: ElicitationDraft, actions: ElicitationActions): (HTMLElement | false)[] {
  const at = card.host === '' ? -1 : card.url.indexOf(card.host);
  return [
    h('p', { className: 'elicitation-site' }, 'Site: ', h('strong', { className: 'url-host', attrs: { 'data-testid': 'elicitation-host' } }, card.host || '(none)')),
    h('p', { className: 'elicitation-url', attrs: { 'data-testid': 'elicitation-url', title: card.url } },
      ...(at < 0 ? [card.url] : [
        h('span', { className: 'muted' }, card.url.slice(0, at)),
        h('strong', { className: 'url-host' }, card.host),
        h('span', { className: 'muted' }, card.url.slice(at + card.host.length)),
      ])),
    !card.openable && h('p', { className: 'preview-error', attrs: { role: 'alert', 'data-testid': 'elicitation-problem' } }, icon('error'), ` Not opened: ${card.problem ?? 'not a web page'}.`),
    h('div', { className: 'card-answers' },
      card.openable && answer(card.id, 'accept', 'Open in Browser', draft.busy, actions, true),
      answer(card.id, 'decline', 'Decline', draft.busy, actions),
      answer(card.id, 'cancel', 'Cancel', draft.busy, actions)),
  ];
}

function answer(id: string, action: 'accept' | 'decline' | 'cancel', label: string, busy: boolean, actions: ElicitationActions, primary = false): HTMLElement {
  return h('button', {
    className: `answer-button${primary ? ' primary' : ''}`,
    attrs: { type: 'button', 'data-testid': `elicitation-${action}`, 'data-focus-key': `elicitation:${id}:${action}`, ...(busy ? { disabled: '' } : {}) },
    onClick: () => actions.answerElicitation(id, action),
  }, label);
}

const INPUT_TYPES: Readonly<Record<string, string>> = { email: 'email', uri: 'url', url: 'url', date: 'date', 'date-time': 'datetime-local', time: 'time' };

function formField(cardId: string, field: ElicitationFieldRow, value: FieldValueRow | undefined, problems: readonly string[], actions: ElicitationActions): HTMLElement {
  const id = `el-${cardId}-${field.name}`;
  const errorId = `${id}-error`;
  const invalid = problems.length > 0;
  const common = {
    id,
    'data-testid': 'elicitation-input',
    'data-field': field.name,
    'data-focus-key': `el:${cardId}:${field.name}`,
    'aria-invalid': invalid ? 'true' : undefined,
    'aria-describedby': invalid ? errorId : field.description !== undefined ? `${id}-help` : undefined,
    ...(field.required ? { 'aria-required': 'true' } : {}),
  };
  const edit = (next: FieldValueRow): void => actions.editElicitation(cardId, field.name, next);
  let control: HTMLElement;
  switch (field.kind) {
    case 'boolean': {
      const box = h('input', { attrs: { ...common, type: 'checkbox' } });
      box.checked = value === true;
      box.addEventListener('change', () => edit(box.checked));
      control = box;
      break;
    }
    case 'enum': {
      const select = h('select', { attrs: common },
        ...(field.required ? [] : [h('option', { attrs: { value: '' } }, '(none)')]),
        ...(field.choices ?? []).map((choice) => h('option', { attrs: { value: String(choice.value) } }, choice.title)));
      select.value = typeof value === 'string' ? value : '';
      select.addEventListener('change', () => edit(select.value));
      control = select;
      break;
    }
    case 'multiEnum': {
      const chosen = new Set(Array.isArray(value) ? value : []);
      const boxes = (field.choices ?? []).map((choice) => {
        const box = h('input', { attrs: { type: 'checkbox', value: String(choice.value), 'data-focus-key': `el:${cardId}:${field.name}:${String(choice.value)}` } });
        box.checked = chosen.has(String(choice.value));
        return box;
      });
      for (const box of boxes) box.addEventListener('change', () => edit(boxes.filter((b) => b.checked).map((b) => b.value)));
      control = h('div', { className: 'choice-group', attrs: { ...common, role: 'group', 'aria-labelledby': `${id}-label` } },
        ...boxes.map((box, i) => h('label', { className: 'choice' }, box, ` ${field.choices?.[i]?.title ?? box.value}`)));
      break;
    }
    case 'json': {
      const area = h('textarea', { className: 'arg-input arg-json', attrs: { ...common, rows: '2', spellcheck: 'false' } });
      area.value = typeof value === 'string' ? value : '';
      area.addEventListener('input', () => edit(area.value));
      control = area;
      break;
    }
    default: {
      const numeric = field.kind === 'number' || field.kind === 'integer';
      const input = h('input', {
        className: 'field-input',
        attrs: {
          ...common,
          type: numeric ? 'number' : INPUT_TYPES[field.format ?? ''] ?? 'text',
          ...(numeric && field.minimum !== undefined ? { min: String(field.minimum) } : {}),
          ...(numeric && field.maximum !== undefined ? { max: String(field.maximum) } : {}),
          ...(field.kind === 'integer' ? { step: '1' } : field.kind === 'number' ? { step: 'any' } : {}),
          ...(field.maxLength !== undefined ? { maxlength: String(field.maxLength) } : {}),
        },
      });
      input.value = typeof value === 'string' ? value : '';
      input.addEventListener('input', () => edit(input.value));
      control = input;
    }
  }
  const bounds = boundsText(field);
  return h('div', { className: `arg-field${invalid ? ' invalid' : ''}`, attrs: { 'data-testid': 'elicitation-field', 'data-field': field.name, 'data-kind': field.kind } },
    field.kind === 'boolean'
      ? h('label', { className: 'choice', attrs: { id: `${id}-label`, for: id } }, control, ` ${field.title}`, field.required && h('span', { className: 'muted' }, ' (required)'))
      : h('label', { className: 'arg-label', attrs: { id: `${id}-label`, for: id } }, field.title, field.required && h('span', { className: 'muted' }, ' (required)'), bounds && h('span', { className: 'muted' }, ` ${bounds}`)),
    field.kind !== 'boolean' && control,
    field.description !== undefined && h('div', { className: 'muted field-help', attrs: { id: `${id}-help` } }, field.description),
    invalid && h('div', { className: 'field-error', attrs: { id: errorId, role: 'alert', 'data-testid': 'elicitation-field-error' } }, problems.join('; ')));
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
