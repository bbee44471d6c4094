// The cards of calls that wait for the person: who calls what and why it asks, the tool's hints, the
// arguments as editable fields checked against the tool's schema, what the call would change (a
// unified diff, and Open Diff for VS Code's diff editor), and the answers.
import { hasHiddenCharacters, visible } from '../src/protocol/visibleText';
import type { AnnotationHints, ApprovalCard, ApprovalMode, PreviewView, RuleScope } from '../src/protocol/approvals';
import { argumentsOf, problemsByField, type CardDraft, type FieldDraft } from './drafts';
import { h, icon } from './dom';
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
  answer(cardId: string, answer: CardAnswer): void;
  openDiff(cardId: string, change: number): void;
  setMode(mode: ApprovalMode): void;
}

const MODE_LABELS: { readonly [M in ApprovalMode]: string } = {
  askBeforeEdits: 'Ask before edits',
  acceptEdits: 'Accept edits',
  acceptEverything: 'Accept everything',
};

/** The mode picker: which calls run without a card. */
export function modePicker(mode: ApprovalMode, actions: ApprovalActions): HTMLElement {
  const select = h('select', {
    className: 'mode-select',
    attrs: { id: 'approval-mode', 'data-testid': 'approval-mode', 'data-focus-key': 'approval-mode' },
  }, ...(Object.keys(MODE_LABELS) as ApprovalMode[]).map((value) => {
    const option = h('option', { attrs: { value } }, MODE_LABELS[value]);
    option.selected = value === mode;
    return option;
  }));
  select.addEventListener('change', () => actions.setMode(select.value as ApprovalMode));
  return h('div', { className: 'mode-picker' },
    h('label', { attrs: { for: 'approval-mode' } }, 'Approval mode'),
    select);
}

export function approvalCard(card: ApprovalCard, draft: CardDraft, actions: ApprovalActions): HTMLElement {
  const local = argumentsOf(draft);
  const jsonErrors = local.ok ? new Map<string, string>() : local.errors;
  const problems = problemsByField(draft.problems);
  const fieldNames = new Set(draft.fields.map((f) => f.name));
  const general = [...problems.entries()].filter(([field]) => !fieldNames.has(field)).flatMap(([field, messages]) =>
    messages.map((message) => (field === '' ? message : `${field}: ${message}`)));
  const blocked = !local.ok || draft.problems.length > 0 || draft.busy;
  const titleId = `card-title-${card.id}`;
  return h('article', {
    className: 'approval-card',
    attrs: { 'data-testid': 'approval-card', 'data-approval-id': card.id, 'aria-labelledby': titleId },
  },
  h('header', { className: 'card-header' },
    h('h3', { className: 'card-title', attrs: { id: titleId } },
      h('span', { className: 'card-tool', attrs: { 'data-testid': 'approval-tool' } }, card.tool),
      h('span', { className: 'muted' }, ' on '),
      h('span', { className: 'card-server', attrs: { 'data-testid': 'approval-server' } }, card.serverName)),
    h('div', { className: 'card-qualified muted', attrs: { 'data-testid': 'approval-qualified', title: 'The name the model knows this tool by' } }, card.qualifiedName),
    hintBadges(card.annotations, card.serverTrusted)),
  h('p', { className: 'card-reason', attrs: { 'data-testid': 'approval-reason' } },
    h('strong', {}, 'Why it asks: '), card.reason, '.'),
  h('p', { className: 'card-caller muted' }, `Asked by ${callerWords(card.caller)}.`),
  card.signatures !== undefined && card.signatures.length > 0 && h('p', { className: 'card-signatures', attrs: { 'data-testid': 'approval-signatures' } },
    '“Always allow” applies to the commands ',
    ...card.signatures.flatMap((signature, i) => [i > 0 ? ', ' : '', h('code', {}, signature)]),
    ', not to the whole tool.'),
  h('fieldset', { className: 'card-arguments' },
    h('legend', {}, draft.edited ? 'Arguments (edited)' : 'Arguments'),
    ...draft.fields.map((field) => argumentField(card.id, field, jsonErrors.get(field.name), problems.get(field.name) ?? [], actions)),
    draft.fields.length === 0 && h('p', { className: 'muted' }, 'This tool takes no arguments.'),
    general.length > 0 && h('ul', { className: 'field-errors', attrs: { 'data-testid': 'approval-problems', role: 'alert' } },
      ...general.map((message) => h('li', {}, message)))),
  draft.preview !== undefined && previewBlock(card, draft.preview, draft.edited, actions),
  ruleChoicePicker(card, local.ok ? local.args : card.args),
  h('div', { className: 'card-answers' },
    answerButton(card, 'approve', 'Approve', blocked, actions, true),
    answerButton(card, 'approveForSession', 'Approve for session', blocked, actions),
    answerButton(card, 'alwaysWorkspace', 'Always allow (this workspace)', blocked, actions),
    answerButton(card, 'alwaysGlobal', 'Always allow (everywhere)', blocked, actions)),
  h('div', { className: 'card-reject' },
    h('label', { attrs: { for: `reason-${card.id}` } }, 'Reason (optional; the caller sees it)'),
    inputOf(h('input', {
      className: 'reason-input',
      attrs: { id: `reason-${card.id}`, type: 'text', 'data-testid': 'approval-reason-input', 'data-focus-key': `reason:${card.id}`, maxlength: '2000' },
    }), draft.reason, (value) => actions.editReason(card.id, value)),
    h('button', {
      className: 'answer-button reject-button',
      attrs: { type: 'button', 'data-testid': 'approval-reject', 'data-focus-key': `answer:${card.id}:reject`, ...(draft.busy ? { disabled: '' } : {}) },
      onClick: () => actions.answer(card.id, 'reject'),
    }, 'Reject')));
}

function answerButton(card: ApprovalCard, answer: CardAnswer, label: string, disabled: boolean, actions: ApprovalActions, primary = false): HTMLElement {
  return h('button', {
    className: `answer-button${primary ? ' primary' : ''}`,
    attrs: {
      type: 'button',
      'data-testid': `approval-${answer}`,
      'data-focus-key': `answer:${card.id}:${answer}`,
      ...(disabled ? { disabled: '', title: 'Fix the arguments first' } : {}),
    },
    onClick: () => actions.answer(card.id, answer),
  }, label);
}

/** What a multi-line field shows as itself: its line breaks and tabs are visible there. */
const FIELD_KEEPS = '\n\t';

function argumentField(cardId: string, field: FieldDraft, jsonError: string | undefined, problems: readonly string[], actions: ApprovalActions): HTMLElement {
  const id = `arg-${cardId}-${field.name}`;
  const errorId = `${id}-error`;
  const hiddenId = `${id}-hidden`;
  const errors = [...(jsonError !== undefined ? [jsonError] : []), ...problems];
  // The field keeps the real value (what is sent); the escaped form beside it is what a person can read.
  const hidden = hasHiddenCharacters(field.value, FIELD_KEEPS);
  const describedBy = [hidden ? hiddenId : undefined, errors.length > 0 ? errorId : undefined].filter(Boolean).join(' ');
  const lines = Math.min(12, Math.max(field.kind === 'json' ? 2 : 1, field.value.split('\n').length));
  const textarea = inputOf(h('textarea', {
    className: `arg-input arg-${field.kind}`,
    attrs: {
      id,
      rows: String(lines),
      spellcheck: 'false',
      'data-testid': 'approval-arg',
      'data-arg': field.name,
      'data-focus-key': `arg:${cardId}:${field.name}`,
      'aria-invalid': errors.length > 0 ? 'true' : undefined,
      'aria-describedby': describedBy === '' ? undefined : describedBy,
    },
  }), field.value, (value) => actions.editArgument(cardId, field.name, value));
  return h('div', { className: `arg-field${errors.length > 0 ? ' invalid' : ''}`, attrs: { 'data-testid': 'approval-field', 'data-arg': field.name } },
    h('label', { className: 'arg-label', attrs: { for: id, title: field.description } },
      h('code', {}, field.name),
      field.required && h('span', { className: 'muted' }, ' (required)'),
      field.kind === 'json' && h('span', { className: 'muted' }, ' JSON')),
    textarea,
    hidden && h('p', { className: 'hidden-characters', attrs: { id: hiddenId, 'data-testid': 'approval-hidden-characters' } },
      'Holds invisible or direction-changing characters, shown escaped: ', h('code', {}, visible(field.value, FIELD_KEEPS))),
    errors.length > 0 && h('div', { className: 'field-error', attrs: { id: errorId, 'data-testid': 'approval-field-error', role: 'alert' } }, errors.join('; ')));
}

function inputOf<T extends HTMLInputElement | HTMLTextAreaElement>(element: T, value: string, onInput: (value: string) => void): T {
  element.value = value;
  element.addEventListener('input', () => onInput(element.value));
  return element;
}

function previewBlock(card: ApprovalCard, preview: PreviewView, edited: boolean, actions: ApprovalActions): HTMLElement {
  return h('section', { className: 'card-preview', attrs: { 'data-testid': 'approval-preview', 'aria-label': 'What the call would change' } },
    h('h4', {}, edited ? 'What the edited call would change' : 'What the call would change'),
    preview.error !== undefined && h('p', { className: 'preview-error', attrs: { 'data-testid': 'approval-preview-error', role: 'alert' } },
      icon('error'), ` The server would refuse this call: ${preview.error}`),
    preview.outsideRoots !== undefined && preview.outsideRoots.length > 0 && h('p', { className: 'preview-outside', attrs: { 'data-testid': 'approval-outside-roots' } },
      icon('warning'), ` Outside every workspace folder: ${preview.outsideRoots.join(', ')}`),
    preview.dryRun === true && h('p', { className: 'muted' }, 'A dry run: the server only answers with its diff and changes nothing.'),
    preview.changes.length > 0 && h('ul', { className: 'preview-changes' },
      ...preview.changes.map((change, index) => h('li', { className: 'preview-change', attrs: { 'data-testid': 'approval-change', 'data-kind': change.kind } },
        h('span', { className: `change-kind change-${change.kind}` }, change.kind === 'create' ? 'new file' : change.kind === 'move' ? 'move' : 'modify'),
        ' ',
        h('span', { className: 'change-path', attrs: { title: change.path } }, change.path),
        change.to !== undefined && h('span', {}, ' → ', h('span', { className: 'change-path', attrs: { title: change.to } }, change.to)),
        ' ',
        h('button', {
          className: 'link-button open-diff',
          attrs: { type: 'button', 'data-testid': 'approval-open-diff', 'data-focus-key': `diff:${card.id}:${index}` },
          onClick: () => actions.openDiff(card.id, index),
        }, 'Open Diff')))),
    preview.diff !== '' && diffView(preview.diff),
    preview.diffTruncated === true && h('p', { className: 'muted' }, 'The diff is longer than a card shows: Open Diff shows all of it.'));
}

/** A unified diff, one line per row, added and removed lines marked by more than colour. */
function diffView(diff: string): HTMLElement {
  // The `Index:` line and its rule repeat the path the change list already shows.
  const lines = (diff.endsWith('\n') ? diff.slice(0, -1).split('\n') : diff.split('\n'))
    .filter((line) => !line.startsWith('Index: ') && !/^=+$/.test(line));
  return h('pre', { className: 'diff', attrs: { 'data-testid': 'approval-diff', tabindex: '0', 'aria-label': 'Unified diff' } },
    ...lines.map((line) => h('span', { className: `diff-line ${diffLineKind(line)}` }, visible(line, '\t'), '\n')));
}

function diffLineKind(line: string): string {
  if (line.startsWith('+++ ') || line.startsWith('--- ')) return 'diff-file';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-remove';
  return 'diff-context';
}

/** The tool's hints as badges; from a server the person did not trust they only ever tighten. */
function hintBadges(hints: AnnotationHints | undefined, trusted: boolean): HTMLElement | false {
  if (hints === undefined) return false;
  const badges = [
    hints.readOnlyHint === true && ['read-only', 'The server says this tool only reads'],
    hints.destructiveHint === true && ['destructive', 'The server says this tool may delete or overwrite'],
    hints.destructiveHint === false && ['non-destructive', 'The server says this tool destroys nothing'],
    hints.idempotentHint === true && ['idempotent', 'The server says calling it again has no further effect'],
    hints.openWorldHint === true && ['open world', 'The server says this tool reaches outside systems'],
  ].filter((b): b is [string, string] => b !== false);
  if (badges.length === 0) return false;
  return h('div', { className: 'hint-badges', attrs: { 'data-testid': 'approval-hints' } },
    ...badges.map(([label, title]) => h('span', { className: `hint-badge hint-${label.replace(/ /g, '-')}`, attrs: { title } }, label)),
    !trusted && h('span', { className: 'muted hint-note' }, 'hints of a server you have not trusted'));
}

function callerWords(caller: string): string {
  switch (caller) {
    case 'chat': return 'the @mcp chat';
    case 'lm-tool': return 'a chat agent (language-model tool)';
    case 'command': return 'you (Call Tool…)';
    case 'api': return 'another extension';
    default: return caller;
  }
}
