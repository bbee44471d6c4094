// Personal data kept out of the model's context (optional, off by default): e-mail addresses and phone
// numbers in tool results reach the model as placeholders (`[EMAIL_1]`, `[PHONE_1]`), and a placeholder
// the model writes into the arguments of a later tool call is put back to the value it stands for —
// there and nowhere else, so the value goes from one tool to another without the model reading it.

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
// International (+ and a country code), a parenthesised area code, or the 3-3-4 national form.
const PHONE = /(?<![\w+])(?:\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}|\(\d{2,4}\)[ .-]?\d{3,4}[ .-]?\d{3,4}|\d{3}[-.]\d{3}[-.]\d{4})(?![\w])/g;
const PLACEHOLDER = /\[(EMAIL|PHONE)_(\d+)\]/g;
/** The most values one vault remembers; past it, new values are masked as `[EMAIL]`/`[PHONE]`, with no way back. */
const MAX_VALUES = 10_000;

type Kind = 'EMAIL' | 'PHONE';

/** The placeholders of one conversation and the values they stand for. */
export class PersonalDataVault {
  private readonly byValue = new Map<string, string>();
  private readonly byPlaceholder = new Map<string, string>();
  private readonly counts: Record<Kind, number> = { EMAIL: 0, PHONE: 0 };

  /** `text` with every e-mail address and phone number replaced by its placeholder. */
  mask(text: string): string {
    return text.replace(EMAIL, (value) => this.placeholder('EMAIL', value)).replace(PHONE, (value) => (countDigits(value) >= 7 ? this.placeholder('PHONE', value) : value));
  }

  /** A value with the placeholders in its strings (keys included) put back; unknown placeholders stay as they are. */
  restore<T>(value: T): T {
    return restoreIn(value, (text) => text.replace(PLACEHOLDER, (whole) => this.byPlaceholder.get(whole) ?? whole)) as T;
  }

  /** How many values the vault holds. */
  get size(): number {
    return this.byValue.size;
  }

  private placeholder(kind: Kind, value: string): string {
    const known = this.byValue.get(value);
    if (known !== undefined) return known;
    if (this.byValue.size >= MAX_VALUES) return `[${kind}]`;
    const placeholder = `[${kind}_${++this.counts[kind]}]`;
    this.byValue.set(value, placeholder);
    this.byPlaceholder.set(placeholder, value);
    return placeholder;
  }
}

function countDigits(text: string): number {
  return text.replace(/\D/g, '').length;
}

function restoreIn(value: unknown, fix: (text: string) => string): unknown {
  if (typeof value === 'string') return fix(value);
  if (Array.isArray(value)) return value.map((item) => restoreIn(item, fix));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [fix(key), restoreIn(item, fix)]));
  }
  return value;
}
