// What the sidebar shows of a server's elicitation: a form to fill, or a page to open. Imports nothing;
// the projection (src/core/elicitation/elicitationView.ts) checks its vocabularies against the core's.

/** How a field is filled (the core's `FieldKind`). */
export type FieldKindRow = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multiEnum' | 'json';

export interface FieldChoiceRow {
  readonly value: string | number | boolean | null;
  readonly title: string;
}

/** One field of a form, from the server's requested schema. */
export interface ElicitationFieldRow {
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  readonly kind: FieldKindRow;
  readonly required: boolean;
  readonly default?: unknown;
  readonly choices?: readonly FieldChoiceRow[];
  /** `email`, `uri`, `date`, `date-time`… */
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
}

interface CardBase {
  readonly id: string;
  readonly serverId: string;
  readonly serverName: string;
  /** The server's message, display-safe. */
  readonly message: string;
  readonly createdAt: number;
}

export interface FormElicitationCard extends CardBase {
  readonly mode: 'form';
  readonly fields: readonly ElicitationFieldRow[];
}

export interface UrlElicitationCard extends CardBase {
  readonly mode: 'url';
  readonly url: string;
  /** The site, shown apart from the rest of the address. */
  readonly host: string;
  readonly scheme: string;
  /** Whether Open may be offered (an http(s) link without credentials). */
  readonly openable: boolean;
  readonly problem?: string;
}

export type ElicitationCard = FormElicitationCard | UrlElicitationCard;

/** A field's input as the form sends it: text, a checkbox's state, or the chosen values of a multi-select (as strings). */
export type FieldValueRow = string | boolean | readonly string[];
