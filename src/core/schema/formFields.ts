// An object schema (a tool's inputSchema, an elicitation's requestedSchema) as the fields of a form:
// one per top-level property, with its kind, whether it is required, its default, bounds and choices.
// What a person types into a field is parsed here too, so every form (a quick input, the sidebar)
// treats text the same way.

/**
 * How a field is filled. `multiEnum` is an array of choices (`items` with `enum` or titled `anyOf`);
 * `json` is any value a plain input cannot express (objects, other arrays, unions).
 */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multiEnum' | 'json';

/** A choice of an enum field: the value sent, and what a person reads. */
export interface FieldChoice {
  readonly value: string | number | boolean | null;
  readonly title: string;
}

export interface FormField {
  readonly name: string;
  /** `title` of the property, else its name. */
  readonly title: string;
  readonly description?: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly default?: unknown;
  readonly choices?: readonly FieldChoice[];
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  /** For `multiEnum`: how many choices at least and at most. */
  readonly minItems?: number;
  readonly maxItems?: number;
}

type Schema = Readonly<Record<string, unknown>>;

/** The fields of an object schema, in the schema's order (a schema that is not an object has none). */
export function formFields(schema: Schema): FormField[] {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  return Object.entries(properties).map(([name, raw]) => toField(name, isRecord(raw) ? raw : {}, required.has(name)));
}

function toField(name: string, property: Schema, required: boolean): FormField {
  const field: { -readonly [K in keyof FormField]: FormField[K] } = {
    name,
    title: typeof property.title === 'string' && property.title.trim() !== '' ? property.title : name,
    kind: 'json',
    required,
  };
  if (typeof property.description === 'string') field.description = property.description;
  if ('default' in property) field.default = property.default;
  const choices = choicesOf(property);
  const type = singleType(property.type);
  const itemChoices = type === 'array' && isRecord(property.items) ? choicesOf(property.items) : undefined;
  if (choices) {
    field.kind = 'enum';
    field.choices = choices;
  } else if (itemChoices) {
    field.kind = 'multiEnum';
    field.choices = itemChoices;
    if (typeof property.minItems === 'number') field.minItems = property.minItems;
    if (typeof property.maxItems === 'number') field.maxItems = property.maxItems;
  } else if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') {
    field.kind = type;
  }
  if (typeof property.format === 'string') field.format = property.format;
  if (typeof property.minimum === 'number') field.minimum = property.minimum;
  if (typeof property.maximum === 'number') field.maximum = property.maximum;
  if (typeof property.minLength === 'number') field.minLength = property.minLength;
  if (typeof property.maxLength === 'number') field.maxLength = property.maxLength;
  if (typeof property.pattern === 'string') field.pattern = property.pattern;
  return field;
}

/** `enum` (with `enumNames` titles), or `oneOf`/`anyOf` of `{ const, title }` (titled enums). */
function choicesOf(property: Schema): FieldChoice[] | undefined {
  if (Array.isArray(property.enum)) {
    const names = Array.isArray(property.enumNames) ? property.enumNames : [];
    return property.enum.filter(isScalar).map((value, i) => ({ value, title: typeof names[i] === 'string' ? names[i] as string : String(value) }));
  }
  const alternatives = Array.isArray(property.oneOf) ? property.oneOf : Array.isArray(property.anyOf) ? property.anyOf : undefined;
  if (alternatives && alternatives.length > 0 && alternatives.every((a) => isRecord(a) && 'const' in a && isScalar(a.const))) {
    return alternatives.map((a) => {
      const alt = a as Schema;
      return { value: alt.const as FieldChoice['value'], title: typeof alt.title === 'string' ? alt.title : String(alt.const) };
    });
  }
  return undefined;
}

/** The one JSON type of a property; `["string", "null"]` counts as `string` (a form sends no null). */
function singleType(type: unknown): string | undefined {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const real = type.filter((t) => t !== 'null');
    return real.length === 1 && typeof real[0] === 'string' ? real[0] : undefined;
  }
  return undefined;
}

/** A `maxLength` under this keeps a string a one-line value (a name, an id): longer ones may hold text. */
export const SHORT_STRING_MAX = 80;

/**
 * Whether a string field may hold text with line breaks, and so gets a multi-line field: a plain
 * string with no `format` (an e-mail, a URI, a date is one line) and no `pattern`, whose `maxLength`
 * is absent or at least SHORT_STRING_MAX.
 */
export function holdsText(field: FormField): boolean {
  if (field.kind !== 'string' || field.format !== undefined || field.pattern !== undefined) return false;
  return field.maxLength === undefined || field.maxLength >= SHORT_STRING_MAX;
}

/** What parsing a field's text gave: a value, nothing (an optional field left empty), or the problem. */
export type FieldInput = { readonly value: unknown } | { readonly empty: true } | { readonly error: string };

/** Parses what a person typed into a field. */
export function parseFieldInput(field: FormField, text: string): FieldInput {
  const trimmed = text.trim();
  if (trimmed === '' && field.kind !== 'string') return field.required ? { error: `${field.title} is required` } : { empty: true };
  if (text === '' && field.kind === 'string') return field.required ? { error: `${field.title} is required` } : { empty: true };
  switch (field.kind) {
    case 'string': return checkString(field, text);
    case 'number':
    case 'integer': {
      const value = Number(trimmed);
      if (!Number.isFinite(value)) return { error: `${field.title} must be a number` };
      if (field.kind === 'integer' && !Number.isInteger(value)) return { error: `${field.title} must be a whole number` };
      if (field.minimum !== undefined && value < field.minimum) return { error: `${field.title} must be at least ${field.minimum}` };
      if (field.maximum !== undefined && value > field.maximum) return { error: `${field.title} must be at most ${field.maximum}` };
      return { value };
    }
    case 'boolean':
      if (/^(true|yes|on|1)$/i.test(trimmed)) return { value: true };
      if (/^(false|no|off|0)$/i.test(trimmed)) return { value: false };
      return { error: `${field.title} must be true or false` };
    case 'enum': {
      const choice = field.choices?.find((c) => String(c.value) === trimmed || c.title === trimmed);
      return choice ? { value: choice.value } : { error: `${field.title} must be one of ${(field.choices ?? []).map((c) => c.title).join(', ')}` };
    }
    case 'multiEnum': {
      // Choices separated by commas, each by its value or its title.
      const picked: FieldChoice['value'][] = [];
      for (const part of trimmed.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
        const choice = field.choices?.find((c) => String(c.value) === part || c.title === part);
        if (!choice) return { error: `${field.title}: "${part}" is not one of ${(field.choices ?? []).map((c) => c.title).join(', ')}` };
        if (!picked.includes(choice.value)) picked.push(choice.value);
      }
      return checkCount(field, picked);
    }
    case 'json':
      try {
        return { value: JSON.parse(trimmed) };
      } catch {
        return { error: `${field.title} must be JSON (e.g. ["a", "b"] or {"key": 1})` };
      }
  }
}

/** Checks a multiEnum's chosen values against its bounds. */
export function checkCount(field: FormField, picked: readonly FieldChoice['value'][]): FieldInput {
  if (field.minItems !== undefined && picked.length < field.minItems) return { error: `${field.title}: choose at least ${field.minItems}` };
  if (field.maxItems !== undefined && picked.length > field.maxItems) return { error: `${field.title}: choose at most ${field.maxItems}` };
  return { value: [...picked] };
}

function checkString(field: FormField, text: string): FieldInput {
  if (field.minLength !== undefined && text.length < field.minLength) return { error: `${field.title} needs at least ${field.minLength} characters` };
  if (field.maxLength !== undefined && text.length > field.maxLength) return { error: `${field.title} takes at most ${field.maxLength} characters` };
  if (field.pattern !== undefined) {
    let re: RegExp | undefined;
    try { re = new RegExp(field.pattern, 'u'); } catch { re = undefined; }
    if (re && !re.test(text)) return { error: `${field.title} must match ${field.pattern}` };
  }
  return { value: text };
}

/** A value as the text a field shows (for defaults and edits). */
export function fieldText(field: FormField, value: unknown): string {
  if (value === undefined) return '';
  if (field.kind === 'string' && typeof value === 'string') return value;
  if (field.kind === 'enum') return field.choices?.find((c) => c.value === value)?.title ?? String(value);
  if (field.kind === 'multiEnum' && Array.isArray(value)) return value.map((v) => field.choices?.find((c) => c.value === v)?.title ?? String(v)).join(', ');
  if (field.kind === 'json') return JSON.stringify(value);
  return String(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
