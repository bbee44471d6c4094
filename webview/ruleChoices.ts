// What "Approve for session" and "Always allow" on a card remember: every call of the tool, or only
// this file, files under its folder, or the calls where one argument has this value. The choice is
// kept per card until it is answered; the extension builds the rule from the arguments approved, so
// the rule is never wider than what the card shows.
import type { ApprovalCard, RuleNarrowing, RuleRow } from '../src/protocol/approvals';
import { h } from './dom';

/** One entry of the card's "covers" menu. */
export interface RuleOption {
  readonly key: string;
  readonly label: string;
  readonly narrow?: RuleNarrowing;
}

/** Longest value an "only when ARG = value" rule is offered for (longer ones are content, not a choice). */
const VALUE_LIMIT = 200;

const chosen = new Map<string, RuleOption>();

/** What the card offers, labelled with the arguments as they stand now (`args`: the draft, or the card's own). */
export function ruleOptions(card: ApprovalCard, args: Readonly<Record<string, unknown>>): RuleOption[] {
  if (card.signatures !== undefined || card.ruleChoices === undefined) return [];
  const options: RuleOption[] = [{ key: 'tool', label: `every call of ${card.tool}` }];
  const { paths } = card.ruleChoices;
  if (paths.length > 0) {
    const edited = paths.some((p) => args[p.argument] !== card.args[p.argument]);
    const files = edited ? paths.map((p) => String(args[p.argument])).join(', ') : paths.map((p) => p.file).join(', ');
    const folders = edited ? `the folder${paths.length > 1 ? 's' : ''} of ${files}` : paths.map((p) => p.folder).join(', ');
    options.push({ key: 'file', label: `only ${paths.length > 1 ? 'these files' : 'this file'}: ${files}`, narrow: { kind: 'file' } });
    options.push({ key: 'folder', label: `only files under ${folders}`, narrow: { kind: 'folder' } });
  }
  const pathNames = new Set(paths.map((p) => p.argument));
  for (const [name, original] of Object.entries(card.args)) {
    if (pathNames.has(name) || !isOffered(original)) continue;
    const value = isOffered(args[name]) ? args[name] : original;
    const text = JSON.stringify(value);
    options.push({ key: `value:${name}`, label: `only when ${name} = ${text.length > 48 ? `${text.slice(0, 47)}…` : text}`, narrow: { kind: 'value', argument: name } });
  }
  return options;
}

function isOffered(value: unknown): boolean {
  return value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
    || (typeof value === 'string' && value.length <= VALUE_LIMIT && !value.includes('\n'));
}

/** The narrowing the person chose on this card (none: every call of the tool). */
export function narrowingFor(cardId: string): RuleNarrowing | undefined {
  return chosen.get(cardId)?.narrow;
}

/** Forgets the choices of cards that no longer wait. */
export function forgetRuleChoices(waiting: ReadonlySet<string>): void {
  for (const id of chosen.keys()) if (!waiting.has(id)) chosen.delete(id);
}

/** The card's "covers" menu, or false when it offers nothing narrower than the tool. */
export function ruleChoicePicker(card: ApprovalCard, args: Readonly<Record<string, unknown>>): HTMLElement | false {
  const options = ruleOptions(card, args);
  if (options.length < 2) return false;
  const current = chosen.get(card.id)?.key ?? 'tool';
  const id = `rule-choice-${card.id}`;
  const select = h('select', {
    className: 'rule-choice',
    attrs: { id, 'data-testid': 'approval-rule-choice', 'data-focus-key': `rule-choice:${card.id}` },
  }, ...options.map((option) => {
    const element = h('option', { attrs: { value: option.key } }, option.label);
    element.selected = option.key === current;
    return element;
  }));
  select.value = current;
  select.addEventListener('change', () => {
    const picked = options.find((option) => option.key === select.value);
    if (picked === undefined || picked.key === 'tool') chosen.delete(card.id);
    else chosen.set(card.id, picked);
  });
  return h('div', { className: 'card-rule-choice' },
    h('label', { attrs: { for: id } }, '“Approve for session” and “Always allow” cover'),
    select);
}

/** A rule's conditions on the arguments, with their patterns, for the rule list. */
export function ruleConditions(rule: RuleRow): HTMLElement | false {
  if (rule.conditions === undefined || rule.conditions.length === 0) return false;
  return h('div', { className: 'rule-conditions', attrs: { 'data-testid': 'rule-conditions' } },
    'Only when ', ...rule.conditions.flatMap((condition, i) => [i > 0 ? ' and ' : '', h('code', {}, condition)]));
}
