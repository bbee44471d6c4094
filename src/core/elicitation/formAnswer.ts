// What a person filled into an elicitation form, turned into the content sent back to the server: each
// field's input parsed by its kind (the same parsing every form of the extension uses), then the whole
// checked against the server's requested schema. Problems are reported at their field.
import { checkCount, parseFieldInput, type FieldChoice, type FormField } from '../schema/formFields';
import { validateArguments, type ArgumentProblem } from '../schema/validateArguments';

/** A field's input as a form gives it: text for text fields, a checkbox's state, the chosen values of a multi-select. */
export type FieldValue = string | boolean | readonly string[];

/** The content to send, or the problems to show (at `/<field>`, `""` for the whole form). */
export type FormAnswer = { readonly ok: true; readonly content: Record<string, unknown> } | { readonly ok: false; readonly problems: ArgumentProblem[] };

export function formAnswer(fields: readonly FormField[], schema: Readonly<Record<string, unknown>>, values: Readonly<Record<string, FieldValue>>): FormAnswer {
  const content: Record<string, unknown> = {};
  const problems: ArgumentProblem[] = [];
  for (const field of fields) {
    const value = values[field.name];
    const at = `/${field.name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (field.kind === 'boolean' && typeof value === 'boolean') {
      content[field.name] = value;
      continue;
    }
    if (field.kind === 'multiEnum' && Array.isArray(value)) {
      const picked = value.map((v) => field.choices?.find((c) => String(c.value) === v)?.value).filter((v): v is FieldChoice['value'] => v !== undefined);
      if (picked.length === 0 && !field.required) continue;
      const checked = checkCount(field, picked);
      if ('error' in checked) problems.push({ path: at, message: checked.error });
      else if ('value' in checked) content[field.name] = checked.value;
      continue;
    }
    const text = typeof value === 'string' ? value : value === undefined ? '' : String(value);
    const parsed = parseFieldInput(field, text);
    if ('error' in parsed) problems.push({ path: at, message: parsed.error });
    else if ('value' in parsed) content[field.name] = parsed.value;
  }
  // The schema's own checks (formats such as email, patterns, bounds) for the fields that parsed; a
  // field whose input did not parse shows only that.
  const unparsed = new Set(problems.map((p) => p.path));
  problems.push(...validateArguments(schema, content).filter((p) => !unparsed.has(p.path)));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, content };
}
