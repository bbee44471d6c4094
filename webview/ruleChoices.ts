// What "Approve for session" and "Always allow" on a card remember: every call of the tool, or only
// this file, files under its folder, or the calls where one argument has this value. The choice is a
// key kept in the card's draft (so in the page state, back after the view is hidden) until the card is
// answered; the extension builds the rule from the arguments approved, so the rule is never wider
// than what the card shows.
import { html, nothing, type TemplateResult } from 'lit-html';
import type { ApprovalCard, RuleNarrowing, RuleRow } from '../src/protocol/approvals';
import { valueOf } from './dom';

/** One entry of the card's "covers" menu. */
export interface RuleOption {
  readonly key: string;
  readonly label: string;
  readonly narrow?: RuleNarrowing;
}

/** The key of the widest choice: every call of the tool (the default). */
export const WHOLE_TOOL = 'tool';

/** Longest value an "only when ARG = value" rule is offered for (longer ones are content, not a choice). */
const VALUE_LIMIT = 200;

/** What the card offers, labelled with the arguments as they stand now (`args`: the draft, or the card's own). */
export function ruleOptions(card: ApprovalCard, args: Readonly<Record<string, unknown>>): RuleOption[] {
  if (card.signatures !== undefined || card.ruleChoices === undefined) return [];
  const options: RuleOption[] = [{ key: WHOLE_TOOL, label: `every call of ${card.tool}` }];
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

/** The narrowing a chosen key stands for on this card (none: every call of the tool, or a key it no longer offers). */
export function narrowingOf(card: ApprovalCard, args: Readonly<Record<string, unknown>>, key: string | undefined): RuleNarrowing | undefined {
  if (key === undefined || key === WHOLE_TOOL) return undefined;
  return ruleOptions(card, args).find((option) => option.key === key)?.narrow;
}

/** The card's "covers" menu, or nothing when it offers nothing narrower than the tool. */
export function ruleChoicePicker(
  card: ApprovalCard, args: Readonly<Record<string, unknown>>, chosen: string | undefined, choose: (key: string) => void,
): TemplateResult | typeof nothing {
  const options = ruleOptions(card, args);
  if (options.length < 2) return nothing;
  const current = options.some((option) => option.key === chosen) ? chosen : WHOLE_TOOL;
  const id = `rule-choice-${card.id}`;
  return html`<div class="card-rule-choice">
    <label for=${id}>“Approve for session” and “Always allow” cover</label>
    <select class="rule-choice" id=${id} data-testid="approval-rule-choice" @change=${(e: Event) => choose(valueOf(e))}>
      ${options.map((option) => html`<option value=${option.key} ?selected=${option.key === current} .selected=${option.key === current}>${option.label}</option>`)}
    </select>
  </div>`;
}

/** A rule's conditions on the arguments, with their patterns, for the rule list. */
export function ruleConditions(rule: RuleRow): TemplateResult | typeof nothing {
  if (rule.conditions === undefined || rule.conditions.length === 0) return nothing;
  return html`<div class="rule-conditions" data-testid="rule-conditions">Only when ${rule.conditions.map((condition, i) => html`${i > 0 ? ' and ' : ''}<code>${condition}</code>`)}</div>`;
}
