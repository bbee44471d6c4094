// The SDK Client compiles every output schema of a tools listing as soon as it arrives (to check
// structured results later), and Ajv compiles recursively: a schema nested thousands deep throws a
// RangeError there, which loses the whole listing. This validator measures a schema first (without
// recursion) and does not compile one nested past the bound; the catalog refuses that tool anyway.
import { MAX_SCHEMA_DEPTH, isNestedDeeperThan } from '../core/schema/jsonBounds';
import { AjvJsonSchemaValidator, type JsonSchemaType, type JsonSchemaValidator, type SdkJsonSchemaValidator } from './sdk';

/** Ajv behind a depth check; a schema that is too deep, or that Ajv cannot compile, validates nothing. */
export class BoundedSchemaValidator implements SdkJsonSchemaValidator {
  private readonly inner = new AjvJsonSchemaValidator();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    if (isNestedDeeperThan(schema, MAX_SCHEMA_DEPTH)) return refuseAll(`the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
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
