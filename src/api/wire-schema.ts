/**
 * The public, synchronous schema converter. A module of its own because it
 * imports the zod 3 / zod mini converter statically; the request path uses
 * `wireSchema` (in `./schema.ts`), which loads that converter only when needed.
 */
import { toWireSchemaWith, type JsonSchema, type SchemaInput } from "./schema.js";
import { zodToJsonSchema } from "./zod-json.js";

/**
 * Converts a schema input (zod 4 or zod 3 schema, Standard Schema with JSON
 * Schema output, or plain JSON Schema) to the JSON Schema sent on the wire: a
 * fresh object (the input is never mutated), without `$schema`, checked
 * against the service's JSON-schema rules. Throws `ValidationError` naming `where`.
 */
export function toWireSchema(input: SchemaInput, where = "schema"): JsonSchema {
  return toWireSchemaWith(input, where, zodToJsonSchema);
}
