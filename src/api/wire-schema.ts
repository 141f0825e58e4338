/**
 * The public, synchronous schema converter. A module of its own because it
 * imports both zod converters statically (only apps that use it pay for them);
 * the request path uses `wireSchema` (in `./schema.ts`), which loads a
 * converter only when a schema needs it.
 */
import { toWireSchemaWith, type JsonSchema, type SchemaInput } from "./schema.js";
import { zod3ToJsonSchema } from "./zod3-json.js";
import { zod4ToJsonSchema } from "./zod4-json.js";

/**
 * Converts a schema input (zod 4 or zod 3 schema, Standard Schema with JSON
 * Schema output, or plain JSON Schema) to the JSON Schema sent on the wire: a
 * fresh object (the input is never mutated), without `$schema`, checked
 * against the service's JSON-schema rules. Throws `ValidationError` naming `where`.
 */
export function toWireSchema(input: SchemaInput, where = "schema"): JsonSchema {
  return toWireSchemaWith(input, where, { zod4: zod4ToJsonSchema, zod3: zod3ToJsonSchema });
}
