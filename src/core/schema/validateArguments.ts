// Checks a tool call's arguments against the tool's input schema (JSON Schema, as MCP servers give it),
// so that arguments a person edited are refused at the field that is wrong, before anything is sent.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** One problem, at the JSON pointer of the field it is about (`""` for the whole object). */
export interface ArgumentProblem {
  readonly path: string;
  readonly message: string;
}

// One validator for all schemas: servers' schemas are draft-07-ish and often loose, so unknown
// keywords and formats are tolerated rather than rejected (strict: false).
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction | Error>();

/** The problems of `args` against `schema` (none when it is valid, or when the schema itself cannot be compiled: the server then decides). */
export function validateArguments(schema: Readonly<Record<string, unknown>>, args: unknown): ArgumentProblem[] {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    try {
      // A server's `$schema` may name a draft this validator does not know; the keywords are what count.
      const { $schema: _ignored, ...rest } = schema;
      validate = ajv.compile(rest);
    } catch (error) {
      validate = error instanceof Error ? error : new Error(String(error));
    }
    compiled.set(schema, validate);
  }
  if (validate instanceof Error) return [];
  if (validate(args)) return [];
  return (validate.errors ?? []).map(toProblem);
}

function toProblem(error: ErrorObject): ArgumentProblem {
  // A missing property is reported at its own path, where a form shows it.
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return { path: `${error.instancePath}/${escapePointer(missing)}`, message: 'is required' };
  }
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return { path: `${error.instancePath}/${escapePointer(extra)}`, message: 'is not a parameter of this tool' };
  }
  return { path: error.instancePath, message: error.message ?? `fails ${error.keyword}` };
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Problems as one line each: `/path: message` (`(arguments)` for the whole object). */
export function formatProblems(problems: readonly ArgumentProblem[]): string[] {
  return problems.map((p) => `${p.path === '' ? '(arguments)' : p.path}: ${p.message}`);
}
