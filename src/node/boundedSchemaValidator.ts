// The SDK Client compiles tool output schemas (to check structured results) and elicitation schemas with
// this validator, and Ajv compiles recursively: a schema nested thousands deep throws a RangeError there.
// This validator measures a schema first (without recursion) and does not compile one nested past the
// bound; the catalog refuses that tool anyway.
//
// The v2 Client compiles the output schemas of a tools listing lazily, all of them on the first tools/call
// after the listing (the v1 Client did it when the list arrived). That put the compiling of every tool's
// schema between a person's Approve and the call reaching the server. `prepare` compiles them when the
// list arrives instead; the Client's compile then finds each one ready (matched by the schema's JSON).
import { MAX_SCHEMA_DEPTH, isNestedDeeperThan } from '../core/schema/jsonBounds';
import { AjvJsonSchemaValidator, type JsonSchemaType, type JsonSchemaValidator, type SdkJsonSchemaValidator } from './sdk';

/** Ajv behind a depth check; a schema that is too deep, or that Ajv cannot compile, validates nothing. */
export class BoundedSchemaValidator implements SdkJsonSchemaValidator {
  private readonly inner = new AjvJsonSchemaValidator();
  /** The output schemas of the latest tools listing, compiled, by their JSON text. */
  private prepared = new Map<string, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    if (isNestedDeeperThan(schema, MAX_SCHEMA_DEPTH)) return refuseAll(`the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
    const ready = this.prepared.size > 0 ? this.prepared.get(JSON.stringify(schema)) : undefined;
    if (ready !== undefined) return ready as JsonSchemaValidator<T>;
    return this.compile<T>(schema);
  }

  /** Compiles the output schemas of a tools listing now; those of the previous listing are let go. */
  prepare(tools: readonly { outputSchema?: unknown }[]): void {
    const prepared = new Map<string, JsonSchemaValidator<unknown>>();
    for (const { outputSchema } of tools) {
      if (typeof outputSchema !== 'object' || outputSchema === null || isNestedDeeperThan(outputSchema, MAX_SCHEMA_DEPTH)) continue;
      const key = JSON.stringify(outputSchema);
      if (!prepared.has(key)) prepared.set(key, this.compile(outputSchema as JsonSchemaType));
    }
    this.prepared = prepared;
  }

  private compile<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    try {
      return this.inner.getValidator<T>(schema);
    } catch (error) {
      return refuseAll(`the schema cannot be compiled: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function refuseAll<T>(why: string): JsonSchemaValidator<T> {
  return () => ({ valid: false, data: undefined, errorMessage: why });
}
