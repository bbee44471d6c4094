// What the person is doing with a card before answering it: the arguments as they edit them (one field
// per argument: a string argument as plain text, anything else as JSON), the reason for a rejection,
// and what the extension last said about the edited arguments (schema problems, a fresh preview).
// Pure: no DOM, so it is tested on its own.
import type { ApprovalCard, JsonObject, PreviewView } from '../src/protocol/approvals';
import type { ArgumentProblemRow } from '../src/protocol/sidebarMessages';

export interface FieldDraft {
  readonly name: string;
  /** `text`: the value is the string itself; `json`: the value is JSON text. */
  readonly kind: 'text' | 'json';
  readonly value: string;
  readonly required: boolean;
  readonly description?: string;
  /** Whether the caller's arguments had it (an untouched absent optional argument stays absent). */
  readonly present: boolean;
}

export interface CardDraft {
  readonly fields: readonly FieldDraft[];
  readonly reason: string;
  /** The extension's last check of the edited arguments. */
  readonly problems: readonly ArgumentProblemRow[];
  /** The preview of the edited arguments (the card's own preview until they are edited). */
  readonly preview?: PreviewView;
  /** Whether the arguments differ from what the caller sent. */
  readonly edited: boolean;
  /** An answer is on its way. */
  readonly busy: boolean;
  /** The person asked to see every line of the diff, not only the changes. */
  readonly wholeDiff: boolean;
  /** What "Approve for session" and "Always allow" cover (a key of the card's "covers" menu); absent: every call of the tool. */
  readonly ruleChoice?: string;
}

interface PropertySchema {
  readonly type?: unknown;
  readonly description?: unknown;
}

/** The first draft of a card: every argument the schema names (in its order) and every one the caller sent. */
export function draftOf(card: ApprovalCard): CardDraft {
  const properties = isObject(card.inputSchema.properties) ? card.inputSchema.properties as Record<string, PropertySchema> : {};
  const required = new Set(Array.isArray(card.inputSchema.required) ? card.inputSchema.required.filter((r): r is string => typeof r === 'string') : []);
  const names = [...Object.keys(properties), ...Object.keys(card.args).filter((name) => !(name in properties))];
  const fields = names.map((name): FieldDraft => {
    const schema = isObject(properties[name]) ? properties[name] : {};
    const present = Object.prototype.hasOwnProperty.call(card.args, name);
    const value = card.args[name];
    const textual = present ? typeof value === 'string' : schema.type === 'string';
    return {
      name,
      kind: textual ? 'text' : 'json',
      value: !present ? '' : textual ? value as string : JSON.stringify(value, null, 2),
      required: required.has(name),
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
      present,
    };
  });
  return { fields, reason: '', problems: [], ...(card.preview ? { preview: card.preview } : {}), edited: false, busy: false, wholeDiff: false };
}

export function withField(draft: CardDraft, name: string, value: string): CardDraft {
  return { ...draft, edited: true, fields: draft.fields.map((field) => (field.name === name ? { ...field, value } : field)) };
}

/** The arguments the draft stands for, or the fields whose JSON does not parse. */
export function argumentsOf(draft: CardDraft): { ok: true; args: JsonObject } | { ok: false; errors: ReadonlyMap<string, string> } {
  const args: Record<string, unknown> = {};
  const errors = new Map<string, string>();
  for (const field of draft.fields) {
    if (field.kind === 'text') {
      // An empty text field stands for an absent argument unless the caller sent one (maybe "").
      if (field.value !== '' || field.present) args[field.name] = field.value;
      continue;
    }
    if (field.value.trim() === '') continue;
    try {
      args[field.name] = JSON.parse(field.value) as unknown;
    } catch (error) {
      errors.set(field.name, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return errors.size > 0 ? { ok: false, errors } : { ok: true, args };
}

/** The extension's problems by the argument they are about; `''` holds those about the whole call. */
export function problemsByField(problems: readonly ArgumentProblemRow[]): Map<string, string[]> {
  const byField = new Map<string, string[]>();
  for (const problem of problems) {
    const first = problem.path.split('/')[1];
    const field = first === undefined ? '' : first.replace(/~1/g, '/').replace(/~0/g, '~');
    const rest = problem.path.split('/').slice(2).join('/');
    const message = rest === '' ? problem.message : `/${rest}: ${problem.message}`;
    byField.set(field, [...(byField.get(field) ?? []), message]);
  }
  return byField;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
